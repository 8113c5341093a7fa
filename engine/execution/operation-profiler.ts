/**
 * The operation profile of runs: the compiled runner hands the evaluator of
 * each block run a timer (DagEvaluator's OperationTimer) that adds each
 * node's and fused operator's own seconds to its entry, beside the cost
 * model's estimate of it: engine/fusion's `nodeSeconds` for a node, the
 * fused operator's seconds for an operator, with the machine constants the
 * profiler was given (this machine's) and the observed corrections of the
 * operation classes (engine/cost/observed-corrections.ts) applied.
 *
 * Only a profiled session pays for it: two clock reads per operation.
 * Leaves (variables, literals, `$params`) and calls of user functions (whose
 * blocks are profiled themselves) are not entries.
 */
import { correctedSeconds, DEFAULT_MACHINE_CONSTANTS, fusedOperationClass, NO_CORRECTIONS, operationClass, type Corrections, type MachineConstants, type OperationClass, type Observation } from "../cost";
import { FusedCostModel } from "../fusion";
import type { BasicBlock } from "../program";
import type { Range } from "../syntax";
import { type OperationTimer, type OperatorRun, sourceSlice } from "../runtime/interpreter";
import type { CompiledBlock } from "./compile-block";
import type { OperationTiming } from "./operation-timing";

/** Operation texts are cut to this many characters. */
const TEXT_LENGTH = 40;

/**
 * Operations whose estimated or measured time per run is below this are not
 * observations for the calibration: the clock and the interpreter's fixed
 * overhead per operation dominate them, and a class' correction multiplies
 * the estimates of its large operations too.
 */
export const MIN_OBSERVED_SECONDS = 1e-4;

export interface ProfilerOptions {
  /** The constants of the estimates (default: the cost model's defaults; the runs pass this machine's). */
  constants?: MachineConstants;
  /** Observed corrections per operation class (default none). */
  corrections?: Corrections;
}

/** The operations of one block that ran since the profile was last taken. */
export interface BlockOperations {
  block: BasicBlock;
  range: Range;
  operations: OperationTiming[];
}

interface Entry extends OperationTiming {
  /** The model's seconds of one run. */
  perRun: number;
}

export class OperationProfiler {
  /** The constants of the estimates and the corrections applied to them (a long-lived profiler reloads both before a run: machine-profiler.ts). */
  constants: MachineConstants;
  corrections: Corrections;
  /** Per block, per compiled plan and operation (a node id, or an operator's index as -1 - index). */
  private blocks = new Map<BasicBlock, Map<CompiledBlock, Map<number, Entry>>>();

  constructor(options: ProfilerOptions = {}) {
    this.constants = options.constants ?? DEFAULT_MACHINE_CONSTANTS;
    this.corrections = options.corrections ?? NO_CORRECTIONS;
  }

  /** The timer for one run of `compiled`, the plan of `block`. */
  timer(block: BasicBlock, compiled: CompiledBlock, sourceText: string): OperationTimer {
    let plans = this.blocks.get(block);
    if (!plans) this.blocks.set(block, (plans = new Map()));
    let entries = plans.get(compiled);
    if (!entries) plans.set(compiled, (entries = new Map()));
    const known = entries;
    const operatorIndex = new Map<OperatorRun, number>(compiled.operators.map((op, k) => [op, k]));
    let model: FusedCostModel | undefined;
    const costModel = () => (model ??= new FusedCostModel(compiled.planned, this.constants));
    const entryOf = (key: number, make: () => Entry | undefined): Entry | undefined => {
      let entry = known.get(key);
      if (!entry && (entry = make())) known.set(key, entry);
      return entry;
    };
    return {
      computed: (what, seconds) => {
        let entry: Entry | undefined;
        if (typeof what === "number") entry = entryOf(what, () => this.nodeEntry(compiled, what, sourceText, costModel));
        else {
          const index = operatorIndex.get(what);
          if (index !== undefined) entry = entryOf(-1 - index, () => this.operatorEntry(compiled, index, sourceText, costModel));
        }
        if (!entry) return;
        entry.runs++;
        entry.measuredSeconds += seconds;
        entry.modelSeconds += entry.perRun;
        entry.estimatedSeconds = correctedSeconds(entry.modelSeconds, entry.operationClass, this.corrections);
      },
    };
  }

  /** The operations timed since the last `take`, per block in source order, and forgets them. */
  take(): BlockOperations[] {
    const taken: BlockOperations[] = [];
    for (const [block, plans] of this.blocks) {
      // One entry per operation as written, over the plans the block was compiled to (a recompiled loop body).
      const merged = new Map<string, OperationTiming>();
      for (const entries of plans.values()) {
        for (const { perRun: _, ...timing } of entries.values()) {
          const key = `${timing.line}:${timing.character}:${timing.operationClass ?? ""}:${timing.text}`;
          const known = merged.get(key);
          if (!known) merged.set(key, timing);
          else {
            known.runs += timing.runs;
            known.modelSeconds += timing.modelSeconds;
            known.estimatedSeconds += timing.estimatedSeconds;
            known.measuredSeconds += timing.measuredSeconds;
          }
        }
      }
      const operations = [...merged.values()].sort((a, b) => a.line - b.line || a.character - b.character);
      taken.push({ block, range: block.range, operations });
    }
    this.blocks = new Map();
    return taken.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
  }

  private nodeEntry(compiled: CompiledBlock, id: number, sourceText: string, model: () => FusedCostModel): Entry | undefined {
    const node = compiled.dag.nodes[id];
    if (!node || node.op.kind === "input" || node.op.kind === "literal" || node.op.kind === "parameter") return undefined;
    if (node.op.kind === "call" && node.op.user) return undefined;
    const stats = compiled.planned.stats;
    const cls = stats[id] ? operationClass(node.op, node.inputs.map((i) => stats[i]!), stats[id]!) : undefined;
    return newEntry(node.range, textOf(sourceText, node.range), cls, model().nodeSeconds(id));
  }

  private operatorEntry(compiled: CompiledBlock, index: number, sourceText: string, model: () => FusedCostModel): Entry | undefined {
    const fused = compiled.fused[index];
    if (!fused) return undefined;
    const root = compiled.dag.nodes[fused.roots[0]!];
    if (!root) return undefined;
    return newEntry(root.range, `fused ${fused.template} operator: ${textOf(sourceText, root.range)}`, fusedOperationClass(fused.template), model().operatorSeconds(fused));
  }
}

/** The calibration observations of a profile: one per operation of a class whose estimate and measured time per run are MIN_OBSERVED_SECONDS or more. */
export function observationsOf(blocks: readonly BlockOperations[]): Observation[] {
  const observations: Observation[] = [];
  for (const { operations } of blocks) {
    for (const op of operations) {
      if (op.operationClass === undefined || op.modelSeconds / op.runs < MIN_OBSERVED_SECONDS || op.measuredSeconds / op.runs < MIN_OBSERVED_SECONDS) continue;
      observations.push({ operationClass: op.operationClass, estimatedSeconds: op.modelSeconds, measuredSeconds: op.measuredSeconds });
    }
  }
  return observations;
}

function newEntry(range: Range, text: string, cls: OperationClass | undefined, perRun: number): Entry {
  return { line: range.start.line, character: range.start.character, text, ...(cls ? { operationClass: cls } : {}), runs: 0, modelSeconds: 0, estimatedSeconds: 0, measuredSeconds: 0, perRun };
}

function textOf(sourceText: string, range: Range): string {
  const text = sourceSlice(sourceText, range);
  return text.length > TEXT_LENGTH ? `${text.slice(0, TEXT_LENGTH - 1)}…` : text;
}
