/**
 * A matrix as SystemDS's text cell format (`format="text"`), exactly as
 * WriterTextCell writes it: `i j value` per non-zero in row-major order,
 * 1-based, values by Java's Double.toString; an empty matrix is the single
 * line `0 0 0` (IOUtilFunctions.EMPTY_TEXT_LINE).
 */
import { javaDoubleText } from "../../metadata";
import type { MatrixData } from "./matrix-data";
import { ChunkedText } from "./text-chunks";

export function* textCellChunks(data: MatrixData): Generator<string> {
  const out = new ChunkedText();
  const { rows, cols } = data;
  let written = false;
  for (let i = 0; i < rows; i++) {
    const row = String(i + 1);
    if (data.format === "dense") {
      for (let j = 0, at = i * cols; j < cols; j++, at++) {
        const v = data.values[at]!;
        if (v !== 0) {
          out.append(`${row} ${j + 1} ${javaDoubleText(v)}\n`);
          written = true;
        }
      }
    } else {
      for (let k = data.rowPtr[i]!; k < data.rowPtr[i + 1]!; k++) {
        out.append(`${row} ${data.colIdx[k]! + 1} ${javaDoubleText(data.values[k]!)}\n`);
        written = true;
      }
    }
    yield* out.take();
  }
  if (!written) out.append("0 0 0\n");
  yield* out.finish();
}
