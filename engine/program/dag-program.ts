/**
 * The DAG of every basic block of a program (main blocks and function
 * bodies, inside if/while/for/parfor at any depth), with live-in/live-out
 * sets (dag-liveness.ts), loop-constant marks for blocks inside loops, and
 * the types of live-in variables carried from block to block.
 *
 * Types flow forward over the block tree: a block's `input` nodes get the
 * types its predecessors assigned; at an `if` join the branch types are
 * joined (dag-typing.ts `joinTypes`); a loop is iterated until the types at
 * its head stop changing (the type lattice is shallow, so this takes a few
 * rounds), and the DAGs kept are those of the last round. A function body
 * starts from its declared parameter types. A `for` variable is an int when
 * its bounds are ints, else a double.
 *
 * Conditions and loop bounds are built as predicate DAGs (for their types
 * and type errors), but only basic blocks are listed.
 */
import { type Diagnostic, type Expression, type Program, type Range, rangeTexts } from "../syntax";
import { type BlockDagCache, programContextKey } from "./block-dag-cache";
import { formStatementBlocks } from "./blocks";
import { buildBlockDag, buildPredicateDag } from "./dag-build";
import { createDagContext, type DagContext, type DagContextOptions } from "./dag-context";
import { LayeredEnv } from "./layered-env";
import { blockLiveness } from "./dag-liveness";
import { dagNode } from "./dag-node";
import type { BlockDag, DagType, ValueType } from "./dag-types";
import { joinTypes, sameType } from "./dag-typing";
import type { BasicBlock, ForBlock, ProgramBlocks, StatementBlock, WhileBlock } from "./statement-block";

export interface BlockDagInfo {
  block: BasicBlock;
  dag: BlockDag;
  /** Variables the block reads before assigning them (live at its entry). */
  liveIn: string[];
  /** Variables the block assigns that may be read afterwards. */
  liveOut: string[];
  /** The function whose body holds the block; undefined in the main program. */
  functionName?: string;
  /** How many loops enclose the block; above 0, every node has `loopConstant` set. */
  loopDepth: number;
}

export interface ProgramDags {
  /** Every basic block, in source order. */
  blocks: BlockDagInfo[];
  byBlock: ReadonlyMap<BasicBlock, BlockDagInfo>;
  /** Type errors of all blocks and predicates, in source order. */
  diagnostics: Diagnostic[];
  /** The statement blocks the DAGs belong to. */
  programBlocks: ProgramBlocks;
  /** With a DAG cache: each basic block's key there (what its DAG depends on). */
  cacheKeys?: ReadonlyMap<BasicBlock, string>;
}

export interface ProgramDagOptions extends DagContextOptions {
  /** Blocks already formed from `program` (else they are formed here, with the same `extraFunctions`). */
  blocks?: ProgramBlocks;
  /** DAGs of earlier analyses of the same document, reused for blocks that did not change, with the program's text. */
  cache?: { dags: BlockDagCache; sourceText: string };
  /**
   * What is live when the main program ends (the blocks' `liveOut`):
   * "nothing" (default: a program run ends there) or "everything" it
   * assigns (a session: its variables outlive the run, for later cells and
   * the variables view).
   */
  liveAtEnd?: "nothing" | "everything";
}

type TypeEnv = LayeredEnv<DagType>;
/** The writes of each enclosing loop, innermost first; undefined outside loops. */
type LoopWrites = readonly ReadonlySet<string>[] | undefined;

/** Loop rounds before giving up on a type fixpoint (the lattice has height 3, so real programs need 2-3). */
const MAX_LOOP_ROUNDS = 8;

export function buildProgramDags(program: Program, options: ProgramDagOptions = {}): ProgramDags {
  const programBlocks = options.blocks ?? formStatementBlocks(program, options);
  const context = createDagContext(program, options);
  const cache = options.cache && { dags: options.cache.dags, textOf: rangeTexts(options.cache.sourceText), contextKey: programContextKey(context) };
  const walker = new TypeWalker(context, cache);
  walker.sequence(programBlocks.main, LayeredEnv.of(), undefined, undefined);
  for (const f of programBlocks.functions) {
    if (f.external) continue;
    const signature = walker.context.signatures.get(f.name);
    const env: TypeEnv = LayeredEnv.of(signature?.params.map((p) => [p.name, p.type] as const) ?? []);
    walker.sequence(f.bodyBlocks, env, undefined, f.name);
  }
  const session = options.liveAtEnd === "everything";
  const liveness = blockLiveness(programBlocks, session ? new Set(programBlocks.main.flatMap((b) => b.writes)) : new Set<string>());
  // A session's run also knows what the program itself reads later (its variables' last values are needed only at the end).
  const programLiveness = session ? blockLiveness(programBlocks) : liveness;
  const blocks: BlockDagInfo[] = [];
  for (const [block, built] of walker.built) {
    const live = liveness.get(block) ?? { liveIn: [...block.gen], liveOut: [] };
    built.dag.liveOut = live.liveOut;
    if (session) built.dag.programLiveOut = programLiveness.get(block)?.liveOut ?? [];
    blocks.push({ block, dag: built.dag, ...live, ...(built.functionName ? { functionName: built.functionName } : {}), loopDepth: built.loopDepth });
  }
  blocks.sort((a, b) => comparePositions(a.block.range.start, b.block.range.start));
  const diagnostics = [...blocks.flatMap((info) => info.dag.diagnostics ?? []), ...[...walker.predicates.values()].flat()];
  diagnostics.sort((a, b) => comparePositions(a.range.start, b.range.start));
  options.cache?.dags.sweep();
  return { ...(options.cache ? { cacheKeys: walker.cacheKeys } : {}), blocks, byBlock: new Map(blocks.map((info) => [info.block, info])), diagnostics, programBlocks };
}

