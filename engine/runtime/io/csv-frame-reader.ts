/**
 * A frame from csv text (`data_type="frame"`, `format="csv"`), as SystemDS's
 * FrameReaderTextCSV reads it:
 * - `header`: the first line gives the column names (else C1, C2, ...);
 * - `schema`: one value type per column (a single type applies to all
 *   columns); without one every column is STRING;
 * - an empty field or one of `naStrings` is missing: with fill and a
 *   non-zero `default` it is that default (as text, e.g. "1.0"), else null
 *   in a string column, 0 in a numeric one, FALSE in a boolean one (frames,
 *   unlike matrices, accept empty fields when fill is FALSE);
 * - FP64 fields are Java doubles, INT64 fields integers (or doubles with an
 *   integral value such as 3.0), BOOLEAN fields true/false (any case), t/f or
 *   1/0; anything else is an error at the field (SystemDS reads an unknown
 *   boolean as FALSE).
 */
import { javaDoubleText } from "../../metadata";
import { fieldPosition, forEachCsvRecord, type CsvRecord } from "./csv-records";
import type { CsvReadOptions } from "./csv-matrix-reader";
import { DataFileError } from "./data-file-error";
import { defaultColumnNames, type FrameColumn, type FrameColumnType, type FrameData } from "./frame-data";
import { parseNumber, quoted } from "./text-values";

/** The matrix reader's options, plus the frame's column types. */
export interface CsvFrameReadOptions extends CsvReadOptions {
  schema?: readonly FrameColumnType[];
}

type Cell = string | number | boolean | null;

export function parseCsvFrame(text: string, options: CsvFrameReadOptions): FrameData {
  const { file } = options;
  const sep = options.sep ?? ",";
  const na = new Set(options.naStrings ?? []);
  const fillText = (options.fill ?? true) && (options.default ?? 0) !== 0 ? javaDoubleText(options.default!) : null;
  const source = options.dimsSource ?? "the metadata";
  let schema = options.schema;
  let cols = options.cols ?? (schema && schema.length > 1 ? schema.length : -1);
  if (schema && schema.length > 1 && options.cols !== undefined && schema.length !== options.cols) {
    throw new DataFileError(`the schema has ${schema.length} types, but ${source} declares ${options.cols} columns`, { file, code: "metadata" });
  }
  let names: string[] | undefined;
  let headerLine = 0;
  let columns: Cell[][] = [];
  let rows = 0;
  let first = true;

  forEachCsvRecord(text, { file, sep }, (record) => {
    if (first && options.header) {
      first = false;
      names = record.fields.map((f) => f.trim());
      headerLine = record.line;
      return;
    }
    first = false;
    if (record.trailingEmpty && (options.rows === undefined || rows >= options.rows)) return;
    if (cols < 0) cols = names?.length ?? record.fields.length;
    if (columns.length === 0) {
      schema = resolveSchema(schema, cols);
      columns = Array.from({ length: cols }, () => []);
    }
    if (record.fields.length !== cols) {
      const empty = record.fields.length === 1 && record.fields[0] === "";
      const what = empty ? "an empty line" : String(record.fields.length);
      throw new DataFileError(`expected ${cols} ${cols === 1 ? "value" : "values"}, found ${what}`, { file, line: record.line, code: "mismatch" });
    }
    if (options.rows !== undefined && rows === options.rows) {
      throw new DataFileError(`more rows than the ${options.rows} that ${source} declares`, { file, line: record.line, code: "mismatch" });
    }
    for (let j = 0; j < cols; j++) columns[j]!.push(cellValue(record, j, schema![j]!, sep, na, fillText, file));
    rows++;
  });

  if (cols < 0) cols = names?.length ?? 0;
  schema = resolveSchema(schema, cols);
  if (names && names.length !== cols) {
    throw new DataFileError(`expected ${cols} column names, found ${names.length}`, { file, line: headerLine, code: "mismatch" });
  }
  if (options.rows !== undefined && rows !== options.rows) {
    throw new DataFileError(`${source} declares ${options.rows} rows, but the file has ${rows}`, { file, code: "mismatch" });
  }
  const built: FrameColumn[] = schema.map((type, j) => toColumn(type, columns[j] ?? []));
  return { rows, cols, names: names ?? defaultColumnNames(cols), columns: built };
}

/** One type for all columns when the schema has one; STRING when there is none. */
function resolveSchema(schema: readonly FrameColumnType[] | undefined, cols: number): FrameColumnType[] {
  if (!schema || schema.length === 0) return new Array<FrameColumnType>(cols).fill("string");
  if (schema.length === 1) return new Array<FrameColumnType>(cols).fill(schema[0]!);
  return [...schema];
}

function cellValue(record: CsvRecord, j: number, type: FrameColumnType, sep: string, na: ReadonlySet<string>, fillText: string | null, file: string): Cell {
  let text = record.fields[j]!.trim();
  if (text === "" || na.has(text)) {
    if (fillText === null) return null;
    text = fillText;
  }
  if (type === "string") return text;
  const fail = (expected: string): never => {
    const at = fieldPosition(record, j, sep);
    throw new DataFileError(`expected ${expected}, found ${quoted(text)}`, { file, ...at, code: "syntax" });
  };
  if (type === "boolean") {
    const lower = text.toLowerCase();
    if (lower === "true" || lower === "t" || text === "1" || text === "1.0") return true;
    if (lower === "false" || lower === "f" || text === "0" || text === "0.0") return false;
    return fail("a boolean (TRUE or FALSE)");
  }
  const value = parseNumber(text);
  if (value === undefined) return fail(type === "int" ? "an integer" : "a number");
  if (type === "int" && !Number.isInteger(value)) return fail("an integer");
  return value;
}

function toColumn(type: FrameColumnType, cells: readonly Cell[]): FrameColumn {
  switch (type) {
    case "string":
      return { type, values: cells.map((c) => (c === null ? null : String(c))) };
    case "double":
    case "int":
      return { type, values: Float64Array.from(cells, (c) => (typeof c === "number" ? c : 0)) };
    case "boolean":
      return { type, values: Uint8Array.from(cells, (c) => (c === true ? 1 : 0)) };
  }
}
