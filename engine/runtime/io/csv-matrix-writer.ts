/**
 * A matrix as csv, exactly as SystemDS's WriterTextCSV writes it: an
 * optional header `C1,C2,...`, then one line per row with `sep` between
 * fields; a non-zero as Java's Double.toString spells it (`1.0`, `1.0E-4`,
 * `NaN`), a zero as `0`, or as an empty field when `sparse` is TRUE (the
 * write() parameter). Every line ends with \n.
 */
import { javaDoubleText } from "../../metadata";
import type { MatrixData } from "./matrix-data";
import { ChunkedText } from "./text-chunks";

export interface CsvWriteOptions {
  header?: boolean;
  sep?: string;
  /** Zeros as empty fields (default FALSE: written as 0). */
  sparse?: boolean;
}

export function* csvMatrixChunks(data: MatrixData, options: CsvWriteOptions = {}): Generator<string> {
  const sep = options.sep ?? ",";
  const zero = options.sparse ? "" : "0";
  const { rows, cols } = data;
  const out = new ChunkedText();
  if (options.header) out.append(`${Array.from({ length: cols }, (_, j) => `C${j + 1}`).join(sep)}\n`);
  const row = new Array<string>(cols);
  for (let i = 0; i < rows; i++) {
    row.fill(zero);
    if (data.format === "dense") {
      for (let j = 0, at = i * cols; j < cols; j++, at++) {
        const v = data.values[at]!;
        if (v !== 0) row[j] = javaDoubleText(v);
      }
    } else {
      for (let k = data.rowPtr[i]!; k < data.rowPtr[i + 1]!; k++) row[data.colIdx[k]!] = javaDoubleText(data.values[k]!);
    }
    out.append(`${row.join(sep)}\n`);
    yield* out.take();
  }
  yield* out.finish();
}
