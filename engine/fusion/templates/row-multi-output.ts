/**
 * Multi-output Row operators (SystemDS's multi-aggregate idea applied to
 * the Row template): formed after selection from the chosen operators, as
 * MAgg is. A Row operator over the rows of a main input X absorbs the
 * operations that work on the rows of its row-wise roots, so one pass over
 * X computes them all. kmeans' loop body
 *
 *     D = -2 * (X %*% t(C)) + t(rowSums(C^2));  minD = rowMins(D)
 *     P = (D <= minD);  P = P / rowSums(P)
 *     C = (t(P) %*% X) / t(colSums(P) + 1e-15)
 *
 * was five passes (D's operator, rowMins, P's operator reading D again,
 * `t(P) %*% X` reading P and X again, colSums reading P again) and becomes
 * one operator with the roots D, minD, P, `t(P) %*% X` and colSums(P):
 * per row i, D_i, its minimum, P_i, and P_i's contributions to the two
 * column aggregations.
 *
 * A producer is a Row operator whose main input has a known number of rows
 * n. A consumer is another Row operator, or a row, column or full sum,
 * min, max, mean or prod computed on its own; it is absorbed when
 * - it reads a row-wise root of the producer (a value of n rows computed
 *   per row: not a column or full aggregation, not `t(A) %*% B`), and only
 *   row-wise roots of it;
 * - its other inputs are not computed from the producer's nodes (no cycle);
 * - within the merged operator, every aggregation over the rows (a column
 *   or full aggregation, `t(A) %*% B`) is a root read by no covered node
 *   (the kernel has its value only after the last row);
 * - the merged operator costs no more than the two apart (each input read
 *   once; fusedOperatorSeconds).
 * A root that only the merged operator reads is no longer written
 * (outerRoots).
 * A consumer rooted at `t(X) %*% v` over its own main input (the MMChain
 * shape, which the runtime runs with a WebAssembly kernel) stays alone.
 * The merged operator keeps the producer's main input; it is sparse-safe
 * when both parts are, over the same main input. At most MAX_ROOTS roots,
 * and only the first MAX_CANDIDATES consumers are looked at (count bounds).
 *
 * A Cell operator over values of n rows (cell-wise operations, and folds
 * of them) joins the same way, as a consumer of the Row operator's row-wise
 * roots or as a producer of values it reads: a Cell operator without folds
 * whose roots the Row operator reads is computed in its rows instead of in
 * a pass of its own. l2svm's outer step
 *
 *     Xw = Xw + step_sz * Xd;  out = 1 - Y * Xw;  sv = (out > 0);  out = sv * out
 *     obj = 0.5 * sum(out * out) + ...;  g_new = t(X) %*% (out * Y) - lambda * w
 *
 * was four passes (Xw's and out's Cell operators, sum(out * out), the Row
 * operator over X) and becomes one over the rows of X that writes Xw (read
 * after the block) and not out (only the merged operator reads it). A
 * product of the main input computed on its own (`X %*% v`, `X %*% B`
 * with B skinny) whose result the Row operator reads joins as a producer
 * too (glm_logit's `X %*% beta` beside `t(X) %*% (mu - y)`).
 */
import type { MachineConstants } from "../../cost";
import type { FusionDag } from "../fusion-dag";
import { materializedNodes, operatorsByRoot } from "../materialized-nodes";
import { fusedOperatorSeconds, nodeSeconds } from "../select";
import type { FusedOperator } from "../types";
import { computedFromAny } from "./computed-from";
import { sideAndScalarInputs } from "./input-binding";
import { isFullMatrix, isScalar, shapeOf } from "./node-shapes";
import { aggregateOf, isRowProduct, isTransposedLeftMatmul } from "./operation-classes";

/** The most roots one merged operator gets. */
export const MAX_ROOTS = 8;
/** Consumers looked at per block (each is checked against each producer). */
const MAX_CANDIDATES = 64;

/** Functions a Row kernel folds row by row (not var / sd). */
const ROW_FOLDS: ReadonlySet<string> = new Set(["sum", "sumSq", "mean", "min", "max", "prod"]);

