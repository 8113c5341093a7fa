/**
 * Facts about element-wise operators the cost model needs: the per-cell
 * compute weight (SystemDS's codegen cost model, `ComputeCost`), and which
 * cells an operator must touch (its sparse-safety).
 *
 * Matrix–matrix binary operators fall in three classes:
 * - intersection: op(0, y) = op(x, 0) = 0 for all x, y (`*`, `&`, bitwAnd):
 *   only cells where both inputs are non-zero can be non-zero;
 * - union: op(0, 0) = 0 (`+`, `-`, `!=`, `<`, `>`, `|`, xor, min, max, bitwOr,
 *   bitwXor, shifts): cells where either input is non-zero;
 * - dense: op(0, 0) ≠ 0 (`==`, `<=`, `>=`, `/` and `%%`, `%/%` give NaN, `^` gives 1,
 *   `log(X, b)` gives -Inf):
 *   every cell.
 * Matrix–scalar `X op s` is sparse-safe iff op(0, s) = 0 (for `s op X`:
 * op(s, 0) = 0), evaluated when s is a known constant; for an unknown s
 * only the operators that give 0 for any finite s count as safe
 * (`*`, `&`, bitwAnd, and as `X op s` also the shifts).
 * A unary function is sparse-safe iff f(0) = 0 (`-`, abs, sign, sqrt, round,
 * floor, ceil, sin, tan, asin, atan, sinh, tanh, is.na, is.nan, is.infinite);
 * `!`, exp, log (log 0 = -Inf), cos, acos, cosh and sigmoid are not.
 */
import type { AggregateFunction, ElementwiseBinaryOp, ElementwiseUnaryOp } from "../program";

export type BinarySparsityClass = "intersection" | "union" | "dense";

const binaryWeights: Readonly<Record<string, number>> = { "/": 22, "%%": 8, "%/%": 6, log: 32 };

/** Per-cell FLOP weights of binary operators (SystemDS ComputeCost: `/` 22, `%%` 8, `%/%` 6, `log(X, b)` 32, `^` 16 or 1 for `^ 2`, the rest 1). */
export function binaryOpWeight(op: ElementwiseBinaryOp, exponent?: number): number {
  if (op === "^") return exponent === 2 ? 1 : 16;
  return binaryWeights[op] ?? 1;
}

const unaryWeights: Partial<Record<ElementwiseUnaryOp, number>> = {
  "-": 1, "!": 1, abs: 1, sign: 1, round: 1, floor: 1, ceil: 1,
  sqrt: 2, exp: 18, log: 32, sigmoid: 21,
  sin: 18, cos: 22, tan: 42, asin: 93, acos: 103, atan: 40, sinh: 93, cosh: 103, tanh: 40,
  "is.na": 1, "is.nan": 1, "is.infinite": 1,
};

/** Per-cell FLOP weights of unary functions (SystemDS ComputeCost); 1 for an operator not listed. */
export function unaryOpWeight(op: ElementwiseUnaryOp): number {
  return unaryWeights[op] ?? 1;
}

const sparseSafeUnary: ReadonlySet<ElementwiseUnaryOp> = new Set<ElementwiseUnaryOp>([
  "-", "abs", "sign", "sqrt", "round", "floor", "ceil", "sin", "tan", "asin", "atan", "sinh", "tanh",
  "is.na", "is.nan", "is.infinite",
]);

/** f(0) = 0: the function maps the zeros of a sparse input to zeros. */
export function isSparseSafeUnary(op: ElementwiseUnaryOp): boolean {
  return sparseSafeUnary.has(op);
}

const intersectionOps: ReadonlySet<ElementwiseBinaryOp> = new Set<ElementwiseBinaryOp>(["*", "&", "bitwAnd"]);

/** Which cells a matrix–matrix operator must touch (see the file comment). */
export function binarySparsityClass(op: ElementwiseBinaryOp): BinarySparsityClass {
  if (intersectionOps.has(op)) return "intersection";
  return evaluateBinary(op, 0, 0) === 0 ? "union" : "dense";
}

/**
 * Whether `X op s` (scalarOnLeft false) or `s op X` (true) is sparse-safe.
 * `value` undefined: the scalar is not a known constant.
 */
export function isSparseSafeWithScalar(op: ElementwiseBinaryOp, value: number | undefined, scalarOnLeft: boolean): boolean {
  if (value === undefined) {
    if (intersectionOps.has(op)) return true;
    return !scalarOnLeft && (op === "bitwShiftL" || op === "bitwShiftR");
  }
  return (scalarOnLeft ? evaluateBinary(op, value, 0) : evaluateBinary(op, 0, value)) === 0;
}

/** DML's scalar semantics of a binary operator (booleans as 1 / 0). */
function evaluateBinary(op: ElementwiseBinaryOp, a: number, b: number): number {
  const bool = (x: boolean) => (x ? 1 : 0);
  switch (op) {
    case "+": return a + b;
    case "-": return a - b;
    case "*": return a * b;
    case "/": return a / b;
    case "^": return Math.pow(a, b);
    case "%%": return b === 0 ? Number.NaN : a - Math.floor(a / b) * b;
    case "%/%": return b === 0 ? Number.NaN : Math.floor(a / b);
    case "<": return bool(a < b);
    case "<=": return bool(a <= b);
    case ">": return bool(a > b);
    case ">=": return bool(a >= b);
    case "==": return bool(a === b);
    case "!=": return bool(a !== b);
    case "&": return bool(a !== 0 && b !== 0);
    case "|": return bool(a !== 0 || b !== 0);
    case "xor": return bool((a !== 0) !== (b !== 0));
    case "min": return Math.min(a, b);
    case "max": return Math.max(a, b);
    case "bitwAnd": return bitwise(a, b, (x, y) => x & y);
    case "bitwOr": return bitwise(a, b, (x, y) => x | y);
    case "bitwXor": return bitwise(a, b, (x, y) => x ^ y);
    case "bitwShiftL": return Math.trunc(a) * 2 ** Math.trunc(b);
    case "bitwShiftR": return Math.floor(Math.trunc(a) / 2 ** Math.trunc(b));
    default:
      // `log(X, base)` (log 0 = -Inf); any operator added later counts as not sparse-safe.
      return (op as string) === "log" ? Math.log(a) / Math.log(b) : Number.NaN;
  }
}

function bitwise(a: number, b: number, f: (x: bigint, y: bigint) => bigint): number {
  if (!Number.isFinite(a) || !Number.isFinite(b)) return Number.NaN;
  return Number(f(BigInt(Math.trunc(a)), BigInt(Math.trunc(b))));
}

/**
 * Aggregates: FLOP weight per touched input cell and per output cell
 * (finalization). `sum` and `mean` use Kahan summation (4, as SystemDS's
 * ComputeCost), `sumSq` 5, min / max / prod 1, `var` and `sd` the running
 * variance (16, SystemDS's moment weight); `mean` divides once per output
 * (1), `var` finalizes with one division (1), `sd` also takes a square
 * root (1 + 2).
 */
export function aggregateWeights(fn: AggregateFunction): { perCell: number; perOutput: number } {
  switch (fn) {
    case "sum": return { perCell: 4, perOutput: 0 };
    case "mean": return { perCell: 4, perOutput: 1 };
    case "sumSq": return { perCell: 5, perOutput: 0 };
    case "min":
    case "max":
    case "prod": return { perCell: 1, perOutput: 0 };
    case "var": return { perCell: 16, perOutput: 1 };
    case "sd": return { perCell: 16, perOutput: 3 };
    default: return { perCell: 1, perOutput: 0 };
  }
}
