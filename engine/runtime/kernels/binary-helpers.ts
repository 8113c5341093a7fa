/**
 * DML semantics of the binary operators that are not one JavaScript
 * operator, as SystemDS's function objects compute them.
 */

/** `%/%`: floor(a / b); a non-finite quotient is returned as is (5 %/% 0 = Inf, 0 %/% 0 = NaN). */
function intDiv(a: number, b: number): number {
  const q = a / b;
  return q - q !== 0 ? q : Math.floor(q);
}

/** `%%`: a - floor(a / b) · b, so the result takes the divisor's sign (-5 %% 3 = 1, 5 %% -3 = -1); x %% 0 = NaN. */
function mod(a: number, b: number): number {
  if (b === 0) return Number.NaN;
  return a - intDiv(a, b) * b;
}

const INT32 = 2 ** 31;
const LONG_MAX = 2n ** 63n - 1n;

/** Java's (long) cast: truncation, NaN to 0, clamped to the long range. */
function toLong(v: number): bigint {
  if (Number.isNaN(v)) return 0n;
  if (v >= 9.2e18) return LONG_MAX;
  if (v <= -9.2e18) return -LONG_MAX - 1n;
  return BigInt(Math.trunc(v));
}

function small(v: number): boolean {
  return v > -INT32 && v < INT32;
}

function bitwAnd(a: number, b: number): number {
  if (small(a) && small(b)) return (Math.trunc(a) & Math.trunc(b)) | 0;
  return Number(toLong(a) & toLong(b));
}

function bitwOr(a: number, b: number): number {
  if (small(a) && small(b)) return (Math.trunc(a) | Math.trunc(b)) | 0;
  return Number(toLong(a) | toLong(b));
}

function bitwXor(a: number, b: number): number {
  if (small(a) && small(b)) return (Math.trunc(a) ^ Math.trunc(b)) | 0;
  return Number(toLong(a) ^ toLong(b));
}

/** Java's `long << long` (the shift count taken modulo 64). */
function bitwShiftL(a: number, b: number): number {
  return Number(BigInt.asIntN(64, toLong(a) << (toLong(b) & 63n)));
}

/** Java's arithmetic `long >> long`. */
function bitwShiftR(a: number, b: number): number {
  return Number(toLong(a) >> (toLong(b) & 63n));
}

/** The helpers generated kernels reach as `H.name`. */
export const BINARY_HELPERS = { intDiv, mod, bitwAnd, bitwOr, bitwXor, bitwShiftL, bitwShiftR } as const;
