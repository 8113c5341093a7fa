/**
 * Whether the optimizer proves two variables of a script equal (assigned in
 * the same statement block), i.e. in the same e-class, and the proof as a
 * derivation in DML (derivation.ts). Saturation stops as soon as they are;
 * when their sizes or types already differ the answer is "not equal"
 * without a search. `dml prove` prints it; `dml explain --why` and the
 * editor's "Explain this rewrite" prove a suggestion's two sides with it
 * (suggestion-derivation.ts), seeded as the optimizer seeds a block.
 */
import { printTerm, type FlatExplanationStep, type Term } from "../egraph";
import { nodesReachableFrom, type BlockDag, type SystemdsInstallation } from "../program";
import {
  bindRoots,
  buildBlockEGraph,
  DEFAULT_SATURATION,
  laDerivation,
  RelationalText,
  ruleDescription,
  sameValue,
  saturate,
  withNames,
  type BlockEGraph,
  type DerivationStep,
  type LeafText,
  type TermName,
} from "../rewrite";
import type { NodeStats } from "../stats/sizes/node-stats";
import { analyzeText, type AnalysisOptions } from "../analysis";
import { textInRange } from "../syntax";
import { seedBlock } from "./optimize-block";

/** Unbind joins an unbind node with the value its class binds: the explanation shows which bind that was. */
const PROJECTIONS = new Map([["unbind", { child: 2, innerChild: 2 }]]);

export interface ProveOptions {
  parameters?: ReadonlyMap<string, string>;
  /** The search's time safety net, ms of CPU time (default: saturation's, 10 s); the iteration and e-node limits end a search first, the same on any machine. */
  budgetMs?: number;
  /** Stop saturating as soon as both sides are in one e-class (default true; false saturates to a limit, for comparisons). */
  stopWhenEqual?: boolean;
  /** Also give every step of the proof, relational forms in index notation (`relationalSteps`). */
  relational?: boolean;
  /** Seed the search as the optimizer seeds a block (chain orders, sum-product forms): its suggestions are then proven as it found them. */
  seed?: boolean;
  /** The SystemDS installation whose builtin scripts and scripts/ library the script uses. */
  installation?: SystemdsInstallation;
  /** More options of the script's analysis (an editor's measured sizes, estimator, workspace), so sizes are those its suggestions had. */
  analysis?: AnalysisOptions;
}

/** One union of the proof, its terms in DML or in index notation. */
export interface RelationalStep {
  rule: string;
  description: string;
  before: string;
  after: string;
}

export interface ProveOutcome {
  verdict: "proven" | "not equal" | "not proven";
  a: string;
  b: string;
  /** Why "not equal" (sizes or types differ). */
  reason?: string;
  steps: DerivationStep[];
  /** Every step of the proof (with the `relational` option). */
  relationalSteps?: RelationalStep[];
  /** Why the search stopped ("equal" when it stopped because both sides were; absent without a search). */
  stopReason?: string;
  iterations: number;
  nodes: number;
  /** Time of the proof: e-graph, search and derivation (the script's analysis excluded). */
  ms: number;
  /** The time safety net the search ran with (ms of CPU time). */
  budgetMs: number;
}

/** Proves `a` = `b` in a DML text; a string is a usage problem (the variables are not in one block). */
export function proveVariables(text: string, file: string, a: string, b: string, options: ProveOptions = {}): ProveOutcome | string {
  const block = blockOfVariables(text, file, a, b, options);
  return typeof block === "string" ? block : proveInBlock(block, a, b, options);
}

/** What a proof needs of the script: the block assigning both variables (its DAG and sizes) and the text (plain data: it crosses to a worker). */
export interface BlockOfVariables {
  text: string;
  dag: BlockDag;
  stats: NodeStats[];
}

/** The block of `text` that assigns both `a` and `b`, analysed; a string when there is none. */
export function blockOfVariables(text: string, file: string, a: string, b: string, options: ProveOptions = {}): BlockOfVariables | string {
  const analysis = analyzeText(text, { scriptPath: file, workspaceRoot: process.cwd(), parameters: new Map(options.parameters ?? []), ...(options.installation ? { installation: options.installation } : {}), ...options.analysis });
  const info = analysis.dags.blocks.find((block) => block.dag.outputs.has(a) && block.dag.outputs.has(b));
  const sizes = info ? analysis.sizes.blocks.get(info.block) : undefined;
  if (!info || !sizes) return `${a} and ${b} are not both assigned in one statement block of ${file}`;
  return { text, dag: info.dag, stats: [...sizes.nodes] };
}

