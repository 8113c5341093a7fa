/**
 * The value buffer of a dense matrix read from a file, refused with a
 * DataFileError (not a crash) when the dims are beyond what one typed array
 * holds or the allocation fails.
 */
import { DataFileError } from "./data-file-error";
import { allocateF64 } from "../matrix";

/** The most cells a dense matrix read from a file may have (2^31 − 1, about 16 GiB of doubles). */
export const MAX_DENSE_CELLS = 2 ** 31 - 1;

export function allocateDenseValues(rows: number, cols: number, file: string): Float64Array {
  const cells = rows * cols;
  const refuse = () =>
    new DataFileError(`a dense ${rows} x ${cols} matrix (${cells} cells, ${formatBytes(cells * 8)}) is too large to read`, { file, code: "too-large" });
  if (cells > MAX_DENSE_CELLS) throw refuse();
  try {
    return allocateF64(cells);
  } catch (error) {
    if (error instanceof RangeError) throw refuse();
    throw error;
  }
}

function formatBytes(bytes: number): string {
  const units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
}
