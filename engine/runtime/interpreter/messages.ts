/**
 * The texts of problems that both the static checks (`dml check`, `dml
 * explain`, the checks `dml run` does before running) and the runtime report,
 * so that every command says the same thing about the same mistake. The
 * static side uses the same words where it finds the problem first (see
 * cli/script-problems.ts); "did you mean" comes from one helper
 * (program/edit-distance.ts).
 */
import { didYouMean } from "../../program";

/** A `$name` with no value from the command line (or the workspace file) and no `ifdef` default. */
export function missingParameterMessage(name: string): string {
  return `parameter $${name} has no value: pass ${name}=value, or give a default with ifdef($${name}, ...)`;
}

/** The data file of a `read()` is not there (`candidates`: the absolute paths looked at). */
export function missingDataFileMessage(pathText: string, candidates: readonly string[]): string {
  const where = candidates.length === 0 ? "" : ` (looked in ${candidates.join(", ")})`;
  return `cannot read data file '${pathText}': no such file${where}`;
}

/** The first error of the `.mtd` of a read's data file (`position` 0-based), as the reader reports it: `x.csv.mtd:3:5: message`. */
export function metadataErrorMessage(pathText: string, position: { line: number; character: number }, message: string): string {
  return `${pathText}.mtd:${position.line + 1}:${position.character + 1}: ${message}`;
}

/** A variable read where it has no value (a path that skipped its assignment, or a typo). */
export function noValueMessage(name: string, known: Iterable<string>): string {
  return `'${name}' has no value here${didYouMean(name, known)}`;
}

export function unknownFunctionMessage(name: string, known: Iterable<string>): string {
  return `unknown function '${name}'${didYouMean(name, known)}`;
}

export function unknownArgumentMessage(functionName: string, argument: string, parameters: Iterable<string>): string {
  return `function '${functionName}' has no parameter '${argument}'${didYouMean(argument, parameters)}`;
}

export function missingArgumentMessage(functionName: string, parameter: string): string {
  return `function '${functionName}' is missing the argument '${parameter}'`;
}

/** `%*%` of operands whose inner dimensions differ (the size analysis says it in the same words). */
export function matmulDimensionsMessage(a: { rows: number; cols: number }, b: { rows: number; cols: number }): string {
  return `the inner dimensions of %*% do not match: ${a.rows} x ${a.cols} %*% ${b.rows} x ${b.cols}`;
}

type Dims = { rows: number; cols: number };
const dims = (m: Dims) => `${m.rows} x ${m.cols}`;

/** Element-wise operands that neither match nor broadcast (a 1 x 1, or a row or column vector that fits). */
export function elementwiseDimensionsMessage(op: string, a: Dims, b: Dims): string {
  return `incompatible dimensions for '${op}': ${dims(a)} and ${dims(b)} (not equal, and neither side is a row or column vector that broadcasts)`;
}

/** Whether element-wise operands of these dims combine (the rule of kernels/broadcast.ts and the size analysis). */
export function elementwiseDimensionsFit(a: Dims, b: Dims): boolean {
  if ((a.rows === 1 && a.cols === 1) || (b.rows === 1 && b.cols === 1)) return true;
  const fits = (x: number, y: number) => x === y || x === 1 || y === 1;
  return fits(a.rows, b.rows) && fits(a.cols, b.cols);
}

export function bindDimensionsMessage(kind: "cbind" | "rbind", parts: readonly Dims[]): string {
  return `${kind} needs the same number of ${kind === "cbind" ? "rows" : "columns"}: ${parts.map(dims).join(", ")}`;
}

export function asScalarMessage(m: Dims): string {
  return `as.scalar needs a 1 x 1 matrix, but this one is ${dims(m)}`;
}
