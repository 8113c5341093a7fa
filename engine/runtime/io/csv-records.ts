/**
 * The records of csv text, through the csv-parse package (quotes, doubled
 * quotes inside quotes, \n and \r\n endings, multi-character separators),
 * one at a time so a large file is never held as arrays of strings.
 *
 * Fields are trimmed of surrounding spaces (as SystemDS trims each part)
 * unless the separator is itself whitespace. An empty line is a record of
 * one empty field, as SystemDS sees it; empty lines at the end of the text
 * are marked `trailingEmpty` (the readers count them as rows only when the
 * declared rows need them: a zero row of a one-column sparse csv is an empty
 * line, an editor's extra blank line is not data). A csv-parse error (e.g. a quote that is never closed) is a
 * DataFileError at csv-parse's line.
 */
import { CsvError, parse } from "csv-parse/sync";
import { DataFileError } from "./data-file-error";

export interface CsvRecord {
  fields: string[];
  /** 1-based line where the record starts. */
  line: number;
  /** The record's text as in the file (for locating fields in messages). */
  raw: string;
  /** An empty line followed by nothing but empty lines. */
  trailingEmpty: boolean;
}

export interface CsvRecordOptions {
  file: string;
  /** The field separator (default ","). */
  sep?: string;
}

export function forEachCsvRecord(text: string, options: CsvRecordOptions, visit: (record: CsvRecord) => void): void {
  const sep = options.sep ?? ",";
  if (sep === "") throw new DataFileError("the csv separator cannot be empty", { file: options.file, code: "metadata" });
  const whitespaceSep = /^\s+$/.test(sep);
  let previousEnd = 0;
  let pendingEmpty: CsvRecord[] = [];
  try {
    parse(text, {
      delimiter: sep,
      relax_column_count: true,
      skip_empty_lines: false,
      bom: true,
      trim: !whitespaceSep,
      raw: true,
      info: true,
      on_record: (entry: { record: string[]; raw: string; info: { lines: number } }) => {
        const record: CsvRecord = { fields: entry.record, line: previousEnd + 1, raw: entry.raw, trailingEmpty: false };
        previousEnd = entry.info.lines;
        if (record.fields.length === 1 && record.fields[0] === "" && record.raw.trim() === "") {
          pendingEmpty.push(record);
          return null;
        }
        for (const empty of pendingEmpty) visit(empty);
        pendingEmpty = [];
        visit(record);
        return null;
      },
    });
  } catch (error) {
    if (error instanceof CsvError) throw csvParseError(error, options.file);
    throw error;
  }
  for (const empty of pendingEmpty) visit({ ...empty, trailingEmpty: true });
}

function csvParseError(error: CsvError, file: string): DataFileError {
  const line = typeof error.lines === "number" ? error.lines : undefined;
  const detail = `malformed csv: ${error.message.replace(/ at line \d+/, "")}`;
  return new DataFileError(detail, line === undefined ? { file, code: "syntax" } : { file, line, code: "syntax" });
}

/** Line and column (1-based) of field `index` of a record, found in its raw text. */
export function fieldPosition(record: CsvRecord, index: number, sep: string): { line: number; column: number } {
  const { raw, fields } = record;
  let offset = 0;
  for (let f = 0; f <= index && f < fields.length; f++) {
    const field = fields[f]!;
    const found = field === "" ? -1 : raw.indexOf(field, offset);
    const at = found < 0 ? offset : found;
    if (f === index) {
      offset = at;
      break;
    }
    offset = at + field.length;
    const next = raw.indexOf(sep, offset);
    if (next >= 0) offset = next + sep.length;
  }
  // Skip blanks before the field (trimmed away) and a quote.
  while (offset < raw.length && (raw[offset] === " " || raw[offset] === "\t") && !/^\s+$/.test(sep)) offset++;
  let line = record.line;
  let lineStart = 0;
  for (let k = raw.indexOf("\n"); k >= 0 && k < offset; k = raw.indexOf("\n", k + 1)) {
    line++;
    lineStart = k + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
