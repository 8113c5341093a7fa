/**
 * The interpreter's values: scalars (int, double, boolean, string, kept
 * apart because DML prints them differently), matrices (the runtime's
 * Matrix), frames (from io) and lists; with SystemDS's text forms.
 */
import { type FrameData, formatDecimal, formatFrame, formatScalarText } from "../io";
import type { Matrix } from "../matrix";

export type ScalarType = "int" | "double" | "boolean" | "string";
export type ScalarValue =
  | { kind: "scalar"; type: "int" | "double"; value: number }
  | { kind: "scalar"; type: "boolean"; value: boolean }
  | { kind: "scalar"; type: "string"; value: string };
export type Value =
  | ScalarValue
  | { kind: "matrix"; matrix: Matrix }
  | { kind: "frame"; frame: FrameData }
  | { kind: "list"; items: Value[]; names?: (string | undefined)[] };

export const int = (value: number): ScalarValue => ({ kind: "scalar", type: "int", value: Math.trunc(value) });
export const double = (value: number): ScalarValue => ({ kind: "scalar", type: "double", value });
export const bool = (value: boolean): ScalarValue => ({ kind: "scalar", type: "boolean", value });
export const str = (value: string): ScalarValue => ({ kind: "scalar", type: "string", value });
export const matrixValue = (matrix: Matrix): Value => ({ kind: "matrix", matrix });

/** Java's Double.toString: 1.0, 0.5, 1.0E-4, 1.234E7, NaN, Infinity (print shows a double as SystemDS writes it). */
export function javaDouble(x: number): string {
  return formatScalarText({ type: "double", value: x });
}

/** A scalar as print() and string concatenation show it. */
export function scalarText(v: ScalarValue): string {
  switch (v.type) {
    case "int":
      return String(v.value);
    case "double":
      return javaDouble(v.value);
    case "boolean":
      return v.value ? "TRUE" : "FALSE";
    case "string":
      return v.value;
  }
}

/** SystemDS's toString(X): 3 decimals, cells separated by a space, each row ending in a newline. */
export function matrixText(m: Matrix, decimal = 3, rows = 100, cols = 100): string {
  let text = "";
  for (let i = 0; i < Math.min(m.rows, rows); i++) {
    const cells: string[] = [];
    for (let j = 0; j < Math.min(m.cols, cols); j++) cells.push(formatDecimal(m.get(i, j), decimal));
    text += `${cells.join(" ")}\n`;
  }
  return text;
}

export function valueText(v: Value): string {
  switch (v.kind) {
    case "scalar":
      return scalarText(v);
    case "matrix":
      return matrixText(v.matrix);
    case "frame":
      return formatFrame(v.frame);
    case "list":
      return v.items.map((item, i) => `${v.names?.[i] ?? i + 1}: ${valueText(item)}`).join("\n");
  }
}

export function describeValue(v: Value): string {
  switch (v.kind) {
    case "scalar":
      return `scalar ${v.type}`;
    case "matrix":
      return `matrix ${v.matrix.rows} x ${v.matrix.cols}`;
    case "frame":
      return "frame";
    case "list":
      return `list of ${v.items.length}`;
  }
}
