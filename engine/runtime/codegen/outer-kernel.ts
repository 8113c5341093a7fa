/**
 * One Outer kernel: the skeleton of SystemDS's SpoofOuterProduct for one
 * root of an Outer operator, over the rows i in [r0, r1) of the driver X:
 *
 *     list row i's non-zeros j                 (CSR: row i's entries; dense: its non-zero cells)
 *     dots of U_i with V_j                     (outer-kernel-inputs.ts: rank <= 16 unrolled into
 *                                               locals, U_i per row and V_j per cell; else per row)
 *     for each non-zero (i, j) of the row
 *       w = W(i, j)                            (the cell expression, reading the dots)
 *       cells:   out[p] = w                    (X's pattern, zeros dropped afterwards)
 *       sum:     Kahan-add w (or w^2) into acc
 *       product: Y_i += w B'_j                 (row-partitioned; Y_i in locals and B'_j the
 *                                               loaded V_j when B' is V: one load per value)
 *
 * A product into rows of X's columns (`t(W) %*% U`, Y_j += w B'_i) walks the
 * rows of t(X) instead when X is CSR (its transpose kept per matrix, the
 * inputs read transposed), so it is row-partitioned too; over a dense X each
 * range adds into an n x c buffer of its own (combined "sum").
 *
 * The dense m x n product is never built. The call goes through runKernel
 * (which may split the rows over threads); `finish` turns the combined
 * accumulators and the output into the root's value.
 */
import type { FusionDag, FusedOperator } from "../../fusion";
import type { NodeShape } from "../fused";
import { double, type Value } from "../interpreter";
import { sharedCsr, transpose, transposedCsr } from "../kernels";
import { bufferPool, CsrMatrix, dropZeros, DenseMatrix, settleFormat, allocateF64, copyI32, csrShared, isDense, releaseMatrix } from "../matrix";
import { UnsupportedOperator } from "./generated-operator";
import type { Combine, KernelCall } from "./kernel-program";
import { CellCode } from "./cell-code";
import { OuterKernelInputs, UNROLLED_RANK, type KernelIndex } from "./outer-kernel-inputs";
import type { OuterRoot } from "./outer-roots";

export interface OuterKernel {
  readonly call: KernelCall;
  /** The root's value, from the combined accumulators runKernel returned (and the call's output). */
  finish(acc: Float64Array): Value;
  /** Gives temporary copies back to the buffer pool (after finish). */
  release(): void;
}

