/**
 * Values of a script's `$name` command-line parameters, as text (from the
 * command line's `name=value` pairs or the workspace file's "params"), and
 * the typed constant each one becomes.
 *
 * SystemDS types a parameter value when it substitutes it
 * (`DmlSyntacticValidator.getConstIdFromString`): exactly `TRUE` or `FALSE`
 * is a boolean; then a value Java's `Long.parseLong` accepts is an int; then
 * one `Double.parseDouble` accepts is a double; anything else is a string,
 * with one pair of enclosing quotes removed if present.
 */

/** Parameter name (without `$`; positional ones as "1", "2", ...) → value text. */
export type ParameterValues = ReadonlyMap<string, string>;

/** A DML scalar constant with its value type. */
export type DmlConstant =
  | { type: "boolean"; value: boolean }
  | { type: "int"; value: number }
  | { type: "double"; value: number }
  | { type: "string"; value: string };

const LONG = /^[+-]?\d+$/;
const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;
// Java's Double.parseDouble: optional whitespace, sign, NaN/Infinity, decimal with an optional f/F/d/D suffix.
const JAVA_DOUBLE = /^[+-]?(?:NaN|Infinity|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[fFdD]?)$/;
const JAVA_HEX_DOUBLE = /^[+-]?0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)[pP][+-]?\d+[fFdD]?$/;

/** The typed value of a parameter text, by SystemDS's rule. */
export function typeParameterValue(text: string): DmlConstant {
  if (text === "TRUE") return { type: "boolean", value: true };
  if (text === "FALSE") return { type: "boolean", value: false };
  if (LONG.test(text)) {
    const big = BigInt(text);
    if (big >= LONG_MIN && big <= LONG_MAX) return { type: "int", value: Number(big) };
  }
  const double = parseJavaDouble(text);
  if (double !== undefined) return { type: "double", value: double };
  const quoted = text.length >= 2 && ((text.startsWith('"') && text.endsWith('"')) || (text.startsWith("'") && text.endsWith("'")));
  return { type: "string", value: quoted ? text.slice(1, -1) : text };
}

/** Java's `Double.parseDouble`, or undefined where it would throw. */
export function parseJavaDouble(text: string): number | undefined {
  // Double.parseDouble trims ASCII control characters and spaces first.
  const trimmed = text.replace(/^[\x00-\x20]+|[\x00-\x20]+$/g, "");
  if (JAVA_DOUBLE.test(trimmed)) return Number(trimmed.replace(/[fFdD]$/, ""));
  if (JAVA_HEX_DOUBLE.test(trimmed)) return hexDouble(trimmed);
  return undefined;
}

/** The typed value of `$name`, or undefined when the caller gave none. */
export function parameterConstant(params: ParameterValues, name: string): DmlConstant | undefined {
  const text = params.get(name);
  return text === undefined ? undefined : typeParameterValue(text);
}

export interface ParsedParameterArguments {
  params: Map<string, string>;
  /** Arguments that are not `name=value`, with the reason. */
  errors: { argument: string; message: string }[];
}

/**
 * Parses command-line `name=value` pairs (`$name=value` is accepted too).
 * The name follows DML's rule for `$name`: a letter, then letters, digits and
 * `_`; or digits only, for positional parameters `$1`, `$2`, ...
 */
export function parseParameterArguments(args: readonly string[]): ParsedParameterArguments {
  const params = new Map<string, string>();
  const errors: ParsedParameterArguments["errors"] = [];
  for (const argument of args) {
    const eq = argument.indexOf("=");
    if (eq < 0) {
      errors.push({ argument, message: `expected name=value, found '${argument}'` });
      continue;
    }
    const name = argument.slice(0, eq).replace(/^\$/, "");
    if (!isParameterName(name)) {
      errors.push({ argument, message: `'${name}' is not a parameter name (a letter, then letters, digits or _; or a number for $1, $2, ...)` });
      continue;
    }
    params.set(name, argument.slice(eq + 1));
  }
  return { params, errors };
}

export function isParameterName(name: string): boolean {
  return /^(?:[A-Za-z][A-Za-z0-9_]*|\d+)$/.test(name);
}

/** Layers parameter values: later maps win (e.g. workspace file, then command line). */
export function mergeParameterValues(...layers: (ParameterValues | undefined)[]): Map<string, string> {
  const merged = new Map<string, string>();
  for (const layer of layers) for (const [name, value] of layer ?? []) merged.set(name, value);
  return merged;
}

/** How DML prints a constant in string concatenation (`"x" + 1`, `"x" + 1.0`, `"x" + TRUE`). */
export function constantText(constant: DmlConstant): string {
  switch (constant.type) {
    case "boolean":
      return constant.value ? "TRUE" : "FALSE";
    case "int":
      return String(constant.value);
    case "double":
      return javaDoubleText(constant.value);
    case "string":
      return constant.value;
  }
}

/** Java's `Double.toString`: `1.0`, `0.001`, `1.0E-4`, `1.0E7`, `NaN`, `Infinity`. */
export function javaDoubleText(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (!Number.isFinite(value)) return value > 0 ? "Infinity" : "-Infinity";
  if (value === 0) return Object.is(value, -0) ? "-0.0" : "0.0";
  const abs = Math.abs(value);
  if (abs >= 1e-3 && abs < 1e7) {
    const text = String(value);
    return text.includes(".") ? text : `${text}.0`;
  }
  const [mantissa, exponent] = value.toExponential().split("e");
  const m = mantissa!.includes(".") ? mantissa! : `${mantissa}.0`;
  return `${m}E${Number(exponent)}`;
}

function hexDouble(text: string): number {
  const match = /^([+-]?)0[xX]([0-9a-fA-F]*)\.?([0-9a-fA-F]*)[pP]([+-]?\d+)/.exec(text)!;
  const [, sign, whole, fraction, exponent] = match;
  const digits = `${whole}${fraction}` || "0";
  const value = parseInt(digits, 16) * Math.pow(2, Number(exponent) - 4 * fraction!.length);
  return sign === "-" ? -value : value;
}
