/**
 * The parameters of a read: the read() arguments merged with the `.mtd`
 * sidecar, as SystemDS merges them (DataExpression): an argument fills what
 * the sidecar leaves out and vice versa, and an argument that contradicts
 * the sidecar is an error ("conflicting values").
 */
import type { DataTypeName, FileFormatName, MtdMetadata, ValueTypeName } from "../../metadata";
import { javaDoubleText, MTD_KEYS } from "../../metadata";
import { DataFileError } from "./data-file-error";

/** read() arguments, typed (all optional). */
export interface ReadParameters {
  format?: FileFormatName;
  dataType?: DataTypeName;
  valueType?: ValueTypeName;
  rows?: number;
  cols?: number;
  nnz?: number;
  header?: boolean;
  sep?: string;
  fill?: boolean;
  default?: number;
  naStrings?: readonly string[];
  indSep?: string;
  /** Frames: "STRING,FP64,..." */
  schema?: string;
}

type Key = keyof ReadParameters;

/** The fields merged from read() and the .mtd file, in order. */
const KEYS: readonly Key[] = ["format", "dataType", "valueType", "rows", "cols", "nnz", "header", "sep", "fill", "default", "naStrings", "indSep", "schema"];

/** A field's parameter name in read() (and .mtd key), for messages: the metadata stage's MTD_KEYS read backwards. */
const PARAMETER_NAMES: ReadonlyMap<string, string> = new Map(Object.entries(MTD_KEYS).map(([name, field]) => [field, name]));
const parameterName = (key: Key): string => PARAMETER_NAMES.get(key) ?? key;

export interface MergedReadParameters extends ReadParameters {
  /** Where each merged value came from. */
  sources: Partial<Record<Key, "read()" | "mtd">>;
}

/** Merges read() arguments with the sidecar; `mtdFile` names the sidecar in errors. */
export function mergeReadParameters(params: ReadParameters, mtd: MtdMetadata | undefined, mtdFile: string): MergedReadParameters {
  const merged: MergedReadParameters = { sources: {} };
  const fromMtd: ReadParameters = mtd ? mtdParameters(mtd) : {};
  for (const key of KEYS) {
    const given = params[key];
    const stored = fromMtd[key];
    if (given !== undefined && stored !== undefined && !same(key, given, stored)) {
      const detail = `conflicting values: read() gives ${parameterName(key)}=${show(given)}, but the .mtd says ${show(stored)}`;
      throw new DataFileError(detail, { file: mtdFile, code: "metadata" });
    }
    const value = given ?? stored;
    if (value === undefined) continue;
    (merged as Record<Key, unknown>)[key] = value;
    merged.sources[key] = given !== undefined ? "read()" : "mtd";
  }
  return merged;
}

function mtdParameters(mtd: MtdMetadata): ReadParameters {
  const out: ReadParameters = {};
  if (mtd.format !== undefined) out.format = mtd.format;
  if (mtd.dataType !== undefined) out.dataType = mtd.dataType;
  if (mtd.valueType !== undefined) out.valueType = mtd.valueType;
  if (mtd.rows !== undefined) out.rows = mtd.rows;
  if (mtd.cols !== undefined) out.cols = mtd.cols;
  if (mtd.nnz !== undefined) out.nnz = mtd.nnz;
  if (mtd.header !== undefined) out.header = mtd.header;
  if (mtd.sep !== undefined) out.sep = mtd.sep;
  if (mtd.fill !== undefined) out.fill = mtd.fill;
  if (mtd.default !== undefined) out.default = mtd.default;
  if (mtd.naStrings !== undefined) out.naStrings = mtd.naStrings;
  if (mtd.indSep !== undefined) out.indSep = mtd.indSep;
  if (mtd.schema !== undefined) out.schema = mtd.schema;
  return out;
}

function same(key: Key, a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => x === b[i]);
  if (key === "schema" && typeof a === "string" && typeof b === "string") {
    const normal = (s: string) => s.replace(/,\s*$/, "").split(",").map((t) => t.trim().toUpperCase()).join(",");
    return normal(a) === normal(b);
  }
  return a === b;
}

function show(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : javaDoubleText(value);
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (Array.isArray(value)) return JSON.stringify(value);
  return String(value);
}

/** Where the expected dims come from, for messages ("read()" or the sidecar's name). */
export function dimsSource(merged: MergedReadParameters, mtdFile: string): string {
  const source = merged.sources.rows ?? merged.sources.cols;
  return source === "read()" ? "read()" : mtdFile;
}