/** Proves `a` = `b`, both assigned in the analysed block (the search: `ProveOptions` without the analysis's). */
export function proveInBlock(info: BlockOfVariables, a: string, b: string, options: Omit<ProveOptions, "analysis" | "installation" | "parameters"> = {}): ProveOutcome {
  const { text } = info;
  const sizes = { nodes: info.stats };
  const start = performance.now();
  const nodeA = info.dag.outputs.get(a)!;
  const nodeB = info.dag.outputs.get(b)!;
  const budgetMs = options.budgetMs ?? DEFAULT_SATURATION.timeLimitMs;
  const outcome = { a, b, steps: [] as DerivationStep[], iterations: 0, nodes: 0, budgetMs };
  const differ = shapesDiffer(sizes.nodes[nodeA], sizes.nodes[nodeB], a, b);
  if (differ) return { ...outcome, verdict: "not equal", reason: differ, ms: performance.now() - start };

  const block = buildBlockEGraph(reachableFrom(info.dag, [nodeA, nodeB]), sizes.nodes, { explanations: true });
  const left = block.classOfNode[nodeA]!;
  const right = block.classOfNode[nodeB]!;
  let stopReason = "equal";
  let iterations = 0;
  if (!sameValue(block.egraph, left, right)) {
    if (options.seed) seedBlock(block, [left, right]);
    else bindRoots(block, [left, right]);
    const stopWhenEqual = options.stopWhenEqual ?? true;
    const report = saturate(block.egraph, block.attributes, {
      timeLimitMs: budgetMs,
      ...(stopWhenEqual ? { shouldStop: () => sameValue(block.egraph, left, right) } : {}),
    });
    stopReason = report.stopReason === "cancelled" ? "equal" : report.stopReason;
    iterations = report.iterations.length;
  }
  const proven = sameValue(block.egraph, left, right);
  const [from, to] = proven ? proofEnds(block, left, right) : [left, right];
  const flat = proven ? (block.egraph.explainFlat(from, to, { projections: PROJECTIONS }) ?? []) : [];
  const leaves = leafText(text, info.dag, block, [a, b]);
  const names = variableNames(text, info.dag, block, [a, b]);
  const steps = laDerivation(flat, leaves, names);
  const relational = options.relational ? { relationalSteps: relationalSteps(flat, leaves, names) } : {};
  return { ...outcome, verdict: proven ? "proven" : "not proven", steps, ...relational, stopReason, iterations, nodes: block.egraph.nodeCount, ms: performance.now() - start };
}

/** Every step of a flat explanation, the terms in DML where they are LA and in index notation where they are relational. */
function relationalSteps(flat: readonly FlatExplanationStep[], leaves: LeafText, names: TermName): RelationalStep[] {
  const printer = new RelationalText(leaves);
  const print = (term: Term) => printer.print(withNames(term, names));
  return flat.map((step) => ({ rule: step.rule, description: ruleDescription(step.rule) ?? step.rule, before: print(step.before), after: print(step.after) }));
}

/** The block's DAG cut down to the nodes the two sides are computed from (node ids unchanged): the rest cannot matter. */
function reachableFrom(dag: BlockDag, roots: readonly number[]): BlockDag {
  const keep = nodesReachableFrom(dag, roots);
  return { ...dag, nodes: dag.nodes.filter((node) => keep.has(node.id)) };
}

/**
 * The two proof nodes to explain: the sides themselves, or, for a scalar
 * proven equal to a 1 x 1 matrix, the scalar and `as.scalar` of the matrix.
 */
function proofEnds(block: BlockEGraph, left: number, right: number): [number, number] {
  const egraph = block.egraph;
  if (egraph.find(left) === egraph.find(right)) return [left, right];
  const cast = (m: number) => {
    const node = { op: "as.scalar", children: [egraph.find(m)] };
    return egraph.lookup(node) === undefined ? undefined : egraph.nodeId(node);
  };
  const castRight = cast(right);
  if (castRight !== undefined && egraph.find(castRight) === egraph.find(left)) return [left, castRight];
  const castLeft = cast(left);
  return castLeft !== undefined ? [castLeft, right] : [left, right];
}

