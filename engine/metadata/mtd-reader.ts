/**
 * Reads a SystemDS metadata sidecar (`<data file>.mtd`, one JSON object).
 *
 * Every problem is a diagnostic with the `.mtd` file's path and the line and
 * column in it; nothing throws. Problems SystemDS would stop on (bad JSON,
 * an unknown key, a wrong type) are errors; the value is still used when its
 * meaning is clear (e.g. `"rows": 1e3`, which SystemDS rejects because its
 * JSON reader makes it a double), so the analysis can go on.
 */
import type { Range, Severity } from "../syntax";
import { type MetadataDiagnostic, metadataDiagnostic } from "./diagnostics";
import { type FileSystem, fileKind, fileSize } from "../files";
import { type JsonMember, type JsonValue, jsonTypeName, parseJson } from "./json-with-positions";
import {
  type MtdMetadata,
  MTD_KEYS,
  PRIVACY_LEVELS,
  type PrivacyLevel,
  dataTypeFromString,
  fileFormatFromString,
  isMtdKey,
  valueTypeFromString,
} from "./mtd-types";

export interface MtdParseResult {
  /** Undefined when the text is not a JSON object. */
  metadata?: MtdMetadata;
  diagnostics: MetadataDiagnostic[];
}

export interface MtdFileResult extends MtdParseResult {
  /** The sidecar's path (`<data file>.mtd`). */
  mtdPath: string;
  /** Whether the sidecar exists; when not, there are no metadata and no diagnostics. */
  exists: boolean;
}

/** The largest .mtd read (1 MiB; SystemDS's are a few hundred bytes): a bigger one is refused, not parsed. */
const MAX_MTD_BYTES = 1024 * 1024;

/** The path of the sidecar of a data file. */
export function mtdPathOf(dataPath: string): string {
  return `${dataPath}.mtd`;
}

/** Reads and parses `<dataPath>.mtd` through `fs`. */
export function readMtd(fs: FileSystem, dataPath: string): MtdFileResult {
  const mtdPath = mtdPathOf(dataPath);
  const kind = fileKind(fs, mtdPath);
  if (kind === "missing") return { mtdPath, exists: false, diagnostics: [] };
  const size = kind === "file" ? fileSize(fs, mtdPath) : undefined;
  const text = kind === "file" && (size === undefined || size <= MAX_MTD_BYTES) ? fs.readFile(mtdPath) : undefined;
  if (text === undefined) {
    const message =
      kind === "folder"
        ? "this .mtd is a folder (.mtd folders of part files are not supported here)"
        : kind === "other"
          ? "this .mtd is not a regular file (a FIFO, device or socket): it is not read"
          : size !== undefined && size > MAX_MTD_BYTES
            ? `this .mtd is ${size} bytes, more than a metadata file holds (at most ${MAX_MTD_BYTES}): it is not read`
            : "this .mtd cannot be read";
    const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    return { mtdPath, exists: true, diagnostics: [metadataDiagnostic(mtdPath, kind === "folder" ? "warning" : "error", message, range, "mtd-unreadable")] };
  }
  return { mtdPath, exists: true, ...parseMtd(text, mtdPath) };
}

/** Parses the text of a `.mtd` file; `file` names it in the diagnostics. */
export function parseMtd(text: string, file: string): MtdParseResult {
  const diagnostics: MetadataDiagnostic[] = [];
  const report = (severity: Severity, message: string, range: Range, code = "mtd") =>
    diagnostics.push(metadataDiagnostic(file, severity, message, range, code));

  const parsed = parseJson(text);
  for (const leniency of parsed.leniencies) report("warning", leniency.message, leniency.range, "mtd-json");
  if (!parsed.ok) {
    report("error", `malformed .mtd: ${parsed.error.message}`, parsed.error.range, "mtd-json");
    return { diagnostics };
  }
  if (parsed.value.kind !== "object") {
    report("error", `a .mtd file holds one JSON object, not ${jsonTypeName(parsed.value)}`, parsed.value.range, "mtd-json");
    return { diagnostics };
  }

  const metadata: MtdMetadata = {};
  const seen = new Map<string, JsonMember>();
  for (const member of parsed.value.members) {
    if (seen.has(member.key)) {
      report("warning", `the key "${member.key}" appears twice; the last one counts`, member.keyRange, "mtd-duplicate-key");
    }
    seen.set(member.key, member);
    if (!isMtdKey(member.key)) {
      report("error", unknownKeyMessage(member.key), member.keyRange, "mtd-unknown-key");
      continue;
    }
    readMember(member, metadata, report);
  }
  return { metadata, diagnostics };
}

type Report = (severity: Severity, message: string, range: Range, code?: string) => void;

function unknownKeyMessage(key: string): string {
  const base = `SystemDS rejects this .mtd: "${key}" is not a metadata key ("MTD file contains invalid parameter name")`;
  if (key === "na.strings") return `${base}; the accepted key is "naStrings"`;
  const lower = key.toLowerCase();
  const close = Object.keys(MTD_KEYS).find((k) => k.toLowerCase() === lower || k.replace(/_/g, "") === lower.replace(/[_.]/g, ""));
  return close ? `${base}; did you mean "${close}"? (keys are case-sensitive)` : base;
}