/** Something a producer may absorb: a Row operator, or an aggregation computed on its own (`operator` undefined). */
interface Unit {
  roots: number[];
  covered: number[];
  inputs: number[];
  operator: FusedOperator | undefined;
  seconds: number;
}

export function groupRowOutputs(dag: FusionDag, operators: readonly FusedOperator[], constants?: MachineConstants): FusedOperator[] {
  const units = candidateUnits(dag, operators, constants);
  if (units.length < 2) return [...operators];
  const absorbed = new Set<Unit>();
  const merged: FusedOperator[] = [];
  const replaced = new Set<FusedOperator>();
  for (const producer of units) {
    if (absorbed.has(producer) || producer.operator?.template !== "row") continue;
    let current = producer.operator;
    const parts: Unit[] = [producer];
    let grew = true;
    while (grew) {
      grew = false;
      for (const consumer of units) {
        if (absorbed.has(consumer) || parts.includes(consumer)) continue;
        const next = absorb(dag, current, consumer, constants) ?? absorbProducer(dag, current, consumer, constants);
        if (!next) continue;
        current = next;
        parts.push(consumer);
        grew = true;
      }
    }
    if (parts.length === 1) continue;
    for (const part of parts) {
      absorbed.add(part);
      if (part.operator) replaced.add(part.operator);
    }
    merged.push(current);
  }
  if (merged.length === 0) return [...operators];
  return [...operators.filter((op) => !replaced.has(op)), ...merged].sort((a, b) => a.roots[0]! - b.roots[0]!).map((op, id) => ({ ...op, id }));
}

/**
 * Row operators, Cell operators over rows (isRowAlignedCell), and the row,
 * column or full folds of a matrix and the products `A %*% B` with B a
 * vector or skinny computed on their own, in the order of their first roots
 * (at most MAX_CANDIDATES).
 */
function candidateUnits(dag: FusionDag, operators: readonly FusedOperator[], constants?: MachineConstants): Unit[] {
  const units: Unit[] = [];
  for (const op of operators) {
    if (op.template === "row" || (op.template === "cell" && isRowAlignedCell(dag, op))) units.push({ roots: op.roots, covered: op.covered, inputs: op.inputs, operator: op, seconds: op.seconds });
  }
  const byRoot = operatorsByRoot(operators);
  for (const node of materializedNodes(dag, byRoot)) {
    if (byRoot.has(node)) continue;
    if (isRowProduct(dag, node)) {
      units.push({ roots: [node], covered: [node], inputs: [...dag.nodes[node]!.inputs], operator: undefined, seconds: nodeSeconds(dag, node, constants) });
      continue;
    }
    const agg = aggregateOf(dag, node);
    const input = dag.nodes[node]!.inputs[0];
    if (!agg || !ROW_FOLDS.has(agg.fn) || input === undefined || !isFullMatrix(shapeOf(dag, input))) continue;
    units.push({ roots: [node], covered: [node], inputs: [input], operator: undefined, seconds: nodeSeconds(dag, node, constants) });
  }
  return units.sort((a, b) => a.roots[0]! - b.roots[0]!).slice(0, MAX_CANDIDATES);
}

