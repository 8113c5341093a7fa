/**
 * What an editor shows of a session variable after a run: its kind and
 * size, a scalar's value, and for a matrix the top-left corner of its values
 * and a grid of at most GRID x GRID tiles with the share of non-zeros and
 * the mean value of each, for pictures of the sparsity pattern and of the
 * values. Plain JSON-able data.
 */
import { isDense, type Matrix } from "../matrix";
import { scalarText, type Value } from "./values";
import { variableInfo, type VariableInfo } from "./session";

export interface DensityGrid {
  rows: number;
  cols: number;
  /** Row-major shares of non-zero cells, each in [0, 1]. */
  shares: number[];
  /** Row-major mean values of the tiles' cells (zeros included; NaN when a tile holds a NaN). */
  means: number[];
}

export interface VariablePreview extends VariableInfo {
  /** A scalar's value as print() shows it. */
  value?: string;
  /** The first rows and columns of a matrix. */
  corner?: number[][];
  density?: DensityGrid;
}

const CORNER = 8;
const GRID = 48;

export function previewVariable(name: string, value: Value): VariablePreview {
  const info: VariablePreview = variableInfo(name, value);
  if (value.kind === "scalar") info.value = scalarText(value);
  if (value.kind === "matrix") {
    info.corner = corner(value.matrix, CORNER);
    info.density = densityGrid(value.matrix, GRID);
  }
  return info;
}

function corner(m: Matrix, size: number): number[][] {
  const rows = Math.min(size, m.rows);
  const cols = Math.min(size, m.cols);
  const out = Array.from({ length: rows }, () => new Array<number>(cols).fill(0));
  if (isDense(m)) {
    for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) out[i]![j] = m.data[i * m.cols + j]!;
    return out;
  }
  for (let i = 0; i < rows; i++) {
    for (let k = m.rowPtr[i]!; k < m.rowPtr[i + 1]!; k++) if (m.colIdx[k]! < cols) out[i]![m.colIdx[k]!] = m.values[k]!;
  }
  return out;
}

/** Shares of non-zeros and mean values per tile; a matrix smaller than the grid gets one tile per cell. */
export function densityGrid(m: Matrix, size: number): DensityGrid {
  const rows = Math.max(1, Math.min(size, m.rows));
  const cols = Math.max(1, Math.min(size, m.cols));
  const counts = new Array<number>(rows * cols).fill(0);
  const sums = new Array<number>(rows * cols).fill(0);
  const tileRow = (i: number) => Math.min(rows - 1, Math.floor((i * rows) / Math.max(1, m.rows)));
  const tileCol = (j: number) => Math.min(cols - 1, Math.floor((j * cols) / Math.max(1, m.cols)));
  const add = (tile: number, x: number) => {
    if (x === 0) return;
    counts[tile]!++;
    sums[tile]! += x;
  };
  if (isDense(m)) {
    for (let i = 0; i < m.rows; i++) {
      const r = tileRow(i) * cols;
      for (let j = 0; j < m.cols; j++) add(r + tileCol(j), m.data[i * m.cols + j]!);
    }
  } else {
    for (let i = 0; i < m.rows; i++) {
      const r = tileRow(i) * cols;
      for (let k = m.rowPtr[i]!; k < m.rowPtr[i + 1]!; k++) add(r + tileCol(m.colIdx[k]!), m.values[k]!);
    }
  }
  // Cells per tile: the tile's span of rows times its span of columns.
  const span = (tile: number, tiles: number, n: number) => Math.ceil(((tile + 1) * n) / tiles) - Math.ceil((tile * n) / tiles);
  const cells = counts.map((_, k) => span(Math.floor(k / cols), rows, m.rows) * span(k % cols, cols, m.cols));
  const shares = counts.map((count, k) => (cells[k]! > 0 ? count / cells[k]! : 0));
  const means = sums.map((sum, k) => (cells[k]! > 0 ? sum / cells[k]! : 0));
  return { rows, cols, shares, means };
}
