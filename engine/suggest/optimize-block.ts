/**
 * The optimizer on one statement block: the block's DAG goes into an
 * e-graph, is seeded and saturated with the SPORES rules under a budget,
 * and for each statement the cheapest equivalent plan is extracted. A
 * statement whose plan is worth taking (a different expression, saving
 * enough, no data-dependent value baked in: worth-taking.ts) becomes a
 * suggestion, after the runtime has checked both sides agree on random
 * inputs (with the constants the optimizer folded). Sub-plans that several suggestions compute become shared
 * temporaries (a multi-statement edit).
 *
 * Savings are measured after fusion: the original plan and the rewritten
 * one are each costed with the fused operators the fusion planner picks for
 * them (fused-plan-cost.ts), so a rewrite that only beats the unfused
 * original is not offered. The block's fusion plans, as written and with the
 * suggestions applied, are part of the result (fusion-input.ts).
 */
import type { ClassId, ENode } from "../egraph";
import { type Extraction, type ExtractionGraph } from "../extract";
import { nodesReachableFrom, type BlockDag, type BasicBlock } from "../program";
import { bindRoot, buildBlockEGraph, saturate, seedChainOrders, seedSumProductForm, termToDml, UnprintableTermError, type BlockEGraph, type SaturationOptions } from "../rewrite";
import type { NodeStats } from "../stats/sizes/node-stats";
import { type Position, type Range, textInRange } from "../syntax";
import type { BlockFusion, FusionView } from "./block-fusion";
import { fusedPlanCost } from "./fused-plan-cost";
import { asWrittenFusion, leafText, rewrittenBlockDag, rewrittenFusion, type ExecutableDag, type Replacement } from "./fusion-input";
import type { ExtractedPlan } from "./plan-dag";
import { extractedTerm } from "./plan-graph";
import { addMeasures, planMeasures, type PlanMeasures } from "./plan-measures";
import { sharedTemporaries, type SharedTemporary } from "./shared-temporaries";
import { type Extractor, extractsOriginal, originalPlanFilter, planClass, planStatement, type StatementPlan } from "./statement-plan";
import { statementRoots, type StatementRoot } from "./statement-roots";
import { verifyRewrite, type VariableShape } from "./verify-rewrite";
import { blockSaturation, spend, type DocumentBudget } from "./document-budget";
import { DEFAULT_SAVING_THRESHOLDS, sameExpression, savesEnough, unwritableNumbers, writableNumbers } from "./worth-taking";

export interface SuggestOptions {
  saturation?: SaturationOptions;
  /** Suggest only when the rewrite saves at least this share of the original's estimated time (default 0.2: 20 %). */
  minSaving?: number;
  /** ... and at least this many estimated milliseconds (default 1). */
  minSavingMs?: number;
  /** Check each suggestion with the runtime (default true). */
  verify?: boolean;
  /** Return each statement's extraction graph (for extraction benchmarks). */
  keepPlanGraphs?: boolean;
  /** Return the block with the suggestions applied as a DAG the runtime can run (`executable`). */
  executable?: boolean;
  /** Plan the fusion view of the block with the suggestions applied (default true; the runtime plans the DAG it runs itself). */
  rewrittenView?: boolean;
  /**
   * Record why classes merge, for each suggestion's `explanation` (default
   * true). Off, saturation keeps no proofs (about a tenth less work) and the
   * explanations are empty; the suggestions are otherwise the same: the
   * runtime's compilation runs them and shows no derivation.
   */
  explanations?: boolean;
  /** How the cheapest plan is picked (default: greedy with DAG costs; `ilpExtractor` for the ILP). */
  extract?: Extractor;
  /**
   * The work left for the whole document (counts, shared by its blocks and
   * spent in block order): each block's saturation is bounded by what is
   * left, and takes off what it used; with nothing left a block is not
   * saturated (stopReason "documentBudget"; its seeded plans are still
   * extracted). See document-budget.ts.
   */
  documentBudget?: DocumentBudget;
}