/** The producer with the consumer absorbed, or undefined when the consumer cannot join it or the merged pass costs more. */
function absorb(dag: FusionDag, producer: FusedOperator, consumer: Unit, constants?: MachineConstants): FusedOperator | undefined {
  const main = producer.binding.mainInput;
  const rows = main === null ? undefined : shapeOf(dag, main)?.rows;
  if (rows === undefined || producer.roots.length + consumer.roots.length > MAX_ROOTS) return undefined;
  if (consumer.operator !== undefined && isTransposedVectorProduct(dag, consumer.operator)) return undefined;
  const producerRoots = new Set(producer.roots);
  const readRoots = consumer.inputs.filter((i) => producerRoots.has(i));
  if (readRoots.length === 0 || !readRoots.every((r) => isRowWise(dag, r, rows))) return undefined;
  const producerNodes = new Set(producer.covered);
  const others = consumer.inputs.filter((i) => !producerRoots.has(i));
  if (others.some((i) => computedFromAny(dag, i, producerNodes))) return undefined;
  const covered = [...new Set([...producer.covered, ...consumer.covered])].sort((a, b) => a - b);
  const coveredSet = new Set(covered);
  const roots = outerRoots(dag, [...new Set([...producer.roots, ...consumer.roots])].sort((a, b) => a - b), coveredSet);
  const inputs = [...new Set([...producer.inputs, ...consumer.inputs])].filter((i) => !coveredSet.has(i));
  if (!accumulatesOnlyAtRoots(dag, coveredSet, new Set(roots))) return undefined;
  const consumerSparseSafe = consumer.operator !== undefined && consumer.operator.binding.sparseSafe && consumer.operator.binding.mainInput === main;
  const binding = { mainInput: main, ...sideAndScalarInputs(dag, inputs, main), variant: "multi-output", sparseSafe: producer.binding.sparseSafe && consumerSparseSafe };
  const shape = { template: "row" as const, roots, covered, inputs, binding };
  const seconds = fusedOperatorSeconds(dag, shape, constants);
  if (seconds > (producer.seconds + consumer.seconds) * (1 + 1e-9)) return undefined;
  return { ...shape, id: producer.id, seconds };
}

/**
 * The Row operator with a unit whose roots it reads computed in its rows
 * (rowsComputedIn: a Cell operator without folds, or a product of its main
 * input computed on its own, as glm_logit's `eta = X %*% beta` beside
 * `t(X) %*% (mu - y)`), or undefined when the unit cannot join or the
 * merged pass costs more.
 */
function absorbProducer(dag: FusionDag, current: FusedOperator, unit: Unit, constants?: MachineConstants): FusedOperator | undefined {
  const main = current.binding.mainInput;
  const rows = main === null ? undefined : shapeOf(dag, main)?.rows;
  if (rows === undefined || current.roots.length + unit.roots.length > MAX_ROOTS || !rowsComputedIn(dag, unit, main!)) return undefined;
  // The Row operator's main input stays what it reads rows of (computing it in the rows would leave no rows to drive the loop).
  if (!unit.roots.every((r) => isRowWise(dag, r, rows) && r !== main) || !unit.roots.some((r) => current.inputs.includes(r))) return undefined;
  if (unit.inputs.some((i) => computedFromAny(dag, i, new Set(current.covered)))) return undefined;
  const covered = [...new Set([...current.covered, ...unit.covered])].sort((a, b) => a - b);
  const coveredSet = new Set(covered);
  const roots = outerRoots(dag, [...new Set([...current.roots, ...unit.roots])].sort((a, b) => a - b), coveredSet);
  const inputs = [...new Set([...current.inputs, ...unit.inputs])].filter((i) => !coveredSet.has(i));
  if (!accumulatesOnlyAtRoots(dag, coveredSet, new Set(roots))) return undefined;
  const binding = { mainInput: main, ...sideAndScalarInputs(dag, inputs, main), variant: "multi-output", sparseSafe: false };
  const shape = { template: "row" as const, roots, covered, inputs, binding };
  const seconds = fusedOperatorSeconds(dag, shape, constants);
  if (seconds > (current.seconds + unit.seconds) * (1 + 1e-9)) return undefined;
  return { ...shape, id: current.id, seconds };
}

/**
 * Whether a Row operator over `main` can compute the unit in its rows: a
 * Cell operator of cell-wise operations only, or a product `main %*% B`
 * computed on its own (B read whole: a vector or a skinny matrix), whose
 * row i is row i of main times B.
 */
function rowsComputedIn(dag: FusionDag, unit: Unit, main: number): boolean {
  if (unit.operator === undefined) {
    const node = unit.roots[0]!;
    const [left, right] = dag.nodes[node]!.inputs as [number, number];
    return isRowProduct(dag, node) && left === main && right !== main;
  }
  return unit.operator.template === "cell" && unit.covered.every((n) => PER_CELL.has(dag.nodes[n]!.op.kind));
}

