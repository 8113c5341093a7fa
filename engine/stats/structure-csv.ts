/**
 * Reads the non-zero structure of a numeric csv matrix (SystemDS `format:
 * "csv"`), with the sizes, `header` and `sep` of its `.mtd` sidecar when there
 * is one. Empty fields are SystemDS's default fill value 0. Problems with the
 * file are returned as messages, never thrown. Files are read through a
 * `FileSystem` (the local disk by default), so a caller's path guard and
 * its regular-file and size rules apply.
 */
import { parse } from "csv-parse/sync";
import { type FileSystem, fileKind, nodeFileSystem } from "../files";
import { structureFromDense, type SparsityStructure } from "./structure";

export type CsvStructureResult =
  | { ok: true; structure: SparsityStructure; /** nnz the sidecar declares, if any. */ declaredNnz: number | null }
  | { ok: false; message: string };

export interface CsvSidecar {
  rows: number | null;
  cols: number | null;
  nnz: number | null;
  header: boolean;
  sep: string;
}

export function readCsvStructure(csvPath: string, fs: FileSystem = nodeFileSystem): CsvStructureResult {
  let sidecar: CsvSidecar;
  try {
    sidecar = readSidecar(fs, `${csvPath}.mtd`);
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  const text = fs.readFile(csvPath);
  if (text === undefined) return { ok: false, message: `${csvPath}: ${unreadable(fileKind(fs, csvPath))}` };
  return csvTextToStructure(text, sidecar, csvPath);
}

function unreadable(kind: ReturnType<typeof fileKind>): string {
  if (kind === "missing") return "no such file";
  if (kind === "folder") return "is a folder";
  if (kind === "other") return "is not a regular file (a FIFO, device or socket)";
  return "cannot be read (too large or not readable)";
}

/**
 * Parses csv text with the given sidecar settings; `where` names the source in
 * messages. Text without quotes is scanned directly into the structure (no
 * record arrays, no dense copy: a 50 MB file stays cheap); quoted csv goes
 * through csv-parse.
 */
export function csvTextToStructure(text: string, sidecar: CsvSidecar, where = "csv"): CsvStructureResult {
  return text.includes('"') ? csvParseStructure(text, sidecar, where) : plainCsvToStructure(text, sidecar, where);
}

/** Through csv-parse, for any csv (the reference the direct scan is tested against). */
export function csvParseStructure(text: string, sidecar: CsvSidecar, where = "csv"): CsvStructureResult {
  let records: string[][];
  try {
    records = parse(text, {
      delimiter: sidecar.sep,
      from_line: sidecar.header ? 2 : 1,
      skip_empty_lines: true,
      trim: true,
    }) as string[][];
  } catch (error) {
    return { ok: false, message: `${where}: ${error instanceof Error ? error.message : String(error)}` };
  }
  const rows = records.length;
  const cols = rows === 0 ? (sidecar.cols ?? 0) : records[0]!.length;
  if (sidecar.rows !== null && sidecar.rows !== rows) {
    return { ok: false, message: `${where}: ${rows} rows, but the .mtd says ${sidecar.rows}` };
  }
  if (sidecar.cols !== null && sidecar.cols !== cols) {
    return { ok: false, message: `${where}: ${cols} columns, but the .mtd says ${sidecar.cols}` };
  }
  const values = new Float64Array(rows * cols);
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      const field = records[i]![j]!;
      const value = fieldValue(field);
      if (value === undefined) return { ok: false, message: notANumber(where, i, j, field, sidecar) };
      values[i * cols + j] = value;
    }
  }
  return { ok: true, structure: structureFromDense(rows, cols, values), declaredNnz: sidecar.nnz };
}

/** A trimmed field's value: empty is 0, NaN only when written so; undefined when not a number. */
function fieldValue(field: string): number | undefined {
  const value = field === "" ? 0 : Number(field);
  return Number.isNaN(value) && !/^nan$/i.test(field) ? undefined : value;
}

function notANumber(where: string, record: number, column: number, field: string, sidecar: CsvSidecar): string {
  return `${where}:${record + 1 + (sidecar.header ? 1 : 0)}: '${field}' in column ${column + 1} is not a number`;
}

