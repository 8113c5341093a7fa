/**
 * The cell function of a fused operator (what a Cell, MAgg or Outer
 * skeleton computes per cell): the value of a covered node at one cell
 * (i, j) of its own shape, from the cells of its inputs, with the
 * runtime's scalar kernels. Inputs broadcast by shape: a row vector is
 * read at (0, j), a column vector at (i, 0), a 1 x 1 matrix or a scalar
 * everywhere; a transpose reads its input at (j, i); a matrix product
 * (Outer's U %*% t(V)) is the dot product of row i of its left side and
 * column j of its right side. Values are cached per node and cell, so a
 * shared sub-expression is computed once per cell.
 */
import type { FusionDag, FusedOperator } from "../../fusion";
import { scalarBinary, scalarUnary } from "../kernels";
import { num, type Value } from "../interpreter";
import type { Matrix } from "../matrix";
import { callOperandOrder } from "./call-arguments";
import { operatorFailure } from "./fused-error";
import type { NodeShape } from "./operator-shapes";

export interface CellExpressionOptions {
  /** Whether a covered matrix product may be computed per cell (Outer's low-rank product); else it is an operator failure. */
  matmulInside: boolean;
}

export class CellExpression {
  /** Per node: the cell last computed and its value. */
  private readonly cachedCell = new Map<number, { i: number; j: number; value: number }>();
  private readonly covered: ReadonlySet<number>;

  constructor(
    readonly dag: FusionDag,
    readonly op: FusedOperator,
    readonly inputs: ReadonlyMap<number, Value>,
    readonly shapes: ReadonlyMap<number, NodeShape>,
    readonly options: CellExpressionOptions,
  ) {
    this.covered = new Set(op.covered);
    for (const node of op.covered) if (!op.roots.includes(node)) this.checkComputable(node);
  }

  /** Fails on a covered node below the roots that cannot be computed per cell (checked up front: a sparse driver may visit no cell at all). */
  private checkComputable(node: number): void {
    const o = this.dag.nodes[node]!.op;
    const fail = (why: string) => operatorFailure(this.dag, this.op, node, why);
    switch (o.kind) {
      case "literal":
      case "binary":
      case "unary":
      case "transpose":
        return;
      case "matmul":
        if (!this.options.matmulInside) fail(`a ${this.op.template} operator cannot compute a matrix product inside its cell expression`);
        return;
      case "call":
        if (!callOperandOrder(this.dag.nodes[node]!, o.name)) fail(`the call ${o.name} cannot be computed per cell`);
        return;
      case "aggregate":
        return fail(`an aggregate below the root cannot be computed per cell (it needs all cells first)`);
      default:
        return fail(`a ${o.kind} node cannot be computed per cell`);
    }
  }

  shape(node: number): NodeShape {
    return this.shapes.get(node) ?? operatorFailure(this.dag, this.op, node, "node has no shape");
  }

  /** The node's value at cell (i, j) of its shape. */
  at(node: number, i: number, j: number): number {
    const input = this.inputs.get(node);
    if (input !== undefined) return inputCell(input, i, j);
    if (!this.covered.has(node)) operatorFailure(this.dag, this.op, node, "node is neither covered nor an input of the operator");
    const cached = this.cachedCell.get(node);
    if (cached && cached.i === i && cached.j === j) return cached.value;
    const value = this.compute(node, i, j);
    this.cachedCell.set(node, { i, j, value });
    return value;
  }

  /** Every cell of the node's shape as a dense row-major array. */
  allCells(node: number): Float64Array {
    const s = this.shape(node);
    const out = new Float64Array(s.rows * s.cols);
    for (let i = 0; i < s.rows; i++) for (let j = 0; j < s.cols; j++) out[i * s.cols + j] = this.at(node, i, j);
    return out;
  }

  /** Input k of `node` at the cell (i, j) of `node`'s shape (broadcast). */
  private operand(node: number, k: number, i: number, j: number): number {
    const input = this.dag.nodes[node]!.inputs[k]!;
    const s = this.shape(input);
    return this.at(input, s.rows === 1 ? 0 : i, s.cols === 1 ? 0 : j);
  }

  private compute(node: number, i: number, j: number): number {
    const n = this.dag.nodes[node]!;
    const o = n.op;
    switch (o.kind) {
      case "literal":
        return typeof o.value === "boolean" ? (o.value ? 1 : 0) : typeof o.value === "number" ? o.value : operatorFailure(this.dag, this.op, node, "a string literal in a cell expression");
      case "binary":
        return scalarBinary(o.op, this.operand(node, 0, i, j), this.operand(node, 1, i, j));
      case "unary":
        return scalarUnary(o.op, this.operand(node, 0, i, j));
      case "transpose":
        return this.at(n.inputs[0]!, j, i);
      case "matmul": {
        if (!this.options.matmulInside) operatorFailure(this.dag, this.op, node, `a ${this.op.template} operator cannot compute a matrix product inside its cell expression`);
        const [a, b] = n.inputs as [number, number];
        let sum = 0;
        for (let k = 0; k < this.shape(a).cols; k++) sum += this.at(a, i, k) * this.at(b, k, j);
        return sum;
      }
      case "call":
        return this.call(node, o.name, i, j);
      default:
        return operatorFailure(this.dag, this.op, node, `a ${o.kind === "aggregate" ? "non-root aggregate" : o.kind} node cannot be computed per cell`);
    }
  }

  private call(node: number, name: string, i: number, j: number): number {
    const order = callOperandOrder(this.dag.nodes[node]!, name) ?? operatorFailure(this.dag, this.op, node, `the call ${name} cannot be computed per cell`);
    const operand = (p: number) => this.operand(node, order[p]!, i, j);
    switch (name) {
      case "ifelse":
        return operand(0) !== 0 ? operand(1) : operand(2);
      case "replace": {
        const v = operand(0);
        const pattern = operand(1);
        return v === pattern || (Number.isNaN(pattern) && Number.isNaN(v)) ? operand(2) : v;
      }
      default: {
        // min / max of several arguments
        let r = operand(0);
        for (let p = 1; p < order.length; p++) r = scalarBinary(name as "min" | "max", r, operand(p));
        return r;
      }
    }
  }
}

function inputCell(value: Value, i: number, j: number): number {
  if (value.kind === "matrix") return matrixAt(value.matrix, i, j);
  return num(value);
}

function matrixAt(m: Matrix, i: number, j: number): number {
  return m.get(m.rows === 1 ? 0 : i, m.cols === 1 ? 0 : j);
}
