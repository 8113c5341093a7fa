/**
 * The generated loops of element-wise binary operations (see codegen.ts),
 * one compiled instance per operator:
 *   - dense: every output cell from two dense operands with broadcasting
 *     strides;
 *   - keep: the values of a CSR operand's stored cells combined with a
 *     dense (broadcast) operand, for operators that map its zeros to 0;
 *   - union / intersection: two CSR operands of the same shape merged row
 *     by row.
 */
import type { ElementwiseBinaryOp } from "../../program";
import { BINARY_EXPRESSIONS } from "./binary-ops";
import { compileKernel } from "./codegen";

/**
 * out (rows x cols, row-major) = A op B. Row i of an operand starts at
 * i · rowStep; along a row it advances by colStep ∈ {0, 1} (0: the value
 * is repeated along the row). So a full operand has (cols, 1), a row
 * vector (0, 1), a column vector (1, 0), a scalar (0, 0).
 */
export type DenseBinaryKernel = (
  out: Float64Array, A: Float64Array, B: Float64Array, rows: number, cols: number,
  aRowStep: number, aColStep: number, bRowStep: number, bColStep: number,
) => void;

export function denseBinaryKernel(op: ElementwiseBinaryOp): DenseBinaryKernel {
  const e = BINARY_EXPRESSIONS[op];
  return compileKernel<DenseBinaryKernel>(
    `dense binary ${op}`,
    "denseBinary",
    ["out", "A", "B", "rows", "cols", "aRowStep", "aColStep", "bRowStep", "bColStep"],
    `let o = 0, ar = 0, br = 0;
    for (let i = 0; i < rows; i++, o += cols, ar += aRowStep, br += bRowStep) {
      if (aColStep === 1 && bColStep === 1) {
        for (let j = 0; j < cols; j++) { const a = A[ar + j], b = B[br + j]; out[o + j] = ${e}; }
      } else if (aColStep === 1) {
        const b = B[br];
        for (let j = 0; j < cols; j++) { const a = A[ar + j]; out[o + j] = ${e}; }
      } else if (bColStep === 1) {
        const a = A[ar];
        for (let j = 0; j < cols; j++) { const b = B[br + j]; out[o + j] = ${e}; }
      } else if (cols > 0) {
        const a = A[ar], b = B[br];
        out.fill(${e}, o, o + cols);
      }
    }`,
  );
}

/**
 * outVal[p] = x op B[cell of p] for each stored cell p of the CSR operand
 * x (or B op x when `swapped`), B a dense operand addressed with strides
 * as in `DenseBinaryKernel`.
 */
export type SparseKeepKernel = (
  outVal: Float64Array, xPtr: Int32Array, xCol: Int32Array, xVal: Float64Array, rows: number,
  B: Float64Array, bRowStep: number, bColStep: number,
) => void;

export function sparseKeepKernel(op: ElementwiseBinaryOp, swapped: boolean): SparseKeepKernel {
  const load = swapped ? "const b = xVal[p], a = B[br + xCol[p] * bColStep];" : "const a = xVal[p], b = B[br + xCol[p] * bColStep];";
  return compileKernel<SparseKeepKernel>(
    `sparse keep ${op} ${swapped}`,
    "sparseKeep",
    ["outVal", "xPtr", "xCol", "xVal", "rows", "B", "bRowStep", "bColStep"],
    `for (let i = 0; i < rows; i++) {
      const br = i * bRowStep;
      for (let p = xPtr[i], end = xPtr[i + 1]; p < end; p++) { ${load} outVal[p] = ${BINARY_EXPRESSIONS[op]}; }
    }`,
  );
}

/**
 * Merges two CSR matrices of the same shape into out* (sized for the
 * union, resp. the smaller operand), keeping non-zero results only; fills
 * outPtr and returns the number of non-zeros.
 */
export type SparseMergeKernel = (
  rows: number, aPtr: Int32Array, aCol: Int32Array, aVal: Float64Array,
  bPtr: Int32Array, bCol: Int32Array, bVal: Float64Array,
  outPtr: Int32Array, outCol: Int32Array, outVal: Float64Array,
) => number;

const MERGE_PARAMS = ["rows", "aPtr", "aCol", "aVal", "bPtr", "bCol", "bVal", "outPtr", "outCol", "outVal"];

/** Every cell stored in either operand (for operators with op(0, 0) = 0). */
export function sparseUnionKernel(op: ElementwiseBinaryOp): SparseMergeKernel {
  const e = BINARY_EXPRESSIONS[op];
  return compileKernel<SparseMergeKernel>(
    `sparse union ${op}`,
    "sparseUnion",
    MERGE_PARAMS,
    `let n = 0;
    for (let i = 0; i < rows; i++) {
      let pa = aPtr[i], pb = bPtr[i];
      const ea = aPtr[i + 1], eb = bPtr[i + 1];
      while (pa < ea || pb < eb) {
        const ca = pa < ea ? aCol[pa] : 2147483647, cb = pb < eb ? bCol[pb] : 2147483647;
        let a = 0, b = 0, c = ca;
        if (ca === cb) { a = aVal[pa++]; b = bVal[pb++]; }
        else if (ca < cb) { a = aVal[pa++]; }
        else { b = bVal[pb++]; c = cb; }
        const v = ${e};
        if (v !== 0) { outCol[n] = c; outVal[n++] = v; }
      }
      outPtr[i + 1] = n;
    }
    return n;`,
  );
}

/** Only cells stored in both operands (for operators that are 0 when either side is). */
export function sparseIntersectionKernel(op: ElementwiseBinaryOp): SparseMergeKernel {
  const e = BINARY_EXPRESSIONS[op];
  return compileKernel<SparseMergeKernel>(
    `sparse intersection ${op}`,
    "sparseIntersection",
    MERGE_PARAMS,
    `let n = 0;
    for (let i = 0; i < rows; i++) {
      let pa = aPtr[i], pb = bPtr[i];
      const ea = aPtr[i + 1], eb = bPtr[i + 1];
      while (pa < ea && pb < eb) {
        const ca = aCol[pa], cb = bCol[pb];
        if (ca < cb) pa++;
        else if (cb < ca) pb++;
        else {
          const a = aVal[pa++], b = bVal[pb++];
          const v = ${e};
          if (v !== 0) { outCol[n] = ca; outVal[n++] = v; }
        }
      }
      outPtr[i + 1] = n;
    }
    return n;`,
  );
}
