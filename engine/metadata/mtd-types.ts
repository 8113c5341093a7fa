/**
 * The content of a SystemDS metadata sidecar (`<file>.mtd`), with the key
 * names, data types, value types and formats SystemDS accepts
 * (`DataExpression.READ_VALID_MTD_PARAM_NAMES`, `Types.DataType`,
 * `Types.ValueType.fromExternalString`, `Types.FileFormat`).
 */

export type DataTypeName = "matrix" | "frame" | "scalar" | "list" | "tensor";

/**
 * Value types by their external name, as SystemDS's writer spells them
 * (`toExternalString().toLowerCase()`): fp32/fp64 are `double`, int32/int64/
 * uint8/uint4 are `int`, bool `boolean`, str `string`.
 */
export type ValueTypeName = "double" | "int" | "boolean" | "string" | "character" | "hash32" | "hash64" | "unknown";

export type FileFormatName =
  | "text"
  | "mm"
  | "csv"
  | "libsvm"
  | "binary"
  | "compressed"
  | "hdf5"
  | "cog"
  | "jsonl"
  | "proto"
  | "parquet"
  | "delta"
  | "federated";

export type PrivacyLevel = "private" | "private-aggregate" | "public";

/** A parsed `.mtd` file; keys absent from the file are absent here. */
export interface MtdMetadata {
  dataType?: DataTypeName;
  valueType?: ValueTypeName;
  /** -1 in a file (SystemDS's "unknown") is read as absent. */
  rows?: number;
  cols?: number;
  nnz?: number;
  format?: FileFormatName;
  rowsInBlock?: number;
  colsInBlock?: number;
  header?: boolean;
  sep?: string;
  fill?: boolean;
  default?: number;
  /** `naStrings` given as one string or an array. */
  naStrings?: string[];
  indSep?: string;
  schema?: string;
  dataset?: string;
  /** Any JSON; a string stays a string, anything else is kept as its JSON text. */
  description?: string;
  author?: string;
  created?: string;
  privacy?: PrivacyLevel;
  fineGrainedPrivacy?: string;
  iofilename?: string;
}

/** Every key SystemDS accepts in a `.mtd` file, with the field it fills. */
export const MTD_KEYS = {
  data_type: "dataType",
  value_type: "valueType",
  rows: "rows",
  cols: "cols",
  nnz: "nnz",
  format: "format",
  rows_in_block: "rowsInBlock",
  cols_in_block: "colsInBlock",
  header: "header",
  sep: "sep",
  fill: "fill",
  default: "default",
  naStrings: "naStrings",
  indSep: "indSep",
  schema: "schema",
  dataset: "dataset",
  description: "description",
  author: "author",
  created: "created",
  privacy: "privacy",
  fine_grained_privacy: "fineGrainedPrivacy",
  iofilename: "iofilename",
} as const satisfies Record<string, keyof MtdMetadata>;

export type MtdKey = keyof typeof MTD_KEYS;

export function isMtdKey(key: string): key is MtdKey {
  return Object.prototype.hasOwnProperty.call(MTD_KEYS, key);
}

const DATA_TYPES: readonly DataTypeName[] = ["matrix", "frame", "scalar", "list", "tensor"];

/** SystemDS compares data types case-insensitively (`DataType.valueOf(upper)`). */
export function dataTypeFromString(text: string): DataTypeName | undefined {
  const lower = text.toLowerCase();
  return DATA_TYPES.find((t) => t === lower);
}

const VALUE_TYPE_SPELLINGS: Readonly<Record<string, ValueTypeName>> = {
  float: "double",
  fp32: "double",
  fp64: "double",
  double: "double",
  uint4: "int",
  uint8: "int",
  int32: "int",
  int64: "int",
  int: "int",
  bool: "boolean",
  boolean: "boolean",
  str: "string",
  string: "string",
  char: "character",
  character: "character",
  hash32: "hash32",
  hash64: "hash64",
  unknown: "unknown",
};

/** `ValueType.fromExternalString`: case-insensitive, with the internal spellings. */
export function valueTypeFromString(text: string): ValueTypeName | undefined {
  return VALUE_TYPE_SPELLINGS[text.toLowerCase()];
}

const FILE_FORMATS: readonly FileFormatName[] = [
  "text",
  "mm",
  "csv",
  "libsvm",
  "binary",
  "compressed",
  "hdf5",
  "cog",
  "jsonl",
  "proto",
  "parquet",
  "delta",
  "federated",
];

/** `FileFormat.safeValueOf`: case-insensitive. */
export function fileFormatFromString(text: string): FileFormatName | undefined {
  const lower = text.toLowerCase();
  return FILE_FORMATS.find((f) => f === lower);
}

export const PRIVACY_LEVELS: readonly PrivacyLevel[] = ["private", "private-aggregate", "public"];
