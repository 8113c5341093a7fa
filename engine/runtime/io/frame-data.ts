/**
 * The neutral form of a frame (a table with one value type per column), as
 * the csv frame reader produces it and the printer and writer take it.
 *
 * Column types follow SystemDS's schema value types: "string" (STRING),
 * "double" (FP64, FP32), "int" (INT64, INT32, UINT8) and "boolean" (BOOLEAN).
 * As in SystemDS's FrameBlock, numeric and boolean columns cannot hold a
 * missing value (it is 0 / false); string columns hold null.
 */
import { valueTypeFromString } from "../../metadata";

export type FrameColumnType = "string" | "double" | "int" | "boolean";

export type FrameColumn =
  | { type: "string"; values: (string | null)[] }
  | { type: "double"; values: Float64Array }
  | { type: "int"; values: Float64Array }
  | { type: "boolean"; values: Uint8Array };

export interface FrameData {
  rows: number;
  cols: number;
  /** Column names: the csv header, or SystemDS's defaults C1, C2, ... */
  names: string[];
  columns: FrameColumn[];
}

/** SystemDS's default column names: C1 .. Cn. */
export function defaultColumnNames(cols: number): string[] {
  return Array.from({ length: cols }, (_, j) => `C${j + 1}`);
}

/** The schema name SystemDS prints and writes for a column type (ValueType enum names). */
export function schemaName(type: FrameColumnType): string {
  switch (type) {
    case "string":
      return "STRING";
    case "double":
      return "FP64";
    case "int":
      return "INT64";
    case "boolean":
      return "BOOLEAN";
  }
}

/**
 * A schema string such as "STRING,FP64,INT64" (the `.mtd` key `schema`, or
 * read(..., schema=)); a trailing comma, as SystemDS's writer leaves it, is
 * allowed. Returns the types, or the first unknown name.
 */
export function parseFrameSchema(text: string): { types: FrameColumnType[] } | { unknown: string } {
  const parts = text.split(",").map((p) => p.trim());
  if (parts.length > 1 && parts[parts.length - 1] === "") parts.pop();
  const types: FrameColumnType[] = [];
  for (const part of parts) {
    const type = columnTypeFromName(part);
    if (type === undefined) return { unknown: part };
    types.push(type);
  }
  return { types };
}

/** A value type name (STRING, FP64, INT32, BOOLEAN, double, int, ...) as a column type. */
export function columnTypeFromName(name: string): FrameColumnType | undefined {
  switch (valueTypeFromString(name)) {
    case "string":
    case "character":
      return "string";
    case "double":
      return "double";
    case "int":
      return "int";
    case "boolean":
      return "boolean";
    default:
      return undefined;
  }
}

/** Cell (i, j) as a plain value (null for a missing string). */
export function frameCell(frame: FrameData, i: number, j: number): string | number | boolean | null {
  const column = frame.columns[j]!;
  if (column.type === "boolean") return column.values[i] === 1;
  return column.values[i]!;
}
