/**
 * `as.frame` and `as.matrix` between matrices and frames, as SystemDS's
 * DataConverter does them: a matrix becomes a frame of FP64 columns named
 * C1..Cn (a scalar a 1 x 1 frame of its type); a frame becomes a matrix cell by
 * cell: numbers as they are, booleans 1/0, strings parsed as Java doubles
 * ("1.5", "NaN", "Infinity"; "true"/"t" 1 and "false"/"f" 0, case-insensitive),
 * a missing or empty string 0. A string that is no number is an error
 * naming its cell.
 */
import { parseNumber, defaultColumnNames, type FrameColumn, type FrameData } from "../io";
import { toDense, DenseMatrix, type Matrix } from "../matrix";
import { fail } from "./errors";
import { describeValue, type Value } from "./values";

export function frameFromValue(v: Value): Value {
  if (v.kind === "frame") return v;
  if (v.kind === "matrix") return { kind: "frame", frame: frameFromMatrix(v.matrix) };
  if (v.kind === "scalar") {
    const column: FrameColumn =
      v.type === "string"
        ? { type: "string", values: [v.value] }
        : v.type === "boolean"
          ? { type: "boolean", values: Uint8Array.of(v.value ? 1 : 0) }
          : { type: v.type === "int" ? "int" : "double", values: Float64Array.of(v.value) };
    return { kind: "frame", frame: { rows: 1, cols: 1, names: defaultColumnNames(1), columns: [column] } };
  }
  return fail(`as.frame: cannot convert a ${describeValue(v)}`);
}

export function frameFromMatrix(m: Matrix): FrameData {
  const x = toDense(m);
  const columns: FrameColumn[] = [];
  for (let j = 0; j < x.cols; j++) {
    const values = new Float64Array(x.rows);
    for (let i = 0; i < x.rows; i++) values[i] = x.data[i * x.cols + j]!;
    columns.push({ type: "double", values });
  }
  return { rows: x.rows, cols: x.cols, names: defaultColumnNames(x.cols), columns };
}

export function matrixFromFrame(f: FrameData): Matrix {
  const cols = f.columns.length;
  const out = new Float64Array(f.rows * cols);
  f.columns.forEach((column, j) => {
    for (let i = 0; i < f.rows; i++) out[i * cols + j] = cellValue(column, i, j);
  });
  return new DenseMatrix(f.rows, cols, out);
}

function cellValue(column: FrameColumn, i: number, j: number): number {
  if (column.type !== "string") return column.values[i]!;
  const text = column.values[i];
  if (text === null || text === undefined || text === "") return 0;
  const value = parseNumber(text);
  if (value !== undefined) return value;
  const lower = text.toLowerCase();
  if (lower === "true" || lower === "t") return 1;
  if (lower === "false" || lower === "f") return 0;
  return fail(`as.matrix: frame cell (${i + 1}, ${j + 1}) holds "${text}", which is not a number`);
}
