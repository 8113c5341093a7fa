/**
 * Sizes over a whole program: block after block, variables carry their stats
 * from the blocks that assigned them; at an `if` the branches are joined
 * (what differs becomes unknown); a loop is iterated until the stats at its
 * head stop changing, and the sizes kept are those of that fixpoint; user
 * functions are analysed per call site with the stats of the arguments, as
 * SystemDS's inter-procedural analysis does, memoized by those stats. The
 * same holds for the DML-bodied builtins of a SystemDS installation
 * (`kmeans`, `lmCG`, ...: their script's `m_`/`s_`/`f_` function, whose
 * helpers and nested builtins are analysed the same way). Each analysis
 * reached from the main program keeps the sizes of the body's blocks with
 * that call site's arguments (`calls`), for the optimizer and hover.
 */
import { type Diagnostic, type Expression, type Range, withoutTrailingSpaces } from "../../syntax";
import { buildPredicateDag, type DagContext, type ProgramDags, type BlockDag, type DagNode, type BasicBlock, type ForBlock, type FunctionBlock, type StatementBlock, type WhileBlock, type ArgumentDataType, LayeredEnv } from "../../program";
import { type BlockSizes, blockSizes } from "./block-sizes";
import type { NodeSizeContext } from "./node-sizes";
import { formatStats, type NodeStats, type ScalarValue, scalarStats, unknownStats } from "./node-stats";
import { joinStats, sameStats } from "./join-stats";
import type { SparsityEstimator } from "./sketch-sizes";
import { type BlockSizesCache, movedDiagnostics, movedSizes } from "./block-sizes-cache";

export interface ProgramSizeOptions {
  /** `$param` values given by the caller, typed as SystemDS types them. */
  parameters?: ReadonlyMap<string, ScalarValue>;
  /** Sizes of what a `read` node reads (from .mtd files, annotations, ...); `dead`: the read is in a branch that never runs (report nothing). */
  readMetadata?: (node: DagNode, inputs: NodeStats[], dead?: boolean) => NodeStats | undefined;
  /** Sizes the user declared for a node (an `@size` annotation on an assignment). */
  declared?: (node: DagNode, found: NodeStats) => NodeStats | undefined;
  /** The program bound to a `source(...) as ns` namespace, for calls `ns::f(...)`. */
  namespace?: (name: string) => SourcedProgram | undefined;
  /** Which estimate an inexact nnz is (default `mnc`). */
  estimator?: SparsityEstimator;
  /** The DML-bodied builtins of a SystemDS installation, analysed through their scripts. */
  builtins?: BuiltinScripts;
  /** Work bound of the call analyses (default MAX_CALL_SIZING_NODES DAG nodes sized in function bodies). */
  callSizingNodes?: number;
  /**
   * Block sizes of earlier analyses (needs the DAG cache's keys in the
   * ProgramDags): `key` is what the whole analysis contributes (parameters,
   * estimator); `cacheable` leaves out blocks whose sizes depend on more than
   * their inputs (declared or measured sizes).
   */
  cache?: { sizes: BlockSizesCache; key: string; cacheable: (block: BasicBlock) => boolean; textOf: (range: Range) => string };
}

/** A sourced file's DAGs and context; its own `ns::f` calls resolve through `options.namespace` of its own. */
export interface SourcedProgram {
  dags: ProgramDags;
  context: DagContext;
  options: ProgramSizeOptions;
  /** The file it was read from, and its text. */
  file?: string;
  text?: string;
}

/** The builtin scripts a program's calls may reach: `names` (no native builtin has one), and the program of the function a call runs. */
export interface BuiltinScripts {
  names: ReadonlySet<string>;
  /** The script's program and the function (`m_NAME`, ...) a call with this first argument runs; undefined when it cannot be used. */
  resolve(name: string, firstArgument: ArgumentDataType): BuiltinProgram | undefined;
}

/** A builtin script's DAGs, context and options, and the function a call runs. */
interface BuiltinProgram extends SourcedProgram {
  file: string;
  functionName: string;
}

