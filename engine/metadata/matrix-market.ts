/**
 * The header of a Matrix Market file: the banner line
 * `%%MatrixMarket matrix coordinate|array real|integer|pattern|complex general|symmetric|skew-symmetric|hermitian`,
 * comment lines starting with `%`, then the size line (`rows cols entries`
 * for coordinate, `rows cols` for array). Only the first kilobytes of the
 * file are read, so this is cheap for files of any size.
 *
 * Non-zeros from the header alone:
 * - coordinate general: `nnz` = entries (explicit zero entries, rare, would make the true count lower; SystemDS takes the header's count as well);
 * - coordinate skew-symmetric: `nnz` = 2 · entries (the diagonal is zero by definition);
 * - coordinate symmetric or hermitian: the mirrored entries double the count except on the diagonal,
 *   so the header gives only bounds: `nnz` is null, `nnzLowerBound` = entries, `nnzUpperBound` = min(2 · entries, rows · cols).
 *   (SystemDS's compiler uses 2 · entries.) The exact count needs the data: see `scanMatrixMarketNnz`;
 * - array: every cell is written, zeros included: `nnz` is null, `nnzUpperBound` = rows · cols.
 *
 * SystemDS's `read()` accepts only `coordinate`, `real|integer|pattern` and
 * `general|symmetric`, spelled in lower case: other headers get a warning
 * (the file is valid Matrix Market, SystemDS cannot read it).
 */
import type { Range, Severity } from "../syntax";
import { type MetadataDiagnostic, fileStartRange, lineRange, metadataDiagnostic } from "./diagnostics";
import { type FileSystem, readFileHead } from "../files";

export type MatrixMarketFormat = "coordinate" | "array";
export type MatrixMarketField = "real" | "integer" | "pattern" | "complex";
export type MatrixMarketSymmetry = "general" | "symmetric" | "skew-symmetric" | "hermitian";

export interface MatrixMarketHeader {
  format: MatrixMarketFormat;
  field: MatrixMarketField;
  symmetry: MatrixMarketSymmetry;
  rows: number;
  cols: number;
  /** Entries listed in the file: the size line's third number (coordinate), or the stored values (array). */
  entries: number;
  /** Non-zeros of the full matrix when the header determines them, else null (see the bounds). */
  nnz: number | null;
  nnzLowerBound: number;
  nnzUpperBound: number;
  /** Why `nnz` is null or approximate, for hovers and explain output. */
  nnzNote?: string;
  /** 0-based line of the size line; the data starts on the next line. */
  sizeLine: number;
}

export interface MatrixMarketHeaderResult {
  /** Absent (or undefined) when the header is missing or broken: the diagnostics say why. */
  header?: MatrixMarketHeader | undefined;
  diagnostics: MetadataDiagnostic[];
}

const FORMATS: readonly MatrixMarketFormat[] = ["coordinate", "array"];
const FIELDS: readonly MatrixMarketField[] = ["real", "integer", "pattern", "complex"];
const SYMMETRIES: readonly MatrixMarketSymmetry[] = ["general", "symmetric", "skew-symmetric", "hermitian"];

/** Whether the text starts like a Matrix Market file (SystemDS's test: the first line starts with "%%"). */
export function looksLikeMatrixMarket(head: string): boolean {
  return head.replace(/^\uFEFF/, "").startsWith("%%");
}

/**
 * Reads the header of the Matrix Market file at `path`, reading only as much
 * of the file as the header needs (4 KB first, more when comments are long).
 */
export function readMatrixMarketHeader(fs: FileSystem, path: string): MatrixMarketHeaderResult {
  for (const bytes of [4096, 65536, 1 << 20]) {
    const head = readFileHead(fs, path, bytes);
    if (head === undefined) {
      return { diagnostics: [metadataDiagnostic(path, "error", "the Matrix Market file cannot be read", fileStartRange, "mm-unreadable")] };
    }
    const complete = head.length < bytes;
    const result = parseMatrixMarketHeader(head, path, complete);
    if (result.header || complete || !result.incomplete) return { header: result.header, diagnostics: result.diagnostics };
  }
  const message = "no size line in the first megabyte of this Matrix Market file";
  return { diagnostics: [metadataDiagnostic(path, "error", message, fileStartRange, "mm-header")] };
}