export function buildOuterKernel(
  dag: FusionDag,
  op: FusedOperator,
  inputs: ReadonlyMap<number, Value>,
  shapes: ReadonlyMap<number, NodeShape>,
  root: OuterRoot,
): OuterKernel {
  const driver = op.binding.mainInput!;
  const x = new OuterKernelInputs(inputs).matrix(driver);
  const { rows: m, cols: n } = x;
  const nnz = x.nnz();
  // A product accumulated into rows of the driver's columns (t(W) %*% U) walks the transpose of a CSR
  // driver, so that each output row belongs to one loop row (no per-range n x c buffers to combine).
  const transposed = root.kind === "product" && root.over === "j" && !isDense(x);
  const io = new OuterKernelInputs(inputs, transposed);
  // The driver's arrays first, so they are a0.. in every kernel.
  const loop = isDense(x) ? denseDriverLoop(io, x.data, n) : csrDriverLoop(io, transposed ? transposedCsr(x) : sharedCsr(x), transposed);

  const covered = new Set(op.covered);
  let rank = 0;
  /** A product operand as a dense row-major factor whose rows are the product's rows (left) or columns (right). */
  const factorRows = (operand: number, right: boolean): string => {
    const o = dag.nodes[operand]!;
    if (inputs.has(operand)) return io.denseArray(operand, right);
    if (covered.has(operand) && o.op.kind === "transpose" && inputs.has(o.inputs[0]!)) return io.denseArray(o.inputs[0]!, !right);
    throw new UnsupportedOperator(`Outer operator ${op.id}: the product operand ${operand} (${o.op.kind}) is neither an input nor the transpose of one`);
  };
  /**
   * A covered matrix product inside the cell expression (the low-rank U %*% t(V)) at (row, col): dot(U_row, V_col).
   * The factor indexed by the loop's row is registered first, so a product read through the walked transpose
   * (`t(W * (U %*% t(S))) %*% U`) has the kernel of the product read directly (`(W * (S %*% t(V))) %*% V`).
   */
  const product = (node: number, row: KernelIndex, col: KernelIndex): string => {
    const [l, r] = dag.nodes[node]!.inputs as [number, number];
    const k = shapes.get(l)?.cols ?? 0;
    rank += k;
    if (io.loopIndex(row) === "j" && io.loopIndex(col) === "i") {
      const right = factorRows(r, true);
      return io.product(factorRows(l, false), right, k, row, col);
    }
    return io.product(factorRows(l, false), factorRows(r, true), k, row, col);
  };
  const code = new CellCode({
    dag,
    op,
    shapes,
    read: (node, at) => io.read(node, at.row, at.col, driver),
    special: (node, at) => (dag.nodes[node]!.op.kind === "matmul" ? product(node, at.row, at.col) : undefined),
  });
  code.cell.push(`const cw = ${code.value(root.cells)};`);
  const result = consume(root, "cw", { io, dag, op, inputs, covered, m, n, nnz, dense: isDense(x) });

  const source = [
    "function (a, s, r0, r1, acc, out) {",
    ...io.header.map(indent(1)),
    ...code.invariant.map(indent(1)),
    ...result.before.map(indent(1)),
    "  for (let i = r0; i < r1; i++) {",
    ...loop.rowStart.map(indent(2)),
    ...io.rowPrologue.map(indent(2)),
    ...io.rowDots.map(indent(2)),
    ...code.row.map(indent(2)),
    ...result.row.map(indent(2)),
    `    ${loop.open}`,
    ...io.cellPrologue.map(indent(3)),
    ...code.cell.map(indent(3)),
    ...result.cell.map(indent(3)),
    "    }",
    ...result.rowEnd.map(indent(2)),
    "  }",
    ...result.after.map(indent(1)),
    "}",
  ].join("\n");

  const rows = transposed ? n : m;
  const perRow = rows === 0 ? 0 : nnz / rows;
  const call: KernelCall = {
    program: { source },
    arrays: io.arrays,
    scalars: Float64Array.from(io.scalars),
    rows,
    output: result.output,
    ...(result.accumulators ? { accumulators: result.accumulators } : {}),
    workPerRow: Math.max(1, perRow * (rank + result.width + 1) + (isDense(x) ? n : 0)),
  };
  return { call, finish: (acc) => result.finish(acc), release: () => io.release() };
}

interface LoopCode {
  /** Statements listing row i's visited cells. */
  rowStart: string[];
  /** Opens the loop over them, defining `j`, `x` and `q` (the cell's place in the row's list; for a CSR driver also `p`, its position). */
  open: string;
}

/** The loop over a CSR driver's rows, or over its transpose's (`t`, when the kernel walks the transpose). */
function csrDriverLoop(io: OuterKernelInputs, t: CsrMatrix, transposed: boolean): LoopCode {
  const key = transposed ? "driver transposed" : "driver";
  const ptr = io.array(`${key} rowPtr`, () => t.rowPtr);
  const idx = io.array(`${key} colIdx`, () => t.colIdx);
  const val = io.array(`${key} values`, () => t.values);
  const longest = () => io.scalar(`${key} longest row`, () => longestRow(t));
  io.rowCells = { cols: idx, from: "p0", to: "p1", longest };
  return {
    rowStart: [`const p0 = ${ptr}[i], p1 = ${ptr}[i + 1];`],
    open: `for (let p = p0; p < p1; p++) { const q = p - p0; const j = ${idx}[p]; const x = ${val}[p];`,
  };
}

function denseDriverLoop(io: OuterKernelInputs, data: Float64Array, cols: number): LoopCode {
  const d = io.array("driver dense", () => data);
  const n = io.scalar("driver cols", () => cols);
  io.header.push(`const JJ = new Int32Array(${n});`);
  io.rowCells = { cols: "JJ", from: "0", to: "nc", longest: () => n };
  return {
    // The row's non-zero cells (NaN included) listed first: only they are visited.
    rowStart: [`const xb = i * ${n}; let nc = 0;`, `for (let j = 0; j < ${n}; j++) if (${d}[xb + j] !== 0) JJ[nc++] = j;`],
    open: `for (let q = 0; q < nc; q++) { const j = JJ[q]; const x = ${d}[xb + j];`,
  };
}

