/**
 * One statement's plans in the saturated block e-graph: the original plan
 * (the DAG's own e-nodes), extracted greedily with DAG costs, and the cheapest plan, extracted
 * by the given extractor (greedy by default, or the ILP).
 * Values that variables hold before the statement are named leaves; extra
 * names (shared temporaries) can be given. The cheapest plan keeps the
 * script's symbolic values: where a class holds a DAG node that is not a
 * literal (`ncol(X)`, `tol^2`, `matrix(0, rows=d, cols=1)`), the literal or
 * constant matrix that constant folding put there is not chosen, so the
 * rewrite never writes today's sizes or parameter values into the code;
 * nor a literal the statement may not write (`writable`, worth-taking.ts:
 * `x / 2000` stays so, not `x * 5.0E-4`).
 */
import type { ClassId, ENode, Term } from "../egraph";
import { extractGreedyDag, reachableChoices, UnextractableClassError, type Extraction, type ExtractionGraph } from "../extract";
import { type BlockEGraph, fillDims, literalValue } from "../rewrite";
import { extractedTerm, planGraph } from "./plan-graph";
import type { StatementRoot } from "./statement-roots";

/** Picks a plan from an extraction graph (default: greedy with DAG costs). */
export type Extractor = (graph: ExtractionGraph) => Extraction;

export interface StatementPlan {
  root: StatementRoot;
  rootClass: ClassId;
  /** Class → the variable holding its value before the statement. */
  nameOf: (cls: ClassId) => string | undefined;
  before: { graph: ExtractionGraph; extraction: Extraction };
  after: { graph: ExtractionGraph; extraction: Extraction };
  /** The numbers the statement's rewrite may write as literals. */
  writable: (value: number) => boolean;
}

export interface PlanStatementOptions {
  extract?: Extractor | undefined;
  /** Classes held by other names (shared temporaries). */
  extraNames?: ReadonlyMap<ClassId, string>;
  /** The numbers the rewrite may write as literals (default: any). */
  writable?: (value: number) => boolean;
}

const ANY_NUMBER = () => true;

/** Whether a node is not a literal, or one whose printed numbers (a negative one prints its magnitude too) may all be written. */
function writesOnly(node: ENode, writable: (value: number) => boolean): boolean {
  const value = literalValue(node.op);
  return value === undefined || (writable(value) && (value >= 0 || writable(-value)));
}

function nodeKey(block: BlockEGraph, node: ENode): string {
  return `${node.op}|${node.children.map((c) => block.egraph.find(c)).join(",")}`;
}

/** What every statement's original plan may use: the DAG's own e-nodes (its fusion is costed afterwards, by the fusion planner). */
export function originalPlanFilter(block: BlockEGraph): (node: ENode) => boolean {
  const originals = new Set(block.originalNodes.map((n) => nodeKey(block, n)));
  return (node) => originals.has(nodeKey(block, node));
}

/**
 * Whether a node may stand in the cheapest plan: not a literal (or constant
 * matrix) that constant folding put in place of a value the script computes
 * from its own names and sizes. Such classes are those of the DAG's
 * non-literal nodes and, transitively, every class with a folded constant
 * that one of its members computes from such a class (`1 / (nrow(X) - 1)`).
 */
export function symbolicFilter(block: BlockEGraph): (node: ENode, id: ClassId) => boolean {
  const known = symbolicFilters.get(block);
  if (known && known.version === block.egraph.version) return known.filter;
  const { egraph } = block;
  const computed = new Set<ClassId>();
  const fills = new Set<ClassId>();
  block.originalNodes.forEach((node, k) => {
    if (node === undefined || literalValue(node.op) !== undefined) return;
    const cls = egraph.find(block.classOfNode[k]!);
    if (fillDims(node.op) !== undefined) fills.add(cls);
    else computed.add(cls);
  });
  const folded: { id: ClassId; nodes: readonly ENode[] }[] = [];
  egraph.forEachClass((eclass) => {
    if (eclass.nodes.some((n) => literalValue(n.op) !== undefined || fillDims(n.op) !== undefined)) folded.push({ id: eclass.id, nodes: eclass.nodes });
  });
  const symbolic = new Set(computed);
  for (let changed = true; changed; ) {
    changed = false;
    for (const { id, nodes } of folded) {
      if (symbolic.has(id)) continue;
      if (nodes.some((n) => n.children.some((c) => symbolic.has(egraph.find(c))))) {
        symbolic.add(id);
        changed = true;
      }
    }
  }
  const filter = (node: ENode, id: ClassId) => {
    const cls = egraph.find(id);
    if (literalValue(node.op) !== undefined) return !symbolic.has(cls) && !fills.has(cls);
    if (fillDims(node.op) !== undefined) return !symbolic.has(cls);
    return true;
  };
  symbolicFilters.set(block, { version: egraph.version, filter });
  return filter;
}

const symbolicFilters = new WeakMap<BlockEGraph, { version: number; filter: (node: ENode, id: ClassId) => boolean }>();