export interface ProgramSizes {
  /** Sizes of each basic block's nodes: main blocks at the loop fixpoints; function bodies with unknown arguments. */
  blocks: Map<BasicBlock, BlockSizes>;
  /** Dimension errors (main program and every analysed call), in source order, one per place. */
  diagnostics: Diagnostic[];
  /**
   * The function bodies analysed for calls the main program makes (directly
   * or through other functions), one per function and distinct argument
   * stats, in the order they were first reached; bounded by the call work
   * bound (MAX_CALL_SIZING_NODES).
   */
  calls: CallSizes[];
}

/** One function body analysed with the arguments of a call site. */
export interface CallSizes {
  /** The function's name in its file (`m_lmCG` for the builtin `lmCG`). */
  functionName: string;
  /** The builtin whose script holds it (`lmCG`), when it is in a builtin script. */
  builtin?: string;
  /** The file that defines it, and its text; undefined for the script itself. */
  file?: string;
  text?: string;
  /** That file's DAGs (the script's own for its functions). */
  dags: ProgramDags;
  /** The arguments' stats as the analysis keys them (`X: 100 x 7, nnz ~700; k: scalar 5`). */
  signature: string;
  /** The call in the main program that leads to this analysis (directly, or through the calls of other bodies). */
  site: Range;
  /** Sizes of the body's basic blocks with these arguments (at the loops' fixpoints). */
  blocks: Map<BasicBlock, BlockSizes>;
}

type Env = LayeredEnv<NodeStats>;

/**
 * `final`: keep block sizes and diagnostics; `call`: a function body analysed
 * for one call site, diagnostics only; `probe`: a loop round before its fixpoint.
 */
type Mode = "final" | "call" | "probe";

const MAX_LOOP_ROUNDS = 6;
const MAX_CALL_DEPTH = 20;

/**
 * Work bound of the inter-procedural analysis of one document: DAG nodes
 * sized inside function bodies analysed for call sites (memoized per
 * function and argument stats, so a call tree is analysed once per distinct
 * signature; a tree whose arguments differ at every call, 3 calls a level,
 * would otherwise take 3^depth analyses). Past it, calls not analysed yet
 * have unknown results and one warning says so, at the first such call.
 */
export const MAX_CALL_SIZING_NODES = 200_000;

/** The work of one document's call analyses, shared by the walkers of its sourced files and builtin scripts. */
interface CallBudget {
  nodes: number;
  readonly limit: number;
  /** Set once a call was left unanalysed for the limit. */
  exhausted: boolean;
  /** Set once the warning was given (at a call in the script itself, where the first unanalysed call leads from). */
  reported: boolean;
  /** The walker of each builtin script, by file (one per document: its memo serves every caller). */
  readonly builtinWalkers: Map<string, SizeWalker>;
  /** The call analyses under way, innermost last (their bodies' block sizes go to the last). */
  readonly active: CallAnalysis[];
  /** The analyses reached from the main program, in order. */
  readonly reached: CallAnalysis[];
}

/** A function body analysed for one signature (memoized). */
interface CallAnalysis extends Omit<CallSizes, "site"> {
  outputs: NodeStats[];
  /** The analyses its body's calls needed (calls on the way to a fixpoint and in dead branches left out). */
  callees: CallAnalysis[];
  site?: Range;
}

export function programSizes(dags: ProgramDags, context: DagContext, options: ProgramSizeOptions = {}): ProgramSizes {
  const budget: CallBudget = { nodes: 0, limit: options.callSizingNodes ?? MAX_CALL_SIZING_NODES, exhausted: false, reported: false, builtinWalkers: new Map(), active: [], reached: [] };
  const walker = new SizeWalker(dags, context, options, budget, true);
  walker.inMain = true;
  walker.sequence(dags.programBlocks.main, LayeredEnv.of(), "final");
  walker.inMain = false;
  for (const f of dags.programBlocks.functions) {
    if (!f.external) walker.sequence(f.bodyBlocks, LayeredEnv.of(), "final");
  }
  const calls = budget.reached.map(({ functionName, builtin, file, text, dags, signature, site, blocks }): CallSizes => ({
    functionName,
    ...(builtin !== undefined ? { builtin } : {}),
    ...(file !== undefined ? { file } : {}),
    ...(text !== undefined ? { text } : {}),
    dags,
    signature,
    site: site!,
    blocks,
  }));
  return { blocks: walker.blocks, diagnostics: walker.sortedDiagnostics(), calls };
}