/** The same records as csv-parse with the options above, for text without quotes. */
function plainCsvToStructure(text: string, sidecar: CsvSidecar, where: string): CsvStructureResult {
  const sep = sidecar.sep;
  const rowPointers: number[] = [0];
  let colIndices: Int32Array = new Int32Array(1024);
  let nnz = 0;
  let cols = -1;
  let nextSep = -1; // the first separator at or after the scan position (text.length when none is left)
  let lineStart = 0;
  for (let line = 1; lineStart < text.length; line++) {
    let lineEnd = text.indexOf("\n", lineStart);
    if (lineEnd < 0) lineEnd = text.length;
    const end = lineEnd > lineStart && text.charCodeAt(lineEnd - 1) === 13 ? lineEnd - 1 : lineEnd;
    if (end > lineStart && !(sidecar.header && line === 1)) {
      const record = rowPointers.length - 1;
      let column = 0;
      for (let at = lineStart; ; column++) {
        if (nextSep < at) {
          nextSep = text.indexOf(sep, at);
          if (nextSep < 0) nextSep = text.length;
        }
        const fieldEnd = Math.min(nextSep, end);
        // "0", the common case, without making a string.
        if (fieldEnd - at !== 1 || text.charCodeAt(at) !== 48) {
          const field = text.slice(at, fieldEnd).trim();
          const value = fieldValue(field);
          if (value === undefined) return { ok: false, message: notANumber(where, record, column, field, sidecar) };
          if (value !== 0) {
            if (nnz === colIndices.length) colIndices = grow(colIndices);
            colIndices[nnz++] = column;
          }
        }
        if (fieldEnd === end) break;
        at = fieldEnd + sep.length;
      }
      if (cols >= 0 && column + 1 !== cols) {
        return { ok: false, message: `${where}:${line}: ${column + 1} fields, but the first record has ${cols}` };
      }
      cols = column + 1;
      rowPointers.push(nnz);
    }
    lineStart = lineEnd + 1;
  }
  const rows = rowPointers.length - 1;
  if (cols < 0) cols = sidecar.cols ?? 0;
  if (sidecar.rows !== null && sidecar.rows !== rows) {
    return { ok: false, message: `${where}: ${rows} rows, but the .mtd says ${sidecar.rows}` };
  }
  if (sidecar.cols !== null && sidecar.cols !== cols) {
    return { ok: false, message: `${where}: ${cols} columns, but the .mtd says ${sidecar.cols}` };
  }
  const structure = { rows, cols, rowPointers: Int32Array.from(rowPointers), colIndices: colIndices.slice(0, nnz) };
  return { ok: true, structure, declaredNnz: sidecar.nnz };
}

function grow(a: Int32Array): Int32Array {
  const bigger = new Int32Array(a.length * 2);
  bigger.set(a);
  return bigger;
}

function readSidecar(fs: FileSystem, mtdPath: string): CsvSidecar {
  const sidecar: CsvSidecar = { rows: null, cols: null, nnz: null, header: false, sep: "," };
  const kind = fileKind(fs, mtdPath);
  if (kind === "missing") return sidecar;
  const text = kind === "file" ? fs.readFile(mtdPath) : undefined;
  if (text === undefined) throw new Error(`${mtdPath}: ${unreadable(kind)}`);
  const json: unknown = JSON.parse(text);
  if (typeof json !== "object" || json === null) throw new Error(`${mtdPath}: not a JSON object`);
  const fields = json as Record<string, unknown>;
  const count = (key: string): number | null => {
    const v = fields[key];
    if (v === undefined) return null;
    if (typeof v !== "number" || !Number.isInteger(v) || v < 0) throw new Error(`${mtdPath}: '${key}' is not a count`);
    return v;
  };
  sidecar.rows = count("rows");
  sidecar.cols = count("cols");
  sidecar.nnz = count("nnz");
  if (typeof fields.header === "boolean") sidecar.header = fields.header;
  if (typeof fields.sep === "string" && fields.sep.length > 0) sidecar.sep = fields.sep;
  return sidecar;
}
