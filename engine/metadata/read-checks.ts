/**
 * Checks of a `read` call against what its data says: the file name must be
 * a constant, and constant arguments must agree with the `.mtd` sidecar
 * (SystemDS: "conflicting values in metadata and read statement") and with a
 * Matrix Market header ("MM file: invalid specified number of rows").
 */
import type { Expression } from "../syntax";
import { evaluateConstant } from "./constant-eval";
import { type MetadataDiagnostic, metadataDiagnostic } from "./diagnostics";
import type { MatrixMarketHeader } from "./matrix-market";
import type { MtdMetadata } from "./mtd-types";
import { type DmlConstant, type ParameterValues, constantText } from "./parameters";
import type { Located, ReadArguments } from "./read-arguments";

export interface EvaluatedPath {
  /** The file name, when it is a known constant. */
  text?: string;
  /** The parameter name when the argument is exactly `$name` (with or without a value). */
  parameter?: string;
  /** Why the name is unknown; worth reporting only when no declaration gives the sizes. */
  unknownReason?: MetadataDiagnostic;
}

export function evaluatePath(
  file: Expression | undefined,
  context: { scriptPath: string; params: ParameterValues; constants?: ReadonlyMap<string, DmlConstant> | undefined },
  diagnostics: MetadataDiagnostic[],
): EvaluatedPath {
  if (!file) return {};
  const result: EvaluatedPath = {};
  if (file.kind === "parameter") result.parameter = file.name;
  const value = evaluateConstant(file, { params: context.params, constants: context.constants ?? new Map() });
  if (value.ok) {
    if (value.value.type !== "string") {
      const message = `the file name is ${constantText(value.value)} (${value.value.type}), not a string`;
      diagnostics.push(metadataDiagnostic(context.scriptPath, "warning", message, file.range, "read-file"));
    }
    result.text = constantText(value.value);
    return result;
  }
  const declare = "or declare the sizes with '# @size ROWS x COLS' or in dml-lens.json \"inputs\"";
  const message =
    value.reason === "missing-parameter"
      ? `the file name comes from $${value.parameter}, which has no value here: give ${value.parameter}=... on the command line or in dml-lens.json "params", ${declare}`
      : `the file name is not a constant known here, so its metadata cannot be read; ${declare.replace(/^or /, "")}`;
  result.unknownReason = metadataDiagnostic(context.scriptPath, "hint", message, value.range, "read-file-unknown");
  return result;
}

/** Constant `read()` arguments that contradict the `.mtd` file. */
export function checkMtdConflicts(args: ReadArguments, mtd: MtdMetadata, script: string): MetadataDiagnostic[] {
  const v = args.values;
  const conflicts: [string, Located<unknown> | undefined, unknown][] = [
    ["rows", v.rows, mtd.rows],
    ["cols", v.cols, mtd.cols],
    ["nnz", v.nnz, mtd.nnz],
    ["format", v.format, mtd.format],
    ["data_type", v.dataType, mtd.dataType],
    ["value_type", v.valueType, mtd.valueType],
    ["header", v.header, mtd.header],
    ["sep", v.sep, mtd.sep],
    ["fill", v.fill, mtd.fill],
    ["default", v.default, mtd.default],
  ];
  const diagnostics: MetadataDiagnostic[] = [];
  for (const [name, given, inFile] of conflicts) {
    if (!given || inFile === undefined || given.value === inFile) continue;
    const message = `${name}=${show(given.value)} contradicts the .mtd file (${name}: ${show(inFile)}); SystemDS stops with "conflicting values in metadata and read statement"`;
    diagnostics.push(metadataDiagnostic(script, "error", message, given.range, "read-conflict"));
  }
  return diagnostics;
}

/** Constant rows=, cols=, nnz= that contradict a Matrix Market header (SystemDS compares nnz with entries, doubled when symmetric). */
export function checkMatrixMarketConflicts(args: ReadArguments, header: MatrixMarketHeader, script: string): MetadataDiagnostic[] {
  const systemdsNnz = header.format === "coordinate" ? header.entries * (header.symmetry === "general" ? 1 : 2) : undefined;
  const checks: [string, Located<number> | undefined, number | undefined][] = [
    ["rows", args.values.rows, header.rows],
    ["cols", args.values.cols, header.cols],
    ["nnz", args.values.nnz, systemdsNnz],
  ];
  const diagnostics: MetadataDiagnostic[] = [];
  for (const [name, given, inFile] of checks) {
    if (!given || inFile === undefined || given.value === inFile) continue;
    const message = `${name}=${given.value} contradicts the Matrix Market header (${inFile}); SystemDS stops with "MM file: invalid specified number of ${name === "nnz" ? "non-zeros" : name === "rows" ? "rows" : "columns"}"`;
    diagnostics.push(metadataDiagnostic(script, "error", message, given.range, "read-conflict"));
  }
  return diagnostics;
}

/** `150 x 4`, `? x 4`. */
export function describeDims(rows: number | null | undefined, cols: number | null | undefined): string {
  const dim = (n: number | null | undefined) => (n === null || n === undefined ? "?" : String(n));
  return `${dim(rows)} x ${dim(cols)}`;
}

function show(value: unknown): string {
  return typeof value === "string" ? `"${value}"` : String(value);
}
