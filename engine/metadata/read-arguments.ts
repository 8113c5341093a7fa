/**
 * The arguments of a `read(file, name=value, ...)` call, evaluated to
 * constants: the file expression and the typed values of the parameters
 * that describe the data (docs/DML_LANGUAGE.md section 7). A parameter whose value
 * is not a compile-time constant is left out (SystemDS then does not know it
 * at compile time either).
 */
import type { CallExpression, Expression, Range } from "../syntax";
import { type ConstantEnvironment, evaluateConstant } from "./constant-eval";
import { type MetadataDiagnostic, metadataDiagnostic } from "./diagnostics";
import {
  type DataTypeName,
  type FileFormatName,
  type ValueTypeName,
  dataTypeFromString,
  fileFormatFromString,
  valueTypeFromString,
} from "./mtd-types";
import { type DmlConstant, constantText } from "./parameters";

export interface Located<T> {
  value: T;
  range: Range;
}

interface ReadArgumentValues {
  rows?: Located<number>;
  cols?: Located<number>;
  nnz?: Located<number>;
  format?: Located<FileFormatName>;
  dataType?: Located<DataTypeName>;
  valueType?: Located<ValueTypeName>;
  header?: Located<boolean>;
  sep?: Located<string>;
  fill?: Located<boolean>;
  default?: Located<number>;
  naStrings?: Located<string[]>;
}

export interface ReadArguments {
  /** The file name argument (first positional, or `iofilename=`). */
  file?: Expression;
  values: ReadArgumentValues;
  /** The constant text of each given parameter, as SystemDS compares it with the `.mtd` (by name as in the call). */
  texts: Map<string, Located<string>>;
  diagnostics: MetadataDiagnostic[];
}

/** Parameters `read()` accepts besides the file name. */
export const READ_PARAMETERS: readonly string[] = [
  "format",
  "header",
  "sep",
  "fill",
  "default",
  "naStrings",
  "rows",
  "cols",
  "nnz",
  "data_type",
  "value_type",
  "schema",
  "rows_in_block",
  "cols_in_block",
  "indSep",
  "dataset",
];

export function readArguments(call: CallExpression, env: ConstantEnvironment, scriptPath: string): ReadArguments {
  const diagnostics: MetadataDiagnostic[] = [];
  const values: ReadArgumentValues = {};
  const texts = new Map<string, Located<string>>();
  const error = (message: string, range: Range, code = "read-argument") =>
    diagnostics.push(metadataDiagnostic(scriptPath, "error", message, range, code));
  let file: Expression | undefined;

  for (const argument of call.args) {
    if (argument.name === undefined || argument.name === "iofilename") {
      if (file === undefined) file = argument.value;
      continue;
    }
    const name = argument.name;
    if (!READ_PARAMETERS.includes(name)) continue; // reported by the semantic checks of call arguments
    const result = evaluateConstant(argument.value, env);
    if (!result.ok) {
      if (result.reason === "missing-parameter") {
        const message = `${name}= comes from $${result.parameter}, which has no value here: give ${result.parameter}=... on the command line or in dml-lens.json "params"`;
        diagnostics.push(metadataDiagnostic(scriptPath, "hint", message, result.range, "parameter-missing"));
      }
      continue;
    }
    const constant = result.value;
    const range = argument.value.range;
    texts.set(name, { value: constantText(constant), range });
    switch (name) {
      case "rows":
      case "cols":
      case "nnz": {
        const count = countOf(constant);
        if (count === undefined) error(`${name}= must be a non-negative integer, not ${describe(constant)}`, range);
        else if (count >= 0) values[name] = { value: count, range }; // -1: unknown, as in SystemDS
        break;
      }
      case "format": {
        const format = constant.type === "string" ? fileFormatFromString(constant.value) : undefined;
        if (format) values.format = { value: format, range };
        else error(`unknown format ${describe(constant)} (SystemDS knows text, mm, csv, libsvm, binary, compressed, hdf5, ...)`, range);
        break;
      }
      case "data_type": {
        const dataType = constant.type === "string" ? dataTypeFromString(constant.value) : undefined;
        if (dataType) values.dataType = { value: dataType, range };
        else error(`unknown data type ${describe(constant)} (matrix, frame, scalar or list)`, range);
        break;
      }
      case "value_type": {
        const valueType = constant.type === "string" ? valueTypeFromString(constant.value) : undefined;
        if (valueType) values.valueType = { value: valueType, range };
        else error(`unknown value type ${describe(constant)} (double, int, boolean or string)`, range);
        break;
      }
      case "header":
      case "fill":
        if (constant.type === "boolean") values[name] = { value: constant.value, range };
        else error(`${name}= must be TRUE or FALSE, not ${describe(constant)}`, range);
        break;
      case "sep":
        if (constant.type === "string" && constant.value !== "") values.sep = { value: constant.value, range };
        else error(`sep= must be a non-empty string, not ${describe(constant)}`, range);
        break;
      case "default":
        if (constant.type === "int" || constant.type === "double") values.default = { value: constant.value, range };
        else error(`default= must be a number, not ${describe(constant)}`, range);
        break;
      case "naStrings":
        if (constant.type === "string") values.naStrings = { value: constant.value.split("·"), range };
        break;
      default:
        break;
    }
  }
  if (file === undefined) error("read() needs the file name as its first argument", call.range, "read-file");
  const result: ReadArguments = { values, texts, diagnostics };
  if (file) result.file = file;
  return result;
}

/** An int, or a double with an integral value; -1 stays -1 (unknown). */
function countOf(constant: DmlConstant): number | undefined {
  if (constant.type !== "int" && constant.type !== "double") return undefined;
  if (!Number.isInteger(constant.value) || constant.value < -1) return undefined;
  return constant.value;
}

function describe(constant: DmlConstant): string {
  return constant.type === "string" ? `"${constant.value}"` : `${constantText(constant)} (${constant.type})`;
}
