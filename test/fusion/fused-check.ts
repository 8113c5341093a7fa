/**
 * Test helper: a DML text in two parts, a data block (run by the runtime,
 * its variables the inputs) and a computation block (planned by the
 * fusion planner), with the reference evaluation of fused operators
 * compared to the unfused values of their roots.
 */
import { createSession } from "../../engine/runtime/interpreter";
import type { Value } from "../../engine/runtime/interpreter";
import { evaluateFusedOperator, UnfusedEvaluator, valueDifference } from "../../engine/runtime/fused";
import type { FusedOperator, FusionOptions, TemplateType } from "../../engine/fusion";
import { lastPlan, type PlannedBlock } from "./plan-text";

/** Tolerance of the comparison: relative plus absolute. */
export const TOLERANCE = { relative: 1e-9, absolute: 1e-9 };

export interface CheckedBlock {
  block: PlannedBlock;
  unfused: UnfusedEvaluator;
  source: string;
}

/** Runs `data`, plans `computation` (a block of its own after it) and sets up its unfused evaluation. */
export function prepareBlock(data: string, computation: string, options: FusionOptions = {}): CheckedBlock {
  const session = createSession({ print: () => {} });
  const ran = session.runCell(data);
  if (!ran.ok) throw new Error(`data block failed: ${ran.errors.join("\n")}\n${data}`);
  const source = `${data}\nwhile (FALSE) {}\n${computation}\n`;
  const block = lastPlan(source, options);
  return { block, unfused: new UnfusedEvaluator(block.dag, { variables: session.env, sourceText: source }), source };
}

/** The operator's fused values compared with the unfused values of its roots: undefined when all agree, else the first difference. */
export function operatorDifference(checked: CheckedBlock, op: FusedOperator): string | undefined {
  const fused = evaluateFusedOperator(checked.block.dag, op, (node) => checked.unfused.value(node));
  for (const root of op.roots) {
    const value = fused.get(root);
    if (value === undefined) return `root ${root} has no fused value`;
    const diff = valueDifference(value, checked.unfused.value(root), TOLERANCE);
    if (diff !== undefined) return `root ${root} '${checked.block.text(root)}': ${diff}`;
  }
  return undefined;
}

/** The node whose DML text is `text` (the last one when several are). */
export function nodeOf(block: PlannedBlock, text: string): number {
  for (let id = block.dag.nodes.length - 1; id >= 0; id--) if (block.text(id).trim() === text) return id;
  throw new Error(`no node '${text}' in:\n${block.dag.nodes.map((n) => `${n.id}: ${block.text(n.id)}`).join("\n")}`);
}

export interface HandOperator {
  template: TemplateType;
  /** DML texts of the roots. */
  roots: string[];
  /** DML text of the main input (null for none). */
  main: string | null;
  /** DML texts of further nodes read materialized (variables and literals always are). */
  materialized?: string[];
  sparseSafe?: boolean;
  variant?: string;
}

/**
 * A fused operator built by hand: it covers every node reachable from its
 * roots down to variables, literals and the nodes named materialized.
 */
export function handOperator(block: PlannedBlock, spec: HandOperator): FusedOperator {
  const roots = spec.roots.map((t) => nodeOf(block, t));
  const stop = new Set((spec.materialized ?? []).map((t) => nodeOf(block, t)));
  const covered = new Set<number>();
  const inputs: number[] = [];
  const visit = (node: number) => {
    if (covered.has(node) || inputs.includes(node)) return;
    const kind = block.dag.nodes[node]!.op.kind;
    if (stop.has(node) || kind === "input" || kind === "literal") {
      inputs.push(node);
      return;
    }
    covered.add(node);
    for (const input of block.dag.nodes[node]!.inputs) visit(input);
  };
  for (const root of roots) visit(root);
  const main = spec.main === null ? null : nodeOf(block, spec.main);
  const scalar = (n: number) => block.dag.stats[n]!.type.dataType === "scalar";
  return {
    id: 0,
    template: spec.template,
    roots,
    covered: [...covered].sort((a, b) => a - b),
    inputs,
    binding: {
      mainInput: main,
      sideInputs: inputs.filter((i) => i !== main && !scalar(i)),
      scalarInputs: inputs.filter((i) => i !== main && scalar(i)),
      variant: spec.variant ?? "",
      sparseSafe: spec.sparseSafe ?? false,
    },
    seconds: 0,
  };
}

export type { Value };
