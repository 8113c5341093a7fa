/**
 * A scalar in a file (`data_type="scalar"`, format text): the value's text
 * alone, as SystemDS writes it with Java's toString (`1.0`, `42`, `true`,
 * the string itself), without a final newline.
 */
import type { ValueTypeName } from "../../metadata";
import { javaDoubleText } from "../../metadata";
import { DataFileError } from "./data-file-error";
import { parseInteger, parseNumber, quoted } from "./text-values";

export type ScalarValue =
  | { type: "double"; value: number }
  | { type: "int"; value: number }
  | { type: "boolean"; value: boolean }
  | { type: "string"; value: string };

/** The scalar of a file's text, typed by the sidecar's value type (default double). */
export function parseScalarText(text: string, valueType: ValueTypeName | undefined, file: string): ScalarValue {
  const type = valueType ?? "double";
  if (type === "string" || type === "character") return { type: "string", value: text.replace(/\r?\n$/, "") };
  const trimmed = text.trim();
  const fail = (expected: string): never => {
    throw new DataFileError(`expected ${expected}, found ${trimmed === "" ? "an empty file" : quoted(trimmed)}`, { file, line: 1, code: "syntax" });
  };
  switch (type) {
    case "boolean": {
      const lower = trimmed.toLowerCase();
      if (lower === "true" || lower === "false") return { type: "boolean", value: lower === "true" };
      return fail("TRUE or FALSE");
    }
    case "int": {
      const value = parseInteger(trimmed) ?? parseNumber(trimmed);
      if (value === undefined || !Number.isInteger(value)) return fail("an integer");
      return { type: "int", value };
    }
    case "double": {
      const value = parseNumber(trimmed);
      if (value === undefined) return fail("a number");
      return { type: "double", value };
    }
    default:
      throw new DataFileError(`a scalar of value type ${type} cannot be read`, { file, code: "unsupported" });
  }
}

/** The text SystemDS writes for a scalar. */
export function formatScalarText(scalar: ScalarValue): string {
  switch (scalar.type) {
    case "double":
      return javaDoubleText(scalar.value);
    case "int":
      return String(scalar.value);
    case "boolean":
      return scalar.value ? "true" : "false";
    case "string":
      return scalar.value;
  }
}
