/**
 * What the cost model knows of an operand (an input or the output of one
 * operation): a scalar, or a matrix with known rows, columns and non-zeros;
 * and how that matrix is stored in memory, which decides its bytes.
 *
 * Bytes (what operations read and write):
 *   dense = 8 · rows · cols                 (float64 values, row-major)
 *   CSR   = 12 · nnz + 4 · (rows + 1)       (float64 value + int32 column index
 *                                            per non-zero, int32 row pointers)
 *   a scalar is 8 bytes (SystemDS's estimate for a scalar).
 *
 * Format, exactly SystemDS's `MatrixBlock.evalSparseFormatInMemory`: a matrix
 * is stored sparse iff
 *   sparsity = nnz / (rows · cols) < 0.4   (SPARSITY_TURN_POINT)
 *   and cols > 1                           (column vectors are always dense)
 *   and sparseEstimate < denseEstimate,
 * where the estimates are SystemDS's JVM in-memory sizes of its default
 * sparse block (MCSR: an array of row objects) and of a dense block:
 *   sparseEstimate = 0 if nnz = 0, else
 *                    48 + 8 · rows + r · (88 + 12 · max(4, nnz / r)), r = min(rows, nnz)
 *                    (block 16 B, row-reference array 32 B + 8 B per row; per
 *                    non-empty row an object with two int fields and two arrays,
 *                    88 B, and 12 B per value for at least 4 values)
 *   denseEstimate  = 64 + 8 · rows · cols
 * The per-row overhead is what keeps tiny and narrow matrices dense: with
 * every row non-empty, fewer than 19 columns is always dense (e.g. 10×10 at
 * 30% is dense, 1000×1000 at 1% is sparse).
 */

/** A scalar operand; `value` is its constant value when known (a literal), used to decide sparse-safety of `X op s`. */
export interface ScalarStats {
  kind: "scalar";
  value?: number;
}

/** A matrix operand with known dimensions and number of non-zeros. */
export interface MatrixStats {
  kind: "matrix";
  rows: number;
  cols: number;
  nnz: number;
}

/** An operand whose sizes are all known. */
export type OperandStats = ScalarStats | MatrixStats;

/**
 * An operand as a size analysis may know it: a matrix with some sizes
 * unknown (`null`), or a value of unknown kind (a frame, a list, an
 * unresolved type). Only `estimateOperationCost` takes these.
 */
export type PartialOperandStats =
  | ScalarStats
  | { kind: "matrix"; rows: number | null; cols: number | null; nnz: number | null }
  | { kind: "unknown" };

export type StorageFormat = "dense" | "sparse";

/** SystemDS's SPARSITY_TURN_POINT: below this sparsity a matrix may be stored sparse. */
export const SPARSE_FORMAT_MAX_SPARSITY = 0.4;
const SCALAR_BYTES = 8;
const DENSE_BYTES_PER_CELL = 8;
const CSR_BYTES_PER_NONZERO = 12;
const CSR_BYTES_PER_ROW_POINTER = 4;

export function cellCount(m: MatrixStats): number {
  return m.rows * m.cols;
}

/** nnz / cells; 0 for a matrix without cells. */
export function sparsityOf(m: MatrixStats): number {
  const cells = cellCount(m);
  return cells > 0 ? m.nnz / cells : 0;
}

export function denseBytes(rows: number, cols: number): number {
  return DENSE_BYTES_PER_CELL * rows * cols;
}

export function csrBytes(rows: number, nnz: number): number {
  return CSR_BYTES_PER_NONZERO * nnz + CSR_BYTES_PER_ROW_POINTER * (rows + 1);
}

/** SystemDS's in-memory size estimate of a sparse (MCSR) block, used only to choose the format. */
export function systemdsSparseSizeEstimate(rows: number, nnz: number): number {
  if (nnz === 0) return 0;
  const r = Math.min(rows, nnz);
  return 48 + 8 * rows + r * (88 + 12 * Math.max(4, nnz / r));
}

/** SystemDS's in-memory size estimate of a dense block, used only to choose the format. */
export function systemdsDenseSizeEstimate(rows: number, cols: number): number {
  return 64 + 8 * rows * cols;
}

/** The in-memory format SystemDS would choose (see the file comment for the rule). */
export function storageFormat(m: MatrixStats): StorageFormat {
  const sparse =
    sparsityOf(m) < SPARSE_FORMAT_MAX_SPARSITY &&
    m.cols > 1 &&
    systemdsSparseSizeEstimate(m.rows, m.nnz) < systemdsDenseSizeEstimate(m.rows, m.cols);
  return sparse ? "sparse" : "dense";
}

export function isSparseFormat(o: OperandStats): boolean {
  return o.kind === "matrix" && storageFormat(o) === "sparse";
}

/** Bytes of a matrix in its storage format. */
export function matrixBytes(m: MatrixStats): number {
  return storageFormat(m) === "sparse" ? csrBytes(m.rows, m.nnz) : denseBytes(m.rows, m.cols);
}

/** Bytes of an operand in memory: 8 for a scalar, else `matrixBytes`. */
export function operandBytes(o: OperandStats): number {
  return o.kind === "scalar" ? SCALAR_BYTES : matrixBytes(o);
}

/** A scalar seen as the 1×1 matrix it would be in a matrix operation. */
export function asMatrix(o: OperandStats): MatrixStats {
  if (o.kind === "matrix") return o;
  return { kind: "matrix", rows: 1, cols: 1, nnz: o.value === 0 ? 0 : 1 };
}

/**
 * The fully known form of a partial operand, or a reason why it is not
 * known. Sizes must be finite and non-negative, and nnz at most rows · cols.
 */
export function knownOperand(p: PartialOperandStats, what: string): { ok: true; stats: OperandStats } | { ok: false; reason: string } {
  if (p.kind === "scalar") return { ok: true, stats: p };
  if (p.kind === "unknown") return { ok: false, reason: `${what}: its type is unknown` };
  const missing = (["rows", "cols", "nnz"] as const).filter((k) => p[k] === null);
  if (missing.length > 0) return { ok: false, reason: `${what}: ${missing.join(", ")} unknown` };
  const m: MatrixStats = { kind: "matrix", rows: p.rows!, cols: p.cols!, nnz: p.nnz! };
  const invalid = validateMatrix(m);
  return invalid === undefined ? { ok: true, stats: m } : { ok: false, reason: `${what}: ${invalid}` };
}

/** Why a matrix's sizes are impossible, or undefined if they are fine. */
export function validateMatrix(m: MatrixStats): string | undefined {
  for (const k of ["rows", "cols", "nnz"] as const) {
    if (!Number.isFinite(m[k]) || m[k] < 0) return `${k} = ${m[k]} is not a non-negative number`;
  }
  if (m.nnz > cellCount(m)) return `nnz = ${m.nnz} exceeds rows · cols = ${cellCount(m)}`;
  return undefined;
}