function longestRow(x: CsrMatrix): number {
  let longest = 0;
  for (let i = 0; i < x.rows; i++) longest = Math.max(longest, x.rowPtr[i + 1]! - x.rowPtr[i]!);
  return longest;
}

interface ConsumeContext {
  io: OuterKernelInputs;
  dag: FusionDag;
  op: FusedOperator;
  inputs: ReadonlyMap<number, Value>;
  covered: ReadonlySet<number>;
  m: number;
  n: number;
  nnz: number;
  dense: boolean;
}

/** What the kernel does with each cell's value w, and how the root's value is read back. */
interface ResultCode {
  before: string[];
  row: string[];
  cell: string[];
  /** After the row's cells. */
  rowEnd: string[];
  after: string[];
  output: Float64Array;
  accumulators?: { init: Float64Array; combine: readonly Combine[] };
  /** Multiply-adds per visited cell beyond the expression (the product's width). */
  width: number;
  finish(acc: Float64Array): Value;
}

function consume(root: OuterRoot, w: string, ctx: ConsumeContext): ResultCode {
  const { m, n } = ctx;
  switch (root.kind) {
    case "cells": {
      const driver = ctx.io.matrix(ctx.op.binding.mainInput!);
      // In kernel memory, so the runner may split the rows over threads; a dense output (written at the driver's
      // non-zeros only) from the buffer pool, zeroed.
      const output = ctx.dense ? bufferPool.acquireZeroed(m * n) : allocateF64(ctx.nnz, csrShared(m, ctx.nnz));
      return {
        before: [],
        row: [],
        cell: [ctx.dense ? `out[xb + j] = ${w};` : `out[p] = ${w};`],
        rowEnd: [],
        after: [],
        output,
        width: 0,
        finish: () => {
          if (ctx.dense) return { kind: "matrix", matrix: settleFormat(new DenseMatrix(m, n, output)) };
          const x = driver as CsrMatrix;
          const shared = csrShared(m, ctx.nnz);
          const pattern = new CsrMatrix(m, n, copyI32(x.rowPtr, 0, m + 1, shared), copyI32(x.colIdx, 0, ctx.nnz, shared), output);
          return { kind: "matrix", matrix: dropZeros(pattern) };
        },
      };
    }
    case "sum": {
      const v = root.squared ? `(${w} * ${w})` : w;
      return {
        before: ["let ks = acc[0], kc = acc[1], kp = acc[2];"],
        row: [],
        cell: [`{ const v = ${v}; kp += v; const y = v - kc; const t = ks + y; kc = (t - ks) - y; ks = t; }`],
        rowEnd: [],
        after: ["acc[0] = ks; acc[1] = kc; acc[2] = kp;"],
        output: new Float64Array(0),
        accumulators: { init: new Float64Array(3), combine: ["sum", "sum", "sum"] },
        width: 0,
        finish: (acc) => {
          // Compensated sum; the plain sum when it is not finite (as the runtime's kahanSum).
          const s = acc[0]! - acc[1]!;
          return double(s - s === 0 ? s : acc[2]!);
        },
      };
    }
    case "product":
      return ctx.io.loopIndex(root.over) === "i" ? rowProduct(root, w, ctx) : accumulatedProduct(root, w, ctx);
  }
}

/**
 * Y_i += w B'_j, Y's row i belonging to loop row i (row-partitioned, written
 * into `out`). For a width up to UNROLLED_RANK, Y_i is held in locals over
 * the row's cells and B'_j is read from the locals the product loaded when
 * B' is the product's factor (ALS's `(W * (U %*% t(V))) %*% V`).
 */