/** Marks an analysis (and those its body needed) as reached from the main program's call at `site`. */
function reach(analysis: CallAnalysis, site: Range, reached: CallAnalysis[]): void {
  if (analysis.site) return;
  analysis.site = site;
  reached.push(analysis);
  for (const callee of analysis.callees) reach(callee, site, reached);
}

/** The argument kind that picks a builtin script's function. */
function argumentDataType(stats: NodeStats | undefined): ArgumentDataType {
  const t = stats?.type.dataType;
  return t === "matrix" || t === "frame" || t === "scalar" || t === "list" ? t : "unknown";
}

class SizeWalker {
  readonly blocks = new Map<BasicBlock, BlockSizes>();
  private readonly diagnostics = new Map<string, Diagnostic>();
  private readonly functions: Map<string, FunctionBlock>;
  private readonly memo = new Map<string, CallAnalysis>();
  /** Set while the main program is walked (its calls are the call sites kept in `calls`). */
  inMain = false;
  /** The mode of the blocks being sized (a call made while probing a loop is not a call site). */
  private mode: Mode = "final";
  private readonly namespaces = new Map<string, SizeWalker | undefined>();
  private readonly sketchIds = new WeakMap<object, number>();
  private sketchCount = 0;
  private callDepth = 0;

  constructor(
    private readonly dags: ProgramDags,
    private readonly context: DagContext,
    private readonly options: ProgramSizeOptions,
    private readonly budget: CallBudget,
    /** Whether this walker is the script's own (not a sourced file's): its diagnostics are the ones reported. */
    private readonly isScript = false,
    /** The builtin whose script this walker analyses. */
    private readonly builtin?: { name: string; file: string },
    /** The file of a sourced program or builtin script, and its text. */
    private readonly source?: { file?: string; text?: string },
  ) {
    this.functions = new Map(dags.programBlocks.functions.map((f) => [f.name, f]));
  }

  sequence(blocks: readonly StatementBlock[], env: Env, mode: Mode): Env {
    let current = env;
    for (const block of blocks) current = this.block(block, current, mode);
    return current;
  }

  private block(block: StatementBlock, env: Env, mode: Mode): Env {
    switch (block.kind) {
      case "basic":
        return this.basic(block, env, mode);
      case "if":
        return this.ifBlock(block, env, mode);
      case "while":
      case "for":
      case "parfor":
        return this.loop(block, env, mode);
    }
  }

  /**
   * Guards: a condition that folds to a constant leaves one branch live (the
   * other is dead, as SystemDS removes it: its problems are not reported and
   * its sizes do not reach the join). Under an unknown condition each branch
   * forgets the constant values of the scalars the condition reads (the
   * condition constrains them), and its size problems are warnings: the
   * branch may not run (SystemDS's validator, too, only warns there).
   */
  private ifBlock(block: Extract<StatementBlock, { kind: "if" }>, env: Env, mode: Mode): Env {
    const condition = this.predicate([block.statement.condition], env, mode);
    const taken = truthValue(condition.value);
    if (taken !== undefined) {
      const [live, dead] = taken ? [block.thenBlocks, block.elseBlocks] : [block.elseBlocks, block.thenBlocks];
      this.silently(() => this.sequence(dead, env, mode));
      return this.sequence(live, env, mode);
    }
    const forgotten = [...condition.reads].flatMap((name): [string, NodeStats][] => {
      const stats = env.get(name);
      return stats && stats.value !== undefined ? [[name, scalarStats(stats.type)]] : [];
    });
    const branchEnv = forgotten.length > 0 ? env.with(forgotten) : env;
    this.conditional++;
    let thenExit: Env;
    let elseExit: Env;
    try {
      thenExit = this.sequence(block.thenBlocks, branchEnv, mode);
      elseExit = this.sequence(block.elseBlocks, branchEnv, mode);
    } finally {
      this.conditional--;
    }
    // After the if, a variable neither branch assigned has its value again.
    const untouched = forgotten.flatMap(([name, stats]): [string, NodeStats][] =>
      thenExit.get(name) === stats && elseExit.get(name) === stats ? [[name, env.get(name)!]] : [],
    );
    const joined = joinEnvs(thenExit, elseExit);
    return untouched.length > 0 ? joined.with(untouched) : joined;
  }