export interface Suggestion {
  /** The right-hand side the suggestion replaces. */
  range: Range;
  target: string;
  original: string;
  rewritten: string;
  costBefore: number;
  costAfter: number;
  unit: "s";
  /** The same two plans in floating-point operations and in bytes read and written (null where a size is unknown). */
  flops: { before: number | null; after: number | null };
  bytes: { before: number | null; after: number | null };
  rows: number | null;
  cols: number | null;
  nnz: number | null;
  /** The rule applications that prove the two sides equal (when recorded). */
  explanation: string[];
  /** New variables to assign before this statement (at `insertAt`); later suggestions of the block use them too. */
  temporaries?: { name: string; text: string; insertAt: Position }[];
  /** The targets of the other statements whose suggestions use this one's temporaries, or whose temporaries this one uses. */
  sharedWith?: string[];
  /** The rewritten plan as a DAG for a plan view: node 0 is the result; a shared sub-plan appears once. */
  plan: PlanNode[];
}

export interface PlanNode {
  /** The optimizer's operator (`mm`, `+`, `sum`, `name:X`, ...). */
  op: string;
  children: number[];
  /** Estimated seconds of this operation alone. */
  cost: number;
  rows: number | null;
  cols: number | null;
  nnz: number | null;
}

export interface DroppedSuggestion {
  target: string;
  original: string;
  rewritten: string;
  reason: string;
}

export interface BlockOptimization {
  suggestions: Suggestion[];
  /** The block's fusion plans as written and as rewritten (block-fusion.ts). */
  fusion: BlockFusion;
  dropped: DroppedSuggestion[];
  /** Why saturation stopped: "saturated", a work bound ("iterationLimit", "nodeLimit", "applyLimit", "rebuildLimit", "documentBudget"), the safety net ("timeLimit"), "cancelled". */
  stopReason: string;
  /**
   * Present when a time safety net stopped the work (saturation's, on this
   * process's CPU time, or the ILP solver's, on the wall clock): the
   * suggestions may then differ from those of a faster machine.
   */
  safetyNet?: { what: "saturation" | "extraction"; limitMs: number; ms: number };
  /** The work saturation did, in counts (iterations of both phases, matches applied). */
  work: { iterations: number; applied: number };
  nodes: number;
  classes: number;
  ms: number;
  planGraphs?: ExtractionGraph[];
  /** With `executable`: the block with every suggestion applied (absent without suggestions). */
  executable?: ExecutableDag;
}

export interface BlockInput {
  block: BasicBlock;
  dag: BlockDag;
  /** Stats of every DAG node, by id. */
  stats: readonly NodeStats[];
  /** The script text (opaque sub-expressions print as written). */
  sourceText: string;
}

export function optimizeBlock(input: BlockInput, given: SuggestOptions = {}): BlockOptimization {
  const start = performance.now();
  // An extractor stopped by its time limit (the ILP's safety net) is reported like saturation's.
  let extractionSafetyNet: { limitMs: number; ms: number } | undefined;
  const options: SuggestOptions = { ...given };
  if (given.extract) {
    const extract = given.extract;
    options.extract = (graph) => {
      const extraction = extract(graph);
      if (extraction.timedOut) extractionSafetyNet = { limitMs: extraction.timeLimitMs ?? NaN, ms: Math.max(extraction.ms, extractionSafetyNet?.ms ?? 0) };
      return extraction;
    };
  }
  const roots = statementRoots(input.block, input.dag).filter((r) => isOptimizable(input, r));
  if (roots.length === 0) return withFusion({ suggestions: [], dropped: [], stopReason: "nothing to optimize", work: { iterations: 0, applied: 0 }, nodes: 0, classes: 0, ms: performance.now() - start }, input, undefined);
  const block = buildBlockEGraph(input.dag, input.stats, { explanations: options.explanations ?? true });
  seedBlock(block, roots.map((r) => block.classOfNode[r.node]!));
  const bounded = blockSaturation(options.saturation ?? {}, options.documentBudget);
  const report = bounded === undefined ? undefined : saturate(block.egraph, block.attributes, bounded);
  if (options.documentBudget) spend(options.documentBudget, block.egraph.nodeCount, report?.applied ?? 0);
  const isOriginal = originalPlanFilter(block);
  const outcomes = new Map<StatementRoot, Outcome>();
  const planGraphs: ExtractionGraph[] = [];
  const suggested: StatementPlan[] = [];
  for (const root of roots) {
    const plan = planStatement(block, root, isOriginal, { extract: options.extract, writable: statementWritable(input, root) });
    if (!plan) continue;
    planGraphs.push(plan.after.graph);
    const outcome = finish(input, block, plan, options);
    if (outcome) outcomes.set(root, outcome);
    if (outcome?.kind === "suggestion") suggested.push(plan);
  }
  for (const [root, outcome] of shareTemporaries(input, block, suggested, isOriginal, options)) outcomes.set(root, outcome);
  const suggestions: Suggestion[] = [];
  const replacements: Replacement[] = [];
  const dropped: DroppedSuggestion[] = [];
  for (const root of roots) {
    const outcome = outcomes.get(root);
    if (outcome?.kind === "suggestion") {
      suggestions.push(outcome.suggestion);
      replacements.push(outcome.replacement);
    } else if (outcome?.kind === "dropped") dropped.push(outcome.dropped);
  }
  const rewritten = options.rewrittenView === false ? undefined : rewrittenFusion(input, block, replacements);
  const result = withFusion({
    suggestions,
    dropped,
    // No report: the document's work budget was spent by earlier blocks.
    stopReason: report?.stopReason ?? "documentBudget",
    work: { iterations: report?.iterations.length ?? 0, applied: report?.applied ?? 0 },
    nodes: block.egraph.nodeCount,
    classes: block.egraph.classCount,
    ms: performance.now() - start,
  }, input, rewritten);
  if (report?.safetyNet) result.safetyNet = { what: "saturation", ...report.safetyNet };
  else if (extractionSafetyNet) result.safetyNet = { what: "extraction", ...extractionSafetyNet };
  if (options.keepPlanGraphs) result.planGraphs = planGraphs;
  if (options.executable) {
    const executable = rewrittenBlockDag(input, block, replacements);
    if (executable) result.executable = executable;
  }
  return result;
}

