/**
 * Writes a `.mtd` sidecar exactly as SystemDS does (`HDFSTool.metaDataToString`):
 * an ordered JSON object printed by JSON4J with 4-space indentation.
 *
 * Key order: data_type, value_type (or schema for a frame with a schema),
 * rows, cols (not for scalars), rows_in_block and cols_in_block (binary or
 * compressed matrices), nnz (matrices), format, description, author, header
 * and sep (csv), created, privacy. Unknown dims and nnz are written as -1.
 * JSON4J escapes '/' as '\/' and every character outside ASCII 32..126 as
 * \uXXXX; the description is JSON-escaped once more before that
 * (`StringEscapeUtils.escapeJson`), as SystemDS does. There is no final newline.
 */
import type { DataTypeName, FileFormatName, PrivacyLevel, ValueTypeName } from "./mtd-types";

export interface MtdWriteInput {
  dataType: DataTypeName;
  /** Default "double". Ignored when `schema` is given. */
  valueType?: ValueTypeName;
  /** Frames: one value type per column, e.g. ["STRING", "FP64"]; written as "STRING,FP64,". */
  schema?: readonly string[];
  rows?: number | null;
  cols?: number | null;
  nnz?: number | null;
  format: FileFormatName;
  /** Block size of binary/compressed matrices (default 1000). */
  blocksize?: number;
  description?: string;
  /** SystemDS writes the user name of the process, else "SystemDS". */
  author?: string;
  /** csv: default false and ",". */
  header?: boolean;
  sep?: string;
  /** SystemDS writes `yyyy-MM-dd HH:mm:ss z`; default: now, in UTC. */
  created?: string | Date;
  privacy?: PrivacyLevel;
}

export function formatMtd(input: MtdWriteInput): string {
  const entries: [string, string][] = [];
  const put = (key: string, json: string) => entries.push([key, json]);
  const count = (n: number | null | undefined) => String(n ?? -1);

  put("data_type", writeString(input.dataType));
  if (input.schema) put("schema", writeString(input.schema.map((t) => `${t},`).join("")));
  else put("value_type", writeString(input.valueType ?? "double"));
  if (input.dataType !== "scalar") {
    put("rows", count(input.rows));
    put("cols", count(input.cols));
    if (input.dataType === "matrix") {
      if (input.format === "binary" || input.format === "compressed") {
        put("rows_in_block", String(input.blocksize ?? 1000));
        put("cols_in_block", String(input.blocksize ?? 1000));
      }
      put("nnz", count(input.nnz));
    }
  }
  put("format", writeString(input.format));
  if (input.description) put("description", writeString(escapeJson(input.description)));
  put("author", writeString(input.author ?? "SystemDS"));
  if (input.format === "csv") {
    put("header", String(input.header ?? false));
    put("sep", writeString(input.sep ?? ","));
  }
  put("created", writeString(typeof input.created === "string" ? input.created : formatCreated(input.created ?? new Date())));
  if (input.privacy) put("privacy", writeString(input.privacy));

  return `{\n${entries.map(([key, json]) => `    ${writeString(key)}: ${json}`).join(",\n")}\n}`;
}

/** `SimpleDateFormat("yyyy-MM-dd HH:mm:ss z")` of a date, in UTC. */
export function formatCreated(date: Date): string {
  const two = (n: number) => String(n).padStart(2, "0");
  const day = `${date.getUTCFullYear()}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())}`;
  return `${day} ${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())} UTC`;
}

/** JSON4J's `Serializer.writeString`. */
function writeString(value: string): string {
  let out = '"';
  for (const c of value) {
    const code = c.charCodeAt(0);
    if (c.length > 1) {
      // A surrogate pair: JSON4J writes each UTF-16 unit.
      for (let i = 0; i < c.length; i++) out += `\\u${c.charCodeAt(i).toString(16).padStart(4, "0")}`;
      continue;
    }
    switch (c) {
      case '"':
        out += '\\"';
        break;
      case "\\":
        out += "\\\\";
        break;
      case "\0":
        out += "\\0";
        break;
      case "\b":
        out += "\\b";
        break;
      case "\t":
        out += "\\t";
        break;
      case "\n":
        out += "\\n";
        break;
      case "\f":
        out += "\\f";
        break;
      case "\r":
        out += "\\r";
        break;
      case "/":
        out += "\\/";
        break;
      default:
        out += code >= 32 && code <= 126 ? c : `\\u${code.toString(16).padStart(4, "0")}`;
    }
  }
  return `${out}"`;
}

/** commons-text `StringEscapeUtils.escapeJson`: quotes, backslash, slash, control and non-ASCII characters. */
function escapeJson(value: string): string {
  const named: Record<string, string> = { '"': '\\"', "\\": "\\\\", "/": "\\/", "\b": "\\b", "\n": "\\n", "\t": "\\t", "\f": "\\f", "\r": "\\r" };
  let out = "";
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    const code = value.charCodeAt(i);
    if (named[c] !== undefined) out += named[c];
    else if (code < 32 || code > 0x7e) out += `\\u${code.toString(16).toUpperCase().padStart(4, "0")}`;
    else out += c;
  }
  return out;
}
