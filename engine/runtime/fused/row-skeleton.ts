/**
 * The Row skeleton: one loop over the rows i of the main input X. Per row,
 * every covered node is computed with the runtime's operations on row
 * slices: a value with X's number of rows is read as its 1 x n slice of row
 * i; other inputs (vectors, factor matrices, scalars) are read whole;
 * `cbind` puts its operands' row slices side by side. A
 * product of a row slice with a side matrix gives the row of the product;
 * a row aggregate gives the row's value. Results:
 * - a row-wise root: its slices, stacked into the rows of the result;
 * - a column or full aggregate of a row-wise node: the slices of all rows,
 *   aggregated by the runtime's kernel once every row is seen (the values
 *   the skeleton's running colSums, sum, min or max reach);
 * - `t(A) %*% B` with A and B row-wise: X_i^T Y_i accumulated over the rows
 *   (likewise `C %*% B` with C a whole matrix with X's rows as columns).
 * A column aggregate or such a product that another covered node reads
 * cannot be computed in one pass over the rows: an operator failure.
 *
 * When the binding is sparse-safe, the rows where the main input is all
 * zeros are not visited: their rows of a row-wise result are 0, they
 * contribute zeros to column aggregates and nothing to products (the check
 * of a sparse-safety claim at the granularity of rows).
 */
import { rbind, cbind, rightIndex, matmul, transpose, elementwiseBinary } from "../kernels";
import { BUILTINS, type EvalContext, aggregateValue, binary, castValue, mat, unary, double, type Value } from "../interpreter";
import { DenseMatrix, isSparse, type Matrix } from "../matrix";
import { callOperandOrder } from "./call-arguments";
import { mainMatrix } from "./cell-skeleton";
import { nodeLabel, operatorFailure } from "./fused-error";
import type { OperatorContext } from "./operator-context";

/** A node's value within one row: its row slice (1 x c), the transpose of one (c x 1), or a value that does not depend on the row. */
type RowPart = { kind: "row"; m: Matrix } | { kind: "rowT"; m: Matrix } | { kind: "whole"; v: Value };

/** How a root's per-row parts become its value. */
type RootResult =
  | { kind: "rows"; slices: Matrix[] }
  | { kind: "cols"; slices: Matrix[] }
  | { kind: "aggregate"; slices: Matrix[] }
  | { kind: "product"; sum: Matrix | undefined }
  | { kind: "whole"; v: Value };

export function evaluateRowOperator(ctx: OperatorContext): Map<number, Value> {
  const main = mainMatrix(ctx) ?? operatorFailure(ctx.dag, ctx.op, undefined, "a Row operator needs a main input to loop over");
  const rows = new RowEvaluation(ctx, main);
  const results = new Map<number, RootResult>();
  for (let i = 0; i < main.rows; i++) {
    rows.startRow(i);
    const skipped = ctx.op.binding.sparseSafe && isEmptyRow(main, i);
    for (const root of ctx.op.roots) rows.accumulate(root, results, skipped);
  }
  const values = new Map<number, Value>();
  for (const root of ctx.op.roots) {
    const r = results.get(root) ?? operatorFailure(ctx.dag, ctx.op, root, "the main input has no rows");
    values.set(root, finish(ctx, root, r));
  }
  return values;
}

function finish(ctx: OperatorContext, root: number, r: RootResult): Value {
  const o = ctx.dag.nodes[root]!.op;
  switch (r.kind) {
    case "rows":
      return { kind: "matrix", matrix: rbind(...r.slices) };
    case "cols":
      return { kind: "matrix", matrix: cbind(...r.slices) };
    case "aggregate":
      if (o.kind !== "aggregate") return operatorFailure(ctx.dag, ctx.op, root, "not an aggregate");
      return aggregateValue(o.fn, o.direction, { kind: "matrix", matrix: rbind(...r.slices) });
    case "product":
      return { kind: "matrix", matrix: r.sum! };
    case "whole":
      return r.v;
  }
}

class RowEvaluation {
  private row = 0;
  private readonly parts = new Map<number, RowPart>();
  private readonly wholes = new Map<number, Value>();
  private readonly covered: ReadonlySet<number>;

  constructor(
    readonly ctx: OperatorContext,
    readonly main: Matrix,
  ) {
    this.covered = new Set(ctx.op.covered);
  }

  startRow(i: number): void {
    this.row = i;
    this.parts.clear();
  }

  private fail(node: number | undefined, why: string): never {
    return operatorFailure(this.ctx.dag, this.ctx.op, node, why);
  }

