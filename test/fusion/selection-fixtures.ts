/**
 * Test-only material for the selection tests: a small DAG builder with
 * sizes, and two simple templates (Cell-like and Row-like) implementing
 * FusionTemplate, so the selection is tested on its own, whatever the real
 * templates do.
 */
import type { DagNode, DagOp, ElementwiseBinaryOp, ElementwiseUnaryOp } from "../../engine/program/dag-types";
import type { NodeStats } from "../../engine/stats/sizes/node-stats";
import { constructOperators } from "../../engine/fusion/construct";
import { exploreFusionPlans, reachableAscending } from "../../engine/fusion/explore";
import { fusionDag, type FusionDag } from "../../engine/fusion/fusion-dag";
import { dagCosts } from "../../engine/fusion/plan-fusion";
import { choosePartitionPlans, selectFusionPlan, type SelectionOptions } from "../../engine/fusion/select";
import { nodeSeconds } from "../../engine/fusion/select/operator-cost";
import type { CloseDecision, FusionTemplate, OperatorBinding } from "../../engine/fusion/types";

const RANGE = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
const MATRIX = { dataType: "matrix" as const, valueType: "double" as const };
const SCALAR = { dataType: "scalar" as const, valueType: "double" as const };

/** Builds a DAG node by node (ids in creation order); each helper returns the new node's id. */
export class DagBuilder {
  readonly nodes: DagNode[] = [];
  readonly stats: NodeStats[] = [];

  private add(op: DagOp, inputs: number[], stats: NodeStats): number {
    const id = this.nodes.length;
    this.nodes.push({ id, op, inputs, type: stats.type, range: RANGE });
    this.stats.push(stats);
    return id;
  }

  /** An input matrix; sparsity null: its non-zeros are unknown (and so are those of everything computed from it but a matrix product). */
  matrix(name: string, rows: number, cols: number, sparsity: number | null = 1): number {
    return this.add({ kind: "input", name }, [], { type: MATRIX, rows, cols, nnz: sparsity === null ? null : Math.round(rows * cols * sparsity) });
  }

  binary(op: ElementwiseBinaryOp, a: number, b: number): number {
    const sa = this.stats[a]!;
    const sb = this.stats[b]!;
    const rows = Math.max(sa.rows!, sb.rows!);
    const cols = Math.max(sa.cols!, sb.cols!);
    const cells = rows * cols;
    const da = density(sa);
    const db = density(sb);
    const d = da === null || db === null ? null : op === "*" ? da * db : op === "+" || op === "-" ? da + db - da * db : 1;
    return this.add({ kind: "binary", op }, [a, b], { type: MATRIX, rows, cols, nnz: d === null ? null : Math.round(cells * d) });
  }

  unary(op: ElementwiseUnaryOp, a: number): number {
    const s = this.stats[a]!;
    const nnz = op === "abs" || op === "sqrt" ? s.nnz : s.nnz === null ? null : s.rows! * s.cols!;
    return this.add({ kind: "unary", op }, [a], { type: MATRIX, rows: s.rows, cols: s.cols, nnz });
  }

  matmul(a: number, b: number): number {
    const sa = this.stats[a]!;
    const sb = this.stats[b]!;
    return this.add({ kind: "matmul" }, [a, b], { type: MATRIX, rows: sa.rows, cols: sb.cols, nnz: sa.rows! * sb.cols! });
  }

  sum(a: number): number {
    return this.add({ kind: "aggregate", fn: "sum", direction: "full" }, [a], { type: SCALAR, rows: 0, cols: 0, nnz: null });
  }

  rowSums(a: number): number {
    const s = this.stats[a]!;
    return this.add({ kind: "aggregate", fn: "sum", direction: "row" }, [a], { type: MATRIX, rows: s.rows, cols: 1, nnz: s.nnz === null ? null : s.rows });
  }

  dag(roots: number[]): FusionDag {
    return fusionDag(this.nodes, this.stats, roots);
  }
}

function density(s: NodeStats): number | null {
  if (s.nnz === null) return null;
  return s.rows! * s.cols! === 0 ? 0 : s.nnz / (s.rows! * s.cols!);
}

const isMatrix = (dag: FusionDag, n: number) => dag.stats[n]!.type.dataType === "matrix";
const isElementwise = (dag: FusionDag, n: number) => {
  const k = dag.nodes[n]!.op.kind;
  return (k === "binary" || k === "unary") && isMatrix(dag, n);
};
const isAggregate = (dag: FusionDag, n: number) => dag.nodes[n]!.op.kind === "aggregate";