function rowProduct(root: Extract<OuterRoot, { kind: "product" }>, w: string, ctx: ConsumeContext): ResultCode {
  const b = otherRows(root, ctx);
  const yRows = root.over === "i" ? ctx.m : ctx.n;
  const finish = () => productValue(root, yRows, b.cols, output);
  // From the buffer pool: the unrolled kernel writes every row of Y (its sums start at 0 per row); the loop adds into Y.
  const output = b.cols > UNROLLED_RANK ? bufferPool.acquireZeroed(yRows * b.cols) : bufferPool.acquire(yRows * b.cols);
  if (b.cols > UNROLLED_RANK) {
    const c = ctx.io.scalar("product cols", () => b.cols);
    return {
      before: ["const Y = out;"],
      row: [`const yb = i * ${c};`],
      cell: [`const bb = j * ${c};`, `for (let c = 0; c < ${c}; c++) Y[yb + c] += ${w} * ${b.name}[bb + c];`],
      rowEnd: [],
      after: [],
      output,
      width: b.cols,
      finish,
    };
  }
  const y = Array.from({ length: b.cols }, (_, c) => `y${c}`);
  const loaded = ctx.io.productRow(b.name, b.cols);
  const bj = loaded ?? y.map((_, c) => `${b.name}[bb + ${c}]`);
  return {
    before: ["const Y = out;"],
    row: [`const yb = i * ${b.cols};`, ...(y.length > 0 ? [`let ${y.map((v) => `${v} = 0`).join(", ")};`] : [])],
    cell: [...(loaded ? [] : [`const bb = j * ${b.cols};`]), ...y.map((v, c) => `${v} += ${w} * ${bj[c]!};`)],
    rowEnd: y.map((v, c) => `Y[yb + ${c}] = ${v};`),
    after: [],
    output,
    width: b.cols,
    finish,
  };
}

/** Y_j += w B'_i over a dense driver's rows: Y's rows are shared by all ranges, so each range adds into a private n x c buffer in `acc` (combined by sum). */
function accumulatedProduct(root: Extract<OuterRoot, { kind: "product" }>, w: string, ctx: ConsumeContext): ResultCode {
  const b = otherRows(root, ctx);
  const width = b.cols;
  const c = ctx.io.scalar("product cols", () => width);
  const yRows = root.over === "i" ? ctx.m : ctx.n;
  return {
    before: ["const Y = acc;"],
    row: [`const bb = i * ${c};`],
    cell: [`const yb = j * ${c};`, `for (let c = 0; c < ${c}; c++) Y[yb + c] += ${w} * ${b.name}[bb + c];`],
    rowEnd: [],
    after: [],
    output: new Float64Array(0),
    accumulators: { init: new Float64Array(yRows * width), combine: sumCombine(yRows * width) },
    width,
    finish: (acc) => productValue(root, yRows, width, acc),
  };
}

/** The product's value from Y (yRows x width): Y, or t(Y) for the mirrored products (Y's buffer then goes back to the pool). */
function productValue(root: Extract<OuterRoot, { kind: "product" }>, yRows: number, width: number, data: Float64Array): Value {
  const y = new DenseMatrix(yRows, width, data);
  if (!root.transposeResult) return { kind: "matrix", matrix: y };
  const t = transpose(y);
  releaseMatrix(y);
  return { kind: "matrix", matrix: t };
}

/** B' of a product: the kernel name of the other operand oriented so that its rows are indexed by the loop index that is not `over`, and its columns. */
function otherRows(root: Extract<OuterRoot, { kind: "product" }>, ctx: ConsumeContext): { name: string; cols: number } {
  const o = ctx.dag.nodes[root.other]!;
  let source: number;
  let transposed: boolean;
  if (ctx.inputs.has(root.other)) [source, transposed] = [root.other, root.transposeOther];
  else if (ctx.covered.has(root.other) && o.op.kind === "transpose" && ctx.inputs.has(o.inputs[0]!)) [source, transposed] = [o.inputs[0]!, !root.transposeOther];
  else throw new UnsupportedOperator(`Outer operator ${ctx.op.id}: the product's operand ${root.other} (${o.op.kind}) is neither an input nor the transpose of one`);
  const matrix = ctx.io.matrix(source);
  const [rows, cols] = transposed ? [matrix.cols, matrix.rows] : [matrix.rows, matrix.cols];
  const expected = root.over === "i" ? ctx.n : ctx.m;
  if (rows !== expected) throw new UnsupportedOperator(`Outer operator ${ctx.op.id}: the product's operand has ${rows} rows where ${expected} are needed`);
  return { name: ctx.io.denseArray(source, transposed), cols };
}

const combines = new Map<number, readonly Combine[]>();

/** n slots all combined by sum (kept per length: the same buffers run every iteration). */
function sumCombine(length: number): readonly Combine[] {
  let c = combines.get(length);
  if (!c) {
    c = new Array<Combine>(length).fill("sum");
    if (combines.size > 16) combines.clear();
    combines.set(length, c);
  }
  return c;
}

function indent(level: number): (line: string) => string {
  return (line) => "  ".repeat(level) + line;
}