  /** Adds row i's contribution of `root` to its result (zeros when the row is `skipped`). */
  accumulate(root: number, results: Map<number, RootResult>, skipped: boolean): void {
    const kept = (m: Matrix) => (skipped ? new DenseMatrix(m.rows, m.cols) : m);
    const n = this.ctx.dag.nodes[root]!;
    const o = n.op;
    const known = results.get(root);
    const expect = (kind: RootResult["kind"]) => {
      if (known && known.kind !== kind) this.fail(root, `the root is computed as ${known.kind} in one row and as ${kind} in another`);
    };
    if (o.kind === "aggregate" && o.direction !== "row") {
      const input = this.part(n.inputs[0]!);
      if (input.kind === "row") {
        expect("aggregate");
        const r = (known ?? { kind: "aggregate", slices: [] }) as Extract<RootResult, { kind: "aggregate" }>;
        r.slices.push(kept(input.m));
        results.set(root, r);
        return;
      }
    }
    if (o.kind === "matmul") {
      const contribution = this.columnProduct(n.inputs[0]!, n.inputs[1]!);
      if (contribution) {
        expect("product");
        const r = (known ?? { kind: "product", sum: undefined }) as Extract<RootResult, { kind: "product" }>;
        const term = kept(contribution);
        r.sum = r.sum ? elementwiseBinary("+", r.sum, term) : term;
        results.set(root, r);
        return;
      }
    }
    const part = this.part(root);
    if (part.kind === "whole") {
      expect("whole");
      results.set(root, { kind: "whole", v: part.v });
      return;
    }
    const kind = part.kind === "row" ? "rows" : "cols";
    expect(kind);
    const r = (known ?? { kind, slices: [] }) as Extract<RootResult, { kind: "rows" | "cols" }>;
    r.slices.push(kept(part.m));
    results.set(root, r);
  }

  /** Row i's term of a product accumulated over the rows (t(A) %*% B, C %*% B with B row-wise), or undefined when the product is row-wise. */
  private columnProduct(a: number, b: number): Matrix | undefined {
    const right = this.part(b);
    if (right.kind !== "row") return undefined;
    const left = this.part(a);
    if (left.kind === "rowT") return matmul(left.m, right.m);
    if (left.kind === "whole" && left.v.kind === "matrix" && left.v.matrix.cols === this.main.rows) {
      return matmul(rightIndex(left.v.matrix, { colLower: this.row + 1, colUpper: this.row + 1 }), right.m);
    }
    return undefined;
  }

  /** The node's value in the current row. */
  part(node: number): RowPart {
    const input = this.ctx.inputs.get(node);
    if (input !== undefined) {
      if (input.kind === "matrix" && input.matrix.rows === this.main.rows) return { kind: "row", m: this.slice(input.matrix) };
      return { kind: "whole", v: input };
    }
    if (!this.covered.has(node)) this.fail(node, "node is neither covered nor an input of the operator");
    const known = this.parts.get(node) ?? this.wholeCached(node);
    if (known) return known;
    const part = this.compute(node);
    if (part.kind === "whole") this.wholes.set(node, part.v);
    else this.parts.set(node, part);
    return part;
  }

  private wholeCached(node: number): RowPart | undefined {
    const v = this.wholes.get(node);
    return v === undefined ? undefined : { kind: "whole", v };
  }

  private slice(m: Matrix): Matrix {
    return rightIndex(m, { rowLower: this.row + 1, rowUpper: this.row + 1 });
  }

  /** The whole value of a node read whole (the right side of a product): an input, or a covered node that does not depend on the row. */
  private whole(node: number, consumer: number): Value {
    const input = this.ctx.inputs.get(node);
    if (input !== undefined) return input;
    const part = this.part(node);
    if (part.kind !== "whole") this.fail(consumer, `reads node ${node} (${nodeLabel(this.ctx.dag.nodes[node])}) whole, but it is computed row by row`);
    return part.v;
  }

  private compute(node: number): RowPart {
    const n = this.ctx.dag.nodes[node]!;
    const o = n.op;
    switch (o.kind) {
      case "literal":
        return { kind: "whole", v: typeof o.value === "number" ? double(o.value) : this.fail(node, "a non-numeric literal") };
      case "binary":
        return this.elementwise(node, n.inputs, (values) => binary(o.op, values[0]!, values[1]!));
      case "unary": {
        const a = this.part(n.inputs[0]!);
        if (a.kind === "rowT") this.fail(node, "an element-wise operation on a transposed row");
        return a.kind === "whole" ? { kind: "whole", v: unary(o.op, a.v) } : { kind: "row", m: mat(unary(o.op, { kind: "matrix", matrix: a.m })) };
      }
      case "aggregate": {
        const a = this.part(n.inputs[0]!);
        if (a.kind === "whole") return { kind: "whole", v: aggregateValue(o.fn, o.direction, a.v) };
        if (a.kind === "row" && o.direction === "row") return { kind: "row", m: mat(aggregateValue(o.fn, "row", { kind: "matrix", matrix: a.m })) };
        return this.fail(node, `a ${o.direction} aggregate over the rows is read inside the operator before all rows are seen`);
      }
      case "matmul": {
        const a = this.part(n.inputs[0]!);
        if (a.kind === "row") {
          const b = mat(this.whole(n.inputs[1]!, node));
          if (a.m.cols !== b.rows) this.fail(node, `row slice 1 x ${a.m.cols} times a ${b.rows} x ${b.cols} matrix`);
          return { kind: "row", m: matmul(a.m, b) };
        }
        const b = this.part(n.inputs[1]!);
        if (a.kind === "whole" && b.kind === "whole") return { kind: "whole", v: { kind: "matrix", matrix: matmul(mat(a.v), mat(b.v)) } };
        return this.fail(node, "a product accumulated over the rows is read inside the operator before all rows are seen");
      }
      case "transpose": {
        const a = this.part(n.inputs[0]!);
        if (a.kind === "whole") return { kind: "whole", v: { kind: "matrix", matrix: transpose(mat(a.v)) } };
        return { kind: a.kind === "row" ? "rowT" : "row", m: transpose(a.m) };
      }
      case "call":
        return this.call(node, o.name);
      case "cbind":
        return this.cbind(node, n.inputs);
      case "cast": {
        const a = this.part(n.inputs[0]!);
        if (a.kind !== "whole") this.fail(node, `as.${o.to} of a row`);
        return { kind: "whole", v: castValue(o.to, a.v) };
      }
      default:
        return this.fail(node, `a ${o.kind} node cannot be computed row by row`);
    }
  }

