/**
 * A matrix from csv text (`format="csv"`), as SystemDS's ReaderTextCSV reads it:
 * - `header`: the first line holds column names and is skipped;
 * - `sep`: the field separator (default ",");
 * - `fill` (default TRUE): an empty field is the value `default` (default 0);
 *   with fill=FALSE an empty field is an error;
 * - `naStrings`: fields read as NaN;
 * - every other field is a Java double (quotes around a field are removed).
 * Every row must have the same number of fields: the expected `cols`, or
 * else the first row's. Expected `rows` (from the .mtd or read()) must match
 * the file exactly. The result is dense.
 */
import { fieldPosition, forEachCsvRecord, type CsvRecord } from "./csv-records";
import { DataFileError } from "./data-file-error";
import { allocateDenseValues, MAX_DENSE_CELLS } from "./dense-buffer";
import type { DenseMatrixData } from "./matrix-data";
import { parseNumber, quoted } from "./text-values";
import { copyF64 } from "../matrix";

export interface CsvReadOptions {
  /** Names the file in errors. */
  file: string;
  header?: boolean;
  sep?: string;
  fill?: boolean;
  default?: number;
  naStrings?: readonly string[];
  /** Expected dims (from the .mtd or read()); the file must match them. */
  rows?: number;
  cols?: number;
  /** Where the expected dims come from, for messages (e.g. "x.csv.mtd"). */
  dimsSource?: string;
  /** Why a value buffer of `bytes` cannot be held (the memory budget), or undefined when it can; asked before the buffer grows. */
  memoryRefusal?: (bytes: number) => string | undefined;
}

export function parseCsvMatrix(text: string, options: CsvReadOptions): DenseMatrixData {
  const { file } = options;
  const sep = options.sep ?? ",";
  const fill = options.fill ?? true;
  const fillValue = options.default ?? 0;
  const na = new Set(options.naStrings ?? []);
  const source = options.dimsSource ?? "the metadata";
  let cols = options.cols ?? -1;
  let headerCols = -1;
  let rows = 0;
  const known = options.rows !== undefined && options.cols !== undefined;
  /** Rows the buffer holds. */
  let capacity = known ? options.rows! : 0;
  let values = known ? allocateDenseValues(options.rows!, options.cols!, file) : new Float64Array(0);
  let first = true;

  forEachCsvRecord(text, { file, sep }, (record) => {
    if (first && options.header) {
      first = false;
      headerCols = record.fields.length;
      return;
    }
    first = false;
    if (record.trailingEmpty && (options.rows === undefined || rows >= options.rows)) return;
    if (cols < 0) cols = record.fields.length;
    checkFieldCount(record, cols, file, options.cols !== undefined ? source : undefined);
    if (options.rows !== undefined && rows === options.rows) {
      throw new DataFileError(`more rows than the ${options.rows} that ${source} declares`, { file, line: record.line, code: "mismatch" });
    }
    if (rows === capacity) {
      capacity = options.rows ?? Math.max(16, capacity * 2);
      if (capacity * cols > MAX_DENSE_CELLS) capacity = Math.max(rows + 1, Math.floor(MAX_DENSE_CELLS / Math.max(cols, 1)));
      // The grown buffer and the one it replaces are both held while copying.
      const refusal = options.memoryRefusal?.(8 * cols * (capacity + rows));
      if (refusal) throw new DataFileError(`${capacity} rows of ${cols} values: the read ${refusal}`, { file, line: record.line, code: "too-large" });
      const grown = allocateDenseValues(capacity, cols, file);
      grown.set(values);
      values = grown;
    }
    const base = rows * cols;
    for (let j = 0; j < cols; j++) {
      values[base + j] = fieldValue(record, j, sep, fill, fillValue, na, file);
    }
    rows++;
  });

  if (cols < 0) cols = headerCols >= 0 ? headerCols : 0;
  if (options.rows !== undefined && rows !== options.rows) {
    throw new DataFileError(`${source} declares ${options.rows} rows, but the file has ${rows}`, { file, code: "mismatch" });
  }
  // A copy in kernel memory (slice() would give an ordinary array).
  if (values.length !== rows * cols) values = copyF64(values, 0, rows * cols);
  return { format: "dense", rows, cols, values };
}

function checkFieldCount(record: CsvRecord, cols: number, file: string, source: string | undefined): void {
  const found = record.fields.length;
  if (found === cols) return;
  const empty = found === 1 && record.fields[0] === "";
  const from = source ? ` (as ${source} declares)` : "";
  const what = empty ? "an empty line" : `${found}`;
  throw new DataFileError(`expected ${cols} ${cols === 1 ? "value" : "values"}${from}, found ${what}`, { file, line: record.line, code: "mismatch" });
}

function fieldValue(record: CsvRecord, j: number, sep: string, fill: boolean, fillValue: number, na: ReadonlySet<string>, file: string): number {
  const text = record.fields[j]!.trim();
  if (text === "") {
    if (fill) return fillValue;
    const at = fieldPosition(record, j, sep);
    throw new DataFileError("expected a number, found an empty field (fill is FALSE)", { file, ...at, code: "syntax" });
  }
  if (na.has(text)) return Number.NaN;
  const value = parseNumber(text);
  if (value === undefined) {
    const at = fieldPosition(record, j, sep);
    throw new DataFileError(`expected a number, found ${quoted(text)}`, { file, ...at, code: "syntax" });
  }
  return value;
}
