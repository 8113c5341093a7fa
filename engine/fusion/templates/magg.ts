/**
 * The multi-aggregate (MAgg) template (SystemDS's TemplateMultiAgg and
 * createAndAddMultiAggPlans): formed after selection from the chosen
 * operators, not opened during exploration. Full aggregations that read the
 * same data are computed in one pass over it: `sum(X * Y)`, `sum(X^2)` and
 * `sum(Y^2)` scan X and Y once; `min(E)` and `max(E)` scan E's inputs once.
 *
 * Candidates are the Cell operators that end in a full aggregation (sum,
 * sumSq, min, max, or a dot product) and the full aggregations that run on
 * their own over a materialized matrix. Two groups merge (greedily, as
 * SystemDS does, fewest dependencies first) when
 * - together they have at most MAX_AGGREGATES aggregations (SystemDS: 3),
 * - they read a common materialized matrix,
 * - the aggregated values have the same size (each cell of the pass feeds
 *   every aggregation), and
 * - neither depends on the other (no aggregation is computed from another
 *   group's result, and no group reads a value another computes inside),
 * - and the merged pass costs no more than the two apart (a min or max
 *   makes the pass visit every cell, which can cost more than a sparse-safe
 *   sum over the non-zeros alone).
 * Only the first MAX_CANDIDATES candidates are grouped (a count bound).
 * A group of several becomes one `magg` operator with several roots, costed
 * by fusedOperatorSeconds (each distinct input read once). It is sparse-safe
 * when every aggregation is a sum or sumSq and every part is sparse-safe
 * for the shared main input.
 */
import type { MachineConstants } from "../../cost";
import type { FusionDag } from "../fusion-dag";
import { materializedNodes, operatorsByRoot } from "../materialized-nodes";
import { fusedOperatorSeconds, nodeSeconds } from "../select";
import type { FusedOperator, OperatorBinding } from "../types";
import { iterationNode } from "./cell";
import { chooseMainInput, sideAndScalarInputs } from "./input-binding";
import { isScalar, sameShape, shapeOf } from "./node-shapes";
import { aggregateOf, CELL_AGGREGATES, isDotProduct } from "./operation-classes";
import { isSparseSafe } from "./sparse-safety";

/** At most this many aggregations share one pass (SystemDS's multi-aggregate holds three). */
const MAX_AGGREGATES = 3;

/**
 * The work bound of grouping: the first this many candidates (by node id)
 * are considered. Grouping compares candidates pairwise and walks each
 * one's dependencies, so a block of thousands of aggregations (generated
 * code) would cost quadratic time; typical blocks have a handful.
 */
const MAX_CANDIDATES = 64;

interface AggregateGroup {
  /** The aggregation nodes (roots), ascending. */
  roots: number[];
  covered: Set<number>;
  inputs: number[];
  /** The operators the group replaces (bare aggregations have none). */
  operators: FusedOperator[];
  /** Every node the group's inputs are computed from (its dependencies). */
  upstream: Set<number>;
  /** The group as one operator (a single aggregation: as planned before grouping). */
  operator: FusedOperator | undefined;
  seconds: number;
}

export function groupMultiAggregates(dag: FusionDag, operators: FusedOperator[], constants?: MachineConstants): FusedOperator[] {
  const candidates = candidateGroups(dag, operators, constants);
  if (candidates.length < 2) return operators;
  const groups = mergeGroups(dag, candidates, constants);
  const replaced = new Set<FusedOperator>();
  const result: FusedOperator[] = [];
  for (const group of groups) {
    if (group.roots.length < 2 || !group.operator) continue;
    for (const op of group.operators) replaced.add(op);
    result.push(group.operator);
  }
  if (result.length === 0) return operators;
  const kept = operators.filter((op) => !replaced.has(op));
  const absorbed = absorbProducers(dag, result, kept, constants);
  return [...kept.filter((op) => !absorbed.has(op)), ...result].sort((a, b) => a.roots[0]! - b.roots[0]!).map((op, id) => ({ ...op, id }));
}