  /**
   * An element-wise operation in the current row: on whole values when no
   * operand depends on the row, else on the row slices, with the whole
   * operands broadcast along the row (scalars, 1 x 1, row vectors).
   */
  private elementwise(node: number, inputs: readonly number[], apply: (values: Value[]) => Value): RowPart {
    const parts = inputs.map((i) => this.part(i));
    if (parts.every((p) => p.kind === "whole")) return { kind: "whole", v: apply(parts.map((p) => (p as { v: Value }).v)) };
    const values = parts.map((p, k): Value => {
      if (p.kind === "rowT") return this.fail(node, "an element-wise operation on a transposed row");
      if (p.kind === "row") return { kind: "matrix", matrix: p.m };
      if (p.v.kind === "matrix" && p.v.matrix.rows !== 1) this.fail(node, `operand ${inputs[k]} is a whole ${p.v.matrix.rows} x ${p.v.matrix.cols} matrix, not a row`);
      return p.v;
    });
    return { kind: "row", m: mat(apply(values)) };
  }

  /** `cbind(A, B, ...)` in the current row: the operands' row slices side by side (all operands have X's rows). */
  private cbind(node: number, inputs: readonly number[]): RowPart {
    const parts = inputs.map((i) => this.part(i));
    if (parts.every((p) => p.kind === "whole")) return { kind: "whole", v: { kind: "matrix", matrix: cbind(...parts.map((p) => mat((p as { v: Value }).v))) } };
    const slices = parts.map((p, k) => (p.kind === "row" ? p.m : this.fail(node, `operand ${inputs[k]} of cbind is not a row of the main input's rows`)));
    return { kind: "row", m: cbind(...slices) };
  }

  private call(node: number, name: string): RowPart {
    const n = this.ctx.dag.nodes[node]!;
    if (name === "rowIndexMax") {
      const a = this.part(n.inputs[0]!);
      if (a.kind === "rowT") this.fail(node, "rowIndexMax of a transposed row");
      const args = { values: [a.kind === "whole" ? a.v : { kind: "matrix" as const, matrix: a.m }], names: [undefined] };
      const v = BUILTINS.rowIndexMax!(args, NO_CONTEXT);
      return a.kind === "whole" ? { kind: "whole", v } : { kind: "row", m: mat(v) };
    }
    const order = callOperandOrder(n, name) ?? this.fail(node, `the call ${name} cannot be computed row by row`);
    const builtin = BUILTINS[name] ?? this.fail(node, `no builtin ${name}`);
    const ordered = order.map((k) => n.inputs[k]!);
    return this.elementwise(node, ordered, (values) => {
      // The builtins take same-shaped matrices or scalars: a 1 x 1 operand beside a longer row is a scalar.
      const width = Math.max(...values.map((v) => (v.kind === "matrix" ? v.matrix.cols : 1)));
      const operands = values.map((v) => (v.kind === "matrix" && v.matrix.rows * v.matrix.cols === 1 && width > 1 ? double(v.matrix.get(0, 0)) : v));
      return builtin({ values: operands, names: operands.map(() => undefined) }, NO_CONTEXT);
    });
  }
}

function isEmptyRow(m: Matrix, i: number): boolean {
  if (isSparse(m)) return m.rowPtr[i] === m.rowPtr[i + 1];
  for (let j = 0; j < m.cols; j++) if (m.data[i * m.cols + j] !== 0) return false;
  return true;
}

/** The builtins used here (ifelse, replace, min, max, rowIndexMax) read nothing from the context. */
const NO_CONTEXT = {} as EvalContext;
