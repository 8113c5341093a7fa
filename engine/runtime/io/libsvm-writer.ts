/**
 * A matrix in SystemDS's libsvm layout (label in the last column) as libsvm
 * text, as WriterTextLIBSVM writes it: per row the label, then
 * `index:value` for each non-zero feature (1-based), each item followed by
 * the separator (so lines end with a trailing space by default), values by
 * Java's Double.toString. `sep` and `indSep` default to " " and ":";
 * SystemDS's .mtd does not record them, so other values need the same
 * read() arguments when read back.
 */
import { javaDoubleText } from "../../metadata";
import { toCsrMatrixData, type MatrixData } from "./matrix-data";
import { ChunkedText } from "./text-chunks";

export interface LibsvmWriteOptions {
  sep?: string;
  indSep?: string;
}

export function* libsvmChunks(data: MatrixData, options: LibsvmWriteOptions = {}): Generator<string> {
  const sep = options.sep ?? " ";
  const indSep = options.indSep ?? ":";
  if (data.cols < 1) throw new RangeError("a libsvm matrix needs at least the label column");
  const csr = toCsrMatrixData(data);
  const labelColumn = csr.cols - 1;
  const out = new ChunkedText();
  for (let i = 0; i < csr.rows; i++) {
    const from = csr.rowPtr[i]!;
    const to = csr.rowPtr[i + 1]!;
    const last = to - 1;
    const label = to > from && csr.colIdx[last] === labelColumn ? csr.values[last]! : 0;
    let line = javaDoubleText(label) + sep;
    for (let k = from; k < to; k++) {
      const j = csr.colIdx[k]!;
      if (j !== labelColumn) line += `${j + 1}${indSep}${javaDoubleText(csr.values[k]!)}${sep}`;
    }
    out.append(`${line}\n`);
    yield* out.take();
  }
  yield* out.finish();
}
