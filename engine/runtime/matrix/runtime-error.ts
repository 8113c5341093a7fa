/**
 * The error a user can cause at run time: operands whose dimensions do not
 * fit (`A %*% B` with A's columns ≠ B's rows, `X + Y` of shapes that do not
 * broadcast), an index out of range, an invalid argument (`seq` with an
 * increment of the wrong sign, `table` with a category ≤ 0, ...).
 *
 * Kernels throw it with a message that names the operation and the sizes
 * involved but knows nothing of the source: the interpreter catches it,
 * adds the source position of the expression it was evaluating and reports
 * it as a value (it never reaches the host as an exception). Any other
 * exception coming out of a kernel is a bug in the kernel.
 */
export type RuntimeErrorKind = "dimension-mismatch" | "index-out-of-range" | "invalid-argument";

export class RuntimeError extends Error {
  override readonly name = "RuntimeError";

  constructor(
    readonly kind: RuntimeErrorKind,
    message: string,
  ) {
    super(message);
  }
}

/** `rows x cols`, as sizes appear in runtime error messages. */
export function dimsText(rows: number, cols: number): string {
  return `${rows} x ${cols}`;
}