  /** Runs `walk` with diagnostics off (a dead branch). */
  private silently<T>(walk: () => T): T {
    this.silent++;
    try {
      return walk();
    } finally {
      this.silent--;
    }
  }

  private basic(block: BasicBlock, env: Env, mode: Mode): Env {
    const info = this.dags.byBlock.get(block);
    if (!info) return env;
    const sizes = this.cachedSizes(block, info.dag, env, mode) ?? this.dagSizes(info.dag, env, mode);
    this.keep(block, sizes, mode);
    if (mode !== "probe") this.record(sizes.diagnostics);
    return env.with(sizes.outputs);
  }

  /** Keeps a block's sizes: the program's (final), or the call analysis's under way (call). */
  private keep(block: BasicBlock, sizes: BlockSizes, mode: Mode): void {
    if (mode === "final") this.blocks.set(block, sizes);
    else if (mode === "call") this.budget.active[this.budget.active.length - 1]?.blocks.set(block, sizes);
  }

  private kept(block: BasicBlock, mode: Mode): BlockSizes | undefined {
    return mode === "final" ? this.blocks.get(block) : this.budget.active[this.budget.active.length - 1]?.blocks.get(block);
  }

  /** Whether the DAG calls functions whose sizes come from their bodies (user functions, builtin scripts). */
  private callsFunctions(dag: BlockDag): boolean {
    return dag.nodes.some((n) => n.op.kind === "call" && (n.op.user || this.options.builtins?.names.has(n.op.name) === true));
  }

  /**
   * The block's sizes through the cache, when it has one and the block's
   * sizes depend only on its inputs and reads (no user-function calls, no
   * declared sizes); else undefined.
   */
  private cachedSizes(block: BasicBlock, dag: BlockDag, env: Env, mode: Mode): BlockSizes | undefined {
    const cache = this.options.cache;
    const key = this.dags.cacheKeys?.get(block);
    if (!cache || key === undefined || !cache.cacheable(block) || this.callsFunctions(dag)) return undefined;
    const inputs = [...dag.inputs.keys()].sort().map((name) => env.get(name));
    const reads = dag.nodes.filter((n) => n.op.kind === "read").map((n) => this.options.readMetadata?.(n, []));
    return cache.sizes.sizesOf(`${cache.key}\n${key}`, block.range.start.line, [...inputs, ...reads], () => this.dagSizes(dag, env, mode));
  }

  /**
   * A loop through the cache, as a unit (all its rounds): stored under its
   * text and the stats objects it reads, with the stats it leaves in the
   * variables it writes, the sizes of its blocks and its diagnostics. Only
   * for loops whose every block the cache may take (cachedSizes).
   */
  private loop(block: WhileBlock | ForBlock, env: Env, mode: Mode): Env {
    const cache = this.options.cache;
    const inner = basicBlocksOf(block.bodyBlocks);
    const eligible =
      cache !== undefined &&
      inner.every((b) => {
        const dag = this.dags.byBlock.get(b)?.dag;
        return dag !== undefined && this.dags.cacheKeys?.has(b) === true && cache.cacheable(b) && !this.callsFunctions(dag);
      });
    if (!eligible) return this.loopRounds(block, env, mode);
    const reads = inner.flatMap((b) => this.dags.byBlock.get(b)!.dag.nodes.filter((n) => n.op.kind === "read").map((n) => this.options.readMetadata?.(n, [])));
    const inputs = [...block.reads].sort().map((name) => env.get(name));
    const key = `loop ${mode} ${this.silent > 0 ? "dead" : this.conditional > 0 ? "conditional" : "sure"}\n${cache.key}\n${block.range.start.character}\n${withoutTrailingSpaces(cache.textOf(block.range))}`;
    const result = cache.sizes.lookup(
      key,
      block.range.start.line,
      [...inputs, ...reads],
      () => {
        const recorded: Diagnostic[] = [];
        this.recorders.push(recorded);
        let exit: Env;
        try {
          exit = this.loopRounds(block, env, mode);
        } finally {
          this.recorders.pop();
        }
        const changes = [...LayeredEnv.namesSetApart(env, exit)].flatMap((name): [string, NodeStats][] => {
          const stats = exit.get(name);
          return stats ? [[name, stats]] : [];
        });
        return { changes, sizes: mode !== "probe" ? inner.map((b) => this.kept(b, mode)!) : [], diagnostics: recorded, computed: true };
      },
      (value, lines) => ({ changes: value.changes, sizes: value.sizes.map((s) => movedSizes(s, lines)), diagnostics: movedDiagnostics(value.diagnostics, lines), computed: false }),
      { of: (value) => value.changes, replaced: (value, outputs) => ({ ...value, changes: [...outputs] }) },
    );
    if (!result.computed) {
      if (mode !== "probe") inner.forEach((b, k) => this.keep(b, result.sizes[k]!, mode));
      this.record(result.diagnostics);
    }
    return env.with(result.changes);
  }

