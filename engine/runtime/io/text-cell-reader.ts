/**
 * SystemDS's text cell format (`format="text"`, also called IJV): one
 * non-zero per line as `row col value`, 1-based, separated by spaces (tabs
 * are accepted too). The dims are not in the file: they come from the
 * `.mtd` or the read() arguments. Blank lines are skipped; a cell given
 * twice is an error; explicit zeros are dropped, and the line `0 0 0`,
 * which SystemDS writes for an empty matrix, is skipped.
 */
import { DataFileError } from "./data-file-error";
import type { CsrMatrixData } from "./matrix-data";
import { forEachLine, parseIndex, parseNumber, quoted, tokenize, type Token } from "./text-values";
import { TripletBuilder } from "./triplet-builder";

export interface TextCellReadOptions {
  /** Names the file in errors. */
  file: string;
  rows: number;
  cols: number;
}

export function parseTextCell(text: string, options: TextCellReadOptions): CsrMatrixData {
  const { file, rows, cols } = options;
  const builder = new TripletBuilder(rows, cols, file, Math.ceil(text.length / 8));
  forEachLine(text, (line, lineNumber) => {
    const tokens = tokenize(line);
    if (tokens.length === 0) return;
    if (tokens.length !== 3) {
      throw new DataFileError(`expected 'row col value', found ${describeCount(tokens.length)}`, { file, line: lineNumber, code: "syntax" });
    }
    if (isEmptyMarker(tokens)) return;
    const i = readIndex(tokens[0]!, "row", rows, file, lineNumber);
    const j = readIndex(tokens[1]!, "column", cols, file, lineNumber);
    const value = parseNumber(tokens[2]!.text);
    if (value === undefined) {
      throw new DataFileError(`expected a number, found ${quoted(tokens[2]!.text)}`, { file, line: lineNumber, column: tokens[2]!.column, code: "syntax" });
    }
    builder.add(i - 1, j - 1, value, lineNumber);
  });
  return builder.build();
}

/** SystemDS's line for an empty matrix (IOUtilFunctions.EMPTY_TEXT_LINE = "0 0 0"): indices 0, value 0. */
export function isEmptyMarker(tokens: readonly Token[]): boolean {
  return tokens.length === 3 && tokens[0]!.text === "0" && tokens[1]!.text === "0" && parseNumber(tokens[2]!.text) === 0;
}

function describeCount(count: number): string {
  return count === 1 ? "1 value" : `${count} values`;
}

/** A 1-based index token checked against 1..limit; returns it 1-based. */
export function readIndex(token: Token, what: "row" | "column" | "feature", limit: number, file: string, line: number): number {
  const index = parseIndex(token.text);
  if (index === undefined) {
    throw new DataFileError(`expected a ${what} index (an integer from 1), found ${quoted(token.text)}`, { file, line, column: token.column, code: "syntax" });
  }
  if (index < 1 || index > limit) {
    const range = limit === 0 ? `out of range: there are no ${what}s` : `out of range 1..${limit}`;
    throw new DataFileError(`${what} index ${index} ${range}`, { file, line, column: token.column, code: "mismatch" });
  }
  return index;
}