/** Largest covered-node count a test template binds (larger operators are rejected by describe, as a real template may reject). */
export const TEST_MAX_COVERED = 6;

function binding(dag: FusionDag, covered: ReadonlySet<number>, inputs: readonly number[], variant: string): OperatorBinding | undefined {
  if (covered.size > TEST_MAX_COVERED) return undefined;
  const matrices = inputs.filter((i) => isMatrix(dag, i));
  if (matrices.length === 0) return undefined;
  const cells = (n: number) => dag.stats[n]!.rows! * dag.stats[n]!.cols!;
  const main = [...matrices].sort((a, b) => cells(b) - cells(a) || a - b)[0]!;
  const sparseSafe = [...covered].every((n) => {
    const op = dag.nodes[n]!.op;
    return op.kind === "aggregate" || (op.kind === "binary" && op.op === "*") || (op.kind === "unary" && op.op === "abs");
  });
  return {
    mainInput: main,
    sideInputs: matrices.filter((m) => m !== main),
    scalarInputs: inputs.filter((i) => !isMatrix(dag, i)),
    variant,
    sparseSafe,
  };
}

/** Cell-like: element-wise chains, closed by an aggregate. */
export const TEST_CELL: FusionTemplate = {
  type: "cell",
  open: (dag, node) => isElementwise(dag, node) || (isAggregate(dag, node) && isMatrix(dag, dag.nodes[node]!.inputs[0]!)),
  fuse: (dag, node, input) => isMatrix(dag, input) && (isElementwise(dag, node) || isAggregate(dag, node)),
  merge: (dag, node, input) => isMatrix(dag, input) && isElementwise(dag, node),
  close: (dag, node): CloseDecision => (isAggregate(dag, node) ? "closed-valid" : "open-valid"),
  describe: (dag, _root, covered, inputs) => binding(dag, covered, inputs, "cell"),
};

/** Row-like: opens at a matrix-vector product, extends into element-wise consumers (not exp) and aggregates; invalid until it covers more than the product. */
export const TEST_ROW: FusionTemplate = {
  type: "row",
  open: (dag, node) => dag.nodes[node]!.op.kind === "matmul" && dag.stats[node]!.cols === 1,
  fuse: (dag, node, input) => {
    const op = dag.nodes[node]!.op;
    if (op.kind === "unary" && op.op === "exp") return false;
    return isMatrix(dag, input) && (isElementwise(dag, node) || isAggregate(dag, node));
  },
  merge: (dag, node, input) => isMatrix(dag, input) && isElementwise(dag, node),
  close: (dag, node): CloseDecision => (isAggregate(dag, node) ? "closed-valid" : dag.nodes[node]!.op.kind === "matmul" ? "open-invalid" : "open-valid"),
  describe: (dag, _root, covered, inputs) => binding(dag, covered, inputs, "row"),
};

export const TEST_TEMPLATES: readonly FusionTemplate[] = [TEST_CELL, TEST_ROW];

function selectionOptions(pruning: boolean, exactLimit: number | undefined): SelectionOptions {
  return { pruning, ...(exactLimit !== undefined ? { exactLimit } : {}) };
}

/** The DAG's fused cost as plan-fusion computes it (without multi-aggregates), from the selected memo table. */
export function constructedCost(dag: FusionDag, pruning: boolean, exactLimit?: number): number {
  const memo = exploreFusionPlans(dag, TEST_TEMPLATES);
  const { selected } = selectFusionPlan(dag, memo, TEST_TEMPLATES, selectionOptions(pruning, exactLimit));
  const ops = constructOperators(dag, selected, TEST_TEMPLATES).filter((op) => op.covered.length > 1);
  return dagCosts(dag, ops).fused;
}

/** The same cost from the selection's own partition costs plus the single operations outside every partition. */
export function selectionCost(dag: FusionDag, pruning: boolean, exactLimit?: number): number {
  const memo = exploreFusionPlans(dag, TEST_TEMPLATES);
  const choices = choosePartitionPlans(dag, memo, TEST_TEMPLATES, selectionOptions(pruning, exactLimit));
  const inPartition = new Set(choices.flatMap((c) => c.partition.nodes));
  const outside = reachableAscending(dag).filter((n) => !inPartition.has(n));
  return choices.reduce((sum, c) => sum + c.cost, 0) + outside.reduce((sum, n) => sum + nodeSeconds(dag, n), 0);
}