/** Canonical class → the DAG nodes in it (built once per e-graph version, shared by the block's statements). */
function dagNodesByClass(block: BlockEGraph): Map<ClassId, number[]> {
  const known = dagNodeIndexes.get(block);
  if (known && known.version === block.egraph.version) return known.index;
  const index = new Map<ClassId, number[]>();
  block.classOfNode.forEach((cls, node) => {
    const root = block.egraph.find(cls);
    const list = index.get(root);
    if (list) list.push(node);
    else index.set(root, [node]);
  });
  dagNodeIndexes.set(block, { version: block.egraph.version, index });
  return index;
}

const dagNodeIndexes = new WeakMap<BlockEGraph, { version: number; index: Map<ClassId, number[]> }>();

/** The variable that holds a class's value just before the statement (the first of its DAG nodes a variable holds). */
function classNames(block: BlockEGraph, root: StatementRoot): (cls: ClassId) => string | undefined {
  const index = dagNodesByClass(block);
  return (cls) => {
    for (const node of index.get(block.egraph.find(cls)) ?? []) {
      const name = root.scope.nameOf(node);
      if (name !== undefined) return name;
    }
    return undefined;
  };
}

/** The statement's plans, or undefined when one cannot be extracted (e.g. an unknown size everywhere). */
export function planStatement(block: BlockEGraph, root: StatementRoot, isOriginal: (node: ENode) => boolean, options: PlanStatementOptions = {}): StatementPlan | undefined {
  const { egraph } = block;
  const extract = options.extract ?? extractGreedyDag;
  const writable = options.writable ?? ANY_NUMBER;
  const symbolic = symbolicFilter(block);
  const rootClass = egraph.find(block.classOfNode[root.node]!);
  const nameOf = classNames(block, root);
  const staleLeaf = (node: ENode) => node.op.startsWith("var:") && root.scope.isStale(node.op.slice(4));
  const before = planGraph(egraph, rootClass, { nameOf, allowed: (node) => !staleLeaf(node) && isOriginal(node) });
  const extra = new Map<ClassId, string>();
  for (const [cls, name] of options.extraNames ?? []) if (egraph.find(cls) !== rootClass) extra.set(egraph.find(cls), name);
  const afterNameOf = (cls: ClassId) => extra.get(egraph.find(cls)) ?? nameOf(cls);
  const after = planGraph(egraph, rootClass, { nameOf: afterNameOf, allowed: (node, id) => !staleLeaf(node) && symbolic(node, id) && writesOnly(node, writable) });
  try {
    return { root, rootClass, nameOf, before: { graph: before, extraction: extractGreedyDag(before) }, after: { graph: after, extraction: extract(after) }, writable };
  } catch (error) {
    if (error instanceof UnextractableClassError) return undefined;
    throw error;
  }
}

/** The plan of any class, with the statement's names (a shared temporary's definition). */
export function planClass(block: BlockEGraph, cls: ClassId, plan: StatementPlan, extract: Extractor = extractGreedyDag): { graph: ExtractionGraph; extraction: Extraction; term: Term } | undefined {
  const staleLeaf = (node: ENode) => node.op.startsWith("var:") && plan.root.scope.isStale(node.op.slice(4));
  const symbolic = symbolicFilter(block);
  const graph = planGraph(block.egraph, block.egraph.find(cls), { nameOf: plan.nameOf, allowed: (node, id) => !staleLeaf(node) && symbolic(node, id) && writesOnly(node, plan.writable) });
  try {
    const extraction = extract(graph);
    return { graph, extraction, term: extractedTerm(graph, extraction) };
  } catch (error) {
    if (error instanceof UnextractableClassError) return undefined;
    throw error;
  }
}

/** Classes of the extracted plan that compute something (not named values, leaves or constants), with the cost of their sub-plan. */
export function computedClasses(plan: StatementPlan): Map<ClassId, number> {
  const { graph, extraction } = plan.after;
  const result = new Map<ClassId, number>();
  const cost = (cls: string, seen: Set<string>): number => {
    if (seen.has(cls)) return 0;
    seen.add(cls);
    const node = graph.nodes.get(extraction.choices.get(cls)!)!;
    return node.cost + node.children.reduce((sum, child) => sum + cost(graph.nodes.get(child)!.eclass, seen), 0);
  };
  for (const [cls, nodeId] of extraction.choices) {
    const node = graph.nodes.get(nodeId)!;
    if (node.children.length === 0 || node.op.startsWith("fill:")) continue;
    result.set(Number(cls), cost(cls, new Set()));
  }
  return result;
}

/**
 * The extracted plan after saturation is the original one: the same e-node
 * (or the same named leaf) chosen in every class the root needs. Both
 * graphs come from the same e-graph, whose nodes they name alike
 * (`class.index`), and give a node the same cost, so such a plan costs
 * what the original does: no saving, nothing to price or verify.
 */
export function extractsOriginal(plan: StatementPlan): boolean {
  const { before, after } = plan;
  if (before.graph.roots.join(",") !== after.graph.roots.join(",")) return false;
  const original = reachableChoices(before.graph, before.extraction.choices);
  const extracted = reachableChoices(after.graph, after.extraction.choices);
  if (original.size !== extracted.size) return false;
  for (const [cls, id] of original) if (extracted.get(cls) !== id || before.graph.nodes.get(id)!.op !== after.graph.nodes.get(id)!.op) return false;
  return true;
}
