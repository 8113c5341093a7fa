/**
 * libsvm text (`format="libsvm"`): one row per line, `label idx:value
 * idx:value ...` with 1-based feature indices; `sep` separates the items
 * (default " ": any run of spaces or tabs) and `indSep` index from value
 * (default ":").
 *
 * As in SystemDS (ReaderTextLIBSVM), the label is stored in the LAST column
 * of the matrix: a file with d features is read as rows x (d + 1), features
 * in columns 1..d and the label in column d + 1; the `.mtd`'s `cols` counts
 * that label column. Without a `cols`, d is the largest feature index in the
 * file. `splitLibsvmLabel` separates the label column into its own column
 * vector (y) from the features (X).
 *
 * A blank line inside the data is an error (it would be a row without a
 * label); blank lines at the end are ignored. Features may come in any
 * order, but an index given twice in a row is an error.
 */
import { DataFileError } from "./data-file-error";
import type { CsrMatrixData, DenseMatrixData, MatrixData } from "./matrix-data";
import { toCsrMatrixData } from "./matrix-data";
import { readIndex } from "./text-cell-reader";
import { forEachLine, parseNumber, quoted, tokenize, type Token } from "./text-values";
import { TripletBuilder } from "./triplet-builder";

export interface LibsvmReadOptions {
  file: string;
  sep?: string;
  indSep?: string;
  /** Expected dims; `cols` includes the label column. */
  rows?: number;
  cols?: number;
  dimsSource?: string;
}

export function parseLibsvm(text: string, options: LibsvmReadOptions): CsrMatrixData {
  const { file } = options;
  const sep = options.sep ?? " ";
  const indSep = options.indSep ?? ":";
  const source = options.dimsSource ?? "the metadata";
  const featureLimit = options.cols !== undefined ? options.cols - 1 : Number.MAX_SAFE_INTEGER;
  if (options.cols !== undefined && options.cols < 1) {
    throw new DataFileError(`a libsvm matrix has at least 1 column (the label), but ${source} declares ${options.cols}`, { file, code: "metadata" });
  }
  const builder = new TripletBuilder(options.rows ?? 0, options.cols ?? 0, file, Math.ceil(text.length / 8));
  let labels = new Float64Array(Math.max(16, options.rows ?? 0));
  let rows = 0;
  let maxFeature = 0;
  let blankLine = 0;

  forEachLine(text, (line, lineNumber) => {
    const items = splitItems(line, sep);
    if (items.length === 0) {
      blankLine ||= lineNumber;
      return;
    }
    if (blankLine) throw new DataFileError("expected a label, found an empty line", { file, line: blankLine, code: "syntax" });
    if (options.rows !== undefined && rows === options.rows) {
      throw new DataFileError(`more rows than the ${options.rows} that ${source} declares`, { file, line: lineNumber, code: "mismatch" });
    }
    const label = parseNumber(items[0]!.text);
    if (label === undefined) {
      throw new DataFileError(`expected a label (a number), found ${quoted(items[0]!.text)}`, { file, line: lineNumber, column: items[0]!.column, code: "syntax" });
    }
    if (rows === labels.length) {
      const grown = new Float64Array(labels.length * 2);
      grown.set(labels);
      labels = grown;
    }
    labels[rows] = label;
    for (let k = 1; k < items.length; k++) {
      const item = items[k]!;
      const split = item.text.indexOf(indSep);
      if (split <= 0) {
        throw new DataFileError(`expected index${indSep}value, found ${quoted(item.text)}`, { file, line: lineNumber, column: item.column, code: "syntax" });
      }
      const indexToken = { text: item.text.slice(0, split), column: item.column };
      const valueToken = { text: item.text.slice(split + indSep.length), column: item.column + split + indSep.length };
      const index = readIndex(indexToken, "feature", featureLimit, file, lineNumber);
      const value = parseNumber(valueToken.text);
      if (value === undefined) {
        throw new DataFileError(`expected a number, found ${quoted(valueToken.text)}`, { file, line: lineNumber, column: valueToken.column, code: "syntax" });
      }
      if (index > maxFeature) maxFeature = index;
      builder.add(rows, index - 1, value, lineNumber);
    }
    rows++;
  });

  if (options.rows !== undefined && rows !== options.rows) {
    throw new DataFileError(`${source} declares ${options.rows} rows, but the file has ${rows}`, { file, code: "mismatch" });
  }
  const cols = options.cols ?? maxFeature + 1;
  for (let i = 0; i < rows; i++) builder.add(i, cols - 1, labels[i]!, 0);
  return builder.build(rows, cols);
}

/** The items of a line: whitespace-separated for a blank separator, else split at `sep` (empty items dropped). */
function splitItems(line: string, sep: string): Token[] {
  if (/^\s+$/.test(sep)) return tokenize(line);
  const items: Token[] = [];
  let at = 0;
  for (const part of line.split(sep)) {
    const lead = part.length - part.trimStart().length;
    const text = part.trim();
    if (text !== "") items.push({ text, column: at + lead + 1 });
    at += part.length + sep.length;
  }
  return items;
}

/**
 * The features X (rows x cols-1, CSR) and the labels y (rows x 1, dense) of
 * a matrix in SystemDS's libsvm layout (label in the last column).
 */
export function splitLibsvmLabel(data: MatrixData): { features: CsrMatrixData; labels: DenseMatrixData } {
  const csr = toCsrMatrixData(data);
  const { rows, cols } = csr;
  if (cols < 1) throw new RangeError("a libsvm matrix has at least the label column");
  const labels = new Float64Array(rows);
  const rowPtr = new Int32Array(rows + 1);
  const colIdx: number[] = [];
  const values: number[] = [];
  for (let i = 0; i < rows; i++) {
    for (let k = csr.rowPtr[i]!; k < csr.rowPtr[i + 1]!; k++) {
      const j = csr.colIdx[k]!;
      if (j === cols - 1) labels[i] = csr.values[k]!;
      else {
        colIdx.push(j);
        values.push(csr.values[k]!);
      }
    }
    rowPtr[i + 1] = colIdx.length;
  }
  return {
    features: { format: "csr", rows, cols: cols - 1, rowPtr, colIdx: Int32Array.from(colIdx), values: Float64Array.from(values) },
    labels: { format: "dense", rows, cols: 1, values: labels },
  };
}
