/**
 * Numbers as a person reads them, shared by the hover, the results view,
 * the Variables view and the plan view: counts and dims with digit groups
 * ("50,000,000"), in scientific notation once they are too long to read
 * ("5.0e12"); measured values with four significant digits; sparsity as a
 * fraction with three. Always the same grouping (a comma every three
 * digits), whatever the machine's locale, so tests and screenshots agree.
 */

/** Counts from this size on are written as `1.2e12`. */
const SCIENTIFIC_FROM = 1e12;

/** `1234567` → `1,234,567`; the digits of an integer (as text) in groups of three. */
function groupDigits(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/**
 * A count (rows, columns, non-zeros, cells): rounded to an integer and
 * grouped, `50,000,000`; `5.0e12` from 10^12 on; `?` when unknown.
 */
export function formatCount(n: number | null | undefined): string {
  if (n === null || n === undefined) return "?";
  if (!Number.isFinite(n)) return String(n);
  const rounded = Math.round(n);
  const sign = rounded < 0 ? "-" : "";
  const magnitude = Math.abs(rounded);
  if (magnitude >= SCIENTIFIC_FROM) return `${sign}${scientific(magnitude, 2)}`;
  return sign + groupDigits(String(magnitude));
}

/** `10,000 × 5,000` (`?` for an unknown side). */
export function formatDims(rows: number | null | undefined, cols: number | null | undefined): string {
  return `${formatCount(rows)} × ${formatCount(cols)}`;
}

/**
 * A value (a matrix cell, a tile mean, a scalar): integers as counts,
 * others with four significant digits and digit groups (`12,345.7`,
 * `0.1235`), scientific below 0.001 and from 10^12 on (`1.23e-5`).
 */
export function formatValue(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  if (Number.isInteger(x)) return formatCount(x);
  const magnitude = Math.abs(x);
  if (magnitude < 1e-3 || magnitude >= SCIENTIFIC_FROM) return scientific(x, 3);
  const text = x.toPrecision(4);
  if (/e/.test(text)) return formatCount(Number(text)); // e.g. 12345.6 → "1.235e+4" → 12,350
  const [whole, fraction] = text.split(".");
  const sign = whole!.startsWith("-") ? "-" : "";
  return `${sign}${groupDigits(whole!.replace("-", ""))}${fraction !== undefined ? `.${fraction}` : ""}`;
}

/** The share of non-zero cells, three significant digits: `0.00100`, `1.00`; `?` when unknown. */
export function formatSparsity(nnz: number | null | undefined, cells: number | null | undefined): string {
  if (nnz === null || nnz === undefined || cells === null || cells === undefined || cells <= 0) return "?";
  return (nnz / cells).toPrecision(3);
}

/** A factor between two amounts: `65×`, `2.5×`, `2,000×`. */
export function formatFactor(ratio: number): string {
  if (!Number.isFinite(ratio)) return "∞×";
  return ratio >= 10 ? `${formatCount(ratio)}×` : `${ratio.toFixed(1)}×`;
}

/** `5.0e12`, `-1.23e-5`: `digits` significant digits, no `+` in the exponent. */
function scientific(x: number, digits: number): string {
  return x.toExponential(digits - 1).replace("e+", "e");
}