  private loopRounds(block: WhileBlock | ForBlock, env: Env, mode: Mode): Env {
    if (block.kind === "while" && truthValue(this.predicate([block.statement.condition], env, "probe").value) === false) {
      // `while (FALSE) {...}`: the body never runs (dead, like an if-branch whose condition folds to false).
      this.silently(() => this.sequence(block.bodyBlocks, env, mode));
      return env;
    }
    let entry = env;
    const variable = block.kind === "while" ? undefined : block.variable;
    if (block.kind !== "while") {
      const iterable = block.statement.iterable;
      this.predicate([iterable.from, iterable.to, ...(iterable.kind === "seq" && iterable.by ? [iterable.by] : [])], env, mode);
    }
    // The loop variable takes many values: a scalar of unknown value.
    if (variable) entry = entry.with([[variable, scalarStats({ dataType: "scalar", valueType: "double" })]]);
    for (let round = 0; round < MAX_LOOP_ROUNDS; round++) {
      const exit = this.sequence(block.bodyBlocks, entry, "probe");
      let next = joinEnvs(entry, exit, round === MAX_LOOP_ROUNDS - 1);
      if (variable) next = next.with([[variable, entry.get(variable)!]]);
      if (LayeredEnv.same(next, entry, sameStats)) break;
      entry = next;
    }
    if (block.kind === "while") this.predicate([block.statement.condition], entry, mode);
    const exit = this.sequence(block.bodyBlocks, entry, mode);
    return joinEnvs(env, joinEnvs(entry, exit));
  }

  /** Checks a condition or loop bounds; the stats of the first expression and the variables they read. */
  private predicate(expressions: readonly Expression[], env: Env, mode: Mode): { value?: ScalarValue; reads: ReadonlySet<string> } {
    const dag = buildPredicateDag(expressions, this.context);
    const sizes = this.dagSizes(dag, env, mode);
    if (mode !== "probe") this.record(sizes.diagnostics);
    const first = dag.sinks[0] === undefined ? undefined : sizes.nodes[dag.sinks[0].node];
    return { ...(first?.value !== undefined ? { value: first.value } : {}), reads: new Set(dag.inputs.keys()) };
  }

  private dagSizes(dag: BlockDag, env: Env, mode: Mode): BlockSizes {
    const context: NodeSizeContext = {
      input: (name) => env.get(name),
      parameter: (name) => this.options.parameters?.get(name),
      read: (node, inputs) => this.options.readMetadata?.(node, inputs, this.silent > 0),
      call: (node, inputs) => this.call(node, inputs),
      ...(this.options.estimator ? { estimator: this.options.estimator } : {}),
    };
    if (this.callDepth > 0) this.budget.nodes += dag.nodes.length;
    const outer = this.mode;
    this.mode = mode;
    try {
      return blockSizes(dag, context, this.options.declared);
    } finally {
      this.mode = outer;
    }
  }

