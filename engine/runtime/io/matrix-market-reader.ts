/**
 * Matrix Market files (`format="mm"`): the header is parsed by the metadata
 * stage (`parseMatrixMarketHeader`), the data here.
 *
 * - coordinate: `row col value` per entry (`row col` for pattern, value 1),
 *   1-based; the size line's third number is the entry count and must match.
 * - array: one value per line, column-major.
 * - real (Java doubles) and integer (decimal integers) fields.
 * - general, symmetric (entries mirrored across the diagonal) and
 *   skew-symmetric (mirrored negated; SystemDS itself reads only general and
 *   symmetric). A symmetric coordinate entry may be in either triangle, but a
 *   cell and its mirror may not both be given.
 * - complex and hermitian files are refused.
 * Comment lines (`%`) and blank lines in the data are skipped. SystemDS
 * writes an empty matrix as a `0` entry count followed by the line `1 1 0`;
 * that line is accepted.
 */
import { parseMatrixMarketHeader, type MatrixMarketHeader } from "../../metadata";
import { DataFileError, type DataFileWarning } from "./data-file-error";
import { allocateDenseValues } from "./dense-buffer";
import type { CsrMatrixData, DenseMatrixData } from "./matrix-data";
import { isEmptyMarker, readIndex } from "./text-cell-reader";
import { forEachLine, parseInteger, parseNumber, quoted, tokenize, type Token } from "./text-values";
import { TripletBuilder } from "./triplet-builder";

export interface MatrixMarketReadOptions {
  file: string;
  /** Header problems that do not stop the read (e.g. what SystemDS would not accept) are added here. */
  warnings?: DataFileWarning[];
}

export interface MatrixMarketData {
  header: MatrixMarketHeader;
  data: DenseMatrixData | CsrMatrixData;
}

/** The header of Matrix Market text (from its start only), or a DataFileError. */
export function readMatrixMarketTextHeader(text: string, options: MatrixMarketReadOptions): MatrixMarketHeader {
  const { file } = options;
  for (const bytes of [4096, 65536, 1 << 20, text.length]) {
    const complete = bytes >= text.length;
    const result = parseMatrixMarketHeader(complete ? text : text.slice(0, bytes), file, complete);
    if (!result.header && !complete && result.incomplete) continue;
    const error = result.diagnostics.find((d) => d.severity === "error");
    if (error || !result.header) {
      const at = error?.range.start ?? { line: 0, character: 0 };
      const detail = error?.message ?? "not a Matrix Market file";
      throw new DataFileError(detail, { file, line: at.line + 1, column: at.character + 1, code: "syntax" });
    }
    // What only SystemDS cannot read (array, skew-symmetric, tabs) is read here without a warning.
    for (const d of result.diagnostics) {
      if (d.code !== "mm-systemds") options.warnings?.push({ file, line: d.range.start.line + 1, message: d.message });
    }
    const header = result.header;
    if (header.field === "complex" || header.symmetry === "hermitian") {
      throw new DataFileError(`complex Matrix Market files cannot be read into a matrix of doubles`, { file, line: 1, code: "unsupported" });
    }
    return header;
  }
  throw new DataFileError("not a Matrix Market file", { file, line: 1, code: "syntax" });
}

export function parseMatrixMarket(text: string, options: MatrixMarketReadOptions): MatrixMarketData {
  const header = readMatrixMarketTextHeader(text, options);
  const start = offsetOfLine(text, header.sizeLine + 1);
  const data = header.format === "array" ? readArray(text, start, header, options.file) : readCoordinate(text, start, header, options.file);
  return { header, data };
}

