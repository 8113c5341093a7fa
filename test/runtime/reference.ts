// Straightforward reference implementations of the runtime kernels on plain
// row-major arrays (naive triple loops, no blocking, no sparse shortcuts),
// for the property tests to compare the kernels against.
import type { AggregateFunction, ElementwiseBinaryOp, ElementwiseUnaryOp } from "../../engine/program/dag-types";

/** A matrix as the reference sees it: shape and row-major cells. */
export interface Ref {
  rows: number;
  cols: number;
  cells: number[];
}

export const ref = (rows: number, cols: number, cells: number[] = new Array<number>(rows * cols).fill(0)): Ref => ({ rows, cols, cells });
export const at = (m: Ref, i: number, j: number): number => m.cells[i * m.cols + j]!;

export function refMatmul(a: Ref, b: Ref): Ref {
  const out = ref(a.rows, b.cols);
  for (let i = 0; i < a.rows; i++)
    for (let j = 0; j < b.cols; j++) {
      let s = 0;
      for (let p = 0; p < a.cols; p++) s += at(a, i, p) * at(b, p, j);
      out.cells[i * b.cols + j] = s;
    }
  return out;
}

export function refTranspose(a: Ref): Ref {
  const out = ref(a.cols, a.rows);
  for (let i = 0; i < a.rows; i++) for (let j = 0; j < a.cols; j++) out.cells[j * a.rows + i] = at(a, i, j);
  return out;
}

export function refScalarBinary(op: ElementwiseBinaryOp, x: number, y: number): number {
  const b = (c: boolean) => (c ? 1 : 0);
  switch (op) {
    case "+": return x + y;
    case "-": return x - y;
    case "*": return x * y;
    case "/": return x / y;
    case "^": return x ** y;
    case "%%": return y === 0 ? NaN : x - Math.floor(x / y) * y;
    case "%/%": return Number.isFinite(x / y) ? Math.floor(x / y) : x / y;
    case "log": return Math.log(x) / Math.log(y);
    case "<": return b(x < y);
    case "<=": return b(x <= y);
    case ">": return b(x > y);
    case ">=": return b(x >= y);
    case "==": return b(x === y);
    case "!=": return b(x !== y);
    case "&": return b(x !== 0 && y !== 0);
    case "|": return b(x !== 0 || y !== 0);
    case "xor": return b((x !== 0) !== (y !== 0));
    case "min": return Math.min(x, y);
    case "max": return Math.max(x, y);
    case "bitwAnd": return Number(BigInt(Math.trunc(x)) & BigInt(Math.trunc(y)));
    case "bitwOr": return Number(BigInt(Math.trunc(x)) | BigInt(Math.trunc(y)));
    case "bitwXor": return Number(BigInt(Math.trunc(x)) ^ BigInt(Math.trunc(y)));
    // Java's long shifts: the count modulo 64, the result wrapped to 64 bits.
    case "bitwShiftL": return Number(BigInt.asIntN(64, BigInt(Math.trunc(x)) << BigInt(Math.trunc(y) & 63)));
    case "bitwShiftR": return Number(BigInt(Math.trunc(x)) >> BigInt(Math.trunc(y) & 63));
  }
}

/** Element-wise with broadcasting: an operand with one row (column) repeats it; a number is every cell. */
export function refBinary(op: ElementwiseBinaryOp, a: Ref | number, b: Ref | number): Ref {
  const sa = typeof a === "number" ? ref(1, 1, [a]) : a;
  const sb = typeof b === "number" ? ref(1, 1, [b]) : b;
  const scalarA = sa.rows === 1 && sa.cols === 1;
  const scalarB = sb.rows === 1 && sb.cols === 1;
  const rows = scalarA ? sb.rows : scalarB ? sa.rows : sa.rows === 1 ? sb.rows : sa.rows;
  const cols = scalarA ? sb.cols : scalarB ? sa.cols : sa.cols === 1 ? sb.cols : sa.cols;
  const out = ref(rows, cols);
  const pick = (m: Ref, i: number, j: number) => at(m, m.rows === 1 ? 0 : i, m.cols === 1 ? 0 : j);
  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) out.cells[i * cols + j] = refScalarBinary(op, pick(sa, i, j), pick(sb, i, j));
  return out;
}

