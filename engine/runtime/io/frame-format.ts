/**
 * A frame as text, the way SystemDS prints it (`print(toString(F))`,
 * DataConverter.toString(FrameBlock)):
 *
 *   # FRAME: nrow = 2, ncol = 3
 *   # name age member
 *   # STRING INT64 BOOLEAN
 *   ann 41 TRUE
 *   bob 37 FALSE
 *
 * FP64 values with `decimal` (default 3) fraction digits, rounded half-even
 * (Java's DecimalFormat; NaN and Infinity spelled so), INT64 as integers,
 * BOOLEAN as TRUE/FALSE, a missing string as `null`.
 */
import { type FrameData, schemaName } from "./frame-data";

export interface FrameFormatOptions {
  /** Rows and columns to print (default all). */
  rows?: number;
  cols?: number;
  separator?: string;
  lineSeparator?: string;
  /** Minimum fraction digits of FP64 values (default 3; DecimalFormat prints at most 3 unless this is larger). */
  decimal?: number;
}

export function formatFrame(frame: FrameData, options: FrameFormatOptions = {}): string {
  const sep = options.separator ?? " ";
  const nl = options.lineSeparator ?? "\n";
  const rowCount = Math.min(options.rows ?? frame.rows, frame.rows);
  const colCount = Math.min(options.cols ?? frame.cols, frame.cols);
  const decimal = options.decimal ?? 3;
  const out: string[] = [];
  out.push(`# FRAME: nrow = ${frame.rows}, ncol = ${frame.cols}${nl}`);
  out.push(`#${sep}${frame.names.slice(0, colCount).join(sep)}${nl}`);
  out.push(`#${sep}${frame.columns.slice(0, colCount).map((c) => schemaName(c.type)).join(sep)}${nl}`);
  for (let i = 0; i < rowCount; i++) {
    const cells: string[] = [];
    for (let j = 0; j < colCount; j++) {
      const column = frame.columns[j]!;
      switch (column.type) {
        case "string":
          cells.push(column.values[i] ?? "null");
          break;
        case "double":
          cells.push(formatDecimal(column.values[i]!, decimal));
          break;
        case "int":
          cells.push(String(column.values[i]!));
          break;
        case "boolean":
          cells.push(column.values[i] ? "TRUE" : "FALSE");
          break;
      }
    }
    out.push(cells.join(sep) + nl);
  }
  return out.join("");
}

/**
 * Java's `DecimalFormat` with grouping off and `decimal` minimum fraction
 * digits (maximum max(3, decimal)): HALF_EVEN rounding of the exact binary
 * value; NaN and ±Infinity as Double.toString spells them.
 */
export function formatDecimal(value: number, decimal = 3): string {
  if (Number.isNaN(value)) return "NaN";
  if (!Number.isFinite(value)) return value > 0 ? "Infinity" : "-Infinity";
  const digits = Math.max(3, decimal);
  const negative = value < 0 || Object.is(value, -0);
  const magnitude = Math.abs(value);
  let text = roundHalfEven(magnitude, digits);
  // Trim trailing zeros beyond the minimum fraction digits.
  if (digits > decimal && text.includes(".")) {
    const [whole, fraction] = text.split(".") as [string, string];
    let keep = fraction.length;
    while (keep > decimal && fraction[keep - 1] === "0") keep--;
    text = keep === 0 ? whole : `${whole}.${fraction.slice(0, keep)}`;
  }
  return negative ? `-${text}` : text;
}

/** `magnitude` (≥ 0) with `digits` fraction digits, ties to even; toFixed rounds the exact value but ties up. */
function roundHalfEven(magnitude: number, digits: number): string {
  const text = magnitude < 1e21 ? magnitude.toFixed(digits) : BigInt(magnitude).toString() + (digits > 0 ? `.${"0".repeat(digits)}` : "");
  // An exact tie (2k+1) / (2 · 10^digits) is a double only as q / 2^(digits+1) with q odd (5^digits divides 2k+1),
  // so it is one exactly when magnitude · 2^(digits+1) is an odd integer (that product is exact).
  const scaled = magnitude * 2 ** (digits + 1);
  if (digits > 20 || !Number.isSafeInteger(scaled) || scaled % 2 !== 1) return text;
  const product = BigInt(scaled) * 5n ** BigInt(digits); // = 2k + 1
  const low = (product - 1n) / 2n;
  const even = (low % 2n === 0n ? low : low + 1n).toString().padStart(digits + 1, "0");
  return digits > 0 ? `${even.slice(0, -digits)}.${even.slice(-digits)}` : even;
}
