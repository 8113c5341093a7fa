/**
 * A matrix as Matrix Market text, `real general`:
 * - coordinate (the default for CSR data): the banner, `rows cols nnz`,
 *   then `i j value` per non-zero in row-major order, 1-based, exactly as
 *   SystemDS's WriterMatrixMarket writes (values by Java's Double.toString);
 * - array (the default for dense data): the banner, `rows cols`, then every
 *   cell, column-major, one per line. SystemDS's own read() does not accept
 *   array files; write layout "coordinate" for data SystemDS must read.
 * SystemDS adds a line `0 0 0` after the header of an empty matrix; this
 * writer does not (that line is not valid Matrix Market), and the reader
 * accepts both.
 */
import { javaDoubleText } from "../../metadata";
import { matrixDataNnz, toDenseMatrixData, type MatrixData } from "./matrix-data";
import { ChunkedText } from "./text-chunks";

export type MatrixMarketLayout = "coordinate" | "array";

export interface MatrixMarketWriteOptions {
  /** Default: coordinate for CSR data, array for dense data. */
  layout?: MatrixMarketLayout;
}

export function* matrixMarketChunks(data: MatrixData, options: MatrixMarketWriteOptions = {}): Generator<string> {
  const layout = options.layout ?? (data.format === "csr" ? "coordinate" : "array");
  const out = new ChunkedText();
  const { rows, cols } = data;
  if (layout === "coordinate") {
    out.append(`%%MatrixMarket matrix coordinate real general\n${rows} ${cols} ${matrixDataNnz(data)}\n`);
    for (let i = 0; i < rows; i++) {
      const row = String(i + 1);
      if (data.format === "dense") {
        for (let j = 0, at = i * cols; j < cols; j++, at++) {
          const v = data.values[at]!;
          if (v !== 0) out.append(`${row} ${j + 1} ${javaDoubleText(v)}\n`);
        }
      } else {
        for (let k = data.rowPtr[i]!; k < data.rowPtr[i + 1]!; k++) out.append(`${row} ${data.colIdx[k]! + 1} ${javaDoubleText(data.values[k]!)}\n`);
      }
      yield* out.take();
    }
    yield* out.finish();
    return;
  }
  const dense = toDenseMatrixData(data);
  out.append(`%%MatrixMarket matrix array real general\n${rows} ${cols}\n`);
  for (let j = 0; j < cols; j++) {
    for (let i = 0; i < rows; i++) out.append(`${javaDoubleText(dense.values[i * cols + j]!)}\n`);
    yield* out.take();
  }
  yield* out.finish();
}