  /**
   * Inter-procedural: the output of a call of a user function or a builtin
   * script, from the function body analysed with these arguments.
   */
  private call(node: DagNode, inputs: NodeStats[]): NodeStats | undefined {
    if (node.op.kind !== "call") return undefined;
    const name = node.op.name;
    const separator = name.indexOf("::");
    let found: { stats: NodeStats | undefined; analysis: CallAnalysis | undefined } | undefined;
    if (node.op.user) {
      found = separator < 0 ? this.callFunction(name, node, inputs) : this.namespaceWalker(name.slice(0, separator))?.callFunction(name.slice(separator + 2), node, inputs);
    } else if (this.options.builtins?.names.has(name)) {
      const script = this.options.builtins.resolve(name, argumentDataType(inputs[0]));
      if (script) found = this.builtinWalker(name, script).callFunction(script.functionName, node, inputs);
    }
    if (this.isScript && this.callDepth === 0 && this.budget.exhausted && !this.budget.reported) this.budgetWarning(node);
    const analysis = found?.analysis;
    if (analysis && this.mode !== "probe" && this.silent === 0) {
      const caller = this.budget.active[this.budget.active.length - 1];
      if (caller) {
        if (!caller.callees.includes(analysis)) caller.callees.push(analysis);
      } else if (this.isScript && this.inMain) reach(analysis, node.range, this.budget.reached);
    }
    return found?.stats;
  }

  private builtinWalker(name: string, script: BuiltinProgram): SizeWalker {
    let walker = this.budget.builtinWalkers.get(script.file);
    if (!walker) {
      walker = new SizeWalker(script.dags, script.context, script.options, this.budget, false, { name, file: script.file }, script);
      this.budget.builtinWalkers.set(script.file, walker);
    }
    return walker;
  }

  private namespaceWalker(name: string): SizeWalker | undefined {
    if (!this.namespaces.has(name)) {
      const sourced = this.options.namespace?.(name);
      this.namespaces.set(name, sourced && new SizeWalker(sourced.dags, sourced.context, sourced.options, this.budget, false, undefined, sourced));
    }
    return this.namespaces.get(name);
  }

  callFunction(name: string, node: DagNode, inputs: NodeStats[]): { stats: NodeStats | undefined; analysis: CallAnalysis | undefined } | undefined {
    if (node.op.kind !== "call") return undefined;
    const f = this.functions.get(name);
    if (!f || f.external || f.statement.kind !== "function") return undefined;
    const definition = f.statement;
    const args = bindArguments(definition.params.map((p) => p.name.name), node.argNames ?? [], inputs);
    const signature = definition.params.map((p) => `${p.name.name}: ${args.has(p.name.name) ? this.memoKey(args.get(p.name.name)!) : "default"}`).join("; ");
    const key = `${f.name}(${signature})`;
    let analysis = this.memo.get(key);
    if (!analysis) {
      if (this.budget.active.length >= MAX_CALL_DEPTH) return undefined; // across files: builtin scripts and sourced files may call each other
      if (this.budget.nodes >= this.budget.limit) {
        this.budget.exhausted = true;
        return undefined;
      }
      analysis = {
        outputs: definition.returns.map(() => unknownStats), // recursion sees unknown
        functionName: f.name,
        ...(this.builtin ? { builtin: this.builtin.name } : {}),
        ...(this.source?.file !== undefined ? { file: this.source.file } : {}),
        ...(this.source?.text !== undefined ? { text: this.source.text } : {}),
        dags: this.dags,
        signature,
        blocks: new Map(),
        callees: [],
      };
      this.memo.set(key, analysis);
      this.callDepth++;
      this.budget.active.push(analysis);
      try {
        let env: Env = LayeredEnv.of();
        for (const param of definition.params) {
          const given = args.get(param.name.name);
          if (given) env = env.with([[param.name.name, given]]);
          else if (param.defaultValue) env = env.with([[param.name.name, this.expressionStats(param.defaultValue, env)]]);
        }
        const exit = this.sequence(f.bodyBlocks, env, "call");
        analysis.outputs = definition.returns.map((r) => exit.get(r.name.name) ?? unknownStats);
      } finally {
        this.callDepth--;
        this.budget.active.pop();
      }
    }
    const result = analysis.outputs[node.op.output];
    if (!result || result === unknownStats) return { stats: undefined, analysis };
    // The declared type wins; a sourced function's or a builtin script's result type is known only from its body.
    return { stats: node.type.dataType === "unknown" || !node.op.user ? result : { ...result, type: node.type }, analysis };
  }

