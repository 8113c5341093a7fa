/**
 * One Outer kernel: the skeleton of SystemDS's SpoofOuterProduct for one
 * root of an Outer operator, over the rows i in [r0, r1) of the driver X:
 *
 *     list row i's non-zeros j                 (CSR: row i's entries; dense: its non-zero cells)
 *     dots of U_i with V_j for all of them     (outer-dot-code.ts: U_i shared by four j at a time)
 *     for each non-zero (i, j) of the row
 *       w = W(i, j)                            (the cell expression, reading the row's dots)
 *       cells:   out[p] = w                    (X's pattern, zeros dropped afterwards)
 *       sum:     Kahan-add w (or w^2) into acc
 *       product: Y_i += w B'_j into out rows   (row-partitioned)  or
 *                Y_j += w B'_i into acc        (an n x c buffer per range, combined "sum")
 *
 * The dense m x n product is never built. The call goes through runKernel
 * (which may split the rows over threads); `finish` turns the combined
 * accumulators and the output into the root's value.
 */
import type { FusionDag, FusedOperator } from "../../fusion";
import type { NodeShape } from "../fused";
import { double, type Value } from "../interpreter";
import { transpose } from "../kernels";
import { CsrMatrix, dropZeros, DenseMatrix, settleFormat, allocateF64, copyI32, csrShared, isDense } from "../matrix";
import { UnsupportedOperator } from "./generated-operator";
import type { Combine, KernelCall } from "./kernel-program";
import { CellCode } from "./cell-code";
import { OuterKernelInputs } from "./outer-kernel-inputs";
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
  const io = new OuterKernelInputs(inputs);
  const x = io.matrix(driver);
  const { rows: m, cols: n } = x;
  const nnz = x.nnz();
  // The driver's arrays first, so they are a0.. in every kernel.
  const loop = isDense(x) ? denseDriverLoop(io, x.data, n) : csrDriverLoop(io, x);

  const covered = new Set(op.covered);
  let rank = 0;
  /** A product operand as a dense row-major factor whose rows are the product's rows (left) or columns (right). */
  const factorRows = (operand: number, right: boolean): string => {
    const o = dag.nodes[operand]!;
    if (inputs.has(operand)) return io.array(`factor ${operand}${right ? " transposed" : ""}`, () => io.dense(operand, right).data);
    if (covered.has(operand) && o.op.kind === "transpose" && inputs.has(o.inputs[0]!)) {
      const source = o.inputs[0]!;
      return io.array(`factor ${source}${right ? "" : " transposed"}`, () => io.dense(source, !right).data);
    }
    throw new UnsupportedOperator(`Outer operator ${op.id}: the product operand ${operand} (${o.op.kind}) is neither an input nor the transpose of one`);
  };
  /** A covered matrix product inside the cell expression (the low-rank U %*% t(V)) at (row, col): dot(U_row, V_col). */
  const product = (node: number, row: string, col: string): string => {
    const [l, r] = dag.nodes[node]!.inputs as [number, number];
    const k = shapes.get(l)?.cols ?? 0;
    rank += k;
    return io.product(factorRows(l, false), factorRows(r, true), io.scalar(`rank ${node}`, () => k), row, col);
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
    "  }",
    ...result.after.map(indent(1)),
    "}",
  ].join("\n");

  const perRow = m === 0 ? 0 : nnz / m;
  const call: KernelCall = {
    program: { source },
    arrays: io.arrays,
    scalars: Float64Array.from(io.scalars),
    rows: m,
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

function csrDriverLoop(io: OuterKernelInputs, x: CsrMatrix): LoopCode {
  const ptr = io.array("driver rowPtr", () => x.rowPtr);
  const idx = io.array("driver colIdx", () => x.colIdx);
  const val = io.array("driver values", () => x.values);
  const longest = io.scalar("driver longest row", () => longestRow(x));
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
  io.rowCells = { cols: "JJ", from: "0", to: "nc", longest: n };
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
      // In kernel memory, so the runner may split the rows over threads.
      const output = ctx.dense ? allocateF64(m * n) : allocateF64(ctx.nnz, csrShared(m, ctx.nnz));
      return {
        before: [],
        row: [],
        cell: [ctx.dense ? `out[xb + j] = ${w};` : `out[p] = ${w};`],
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
    case "product": {
      const b = otherRows(root, ctx);
      const width = b.cols;
      const bName = ctx.io.array(`other ${root.other}${root.transposeOther ? " transposed" : ""}`, () => b.data);
      const c = ctx.io.scalar("product cols", () => width);
      const yRows = root.over === "i" ? m : n;
      const update = `for (let c = 0; c < ${c}; c++) Y[yb + c] += ${w} * ${bName}[bb + c];`;
      // Y_i rows belong to this range: written into `out`; Y_j rows are shared by all ranges: a private buffer in `acc`.
      const rowOf = (index: "i" | "j", name: string) => `const ${name} = ${index} * ${c};`;
      const yIndex = root.over;
      const bIndex = root.over === "i" ? "j" : "i";
      const inRow = [yIndex === "i" ? rowOf("i", "yb") : undefined, bIndex === "i" ? rowOf("i", "bb") : undefined].filter((s) => s !== undefined);
      const inCell = [yIndex === "j" ? rowOf("j", "yb") : undefined, bIndex === "j" ? rowOf("j", "bb") : undefined].filter((s) => s !== undefined);
      const output = root.over === "i" ? allocateF64(m * width) : new Float64Array(0);
      return {
        before: [root.over === "i" ? "const Y = out;" : "const Y = acc;"],
        row: inRow,
        cell: [...inCell, update],
        after: [],
        output,
        ...(root.over === "j" ? { accumulators: { init: new Float64Array(n * width), combine: sumCombine(n * width) } } : {}),
        width,
        finish: (acc) => {
          const y = new DenseMatrix(yRows, width, root.over === "i" ? output : acc);
          return { kind: "matrix", matrix: root.transposeResult ? transpose(y) : y };
        },
      };
    }
  }
}

/** B' of a product: the other operand oriented so that its rows are indexed by the loop index that is not `over`. */
function otherRows(root: Extract<OuterRoot, { kind: "product" }>, ctx: ConsumeContext): DenseMatrix {
  const o = ctx.dag.nodes[root.other]!;
  let b: DenseMatrix;
  if (ctx.inputs.has(root.other)) b = ctx.io.dense(root.other, root.transposeOther);
  else if (ctx.covered.has(root.other) && o.op.kind === "transpose" && ctx.inputs.has(o.inputs[0]!)) b = ctx.io.dense(o.inputs[0]!, !root.transposeOther);
  else throw new UnsupportedOperator(`Outer operator ${ctx.op.id}: the product's operand ${root.other} (${o.op.kind}) is neither an input nor the transpose of one`);
  const expected = root.over === "i" ? ctx.n : ctx.m;
  if (b.rows !== expected) throw new UnsupportedOperator(`Outer operator ${ctx.op.id}: the product's operand has ${b.rows} rows where ${expected} are needed`);
  return b;
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
