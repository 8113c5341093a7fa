/**
 * The optimizer on one statement block: the block's DAG goes into an
 * e-graph, is saturated with the SPORES rules under a budget, and for each
 * statement the cheapest equivalent plan is extracted. A statement whose
 * plan beats the original by the margin becomes a suggestion, after the
 * runtime has checked both sides agree on random inputs.
 */
import type { ClassId, ENode } from "../egraph/types";
import { extractGreedyDag, type Extraction, type ExtractionGraph } from "../extract";
import type { BlockDag } from "../program/dag-types";
import type { BasicBlock } from "../program/statement-block";
import { bindRoot, buildBlockEGraph, saturate, seedChainOrders, seedSumProductForm, termToDml, type BlockEGraph, type SaturationOptions } from "../rewrite";
import type { NodeStats } from "../stats/sizes/node-stats";
import type { Range } from "../syntax/ast";
import { textInRange } from "../syntax/ranges";
import { extractedTerm, NAME_PREFIX, planGraph } from "./plan-graph";
import { statementRoots, type StatementRoot } from "./statement-roots";
import { verifyRewrite, type VariableShape } from "./verify-rewrite";

export interface SuggestOptions {
  saturation?: SaturationOptions;
  /** Suggest only when the rewritten plan is at least this many times cheaper (default 1.2). */
  minSpeedup?: number;
  /** Check each suggestion with the runtime (default true). */
  verify?: boolean;
  /** Return each statement's extraction graph (for extraction benchmarks). */
  keepPlanGraphs?: boolean;
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
  rows: number | null;
  cols: number | null;
  nnz: number | null;
  /** The rule applications that prove the two sides equal (when recorded). */
  explanation: string[];
}

export interface DroppedSuggestion {
  target: string;
  original: string;
  rewritten: string;
  reason: string;
}

export interface BlockOptimization {
  suggestions: Suggestion[];
  dropped: DroppedSuggestion[];
  stopReason: string;
  nodes: number;
  classes: number;
  ms: number;
  planGraphs?: ExtractionGraph[];
}

export interface BlockInput {
  block: BasicBlock;
  dag: BlockDag;
  /** Stats of every DAG node, by id. */
  stats: readonly NodeStats[];
  /** The script text (opaque sub-expressions print as written). */
  sourceText: string;
}

export function optimizeBlock(input: BlockInput, options: SuggestOptions = {}): BlockOptimization {
  const start = performance.now();
  const roots = statementRoots(input.block, input.dag).filter((r) => isOptimizable(input, r));
  if (roots.length === 0) return { suggestions: [], dropped: [], stopReason: "nothing to optimize", nodes: 0, classes: 0, ms: performance.now() - start };
  const block = buildBlockEGraph(input.dag, input.stats, { explanations: true });
  seedBlock(block, roots.map((r) => block.classOfNode[r.node]!));
  const report = saturate(block.egraph, block.attributes, options.saturation);
  const originals = originalNodeKeys(block);
  const suggestions: Suggestion[] = [];
  const dropped: DroppedSuggestion[] = [];
  const planGraphs: ExtractionGraph[] = [];
  for (const root of roots) {
    const outcome = suggestFor(input, block, root, originals, options, planGraphs);
    if (outcome?.kind === "suggestion") suggestions.push(outcome.suggestion);
    else if (outcome?.kind === "dropped") dropped.push(outcome.dropped);
  }
  const result: BlockOptimization = { suggestions, dropped, stopReason: report.stopReason, nodes: block.egraph.nodeCount, classes: block.egraph.classCount, ms: performance.now() - start };
  if (options.keepPlanGraphs) result.planGraphs = planGraphs;
  return result;
}

/**
 * Binds each statement's class, then seeds saturation with what sampled
 * rewriting reaches slowly: the factorized sum-product form of each
 * statement and the best order of each multiplication chain.
 */
function seedBlock(block: BlockEGraph, roots: readonly ClassId[]): void {
  const { egraph, attributes } = block;
  const original = new Map<ClassId, ENode>();
  block.classOfNode.forEach((cls, node) => {
    if (!original.has(egraph.find(cls))) original.set(egraph.find(cls), block.originalNodes[node]!);
  });
  const nodeOf = (cls: ClassId) => original.get(egraph.find(cls));
  seedChainOrders(egraph, nodeOf, roots);
  for (const root of roots) {
    const bind = bindRoot(egraph, attributes, root);
    if (bind !== undefined) seedSumProductForm(egraph, attributes, nodeOf, root, bind);
  }
  egraph.rebuild();
}

/** Statements worth optimizing: their value is a matrix or scalar expression over known sizes, not a bare leaf. */
function isOptimizable(input: BlockInput, root: StatementRoot): boolean {
  const node = input.dag.nodes[root.node]!;
  if (node.op.kind === "input" || node.op.kind === "literal") return false;
  const stats = input.stats[root.node];
  return stats !== undefined && (stats.type.dataType === "scalar" || (stats.type.dataType === "matrix" && stats.rows !== null && stats.cols !== null));
}

function nodeKey(egraph: BlockEGraph["egraph"], node: ENode): string {
  return `${node.op}|${node.children.map((c) => egraph.find(c)).join(",")}`;
}

