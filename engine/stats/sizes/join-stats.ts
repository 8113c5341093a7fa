/** Joining what two paths know about one variable (at an `if` join or a loop head). */
import type { DegreeStats, MncSketch } from "../estimators";
import type { NodeSketch, NodeStats } from "./node-stats";

/**
 * What holds on both paths: equal dims stay, different ones become unknown;
 * non-zero estimates take the larger (unknown when `widen`, so that a loop
 * whose estimate keeps growing still reaches a fixpoint); a constant stays
 * only if both paths agree. Sketches: an MNC sketch and a pattern stay only
 * when both paths have the same; the chain bound's statistics take the
 * larger of each (dropped when `widen` and they differ).
 */
export function joinStats(a: NodeStats, b: NodeStats, widen = false): NodeStats {
  const sameType = a.type.dataType === b.type.dataType && a.type.valueType === b.type.valueType;
  const type = sameType ? a.type : a.type.dataType === b.type.dataType ? { dataType: a.type.dataType, valueType: "unknown" as const } : { dataType: "unknown" as const, valueType: "unknown" as const };
  const rows = a.rows === b.rows ? a.rows : null;
  const cols = a.cols === b.cols ? a.cols : null;
  let nnz: number | null = null;
  if (a.nnz !== null && b.nnz !== null) nnz = a.nnz === b.nnz ? a.nnz : widen ? null : Math.max(a.nnz, b.nnz);
  const joined: NodeStats = { type, rows, cols, nnz };
  if (nnz !== null && a.nnz === b.nnz && a.nnzExact && b.nnzExact) joined.nnzExact = true;
  if (a.value !== undefined && a.value === b.value) joined.value = a.value;
  if (a.items !== undefined && a.items === b.items) joined.items = a.items;
  const sketch = joinSketches(a.sketch, b.sketch, widen, a.nnz === b.nnz);
  if (sketch && rows !== null && cols !== null) joined.sketch = sketch;
  if (a.nnzUpperBound !== undefined && b.nnzUpperBound !== undefined && (!widen || a.nnzUpperBound === b.nnzUpperBound)) {
    joined.nnzUpperBound = Math.max(a.nnzUpperBound, b.nnzUpperBound);
  }
  return joined;
}

/** `sameNnz`: an MNC sketch stays only with the estimate it gave on both paths. */
function joinSketches(a: NodeSketch | undefined, b: NodeSketch | undefined, widen: boolean, sameNnz: boolean): NodeSketch | undefined {
  if (!a || !b) return undefined;
  if (a === b || (sameNnz && sameSketch(a, b))) return a;
  const mnc = sameNnz && sameMnc(a.mnc, b.mnc) ? a.mnc : undefined;
  const chain = a.chain && b.chain && (!widen || sameDegrees(a.chain, b.chain)) ? maxDegrees(a.chain, b.chain) : undefined;
  const pattern = a.pattern === b.pattern ? a.pattern : undefined;
  if (!mnc && !chain && !pattern) return undefined;
  return { ...(mnc ? { mnc } : {}), ...(chain ? { chain } : {}), ...(pattern ? { pattern } : {}) };
}

function maxDegrees(a: DegreeStats, b: DegreeStats): DegreeStats | undefined {
  if (a.rows !== b.rows || a.cols !== b.cols) return undefined;
  return {
    rows: a.rows,
    cols: a.cols,
    nnz: Math.max(a.nnz, b.nnz),
    maxRowNnz: Math.max(a.maxRowNnz, b.maxRowNnz),
    maxColNnz: Math.max(a.maxColNnz, b.maxColNnz),
    nonEmptyRows: Math.max(a.nonEmptyRows, b.nonEmptyRows),
    nonEmptyCols: Math.max(a.nonEmptyCols, b.nonEmptyCols),
  };
}

function sameDegrees(a: DegreeStats | undefined, b: DegreeStats | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  return (
    a.rows === b.rows &&
    a.cols === b.cols &&
    a.nnz === b.nnz &&
    a.maxRowNnz === b.maxRowNnz &&
    a.maxColNnz === b.maxColNnz &&
    a.nonEmptyRows === b.nonEmptyRows &&
    a.nonEmptyCols === b.nonEmptyCols
  );
}

/** The same sketch, or one with the same counts (a loop round recomputes the sketch of a loop-constant value). */
function sameMnc(a: MncSketch | undefined, b: MncSketch | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  const same = (x: Float64Array | null, y: Float64Array | null) =>
    x === y || (x !== null && y !== null && x.length === y.length && x.every((v, i) => v === y[i]));
  return (
    a.rows === b.rows &&
    a.cols === b.cols &&
    a.nnz === b.nnz &&
    a.origin === b.origin &&
    a.fullDiagonal === b.fullDiagonal &&
    same(a.rowCounts, b.rowCounts) &&
    same(a.colCounts, b.colCounts) &&
    same(a.rowCountsInSingleCols, b.rowCountsInSingleCols) &&
    same(a.colCountsInSingleRows, b.colCountsInSingleRows)
  );
}

function sameSketch(a: NodeSketch | undefined, b: NodeSketch | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && sameMnc(a.mnc, b.mnc) && a.pattern === b.pattern && sameDegrees(a.chain, b.chain));
}

export function sameStats(a: NodeStats, b: NodeStats): boolean {
  return (
    a.type.dataType === b.type.dataType &&
    a.type.valueType === b.type.valueType &&
    a.rows === b.rows &&
    a.cols === b.cols &&
    a.nnz === b.nnz &&
    a.value === b.value &&
    a.items === b.items &&
    (a.nnzExact ?? false) === (b.nnzExact ?? false) &&
    a.nnzUpperBound === b.nnzUpperBound &&
    sameSketch(a.sketch, b.sketch)
  );
}
