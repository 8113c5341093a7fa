/**
 * A frame as csv, as SystemDS's FrameWriterTextCSV writes it: an optional
 * header of the column names, then one line per row; a missing value is an
 * empty field, doubles by Java's Double.toString, integers as integers,
 * booleans as true/false. Unlike SystemDS, a string that contains the
 * separator, a quote, a line break or surrounding blanks is quoted (with
 * doubled inner quotes), so that it reads back as written.
 */
import { javaDoubleText } from "../../metadata";
import type { FrameData } from "./frame-data";
import { ChunkedText } from "./text-chunks";

export interface CsvFrameWriteOptions {
  header?: boolean;
  sep?: string;
}

export function* csvFrameChunks(frame: FrameData, options: CsvFrameWriteOptions = {}): Generator<string> {
  const sep = options.sep ?? ",";
  const out = new ChunkedText();
  if (options.header) out.append(`${frame.names.map((n) => quoteIfNeeded(n, sep)).join(sep)}\n`);
  const cells = new Array<string>(frame.cols);
  for (let i = 0; i < frame.rows; i++) {
    for (let j = 0; j < frame.cols; j++) {
      const column = frame.columns[j]!;
      switch (column.type) {
        case "string": {
          const value = column.values[i];
          cells[j] = value === null || value === undefined ? "" : quoteIfNeeded(value, sep);
          break;
        }
        case "double":
          cells[j] = javaDoubleText(column.values[i]!);
          break;
        case "int":
          cells[j] = String(column.values[i]!);
          break;
        case "boolean":
          cells[j] = column.values[i] ? "true" : "false";
          break;
      }
    }
    out.append(`${cells.join(sep)}\n`);
    yield* out.take();
  }
  yield* out.finish();
}

function quoteIfNeeded(text: string, sep: string): string {
  const needs = text.includes(sep) || text.includes('"') || text.includes("\n") || text.includes("\r") || text !== text.trim();
  return needs ? `"${text.replace(/"/g, '""')}"` : text;
}