function originalNodeKeys(block: BlockEGraph): Set<string> {
  return new Set(block.originalNodes.map((n) => nodeKey(block.egraph, n)));
}

type Outcome = { kind: "suggestion"; suggestion: Suggestion } | { kind: "dropped"; dropped: DroppedSuggestion } | undefined;

function suggestFor(input: BlockInput, block: BlockEGraph, root: StatementRoot, originals: Set<string>, options: SuggestOptions, planGraphs: ExtractionGraph[]): Outcome {
  const { egraph } = block;
  const rootClass = egraph.find(block.classOfNode[root.node]!);
  const named = new Map<ClassId, string>();
  for (const [node, name] of root.named) named.set(egraph.find(block.classOfNode[node]!), name);
  const staleLeaf = (node: ENode) => node.op.startsWith("var:") && root.stale.has(node.op.slice(4));
  const isOriginal = (node: ENode) => originals.has(nodeKey(egraph, node));
  const originalClasses = new Set(block.classOfNode.map((c) => egraph.find(c)));
  // SystemDS fuses these itself: the original plan is costed as executed, with its fused operators.
  const fusedOverOriginals = (node: ENode) => node.op.startsWith("fused:") && node.children.every((c) => originalClasses.has(egraph.find(c)));
  const before = planGraph(egraph, rootClass, { named, allowed: (node) => !staleLeaf(node) && (isOriginal(node) || fusedOverOriginals(node)) });
  const after = planGraph(egraph, rootClass, { named, allowed: (node) => !staleLeaf(node) });
  if (options.keepPlanGraphs) planGraphs.push(after);
  const original = textInRange(input.sourceText, root.range);
  let beforeExtraction: Extraction;
  let afterExtraction: Extraction;
  try {
    beforeExtraction = extractGreedyDag(before);
    afterExtraction = extractGreedyDag(after);
  } catch {
    return undefined;
  }
  const costBefore = beforeExtraction.dagCost;
  const costAfter = afterExtraction.dagCost;
  if (!(costAfter * (options.minSpeedup ?? 1.2) <= costBefore)) return undefined;
  let rewritten: string;
  try {
    rewritten = termToDml(extractedTerm(after, afterExtraction), (op) => leafText(input, block, op));
  } catch (error) {
    return { kind: "dropped", dropped: { target: root.target, original, rewritten: "", reason: `cannot print the plan: ${(error as Error).message}` } };
  }
  if (normalize(rewritten) === normalize(original)) return undefined;
  if (options.verify !== false) {
    const shapes = variableShapes(input, block, root, `${original} ${rewritten}`);
    if (typeof shapes === "string") return { kind: "dropped", dropped: { target: root.target, original, rewritten, reason: shapes } };
    const verdict = verifyRewrite(original, rewritten, shapes);
    if (!verdict.verified) return { kind: "dropped", dropped: { target: root.target, original, rewritten, reason: verdict.reason } };
  }
  const stats = input.stats[root.node]!;
  const matrix = stats.type.dataType === "matrix";
  return {
    kind: "suggestion",
    suggestion: {
      range: root.range,
      target: root.target,
      original,
      rewritten,
      costBefore,
      costAfter,
      unit: "s",
      rows: matrix ? stats.rows : null,
      cols: matrix ? stats.cols : null,
      nnz: matrix && stats.nnz !== null ? Math.round(egraphNnz(block, rootClass) ?? stats.nnz) : null,
      explanation: explain(block, root, after, afterExtraction),
    },
  };
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

function leafText(input: BlockInput, block: BlockEGraph, op: string): string | undefined {
  if (op.startsWith(NAME_PREFIX)) return op.slice(NAME_PREFIX.length);
  const node = block.leafNodes.get(op);
  return node ? `(${textInRange(input.sourceText, node.range)})` : undefined;
}

function normalize(text: string): string {
  return text.replace(/\s+/g, "");
}

/** Shapes of the variables the two texts use, from the stats of their values before the statement. */
function variableShapes(input: BlockInput, block: BlockEGraph, root: StatementRoot, texts: string): VariableShape[] | string {
  const shapes: VariableShape[] = [];
  const used = new Set(texts.match(/[A-Za-z_][A-Za-z0-9_.]*/g) ?? []);
  const byName = new Map<string, NodeStats>();
  for (const [node, name] of root.named) byName.set(name, input.stats[node]!);
  for (const [op, node] of block.leafNodes) {
    if (op.startsWith("var:") && !byName.has(op.slice(4))) byName.set(op.slice(4), input.stats[node.id]!);
  }
  for (const [name, stats] of byName) {
    if (!used.has(name)) continue;
    if (stats.type.dataType === "scalar") shapes.push({ name, kind: "scalar" });
    else if (stats.type.dataType === "matrix" && stats.rows !== null && stats.cols !== null) {
      const shape: VariableShape = { name, kind: "matrix", rows: stats.rows, cols: stats.cols };
      if (stats.nnz !== null && stats.rows * stats.cols > 0) shape.sparsity = stats.nnz / (stats.rows * stats.cols);
      shapes.push(shape);
    } else return `the size of ${name} is unknown, so the rewrite cannot be checked`;
  }
  return shapes;
}