/** Node kinds a Row kernel computes cell by cell in a row, as a Cell operator does. */
const PER_CELL: ReadonlySet<string> = new Set(["literal", "binary", "unary"]);

/**
 * A Cell operator a Row operator may take in: it computes cell-wise
 * operations (and sum, min, max, mean or prod folds of them) over matrices
 * of its cells' rows and columns and over scalars (no broadcast row or
 * column, no transpose), so each row of its cells needs only that row of
 * its matrix inputs.
 */
function isRowAlignedCell(dag: FusionDag, op: FusedOperator): boolean {
  const rootShapes = op.roots.map((r) => aggregateOf(dag, r) ? shapeOf(dag, dag.nodes[r]!.inputs[0]!) : shapeOf(dag, r));
  const domain = rootShapes[0];
  if (domain === undefined || domain.rows <= 1 || !rootShapes.every((s) => s !== undefined && s.rows === domain.rows && s.cols === domain.cols)) return false;
  for (const node of op.covered) {
    const kind = dag.nodes[node]!.op.kind;
    const agg = aggregateOf(dag, node);
    if (!PER_CELL.has(kind) && !(agg !== undefined && ROW_FOLDS.has(agg.fn) && op.roots.includes(node))) return false;
  }
  return op.inputs.every((i) => {
    if (isScalar(dag, i)) return true;
    const s = shapeOf(dag, i);
    return s !== undefined && s.rows === domain.rows && s.cols === domain.cols;
  });
}

/**
 * The roots a merged operator still writes: a root of one part that only
 * the other part reads (every consumer covered, not a value leaving the
 * DAG) is computed in the kernel's row and used there, not written. When
 * the runtime computes kmeans' session-only D only if it is read, D's
 * 5 x 1e6 values are then not written in every iteration.
 */
function outerRoots(dag: FusionDag, roots: readonly number[], covered: ReadonlySet<number>): number[] {
  const leaving = new Set(dag.roots);
  const written = roots.filter((root) => leaving.has(root) || dag.consumers[root]!.some((consumer) => !covered.has(consumer)));
  return written.length > 0 ? written : [...roots];
}

/**
 * A Row operator rooted at `t(X) %*% v` over its own main input X with a
 * column v (SystemDS's MMChain and the GEMV of t(X)): kept alone, as the
 * runtime runs that shape on X in place with its WebAssembly kernel.
 */
function isTransposedVectorProduct(dag: FusionDag, op: FusedOperator): boolean {
  if (op.roots.length !== 1 || !isTransposedLeftMatmul(dag, op.roots[0]!)) return false;
  const [left, right] = dag.nodes[op.roots[0]!]!.inputs as [number, number];
  return dag.nodes[left]!.inputs[0] === op.binding.mainInput && shapeOf(dag, right)?.cols === 1;
}

/** A value of `rows` rows computed per row (not an aggregation over the rows). */
function isRowWise(dag: FusionDag, node: number, rows: number): boolean {
  return shapeOf(dag, node)?.rows === rows && !accumulatesOverRows(dag, node);
}

/** A column or full aggregation, or `t(A) %*% B`: its value is known only after the last row. */
function accumulatesOverRows(dag: FusionDag, node: number): boolean {
  const agg = aggregateOf(dag, node);
  return (agg !== undefined && agg.direction !== "row") || isTransposedLeftMatmul(dag, node);
}

/** Every covered aggregation over the rows is a root, and no covered node reads one. */
function accumulatesOnlyAtRoots(dag: FusionDag, covered: ReadonlySet<number>, roots: ReadonlySet<number>): boolean {
  for (const node of covered) {
    if (accumulatesOverRows(dag, node) && !roots.has(node)) return false;
    if (dag.nodes[node]!.inputs.some((i) => covered.has(i) && accumulatesOverRows(dag, i))) return false;
  }
  return true;
}