function comparePositions(a: { line: number; character: number }, b: { line: number; character: number }): number {
  return a.line - b.line || a.character - b.character;
}

class TypeWalker {
  /** The latest DAG of each basic block (a loop's last round overwrites earlier ones). */
  readonly built = new Map<BasicBlock, { dag: BlockDag; loopDepth: number; functionName?: string }>();
  /** Type errors of conditions and loop bounds, by their block (latest round). */
  readonly predicates = new Map<StatementBlock, Diagnostic[]>();
  /** The DAG cache's key of each basic block's latest DAG (with a cache). */
  readonly cacheKeys = new Map<BasicBlock, string>();

  constructor(
    readonly context: DagContext,
    private readonly cache?: { dags: BlockDagCache; textOf: (range: Range) => string; contextKey: string },
  ) {}

  sequence(blocks: readonly StatementBlock[], env: TypeEnv, loopWrites: LoopWrites, fn: string | undefined): TypeEnv {
    let current = env;
    for (const block of blocks) current = this.block(block, current, loopWrites, fn);
    return current;
  }

  private block(block: StatementBlock, env: TypeEnv, loopWrites: LoopWrites, fn: string | undefined): TypeEnv {
    switch (block.kind) {
      case "basic": {
        const context: DagContext = { ...this.context, variableTypes: env, ...(loopWrites ? { loopWrites } : {}) };
        const cache = this.cache;
        let dag: BlockDag;
        if (cache) {
          const found = cache.dags.dagOf(block, cache.textOf(block.range), context, cache.contextKey, () => buildBlockDag(block, context));
          dag = found.dag;
          this.cacheKeys.set(block, found.key);
        } else dag = buildBlockDag(block, context);
        this.built.set(block, { dag, loopDepth: loopWrites?.length ?? 0, ...(fn ? { functionName: fn } : {}) });
        return env.with([...dag.outputs].map(([name, id]) => [name, dagNode(dag, id).type] as const));
      }
      case "if": {
        this.predicate(block, [block.statement.condition], env, loopWrites);
        const thenEnv = this.sequence(block.thenBlocks, env, loopWrites, fn);
        const elseEnv = this.sequence(block.elseBlocks, env, loopWrites, fn);
        return joinEnvs(thenEnv, elseEnv);
      }
      case "while":
      case "for":
      case "parfor":
        return this.loop(block, env, loopWrites, fn);
    }
  }

  private loop(block: WhileBlock | ForBlock, env: TypeEnv, outerWrites: LoopWrites, fn: string | undefined): TypeEnv {
    const loopWrites: LoopWrites = [new Set(block.writes), ...(outerWrites ?? [])];
    let entry = env;
    let variable: { name: string; type: DagType } | undefined;
    if (block.kind !== "while") {
      // The bounds are evaluated once, before the loop: outside this loop's writes.
      const iterable = block.statement.iterable;
      const bounds = [iterable.from, iterable.to, ...(iterable.kind === "seq" && iterable.by ? [iterable.by] : [])];
      const types = this.predicate(block, bounds, env, outerWrites);
      variable = { name: block.variable, type: { dataType: "scalar", valueType: loopVariableType(types) } };
      entry = entry.with([[variable.name, variable.type]]);
    }
    for (let round = 0; round < MAX_LOOP_ROUNDS; round++) {
      if (block.kind === "while") this.predicate(block, [block.statement.condition], entry, loopWrites);
      const exit = this.sequence(block.bodyBlocks, entry, loopWrites, fn);
      let next = joinEnvs(entry, exit);
      if (variable) next = next.with([[variable.name, variable.type]]);
      if (LayeredEnv.same(next, entry, sameType)) break;
      entry = next;
    }
    return entry;
  }

  /** Builds the predicate DAG (for its types and errors) and returns the type of each expression. */
  private predicate(block: StatementBlock, expressions: readonly Expression[], env: TypeEnv, loopWrites: LoopWrites): DagType[] {
    const dag = buildPredicateDag(expressions, { ...this.context, variableTypes: env, ...(loopWrites ? { loopWrites } : {}) });
    this.predicates.set(block, dag.diagnostics ?? []);
    return dag.sinks.map((sink) => dagNode(dag, sink.node).type);
  }
}

/** int when every bound is an int scalar, double when all are numeric scalars, else unknown. */
function loopVariableType(bounds: readonly DagType[]): ValueType {
  if (bounds.every((t) => t.dataType === "scalar" && t.valueType === "int")) return "int";
  if (bounds.every((t) => t.dataType === "scalar" && (t.valueType === "int" || t.valueType === "double"))) return "double";
  return "unknown";
}

/** At a join: a variable typed on both sides gets the joined type; on one side only, that side's type. */
function joinEnvs(a: TypeEnv, b: TypeEnv): TypeEnv {
  return LayeredEnv.join(a, b, (x, y) => (x === undefined ? y! : y === undefined ? x : joinTypes(x, y)));
}