/**
 * The result with its `fusion` views. The as-written view is planned when
 * first read (an enumerable getter, so spreading, JSON and the worker's
 * messages see it): the runtime's compilation never reads it and plans the
 * block itself. The rewritten view is planned now, while the e-graph lives.
 */
function withFusion(result: Omit<BlockOptimization, "fusion">, input: BlockInput, rewritten: FusionView | undefined): BlockOptimization {
  let fusion: BlockFusion | undefined;
  return Object.defineProperty(result, "fusion", {
    enumerable: true,
    configurable: true,
    get: (): BlockFusion => (fusion ??= { asWritten: asWrittenFusion(input), ...(rewritten ? { rewritten } : {}) }),
  }) as BlockOptimization;
}

/**
 * Re-plans the suggested statements with their shared sub-plans as new
 * variables; all of them must still verify, else the single-statement
 * suggestions stand.
 */
function shareTemporaries(input: BlockInput, block: BlockEGraph, suggested: readonly StatementPlan[], isOriginal: (node: ENode) => boolean, options: SuggestOptions): Map<StatementRoot, Outcome> {
  const temporaries = sharedTemporaries(suggested, input.sourceText);
  if (temporaries.length === 0) return new Map();
  const names = new Map(temporaries.map((t) => [t.cls, t.name]));
  const definitions = new Map<SharedTemporary, { text: string; measures: PlanMeasures; cost: number; plan: ExtractedPlan }>();
  for (const temporary of temporaries) {
    const plan = planClass(block, temporary.cls, temporary.users[0]!, options.extract);
    if (!plan) return new Map();
    try {
      const extracted = { graph: plan.graph, extraction: plan.extraction };
      definitions.set(temporary, { text: termToDml(plan.term, (op) => leafText(input.sourceText, block, op)), measures: planMeasures(block, plan.graph, plan.extraction), cost: planCost(block, extracted), plan: extracted });
    } catch (error) {
      if (error instanceof UnprintableTermError) return new Map();
      throw error;
    }
  }
  const result = new Map<StatementRoot, Outcome>();
  for (const user of new Set(temporaries.flatMap((t) => t.users))) {
    const plan = planStatement(block, user.root, isOriginal, { extract: options.extract, extraNames: names, writable: statementWritable(input, user.root) });
    const owned = temporaries.filter((t) => t.users[0] === user);
    const used = temporaries.filter((t) => t.users.includes(user));
    if (!plan) return new Map();
    const shared = { owned: owned.map((t) => ({ name: t.name, ...definitions.get(t)! })), used: used.map((t) => ({ name: t.name, text: definitions.get(t)!.text })) };
    const outcome = finish(input, block, plan, options, shared);
    if (outcome?.kind !== "suggestion") return new Map();
    outcome.suggestion.sharedWith = [...new Set(used.flatMap((t) => t.users))].filter((u) => u !== user).map((u) => u.root.target);
    result.set(user.root, outcome);
  }
  return result;
}