/**
 * Parses a Matrix Market header from the start of a file. `complete` says
 * whether `head` is the whole file; when it is not and the size line is not
 * in it, `incomplete` is set so the caller can read more.
 */
export function parseMatrixMarketHeader(head: string, file: string, complete = true): MatrixMarketHeaderResult & { incomplete?: boolean } {
  const diagnostics: MetadataDiagnostic[] = [];
  const report = (severity: Severity, message: string, range: Range, code = "mm-header") =>
    diagnostics.push(metadataDiagnostic(file, severity, message, range, code));
  const text = head.replace(/^\uFEFF/, "");
  const lines = text.split("\n");
  if (!complete) lines.pop(); // the last line may be cut

  if (lines.length === 0) return { diagnostics, incomplete: true };
  const banner = lines[0]!.replace(/\r$/, "");
  if (!banner.startsWith("%%")) {
    report("error", "a Matrix Market file starts with a line '%%MatrixMarket matrix <format> <field> <symmetry>'", lineRange(0, 0, banner.length));
    return { diagnostics };
  }
  const kind = parseBanner(banner, report);
  if (!kind) return { diagnostics };

  let sizeLine = 1;
  while (sizeLine < lines.length) {
    const line = lines[sizeLine]!.replace(/\r$/, "");
    if (line.startsWith("%")) {
      sizeLine++;
      continue;
    }
    if (line.trim() === "") {
      if (lines.slice(sizeLine).every((l) => l.trim() === "")) {
        sizeLine = lines.length;
        break;
      }
      report("warning", "an empty line before the size line (SystemDS's reader fails on it)", lineRange(sizeLine, 0, 0));
      sizeLine++;
      continue;
    }
    break;
  }
  if (sizeLine >= lines.length) {
    if (!complete) return { diagnostics, incomplete: true };
    report("error", "the Matrix Market header has no size line", lineRange(Math.max(lines.length - 1, 0), 0, 0));
    return { diagnostics };
  }
  const sizeText = lines[sizeLine]!.replace(/\r$/, "");
  const sizes = parseSizeLine(sizeText, sizeLine, kind.format, report);
  if (!sizes) return { diagnostics };
  const [rows, cols, listed] = sizes;
  if (kind.symmetry !== "general" && rows !== cols) {
    report("error", `a ${kind.symmetry} matrix must be square, but the size line says ${rows} x ${cols}`, lineRange(sizeLine, 0, sizeText.length));
    return { diagnostics };
  }
  return { header: { ...kind, rows, cols, sizeLine, ...nonZeros(kind.format, kind.symmetry, rows, cols, listed) }, diagnostics };
}