/**
 * Selection costs each aggregation's Cell operator on its own, before the
 * multi-aggregates exist: a value both read (l2svm's `out = 1 - Y * tmp_Xw`,
 * feeding `sum(out * Y * Xd)` through `out * (out > 0)` and
 * `sum(Xd * (out > 0) * Xd)`) is then cheaper materialized once than
 * computed in each. Inside one multi-aggregate it is computed once per cell
 * anyway, so a Cell operator (no aggregation, same cells) whose value only
 * the group reads, and that leaves the block nowhere, is taken into the
 * group when the pass then costs no more than the two apart: its value is
 * not written and read back. Replaces the group's operator in `groups` in
 * place; returns the Cell operators taken in.
 */
function absorbProducers(dag: FusionDag, groups: FusedOperator[], operators: readonly FusedOperator[], constants?: MachineConstants): Set<FusedOperator> {
  const absorbed = new Set<FusedOperator>();
  const needed = upstreamOf(dag, dag.roots);
  const roots = new Set(dag.roots);
  for (const [k, start] of groups.entries()) {
    let multi = start;
    for (let changed = true; changed; ) {
      changed = false;
      for (const producer of operators) {
        if (absorbed.has(producer) || producer.template !== "cell" || producer.roots.length !== 1) continue;
        const value = producer.roots[0]!;
        if (!multi.inputs.includes(value) || roots.has(value) || aggregateOf(dag, value) !== undefined) continue;
        if (!sameShape(shapeOf(dag, value), shapeOf(dag, iterationNode(dag, multi.roots[0]!)))) continue;
        const inside = new Set(multi.covered);
        if (dag.consumers[value]!.some((c) => needed.has(c) && !inside.has(c))) continue;
        const inputs = [...new Set([...multi.inputs.filter((i) => i !== value), ...producer.inputs])];
        const taken = multiAggregateOperator(dag, group(dag, multi.roots, [...multi.covered, ...producer.covered], inputs, []), constants);
        if (!taken || !noCostlier(taken.seconds, multi.seconds + producer.seconds)) continue;
        multi = taken;
        absorbed.add(producer);
        changed = true;
      }
    }
    groups[k] = multi;
  }
  return absorbed;
}

/** A full aggregation a multi-aggregate can hold: sum, sumSq, min, max of a known matrix, or a dot product. */
function isMultiAggregateRoot(dag: FusionDag, node: number): boolean {
  if (isDotProduct(dag, node)) return true;
  const agg = aggregateOf(dag, node);
  return !!agg && agg.direction === "full" && CELL_AGGREGATES.has(agg.fn) && shapeOf(dag, dag.nodes[node]!.inputs[0]!) !== undefined;
}

function candidateGroups(dag: FusionDag, operators: readonly FusedOperator[], constants?: MachineConstants): AggregateGroup[] {
  const groups: AggregateGroup[] = [];
  const rootOf = operatorsByRoot(operators);
  for (const op of operators) {
    if (groups.length >= MAX_CANDIDATES) return groups;
    if (op.template === "cell" && op.roots.length === 1 && isMultiAggregateRoot(dag, op.roots[0]!)) groups.push({ ...group(dag, [op.roots[0]!], op.covered, op.inputs, [op]), seconds: op.seconds });
  }
  for (const node of materializedNodes(dag, rootOf)) {
    if (groups.length >= MAX_CANDIDATES) return groups;
    if (rootOf.has(node) || !isMultiAggregateRoot(dag, node)) continue;
    groups.push({ ...group(dag, [node], [node], [...new Set(dag.nodes[node]!.inputs)], []), seconds: nodeSeconds(dag, node, constants) });
  }
  return groups;
}

function group(dag: FusionDag, roots: number[], covered: readonly number[], inputs: readonly number[], operators: FusedOperator[]): AggregateGroup {
  return { roots, covered: new Set(covered), inputs: [...inputs], operators, upstream: upstreamOf(dag, inputs), operator: undefined, seconds: 0 };
}

