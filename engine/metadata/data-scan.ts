/**
 * Sizes counted from the data itself, for small local files only (the
 * caller checks the size; see `DEFAULT_SCAN_LIMIT_BYTES`): csv rows, columns
 * and non-zeros, the non-zeros of a text (i j v) file, and the exact
 * non-zeros of a symmetric or array Matrix Market file.
 *
 * Counting follows SystemDS's readers: csv fields are split at the separator
 * outside double quotes, an empty field is the fill value (`default`, 0
 * unless given), values are parsed as Java doubles, and NaN counts as a
 * non-zero. A value that is not a number stops the count with a problem at
 * its line and column.
 */
import type { Position } from "../syntax";
import type { MatrixMarketHeader } from "./matrix-market";
import { parseJavaDouble } from "./parameters";

/** Files up to this size are scanned for sizes and non-zeros (50 MiB). */
export const DEFAULT_SCAN_LIMIT_BYTES = 50 * 1024 * 1024;

export interface ScanProblem {
  message: string;
  position: Position;
}

export interface CsvScan {
  rows: number;
  cols: number;
  /** Null when a field is not a number (`problem` says where). */
  nnz: number | null;
  problem?: ScanProblem;
}

export interface CsvScanOptions {
  header?: boolean;
  sep?: string;
  /** The value of empty fields (SystemDS's `default`, 0 unless given). */
  fillValue?: number;
  /** Strings read as NaN (frames' `naStrings`). */
  naStrings?: readonly string[];
}

/** Rows, columns and non-zeros of csv text. */
export function scanCsv(text: string, options: CsvScanOptions = {}): CsvScan {
  const sep = options.sep ?? ",";
  const fill = options.fillValue ?? 0;
  const na = new Set(options.naStrings ?? []);
  const lines = splitLines(text);
  let first = 0;
  let cols = 0;
  if (lines.length > 0) cols = splitCsvLine(lines[0]!, sep).length;
  if (options.header && lines.length > 0) first = 1;
  let nnz: number | null = 0;
  let problem: ScanProblem | undefined;
  for (let l = first; l < lines.length && nnz !== null; l++) {
    const line = lines[l]!;
    let offset = 0;
    for (const field of splitCsvLine(line, sep)) {
      const value = fieldValue(field, fill, na);
      if (value === undefined) {
        const character = line.indexOf(field, offset);
        problem = { message: `'${field.trim()}' is not a number`, position: { line: l, character: Math.max(character, 0) } };
        nnz = null;
        break;
      }
      if (value !== 0) nnz++;
      offset += field.length + sep.length;
    }
  }
  const result: CsvScan = { rows: lines.length - first, cols, nnz };
  if (problem) result.problem = problem;
  return result;
}

/** The non-zeros of a text-cell (i j v, 1-based) file. */
export function scanTextCellNnz(text: string): { nnz: number | null; problem?: ScanProblem } {
  let nnz = 0;
  const lines = splitLines(text);
  for (let l = 0; l < lines.length; l++) {
    const parts = lines[l]!.trim().split(/\s+/);
    if (parts.length === 1 && parts[0] === "") continue;
    const value = parts.length >= 3 ? parseJavaDouble(parts[2]!) : undefined;
    if (parts.length < 3 || value === undefined) {
      return { nnz: null, problem: { message: "expected a line 'row col value'", position: { line: l, character: 0 } } };
    }
    if (value !== 0) nnz++;
  }
  return { nnz };
}

/**
 * The exact non-zeros of a Matrix Market file's matrix: mirrored entries of a
 * symmetric file count twice, diagonal ones once, explicit zeros not at all.
 */
export function scanMatrixMarketNnz(text: string, header: MatrixMarketHeader): { nnz: number | null; problem?: ScanProblem } {
  const lines = splitLines(text);
  const mirrored = header.symmetry !== "general";
  let nnz = 0;
  let cell = 0; // array files: index of the next stored value
  for (let l = header.sizeLine + 1; l < lines.length; l++) {
    const line = lines[l]!;
    if (line.startsWith("%") || line.trim() === "") continue;
    const parts = line.trim().split(/\s+/);
    if (header.format === "coordinate") {
      const i = Number(parts[0]);
      const j = Number(parts[1]);
      const nonZero = header.field === "pattern" ? true : isNonZero(parts.slice(2));
      if (!Number.isInteger(i) || !Number.isInteger(j) || nonZero === undefined) {
        return { nnz: null, problem: { message: "expected an entry 'row col [value]'", position: { line: l, character: 0 } } };
      }
      if (nonZero) nnz += mirrored && i !== j ? 2 : 1;
    } else {
      const nonZero = isNonZero(parts);
      if (nonZero === undefined) return { nnz: null, problem: { message: "expected a value", position: { line: l, character: 0 } } };
      const [i, j] = arrayCell(cell++, header);
      if (nonZero) nnz += mirrored && i !== j ? 2 : 1;
    }
  }
  return { nnz };
}

/** Row and column (0-based) of the k-th stored value of an array file (column-major; one triangle when symmetric). */
function arrayCell(k: number, header: MatrixMarketHeader): [number, number] {
  const n = header.rows;
  if (header.symmetry === "general") return [k % n, Math.floor(k / n)];
  const skew = header.symmetry === "skew-symmetric" ? 1 : 0;
  let column = 0;
  let remaining = k;
  for (;;) {
    const length = n - column - skew;
    if (length <= 0) return [n, column];
    if (remaining < length) return [column + skew + remaining, column];
    remaining -= length;
    column++;
  }
}

/** Whether the value (real, or real and imaginary parts) is non-zero; undefined when not numbers. */
function isNonZero(parts: readonly string[]): boolean | undefined {
  if (parts.length === 0) return undefined;
  let nonZero = false;
  for (const part of parts) {
    const value = parseJavaDouble(part);
    if (value === undefined) return undefined;
    if (value !== 0) nonZero = true;
  }
  return nonZero;
}

function fieldValue(field: string, fill: number, na: ReadonlySet<string>): number | undefined {
  let text = field.trim();
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) text = text.slice(1, -1).trim();
  if (text === "") return fill;
  if (na.has(text)) return Number.NaN;
  const fast = Number(text);
  return Number.isNaN(fast) || /^[+-]?0[xXbBoO]/.test(text) ? parseJavaDouble(text) : fast;
}

/** The lines of a text without a final empty line; \r\n endings accepted. */
function splitLines(text: string): string[] {
  const lines = text.split("\n").map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** Splits at `sep` outside double quotes (SystemDS's `IOUtilFunctions.splitCSV`). */
function splitCsvLine(line: string, sep: string): string[] {
  if (!line.includes('"')) return line.split(sep);
  const fields: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    if (line[i] === '"') quoted = !quoted;
    else if (!quoted && line.startsWith(sep, i)) {
      fields.push(line.slice(start, i));
      start = i + sep.length;
      i += sep.length - 1;
    }
  }
  fields.push(line.slice(start));
  return fields;
}