function parseBanner(
  banner: string,
  report: (severity: Severity, message: string, range: Range, code?: string) => void,
): { format: MatrixMarketFormat; field: MatrixMarketField; symmetry: MatrixMarketSymmetry } | undefined {
  const tokens: { text: string; start: number }[] = [];
  for (const m of banner.matchAll(/\S+/g)) tokens.push({ text: m[0], start: m.index });
  const at = (i: number) => lineRange(0, tokens[i]!.start, tokens[i]!.text.length);
  const whole = lineRange(0, 0, banner.length);
  if (tokens[0]!.text.toLowerCase() !== "%%matrixmarket") {
    report("error", `expected '%%MatrixMarket' at the start of the banner, found '${tokens[0]!.text}'`, at(0));
    return undefined;
  }
  if (tokens.length !== 5) {
    report("error", `the banner needs 5 words: %%MatrixMarket matrix <format> <field> <symmetry> (found ${tokens.length})`, whole);
    return undefined;
  }
  if (tokens[1]!.text.toLowerCase() !== "matrix") {
    report("error", `only 'matrix' objects hold a matrix, found '${tokens[1]!.text}'`, at(1));
    return undefined;
  }
  const pick = <T extends string>(i: number, options: readonly T[], what: string): T | undefined => {
    const found = options.find((o) => o === tokens[i]!.text.toLowerCase());
    if (!found) report("error", `unknown Matrix Market ${what} '${tokens[i]!.text}' (expected ${options.join(" | ")})`, at(i));
    return found;
  };
  const format = pick(2, FORMATS, "format");
  const field = pick(3, FIELDS, "field");
  const symmetry = pick(4, SYMMETRIES, "symmetry");
  if (!format || !field || !symmetry) return undefined;
  if (field === "pattern" && (format === "array" || symmetry === "skew-symmetric" || symmetry === "hermitian")) {
    report("error", `'pattern' cannot be combined with '${format === "array" ? format : symmetry}'`, at(3));
    return undefined;
  }
  if (symmetry === "hermitian" && field !== "complex") {
    report("error", "'hermitian' needs the 'complex' field", at(4));
    return undefined;
  }
  // What SystemDS's FileFormatPropertiesMM.parse rejects, though it is valid Matrix Market.
  if (banner.includes("\t")) {
    report("warning", "SystemDS splits the banner at spaces only: use spaces, not tabs, between words", whole, "mm-systemds");
  }
  const lowerCase = tokens.slice(1).every((t) => t.text === t.text.toLowerCase()) && tokens[0]!.text === "%%MatrixMarket";
  if (!lowerCase) report("warning", "SystemDS accepts the banner only as '%%MatrixMarket' followed by lower-case words", whole, "mm-systemds");
  if (format === "array") report("warning", "SystemDS's read() supports only 'coordinate' Matrix Market files, not 'array'", at(2), "mm-systemds");
  if (field === "complex") report("warning", "SystemDS cannot read complex Matrix Market files; sizes are given for the matrix of complex values", at(3), "mm-systemds");
  if (symmetry === "skew-symmetric" || symmetry === "hermitian") {
    report("warning", `SystemDS's read() supports only 'general' and 'symmetric', not '${symmetry}'`, at(4), "mm-systemds");
  }
  return { format, field, symmetry };
}

function parseSizeLine(
  text: string,
  line: number,
  format: MatrixMarketFormat,
  report: (severity: Severity, message: string, range: Range, code?: string) => void,
): [number, number, number | undefined] | undefined {
  const tokens: { text: string; start: number }[] = [];
  for (const m of text.matchAll(/\S+/g)) tokens.push({ text: m[0], start: m.index });
  const expected = format === "coordinate" ? 3 : 2;
  const names = format === "coordinate" ? "rows cols entries" : "rows cols";
  if (tokens.length !== expected) {
    report("error", `the size line of a ${format} Matrix Market file is '${names}' (found ${tokens.length} number${tokens.length === 1 ? "" : "s"})`, lineRange(line, 0, text.length));
    return undefined;
  }
  const values: number[] = [];
  for (const token of tokens) {
    if (!/^\d+$/.test(token.text) || !Number.isSafeInteger(Number(token.text))) {
      report("error", `'${token.text}' in the size line is not a non-negative integer`, lineRange(line, token.start, token.text.length));
      return undefined;
    }
    values.push(Number(token.text));
  }
  return [values[0]!, values[1]!, values[2]];
}

function nonZeros(
  format: MatrixMarketFormat,
  symmetry: MatrixMarketSymmetry,
  rows: number,
  cols: number,
  listed: number | undefined,
): Pick<MatrixMarketHeader, "entries" | "nnz" | "nnzLowerBound" | "nnzUpperBound" | "nnzNote"> {
  const cells = rows * cols;
  if (format === "array") {
    const stored = symmetry === "general" ? cells : symmetry === "skew-symmetric" ? (rows * (rows - 1)) / 2 : (rows * (rows + 1)) / 2;
    return { entries: stored, nnz: null, nnzLowerBound: 0, nnzUpperBound: cells, nnzNote: "an array file writes every cell, zeros included: the non-zeros need a scan of the data" };
  }
  const entries = listed ?? 0;
  switch (symmetry) {
    case "general":
      return { entries, nnz: entries, nnzLowerBound: 0, nnzUpperBound: entries };
    case "skew-symmetric":
      return { entries, nnz: 2 * entries, nnzLowerBound: 0, nnzUpperBound: 2 * entries };
    default:
      return {
        entries,
        nnz: null,
        nnzLowerBound: entries,
        nnzUpperBound: Math.min(2 * entries, cells),
        nnzNote: `a ${symmetry} file lists one triangle: the matrix has 2·entries − (diagonal entries) non-zeros, at most ${Math.min(2 * entries, cells)}; the exact count needs a scan of the data`,
      };
  }
}
