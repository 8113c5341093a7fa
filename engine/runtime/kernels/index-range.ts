/**
 * The cell ranges of DML indexing, X[rl:ru, cl:cu]: 1-based and inclusive,
 * each bound optional (a missing row range `X[, j]` is all rows). Bounds
 * are truncated to integers as SystemDS casts them; a range outside the
 * matrix or with its lower bound above its upper one is a RuntimeError.
 */
import { dimsText, RuntimeError } from "../matrix";

/** 1-based inclusive bounds; an omitted (or undefined: the interpreter passes DML's omitted bounds so) bound is the whole extent on that side. */
export interface IndexRange {
  rowLower?: number | undefined;
  rowUpper?: number | undefined;
  colLower?: number | undefined;
  colUpper?: number | undefined;
}

/** A checked range, 0-based: rows rl .. ru - 1 and columns cl .. cu - 1. */
export interface ResolvedRange {
  rl: number;
  ru: number;
  cl: number;
  cu: number;
}

export function rangeText(range: IndexRange): string {
  const side = (lo?: number, hi?: number) => (lo === undefined && hi === undefined ? "" : `${lo ?? ""}:${hi ?? ""}`);
  return `[${side(range.rowLower, range.rowUpper)}, ${side(range.colLower, range.colUpper)}]`;
}

/** Checks `range` against a rows x cols matrix; `what` names the operation in the error. */
export function resolveRange(what: string, rows: number, cols: number, range: IndexRange): ResolvedRange {
  const r = side(what, "row", rows, cols, range, range.rowLower, range.rowUpper);
  const c = side(what, "column", rows, cols, range, range.colLower, range.colUpper);
  return { rl: r[0], ru: r[1], cl: c[0], cu: c[1] };
}

function side(
  what: string,
  name: "row" | "column",
  rows: number,
  cols: number,
  range: IndexRange,
  lower: number | undefined,
  upper: number | undefined,
): [number, number] {
  const extent = name === "row" ? rows : cols;
  if (lower === undefined && upper === undefined) return [0, extent];
  const lo = lower === undefined ? 1 : Math.trunc(lower);
  const hi = upper === undefined ? extent : Math.trunc(upper);
  const where = `${what}: ${rangeText(range)} on a ${dimsText(rows, cols)} matrix`;
  if (Number.isNaN(lo) || Number.isNaN(hi)) throw new RuntimeError("index-out-of-range", `${where}: the ${name} index is NaN`);
  if (lo > hi) {
    throw new RuntimeError("index-out-of-range", `${where}: the lower ${name} bound ${lo} exceeds the upper bound ${hi}`);
  }
  if (lo < 1 || hi > extent) {
    const valid = extent === 0 ? "it has no " + name + "s" : `valid ${name}s are 1..${extent}`;
    throw new RuntimeError("index-out-of-range", `${where}: ${name} index out of range (${valid}; indices are 1-based)`);
  }
  return [lo - 1, hi];
}
