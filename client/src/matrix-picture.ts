/**
 * The results view's pictures of a matrix (its sparsity pattern, its value
 * heatmap) as labelled SVG figures: a title, the axes (rows down the left,
 * columns along the top, with their counts), the tile grid sized by the
 * matrix's aspect ratio (a vector stays a visible strip, a 2 x 2 matrix
 * stays small) and a legend under it. Each tile aggregates a block of
 * cells; the pattern colours a tile as soon as one non-zero falls in it,
 * darker the denser it is (log scale, so a 0.1 % matrix is not blank).
 */
import { formatCount } from "../../engine/cost";
import type { DensityGrid } from "../../engine/runtime/interpreter";

export interface PictureSize {
  /** Pixels of the drawn grid. */
  width: number;
  height: number;
}

export interface PictureLimits {
  /** The longer side at most (pixels). */
  maxSide: number;
  /** A tile at most this many pixels per matrix cell it stands for (keeps tiny matrices small). */
  maxCellPx: number;
  /** The shorter side at least (pixels): a vector is a strip, not a line. */
  minThickness: number;
  /** Each tile at least this many pixels wide and high (a tile with a non-zero stays visible). */
  minTilePx: number;
}

export const DEFAULT_LIMITS: PictureLimits = { maxSide: 180, maxCellPx: 24, minThickness: 14, minTilePx: 1.5 };

/**
 * The size of the drawn grid for a `rows` x `cols` matrix shown as a
 * `grid.rows` x `grid.cols` tile grid: the matrix's aspect ratio, the longer
 * side `maxSide` (less for a matrix with few cells), the shorter side no
 * thinner than `minThickness` and than `minTilePx` per tile.
 */
export function pictureSize(rows: number, cols: number, grid: { rows: number; cols: number }, limits: PictureLimits = DEFAULT_LIMITS): PictureSize {
  const r = Math.max(1, rows);
  const c = Math.max(1, cols);
  const long = Math.max(r, c);
  const longSide = Math.min(limits.maxSide, long * limits.maxCellPx);
  const side = (n: number, tiles: number) => {
    const exact = (longSide * n) / long;
    return Math.min(longSide, Math.max(exact, limits.minThickness, tiles * limits.minTilePx));
  };
  return { width: side(c, grid.cols), height: side(r, grid.rows) };
}

/**
 * How strongly a tile of the pattern is coloured: 0 for no non-zero, else
 * from 0.3 (a single non-zero in a large tile) to 1 (all non-zero), on a log
 * scale of the tile's share of non-zeros (1e-4 and below: 0.3).
 */
export function patternOpacity(share: number): number {
  if (!(share > 0)) return 0;
  const decades = Math.min(1, Math.max(0, (Math.log10(Math.min(share, 1)) + 4) / 4));
  return 0.3 + 0.7 * decades;
}

export interface Tile {
  className: string;
  opacity: number;
}

export interface FigureSpec {
  /** `sparsity pattern of X` (also the figure's accessible label). */
  title: string;
  svgClass: string;
  rows: number;
  cols: number;
  grid: DensityGrid;
  /** One per tile, row-major; undefined: background only. */
  tiles: readonly (Tile | undefined)[];
  /** The legend's swatches and their meaning. */
  legend: readonly { className: string; opacity: number; text: string }[];
  /** A line under the legend. */
  note?: string;
}

const LEFT = 44;
const TOP = 34;
const FONT = 11;

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/** How many matrix cells one tile stands for (`209 × 105 cells per tile`), or undefined when one tile is one cell. */
export function tileSpan(rows: number, cols: number, grid: { rows: number; cols: number }): string | undefined {
  const tr = Math.ceil(rows / grid.rows);
  const tc = Math.ceil(cols / grid.cols);
  return tr * tc > 1 ? `each square: up to ${formatCount(tr)} × ${formatCount(tc)} cells` : undefined;
}

/** A labelled figure: title, `N rows` down the left, `M cols` along the top, the tiles, a legend. */
export function matrixFigure(spec: FigureSpec): string {
  const { width, height } = pictureSize(spec.rows, spec.cols, spec.grid);
  const cellW = width / spec.grid.cols;
  const cellH = height / spec.grid.rows;
  const rects: string[] = [];
  spec.tiles.forEach((tile, k) => {
    if (!tile) return;
    const x = LEFT + (k % spec.grid.cols) * cellW;
    const y = TOP + Math.floor(k / spec.grid.cols) * cellH;
    rects.push(`<rect x="${x.toFixed(2)}" y="${y.toFixed(2)}" width="${cellW.toFixed(2)}" height="${cellH.toFixed(2)}" class="${tile.className}" fill-opacity="${tile.opacity.toFixed(3)}"/>`);
  });
  const legendY = TOP + height + 16;
  const lines: string[] = [];
  spec.legend.forEach((entry, k) => {
    const y = legendY + k * (FONT + 5);
    lines.push(`<rect x="${LEFT}" y="${y - FONT + 2}" width="${FONT}" height="${FONT}" class="${entry.className}" fill-opacity="${entry.opacity.toFixed(3)}"/><text x="${LEFT + FONT + 5}" y="${y}" class="legend">${escape(entry.text)}</text>`);
  });
  const notes = [spec.note, tileSpan(spec.rows, spec.cols, spec.grid)].filter((n): n is string => n !== undefined);
  notes.forEach((note, k) => lines.push(`<text x="${LEFT}" y="${legendY + (spec.legend.length + k) * (FONT + 5)}" class="legend note">${escape(note)}</text>`));
  const textWidth = Math.max(...[...spec.legend.map((e) => e.text.length + 3), ...notes.map((n) => n.length), spec.title.length].map((n) => n * 6.2));
  const rowLabel = `${formatCount(spec.rows)} ${spec.rows === 1 ? "row" : "rows"}`;
  const colLabel = `${formatCount(spec.cols)} ${spec.cols === 1 ? "col" : "cols"}`;
  // Down the left side where the grid is tall enough for it, else beside the grid.
  const rowsAlongside = height >= rowLabel.length * 6.2 + 4;
  const rowsText = rowsAlongside
    ? `<text x="${LEFT - 6}" y="${(TOP + height / 2).toFixed(1)}" class="axis rows" text-anchor="middle" transform="rotate(-90 ${LEFT - 6} ${(TOP + height / 2).toFixed(1)})">${rowLabel}</text>`
    : `<text x="${(LEFT + width + 6).toFixed(1)}" y="${(TOP + height / 2 + 4).toFixed(1)}" class="axis rows">${rowLabel}</text>`;
  const besideW = rowsAlongside ? 0 : rowLabel.length * 6.2 + 10;
  const totalW = Math.ceil(Math.max(LEFT + width + 8 + besideW, LEFT + textWidth, LEFT + colLabel.length * 6.2, 120));
  const totalH = Math.ceil(legendY + (spec.legend.length + notes.length) * (FONT + 5));
  return `<figure class="${spec.svgClass}"><svg class="${spec.svgClass}" role="img" aria-label="${escape(spec.title)}" width="${totalW}" height="${totalH}" viewBox="0 0 ${totalW} ${totalH}">
<text x="0" y="${FONT}" class="title">${escape(spec.title)}</text>
<text x="${LEFT}" y="${TOP - 6}" class="axis cols">${colLabel}</text>
${rowsText}
<rect x="${LEFT}" y="${TOP}" width="${width.toFixed(2)}" height="${height.toFixed(2)}" class="empty"/>${rects.join("")}
${lines.join("")}</svg></figure>`;
}