function readCoordinate(text: string, start: number, header: MatrixMarketHeader, file: string): CsrMatrixData {
  const { rows, cols, entries, symmetry } = header;
  const pattern = header.field === "pattern";
  const integer = header.field === "integer";
  const expected = pattern ? 2 : 3;
  const sizeLine = header.sizeLine + 1;
  const builder = new TripletBuilder(rows, cols, file, symmetry === "general" ? entries : 2 * entries);
  let count = 0;
  forEachLine(
    text,
    (line, lineNumber) => {
      const tokens = tokenize(line);
      if (tokens.length === 0 || tokens[0]!.text.startsWith("%")) return;
      if (tokens.length !== expected) {
        const shape = pattern ? "'row col'" : "'row col value'";
        throw new DataFileError(`expected ${shape}, found ${tokens.length === 1 ? "1 value" : `${tokens.length} values`}`, { file, line: lineNumber, code: "syntax" });
      }
      if (isEmptyMarker(tokens)) return;
      if (count === entries) {
        throw new DataFileError(`nnz in header ${entries} but found more entries`, { file, line: lineNumber, code: "mismatch" });
      }
      count++;
      const i = readIndex(tokens[0]!, "row", rows, file, lineNumber) - 1;
      const j = readIndex(tokens[1]!, "column", cols, file, lineNumber) - 1;
      const value = pattern ? 1 : readValue(tokens[2]!, integer, file, lineNumber);
      builder.add(i, j, value, lineNumber);
      if (symmetry === "general" || i === j) {
        if (symmetry === "skew-symmetric" && i === j) {
          throw new DataFileError("a skew-symmetric matrix has no diagonal entries", { file, line: lineNumber, code: "syntax" });
        }
        return;
      }
      builder.add(j, i, symmetry === "skew-symmetric" ? -value : value, lineNumber);
    },
    start,
    sizeLine + 1,
  );
  if (count < entries) {
    throw new DataFileError(`nnz in header ${entries} but ${count} ${count === 1 ? "entry" : "entries"}`, { file, line: sizeLine, code: "mismatch" });
  }
  return builder.build();
}

function readArray(text: string, start: number, header: MatrixMarketHeader, file: string): DenseMatrixData {
  const { rows, cols, entries, symmetry } = header;
  const integer = header.field === "integer";
  const values = allocateDenseValues(rows, cols, file);
  const skew = symmetry === "skew-symmetric" ? 1 : 0;
  let count = 0;
  // Column-major position of the next stored value: (i, j).
  let i = skew;
  let j = 0;
  forEachLine(
    text,
    (line, lineNumber) => {
      const tokens = tokenize(line);
      if (tokens.length === 0 || tokens[0]!.text.startsWith("%")) return;
      if (tokens.length !== 1) {
        throw new DataFileError(`expected 1 value per line (array format), found ${tokens.length}`, { file, line: lineNumber, code: "syntax" });
      }
      if (count === entries) {
        throw new DataFileError(`more values than the ${entries} of a ${describeArray(header)}`, { file, line: lineNumber, code: "mismatch" });
      }
      const value = readValue(tokens[0]!, integer, file, lineNumber);
      values[i * cols + j] = value;
      if (symmetry !== "general" && i !== j) values[j * cols + i] = symmetry === "skew-symmetric" ? -value : value;
      count++;
      if (++i === rows) {
        j++;
        i = symmetry === "general" ? 0 : j + skew;
      }
    },
    start,
    header.sizeLine + 2,
  );
  if (count < entries) {
    throw new DataFileError(`expected ${entries} values (${describeArray(header)}), found ${count}`, { file, line: header.sizeLine + 1, code: "mismatch" });
  }
  return { format: "dense", rows, cols, values };
}

function describeArray(header: MatrixMarketHeader): string {
  const shape = `${header.rows} x ${header.cols}`;
  if (header.symmetry === "general") return `${shape} array, column-major`;
  return `${shape} ${header.symmetry} array, the ${header.symmetry === "symmetric" ? "lower triangle" : "strict lower triangle"} column-major`;
}

function readValue(token: Token, integer: boolean, file: string, line: number): number {
  const value = integer ? parseInteger(token.text) : parseNumber(token.text);
  if (value === undefined) {
    const what = integer ? "an integer (integer field)" : "a number";
    throw new DataFileError(`expected ${what}, found ${quoted(token.text)}`, { file, line, column: token.column, code: "syntax" });
  }
  return value;
}

/** The offset where 0-based line `line` starts (text.length when there are fewer lines). */
function offsetOfLine(text: string, line: number): number {
  let at = 0;
  for (let l = 0; l < line; l++) {
    const next = text.indexOf("\n", at);
    if (next < 0) return text.length;
    at = next + 1;
  }
  return at;
}