function readMember(member: JsonMember, metadata: MtdMetadata, report: Report): void {
  const { key, value } = member;
  const typeError = (expected: string) =>
    report("error", `"${key}" must be ${expected}, not ${jsonTypeName(value)}`, value.range, "mtd-type");
  switch (key) {
    case "data_type": {
      const text = stringOf(value);
      const dataType = text === undefined ? undefined : dataTypeFromString(text);
      if (dataType) metadata.dataType = dataType;
      else typeError('"matrix", "frame", "scalar", "list" or "tensor"');
      return;
    }
    case "value_type": {
      const text = stringOf(value);
      const valueType = text === undefined ? undefined : valueTypeFromString(text);
      if (valueType) metadata.valueType = valueType;
      else typeError('a value type: "double", "int", "boolean" or "string" (or fp64, int64, ...)');
      return;
    }
    case "format": {
      const text = stringOf(value);
      const format = text === undefined ? undefined : fileFormatFromString(text);
      if (format) metadata.format = format;
      else typeError('a format: "text", "mm", "csv", "libsvm", "binary", ...');
      return;
    }
    case "rows":
    case "cols":
    case "nnz":
    case "rows_in_block":
    case "cols_in_block": {
      const count = readCount(member, report);
      if (count !== undefined) metadata[MTD_KEYS[key]] = count;
      return;
    }
    case "header":
    case "fill": {
      const flag = booleanOf(value);
      if (flag === undefined) typeError("true or false");
      else metadata[MTD_KEYS[key]] = flag;
      return;
    }
    case "default": {
      const number = value.kind === "number" ? value.value : value.kind === "string" ? Number(value.value) : Number.NaN;
      if (Number.isNaN(number)) typeError("a number");
      else metadata.default = number;
      return;
    }
    case "sep":
    case "indSep": {
      const text = scalarText(value);
      if (text === undefined) typeError("a string");
      else if (text === "") report("error", `"${key}" cannot be empty`, value.range, "mtd-type");
      else metadata[MTD_KEYS[key]] = text;
      return;
    }
    case "naStrings": {
      if (value.kind === "string") metadata.naStrings = [value.value];
      else if (value.kind === "array" && value.items.every((item) => item.kind === "string")) {
        metadata.naStrings = value.items.map((item) => (item.kind === "string" ? item.value : ""));
      } else typeError("a string or an array of strings");
      return;
    }
    case "privacy": {
      const level = PRIVACY_LEVELS.find((p) => p === stringOf(value)) as PrivacyLevel | undefined;
      if (level) metadata.privacy = level;
      else typeError('"private", "private-aggregate" or "public"');
      return;
    }
    case "description":
    case "fine_grained_privacy":
      metadata[MTD_KEYS[key]] = value.kind === "string" ? value.value : JSON.stringify(plain(value));
      return;
    case "schema":
    case "dataset":
    case "author":
    case "created":
    case "iofilename": {
      const text = scalarText(value);
      if (text === undefined) typeError("a string");
      else metadata[MTD_KEYS[key]] = text;
      return;
    }
    default:
      return;
  }
}

/**
 * rows, cols, nnz and block sizes: SystemDS casts the JSON value to Long or
 * Integer, so only an integer written without fraction or exponent works.
 * -1 is SystemDS's "unknown".
 */
function readCount(member: JsonMember, report: Report): number | undefined {
  const { key, value } = member;
  let number: number | undefined;
  if (value.kind === "number") number = value.value;
  else if (value.kind === "string" && /^\s*-?\d+(\.\d*)?([eE][+-]?\d+)?\s*$/.test(value.value)) number = Number(value.value);
  if (number === undefined) {
    report("error", `"${key}" must be an integer, not ${jsonTypeName(value)}`, value.range, "mtd-type");
    return undefined;
  }
  if (!Number.isInteger(number)) {
    report("error", `"${key}" must be an integer, not ${jsonTypeName(value)}`, value.range, "mtd-type");
    return undefined;
  }
  if (value.kind !== "number" || !value.isInteger) {
    const message = `"${key}" must be written as a plain integer: SystemDS reads ${jsonTypeName(value)} as a ${value.kind === "string" ? "string" : "double"} and fails (the value ${number} is used here)`;
    report("error", message, value.range, "mtd-type");
  }
  if (number === -1) return undefined;
  if (number < 0) {
    report("error", `"${key}" cannot be negative (-1 means unknown)`, value.range, "mtd-type");
    return undefined;
  }
  if (!Number.isSafeInteger(number)) {
    report("warning", `"${key}" is beyond 2^53; it is used rounded to ${number}`, value.range, "mtd-type");
  }
  return number;
}

function stringOf(value: JsonValue): string | undefined {
  return value.kind === "string" ? value.value : undefined;
}

/** SystemDS calls toString() on these values: numbers and booleans pass too. */
function scalarText(value: JsonValue): string | undefined {
  if (value.kind === "string") return value.value;
  if (value.kind === "number") return value.text;
  if (value.kind === "boolean") return String(value.value);
  return undefined;
}

/** SystemDS parses header/fill with equalsIgnoreCase("true"/"false") on the value's text. */
function booleanOf(value: JsonValue): boolean | undefined {
  if (value.kind === "boolean") return value.value;
  if (value.kind === "string") {
    const lower = value.value.toLowerCase();
    if (lower === "true" || lower === "false") return lower === "true";
  }
  return undefined;
}

type Plain = null | boolean | number | string | Plain[] | { [key: string]: Plain };

function plain(value: JsonValue): Plain {
  switch (value.kind) {
    case "object":
      return Object.fromEntries(value.members.map((m) => [m.key, plain(m.value)]));
    case "array":
      return value.items.map(plain);
    case "null":
      return null;
    default:
      return value.value;
  }
}