function upstreamOf(dag: FusionDag, inputs: readonly number[]): Set<number> {
  const seen = new Set<number>(inputs);
  const stack = [...inputs];
  while (stack.length > 0) {
    for (const input of dag.nodes[stack.pop()!]!.inputs) {
      if (seen.has(input)) continue;
      seen.add(input);
      stack.push(input);
    }
  }
  return seen;
}

/** Greedy grouping: groups with fewer upstream aggregations first; merge every mergeable pair until none is left. */
function mergeGroups(dag: FusionDag, candidates: AggregateGroup[], constants?: MachineConstants): AggregateGroup[] {
  const dependencies = (g: AggregateGroup) => [...g.upstream].filter((n) => isMultiAggregateRoot(dag, n)).length;
  const groups = candidates.map((g) => ({ g, d: dependencies(g) })).sort((a, b) => a.d - b.d || a.g.roots[0]! - b.g.roots[0]!).map((x) => x.g);
  let merged = true;
  while (merged) {
    merged = false;
    for (let i = 0; i < groups.length; i++) {
      for (let j = i + 1; j < groups.length; j++) {
        if (!mergeable(dag, groups[i]!, groups[j]!)) continue;
        const both = union(dag, groups[i]!, groups[j]!, constants);
        if (!both.operator || !noCostlier(both.seconds, groups[i]!.seconds + groups[j]!.seconds)) continue;
        groups[i] = both;
        groups.splice(j, 1);
        j--;
        merged = true;
      }
    }
  }
  return groups;
}

/** `merged` <= `apart`, up to rounding (a pass that is compute-bound costs exactly the sum of its parts). */
function noCostlier(merged: number, apart: number): boolean {
  return merged <= apart * (1 + 1e-9);
}

function mergeable(dag: FusionDag, a: AggregateGroup, b: AggregateGroup): boolean {
  if (a.roots.length + b.roots.length > MAX_AGGREGATES) return false;
  if (a.roots.some((r) => b.upstream.has(r)) || b.roots.some((r) => a.upstream.has(r))) return false;
  if (a.inputs.some((i) => b.covered.has(i)) || b.inputs.some((i) => a.covered.has(i))) return false;
  const matrices = (g: AggregateGroup) => g.inputs.filter((i) => !isScalar(dag, i));
  if (!matrices(a).some((i) => b.inputs.includes(i))) return false;
  return sameShape(shapeOf(dag, iterationNode(dag, a.roots[0]!)), shapeOf(dag, iterationNode(dag, b.roots[0]!)));
}

function union(dag: FusionDag, a: AggregateGroup, b: AggregateGroup, constants?: MachineConstants): AggregateGroup {
  const roots = [...a.roots, ...b.roots].sort((x, y) => x - y);
  const covered = [...new Set([...a.covered, ...b.covered])];
  const inputs = [...new Set([...a.inputs, ...b.inputs])];
  const merged = group(dag, roots, covered, inputs, [...a.operators, ...b.operators]);
  const operator = multiAggregateOperator(dag, merged, constants);
  return { ...merged, operator, seconds: operator?.seconds ?? Infinity };
}

function multiAggregateOperator(dag: FusionDag, g: AggregateGroup, constants?: MachineConstants): FusedOperator | undefined {
  const covered = [...g.covered].sort((a, b) => a - b);
  const shape = shapeOf(dag, iterationNode(dag, g.roots[0]!));
  const sumsOnly = g.roots.every((r) => isDotProduct(dag, r) || ["sum", "sumSq"].includes(aggregateOf(dag, r)!.fn));
  const { main, sparseSafe } = chooseMainInput(dag, g.inputs, shape, (m) => sumsOnly && isSparseSafe(dag, g.covered, g.roots, m));
  if (main === null) return undefined;
  const binding: OperatorBinding = { mainInput: main, ...sideAndScalarInputs(dag, g.inputs, main), variant: "full-agg", sparseSafe };
  const shapeOfOperator = { template: "magg" as const, roots: g.roots, covered, inputs: g.inputs, binding };
  return { id: 0, ...shapeOfOperator, seconds: fusedOperatorSeconds(dag, shapeOfOperator, constants) };
}