  /** The warning that calls were left unanalysed for the work bound, at a call of the script (given whatever the mode: it concerns the whole document). */
  private budgetWarning(node: DagNode): void {
    this.budget.reported = true;
    const d: Diagnostic = {
      severity: "warning",
      message: `some function results are sized as unknown from this call on: the size analysis of function calls reached its work limit (${this.budget.limit} DAG nodes sized in function bodies; a call tree with different arguments at every call)`,
      range: node.range,
      code: "call-sizing-limit",
    };
    this.diagnostics.set(`${d.range.start.line}:${d.range.start.character}:${d.code}`, d);
  }

  /** What a call's result depends on of one argument: its shown stats, and which sketch it carries. */
  private memoKey(stats: NodeStats): string {
    const shown = formatStats(stats);
    if (!stats.sketch) return shown;
    let id = this.sketchIds.get(stats.sketch);
    if (id === undefined) {
      id = ++this.sketchCount;
      this.sketchIds.set(stats.sketch, id);
    }
    return `${shown} #${id}`;
  }

  private expressionStats(expression: Expression, env: Env): NodeStats {
    const dag = buildPredicateDag([expression], this.context);
    const sizes = this.dagSizes(dag, env, this.mode);
    const [sink] = dag.sinks;
    return (sink && sizes.nodes[sink.node]) ?? unknownStats;
  }

  /** Lists that also receive what is recorded (a loop being cached collects its diagnostics). */
  private readonly recorders: Diagnostic[][] = [];

  /** Depth of dead branches (nothing is reported) and of branches that may not run (errors become warnings). */
  private silent = 0;
  private conditional = 0;

  private record(found: readonly Diagnostic[]): void {
    if (this.silent > 0) return;
    const diagnostics = this.conditional > 0 ? found.map(mayNotRun) : found;
    for (const recorder of this.recorders) recorder.push(...diagnostics);
    for (const d of diagnostics) {
      const key = `${d.range.start.line}:${d.range.start.character}:${d.code}`;
      if (!this.diagnostics.has(key)) this.diagnostics.set(key, d);
    }
  }

  sortedDiagnostics(): Diagnostic[] {
    return [...this.diagnostics.values()].sort(
      (a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character,
    );
  }
}

/** Positional arguments fill the parameters in order; named ones go by name. */
function bindArguments(params: readonly string[], argNames: readonly (string | undefined)[], inputs: readonly NodeStats[]): Map<string, NodeStats> {
  const bound = new Map<string, NodeStats>();
  let position = 0;
  inputs.forEach((stats, i) => {
    const name = argNames[i];
    const param = name === undefined ? params[position++] : undefined;
    if (name !== undefined) bound.set(name, stats);
    else if (param !== undefined) bound.set(param, stats);
  });
  return bound;
}

/** A variable set on one side only keeps that side's stats (it may be unassigned on the other: reported elsewhere). */
function joinEnvs(a: Env, b: Env, widen = false): Env {
  return LayeredEnv.join(a, b, (x, y) => (x === undefined ? y! : y === undefined ? x : joinStats(x, y, widen)));
}

/** The basic blocks inside `blocks`, nested ones included, in walk order. */
function basicBlocksOf(blocks: readonly StatementBlock[]): BasicBlock[] {
  const out: BasicBlock[] = [];
  const walk = (list: readonly StatementBlock[]) => {
    for (const b of list) {
      if (b.kind === "basic") out.push(b);
      else if (b.kind === "if") {
        walk(b.thenBlocks);
        walk(b.elseBlocks);
      } else walk(b.bodyBlocks);
    }
  };
  walk(blocks);
  return out;
}

/** A condition's constant truth value, when constant folding found one. */
function truthValue(value: ScalarValue | undefined): boolean | undefined {
  if (typeof value === "boolean") return value;
  if (typeof value === "number" && !Number.isNaN(value)) return value !== 0;
  return undefined;
}

const MAY_NOT_RUN = " (in a branch that may not run: its condition is not known here)";

/** An error found in a branch that may not run, as a warning that says so. */
function mayNotRun(d: Diagnostic): Diagnostic {
  if (d.severity !== "error" || d.message.endsWith(MAY_NOT_RUN)) return d;
  return { ...d, severity: "warning", message: d.message + MAY_NOT_RUN };
}