/**
 * Binds each statement's class, then seeds saturation with what sampled
 * rewriting reaches slowly: the factorized sum-product form of each
 * statement and the best order of each multiplication chain.
 */
export function seedBlock(block: BlockEGraph, roots: readonly ClassId[]): void {
  const { egraph, attributes } = block;
  const original = new Map<ClassId, ENode>();
  block.classOfNode.forEach((cls, node) => {
    if (!original.has(egraph.find(cls))) original.set(egraph.find(cls), block.originalNodes[node]!);
  });
  const nodeOf = (cls: ClassId) => original.get(egraph.find(cls));
  seedChainOrders(egraph, nodeOf, roots);
  for (const root of roots) {
    const bind = bindRoot(egraph, attributes, root);
    if (bind !== undefined && withinSize(nodeOf, root, SUM_PRODUCT_SEED_NODE_LIMIT)) seedSumProductForm(egraph, attributes, nodeOf, root, bind);
  }
  egraph.rebuild();
}

/**
 * Work bound of a statement's sum-product seed: the DAG nodes under it
 * (through earlier statements too). Its polynomial is built by recursion
 * over them, so a longer one (a statement over 10,000 earlier ones) is left
 * to the rules: the seed would cost time, memory and stack per statement.
 */
export const SUM_PRODUCT_SEED_NODE_LIMIT = 256;

/** Whether at most `limit` distinct classes lie under `root` (following `nodeOf`; a walk of at most limit + 1 classes). */
function withinSize(nodeOf: (cls: ClassId) => ENode | undefined, root: ClassId, limit: number): boolean {
  const seen = new Set<ClassId>([root]);
  const stack = [root];
  while (stack.length > 0) {
    const node = nodeOf(stack.pop()!);
    for (const child of node?.children ?? []) {
      if (seen.has(child)) continue;
      if (seen.size >= limit) return false;
      seen.add(child);
      stack.push(child);
    }
  }
  return true;
}

/** Statements worth optimizing: their value is a matrix or scalar expression over known sizes, not a bare leaf. */
function isOptimizable(input: BlockInput, root: StatementRoot): boolean {
  const node = input.dag.nodes[root.node]!;
  if (node.op.kind === "input" || node.op.kind === "literal") return false;
  const stats = input.stats[root.node];
  return stats !== undefined && (stats.type.dataType === "scalar" || (stats.type.dataType === "matrix" && stats.rows !== null && stats.cols !== null));
}

/** A suggestion with what the block's rewritten fusion plan needs: the statement's plan and the temporaries its edit assigns. */
type Outcome = { kind: "suggestion"; suggestion: Suggestion; replacement: Replacement } | { kind: "dropped"; dropped: DroppedSuggestion } | undefined;

interface SharedUse {
  /** Temporaries this statement assigns first (their cost, with fusion, is its cost). */
  owned: { name: string; text: string; cost: number; measures: PlanMeasures; plan: ExtractedPlan }[];
  /** Every temporary its plan may use. */
  used: { name: string; text: string }[];
}