export function refScalarUnary(op: ElementwiseUnaryOp, x: number): number {
  switch (op) {
    case "-": return -x;
    case "!": return x === 0 ? 1 : 0;
    case "abs": return Math.abs(x);
    case "sign": return Math.sign(x);
    case "sqrt": return Math.sqrt(x);
    case "exp": return Math.exp(x);
    case "log": return Math.log(x);
    case "round": return Math.round(x);
    case "floor": return Math.floor(x);
    case "ceil": return Math.ceil(x);
    case "sin": return Math.sin(x);
    case "cos": return Math.cos(x);
    case "tan": return Math.tan(x);
    case "asin": return Math.asin(x);
    case "acos": return Math.acos(x);
    case "atan": return Math.atan(x);
    case "sinh": return Math.sinh(x);
    case "cosh": return Math.cosh(x);
    case "tanh": return Math.tanh(x);
    case "sigmoid": return 1 / (1 + Math.exp(-x));
    case "is.na":
    case "is.nan": return Number.isNaN(x) ? 1 : 0;
    case "is.infinite": return x === Infinity || x === -Infinity ? 1 : 0;
  }
}

export function refUnary(op: ElementwiseUnaryOp, a: Ref): Ref {
  return ref(a.rows, a.cols, a.cells.map((x) => refScalarUnary(op, x)));
}

/** The aggregate of a list of values (empty: Inf / -Inf / 1 / NaN as the kernels define it). */
export function refAggregateValues(fn: AggregateFunction, v: number[]): number {
  const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);
  switch (fn) {
    case "sum": return sum(v);
    case "sumSq": return sum(v.map((x) => x * x));
    case "mean": return sum(v) / v.length;
    case "min": return v.reduce((s, x) => Math.min(s, x), Infinity);
    case "max": return v.reduce((s, x) => Math.max(s, x), -Infinity);
    case "prod": return v.reduce((s, x) => s * x, 1);
    case "var":
    case "sd": {
      const n = v.length;
      const mean = sum(v) / n;
      const variance = n === 0 ? NaN : n === 1 ? 0 : sum(v.map((x) => (x - mean) ** 2)) / (n - 1);
      return fn === "sd" ? Math.sqrt(variance) : variance;
    }
  }
}

export function refRow(a: Ref, i: number): number[] {
  return a.cells.slice(i * a.cols, (i + 1) * a.cols);
}

export function refCol(a: Ref, j: number): number[] {
  return Array.from({ length: a.rows }, (_, i) => at(a, i, j));
}

/** Cells rl..ru, cl..cu (1-based inclusive). */
export function refIndex(a: Ref, rl: number, ru: number, cl: number, cu: number): Ref {
  const out = ref(ru - rl + 1, cu - cl + 1);
  for (let i = rl; i <= ru; i++) for (let j = cl; j <= cu; j++) out.cells[(i - rl) * out.cols + (j - cl)] = at(a, i - 1, j - 1);
  return out;
}

export function refLeftIndex(a: Ref, src: Ref | number, rl: number, ru: number, cl: number, cu: number): Ref {
  const out = ref(a.rows, a.cols, [...a.cells]);
  for (let i = rl; i <= ru; i++)
    for (let j = cl; j <= cu; j++) out.cells[(i - 1) * a.cols + (j - 1)] = typeof src === "number" ? src : at(src, i - rl, j - cl);
  return out;
}

export function refCbind(parts: Ref[]): Ref {
  const cols = parts.reduce((s, m) => s + m.cols, 0);
  const rows = parts[0]!.rows;
  const cells: number[] = [];
  for (let i = 0; i < rows; i++) for (const m of parts) cells.push(...refRow(m, i));
  return ref(rows, cols, cells);
}

export function refRbind(parts: Ref[]): Ref {
  return ref(parts.reduce((s, m) => s + m.rows, 0), parts[0]!.cols, parts.flatMap((m) => m.cells));
}

export function refCumsum(a: Ref): Ref {
  const out = ref(a.rows, a.cols, [...a.cells]);
  for (let i = 1; i < a.rows; i++) for (let j = 0; j < a.cols; j++) out.cells[i * a.cols + j]! += out.cells[(i - 1) * a.cols + j]!;
  return out;
}

/** 1-based column of the last maximum per row, NaN passed over, 0 when none. */
export function refRowIndexMax(a: Ref): Ref {
  return ref(a.rows, 1, Array.from({ length: a.rows }, (_, i) => {
    let best = -Infinity;
    let index = 0;
    refRow(a, i).forEach((v, j) => {
      if (v >= best) {
        best = v;
        index = j + 1;
      }
    });
    return index;
  }));
}

/** Reshape: byRow reads and writes row-major, else column-major. */
export function refReshape(a: Ref, rows: number, cols: number, byRow: boolean): Ref {
  const linear = byRow ? a.cells : refTranspose(a).cells;
  return byRow ? ref(rows, cols, [...linear]) : refTranspose(ref(cols, rows, [...linear]));
}

export function refTable(a: number[], b: number[], w: number[]): Ref {
  const rows = Math.max(0, ...a);
  const cols = Math.max(0, ...b);
  const out = ref(rows, cols);
  a.forEach((r, k) => (out.cells[(r - 1) * cols + (b[k]! - 1)]! += w[k]!));
  return out;
}