/** Why two values cannot be equal from their types and sizes alone, or undefined when that does not decide. */
export function shapesDiffer(x: NodeStats | undefined, y: NodeStats | undefined, a: string, b: string): string | undefined {
  if (!x || !y) return undefined;
  const tx = x.type;
  const ty = y.type;
  const shape = (s: NodeStats) => (s.type.dataType === "scalar" ? "1 x 1" : `${s.rows ?? "?"} x ${s.cols ?? "?"}`);
  if (tx.dataType !== ty.dataType) {
    const kinds = new Set([tx.dataType, ty.dataType]);
    if (kinds.has("unknown")) return undefined;
    if (kinds.size === 2 && kinds.has("scalar") && kinds.has("matrix")) {
      // A 1 x 1 matrix may hold the scalar's value (the optimizer relates them by as.scalar).
      const m = tx.dataType === "matrix" ? x : y;
      if (m.rows === null || m.cols === null || (m.rows === 1 && m.cols === 1)) return undefined;
      return `shapes ${shape(x)} and ${shape(y)} differ (${describeType(x, a)}, ${describeType(y, b)})`;
    }
    return `types differ (${describeType(x, a)}, ${describeType(y, b)})`;
  }
  if (tx.dataType === "scalar") {
    const text = (t: string) => t === "string";
    if (text(tx.valueType) !== text(ty.valueType) && tx.valueType !== "unknown" && ty.valueType !== "unknown") return `types differ (${describeType(x, a)}, ${describeType(y, b)})`;
    if (x.value !== undefined && y.value !== undefined && typeof x.value === "number" && typeof y.value === "number" && x.value !== y.value) {
      return `values ${x.value} and ${y.value} differ (both are constants)`;
    }
    return undefined;
  }
  if (tx.dataType !== "matrix") return undefined;
  const rowsDiffer = x.rows !== null && y.rows !== null && x.rows !== y.rows;
  const colsDiffer = x.cols !== null && y.cols !== null && x.cols !== y.cols;
  return rowsDiffer || colsDiffer ? `shapes ${shape(x)} and ${shape(y)} differ` : undefined;
}

function describeType(s: NodeStats, name: string): string {
  const { dataType, valueType } = s.type;
  if (dataType === "scalar") return `${name} is a ${valueType === "unknown" ? "" : `${valueType} `}scalar`;
  if (dataType === "matrix") return `${name} is a ${s.rows ?? "?"} x ${s.cols ?? "?"} matrix`;
  return `${name} is a ${dataType}`;
}

/** DML for the e-graph's leaves: a variable's name, else the source text of the expression the leaf stands for. */
function leafText(text: string, dag: BlockDag, block: BlockEGraph, sides: readonly string[]): (op: string) => string | undefined {
  const names = new Map<number, string>();
  for (const [name, id] of dag.outputs) if (!sides.includes(name) && !names.has(id)) names.set(id, name);
  return (op) => {
    if (op.startsWith("var:")) return op.slice(4);
    const node = block.leafNodes.get(op);
    if (!node) return undefined;
    return names.get(node.id) ?? `(${textInRange(text, node.range)})`;
  };
}

/**
 * Names for the values of the variables the two sides are written with
 * (`Y` for the term of `Y = X * 2` in `a = sum(X * Y)`), so the derivation
 * reads like the script; only those: another variable that happens to hold
 * a sub-term's value would be a surprise. Leaves are named by `leafText`;
 * a literal is never named.
 */
function variableNames(text: string, dag: BlockDag, block: BlockEGraph, sides: readonly string[]): TermName {
  const used = new Set<string>();
  const todo = [...sides];
  while (todo.length > 0) {
    const id = dag.outputs.get(todo.pop()!);
    if (id === undefined) continue;
    for (const word of textInRange(text, dag.nodes[id]!.range).match(/[A-Za-z_][A-Za-z0-9_.]*/g) ?? []) {
      if (!used.has(word) && !sides.includes(word)) {
        used.add(word);
        todo.push(word);
      }
    }
  }
  const nodeOfClass = new Map<number, number>();
  for (const node of dag.nodes) if (block.classOfNode[node.id] !== undefined && !nodeOfClass.has(block.classOfNode[node.id]!)) nodeOfClass.set(block.classOfNode[node.id]!, node.id);
  const termOf = (id: number): Term => {
    const enode = block.originalNodes[id]!;
    return { op: enode.op, children: enode.children.map((c) => termOf(nodeOfClass.get(c)!)) };
  };
  const names = new Map<string, string>();
  for (const [name, id] of dag.outputs) {
    if (!used.has(name) || block.originalNodes[id] === undefined || block.originalNodes[id]!.children.length === 0) continue;
    const key = printTerm(termOf(id));
    if (!names.has(key)) names.set(key, name);
  }
  return (term) => (term.children.length === 0 || names.size === 0 ? undefined : names.get(printTerm(term)));
}

/** Why a search stopped, for a reader ("stopped at the e-node limit (N)"). */
export function stopText(reason: string | undefined, budgetMs: number): string {
  switch (reason) {
    case "saturated":
      return "saturated: no rule adds anything new";
    case "iterationLimit":
      return `stopped at the iteration limit (${DEFAULT_SATURATION.iterationLimit} per phase)`;
    case "nodeLimit":
      return `stopped at the e-node limit (${DEFAULT_SATURATION.nodeLimit})`;
    case "applyLimit":
      return `stopped at the rule-application limit (${DEFAULT_SATURATION.applyLimit} matches applied)`;
    case "rebuildLimit":
      return "stopped at the analysis-repair limit of a rebuild";
    case "timeLimit":
      return `stopped at the time limit, a CPU-time safety net (--budget-ms ${budgetMs})`;
    default:
      return `stopped (${reason ?? "no search"})`;
  }
}