/** The statement's suggestion if its plan is cheaper by the margin, prints, and verifies. */
function finish(input: BlockInput, block: BlockEGraph, plan: StatementPlan, options: SuggestOptions, shared?: SharedUse): Outcome {
  const { root } = plan;
  if (!shared && extractsOriginal(plan)) return undefined;
  // Both plans as they would run, each with its fused operators (fused-plan-cost.ts).
  const costBefore = planCost(block, plan.before);
  const costAfter = planCost(block, plan.after) + (shared?.owned.reduce((sum, t) => sum + t.cost, 0) ?? 0);
  const thresholds = { minSaving: options.minSaving ?? DEFAULT_SAVING_THRESHOLDS.minSaving, minSavingMs: options.minSavingMs ?? DEFAULT_SAVING_THRESHOLDS.minSavingMs };
  if (!savesEnough(costBefore, costAfter, thresholds)) return undefined;
  const original = textInRange(input.sourceText, root.range);
  let rewritten: string;
  try {
    rewritten = termToDml(extractedTerm(plan.after.graph, plan.after.extraction), (op) => leafText(input.sourceText, block, op));
  } catch (error) {
    if (!(error instanceof UnprintableTermError)) throw error;
    return { kind: "dropped", dropped: { target: root.target, original, rewritten: "", reason: `cannot print the plan: ${error.message}` } };
  }
  if (sameExpression(rewritten, original)) return undefined;
  // The statement's writable numbers, as its extraction used them.
  const baked = [...new Set([rewritten, ...(shared?.owned ?? []).map((t) => t.text)].flatMap((text) => unwritableNumbers(text, plan.writable)))];
  if (baked.length > 0) {
    const reason = `it would write ${baked.join(", ")} into the code where the original computes ${baked.length > 1 ? "these values" : "the value"} from its data, parameters or sizes`;
    return { kind: "dropped", dropped: { target: root.target, original, rewritten, reason } };
  }
  if (options.verify !== false) {
    // The runtime checks the statement with its temporaries written out in place.
    let inlined = rewritten;
    for (const t of shared?.used ?? []) inlined = inlined.replace(new RegExp(`\\b${t.name}\\b`, "g"), `(${t.text})`);
    const shapes = variableShapes(input, block, root, `${original} ${inlined}`);
    if (typeof shapes === "string") return { kind: "dropped", dropped: { target: root.target, original, rewritten, reason: shapes } };
    const verdict = verifyRewrite(original, inlined, shapes, { trueSizeSeconds: costBefore + costAfter });
    if (!verdict.verified) return { kind: "dropped", dropped: { target: root.target, original, rewritten, reason: verdict.reason } };
  }
  const stats = input.stats[root.node]!;
  const matrix = stats.type.dataType === "matrix";
  const before = planMeasures(block, plan.before.graph, plan.before.extraction);
  const after = (shared?.owned ?? []).reduce((sum, t) => addMeasures(sum, t.measures), planMeasures(block, plan.after.graph, plan.after.extraction));
  const suggestion: Suggestion = {
    range: root.range,
    target: root.target,
    original,
    rewritten,
    costBefore,
    costAfter,
    unit: "s",
    flops: { before: before.flops, after: after.flops },
    bytes: { before: before.bytes, after: after.bytes },
    rows: matrix ? stats.rows : null,
    cols: matrix ? stats.cols : null,
    nnz: matrix && stats.nnz !== null ? Math.round(egraphNnz(block, plan.rootClass) ?? stats.nnz) : null,
    explanation: options.explanations === false ? [] : explain(block, root, plan.after.graph, plan.after.extraction),
    plan: planNodes(block, plan.after.graph, plan.after.extraction),
  };
  if (shared && shared.owned.length > 0) suggestion.temporaries = shared.owned.map((t) => ({ name: t.name, text: t.text, insertAt: root.statementStart }));
  const replacement: Replacement = { root, plan: plan.after, temporaries: (shared?.owned ?? []).map((t) => ({ name: t.name, plan: t.plan })) };
  return { kind: "suggestion", suggestion, replacement };
}

/** An extracted plan's seconds with fusion (its extraction cost when the plan cannot be a fusion DAG). */
function planCost(block: BlockEGraph, plan: ExtractedPlan): number {
  return fusedPlanCost(block, plan)?.fused ?? plan.extraction.dagCost;
}

/** The extracted plan as indexed nodes, root first, each class once. */
function planNodes(block: BlockEGraph, graph: ExtractionGraph, extraction: Extraction): PlanNode[] {
  const index = new Map<string, number>();
  const nodes: PlanNode[] = [];
  const visit = (cls: string): number => {
    const known = index.get(cls);
    if (known !== undefined) return known;
    const node = graph.nodes.get(extraction.choices.get(cls)!)!;
    const at = nodes.length;
    index.set(cls, at);
    const data = block.egraph.data(Number(cls));
    const stats = data.family === "la" && data.stats.type.dataType === "matrix" ? data.stats : undefined;
    nodes.push({ op: node.op, children: [], cost: node.cost, rows: stats?.rows ?? null, cols: stats?.cols ?? null, nnz: stats?.nnz === undefined || stats.nnz === null ? null : Math.round(stats.nnz) });
    nodes[at]!.children = node.children.map((child) => visit(graph.nodes.get(child)!.eclass));
    return at;
  };
  visit(graph.roots[0]!);
  return nodes;
}

