/**
 * A column range `X[, a:b]` of a row-wise value in a Row kernel: the
 * columns [lower, upper) of row i, read in place (no copy): a dense row at
 * a larger offset, a single column as a scalar expression. A CSR row is
 * not sliced here (undefined: the caller reports it unsupported).
 */
import type { RowKernelText } from "./row-kernel-text";
import { elementAt, type RowVectorCode } from "./row-vector-code";

export function columnSliceCode(code: RowVectorCode, range: { lower: number; upper: number }, text: RowKernelText): RowVectorCode | undefined {
  const width = range.upper - range.lower;
  if (code.kind === "scalar") return range.lower === 0 && width === 1 ? code : undefined;
  if (code.kind === "sparse") return undefined;
  const offset = range.lower === 0 ? code.off : code.off === "0" ? text.integer(range.lower) : `${code.off} + ${text.integer(range.lower)}`;
  if (width === 1) return { kind: "scalar", expr: elementAt({ ...code, off: offset }, "0") };
  return { kind: "dense", arr: code.arr, off: offset, width, widthName: text.width(width) };
}