/** The rule steps from the statement's original e-node to the extracted plan's top e-node. */
function explain(block: BlockEGraph, root: StatementRoot, graph: ExtractionGraph, extraction: Extraction): string[] {
  const chosen = graph.nodes.get(extraction.choices.get(graph.roots[0]!)!)!;
  const top: ENode = { op: chosen.op, children: chosen.children.map((child) => Number(graph.nodes.get(child)!.eclass)) };
  const steps = block.egraph.explain(block.originalNodes[root.node]!, top) ?? [];
  return steps.map((step) => `${step.rule}: ${step.left} = ${step.right}`);
}

function egraphNnz(block: BlockEGraph, id: ClassId): number | null {
  const data = block.egraph.data(id);
  return data.family === "la" ? data.stats.nnz : null;
}

/** The numbers a statement's rewrite may write (writableNumbers of its parsed right-hand side), worked out when the extraction first meets a literal. */
function statementWritable(input: BlockInput, root: StatementRoot): (value: number) => boolean {
  let writable: ((value: number) => boolean) | undefined;
  const statement = input.block.statements[root.index];
  const original = statement?.kind === "assign" ? statement.value : textInRange(input.sourceText, root.range);
  return (value) => (writable ??= writableNumbers(original, dataValues(input, root)))(value);
}

/**
 * Values the original statement derives from data, parameters or sizes:
 * the known values of its non-literal scalars and the dims (above 1) of its
 * matrices, each looked up through the DAG below the statement.
 */
function dataValues(input: BlockInput, root: StatementRoot): Set<number> {
  const values = new Set<number>();
  for (const id of nodesReachableFrom(input.dag, [root.node])) {
    const stats = input.stats[id];
    if (input.dag.nodes[id]!.op.kind === "literal" || !stats) continue;
    if (stats.type.dataType === "scalar" && typeof stats.value === "number") values.add(stats.value);
    if (stats.type.dataType === "matrix") for (const d of [stats.rows, stats.cols]) if (d !== null && d > 1) values.add(d);
  }
  values.delete(0);
  values.delete(1);
  return values;
}

/** Shapes of the variables the two texts use, from the stats of their values before the statement. */
function variableShapes(input: BlockInput, block: BlockEGraph, root: StatementRoot, texts: string): VariableShape[] | string {
  const shapes: VariableShape[] = [];
  const used = new Set(texts.match(/[A-Za-z_][A-Za-z0-9_.]*/g) ?? []);
  const dimensions = new Set([...texts.matchAll(/\b(?:rows|cols)\s*=\s*([A-Za-z_][A-Za-z0-9_.]*)/g)].map((m) => m[1]!));
  const byName = new Map<string, NodeStats>();
  for (const name of used) {
    const node = root.scope.nodeOf(name) ?? block.leafNodes.get(`var:${name}`)?.id;
    if (node !== undefined) byName.set(name, input.stats[node]!);
  }
  for (const [name, stats] of byName) {
    if (stats.type.dataType === "scalar") {
      // The verifier evaluates with the value the optimizer folded; an unknown scalar used as a dimension is a positive integer.
      const shape: VariableShape = { name, kind: "scalar" };
      if (typeof stats.value === "number") shape.value = stats.value;
      else if (typeof stats.value === "boolean") shape.value = stats.value ? 1 : 0;
      if (dimensions.has(name)) shape.dimension = true;
      shapes.push(shape);
    }
    else if (stats.type.dataType === "matrix" && stats.rows !== null && stats.cols !== null) {
      const shape: VariableShape = { name, kind: "matrix", rows: stats.rows, cols: stats.cols };
      if (stats.nnz !== null && stats.rows * stats.cols > 0) shape.sparsity = stats.nnz / (stats.rows * stats.cols);
      shapes.push(shape);
    } else return `the size of ${name} is unknown, so the rewrite cannot be checked`;
  }
  return shapes;
}
