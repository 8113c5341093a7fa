/**
 * Reads the data file of a DML `read(path, ...)`: finds the file (next to
 * the script, then in the workspace root, as the analysis does), reads its
 * `.mtd` sidecar through the metadata stage, merges it with the read()
 * arguments, chooses the format (argument, sidecar, a `%%MatrixMarket`
 * first line, a `.csv` name, else SystemDS's default text) and parses.
 *
 * The result is a value or an error: a missing file names every path
 * tried, a bad sidecar its line and column, bad data its line (and column),
 * and data that contradicts the declared dims is refused rather than cut.
 *
 * Before anything is read whole, the reader refuses, with the reason: a
 * folder (SystemDS's folders of part files), a FIFO, device or socket
 * (never opened), a file too large to hold as text, and sizes that the
 * `.mtd`, the read() arguments or a Matrix Market size line claim when the
 * matrix they describe would not fit the memory the caller allows.
 *
 * `checkDataFile` runs the same steps for `dml check` without keeping the
 * value, and stops after the up-front checks for a file larger than its
 * parse limit (so checking a GB file reads its header, not its data).
 */
import path from "node:path";
import { type FileFormatName, type MetadataDiagnostic, type MtdMetadata, readMatrixMarketHeader, readMtd, resolveDataPath, looksLikeMatrixMarket } from "../../metadata";
import { type FileSystem, fileKind, fileSize, MAX_TEXT_FILE_BYTES, nodeFileSystem, readFileHead } from "../../files";
import { chooseFormat } from "../matrix";
import { parseCsvFrame } from "./csv-frame-reader";
import { parseCsvMatrix } from "./csv-matrix-reader";
import { catchDataFileError, DataFileError, type DataFileWarning, type DataReadResult } from "./data-file-error";
import { type FrameColumnType, type FrameData, parseFrameSchema } from "./frame-data";
import { parseLibsvm } from "./libsvm-reader";
import { matrixDataNnz, type MatrixData } from "./matrix-data";
import { parseMatrixMarket } from "./matrix-market-reader";
import { dimsSource, mergeReadParameters, type MergedReadParameters, type ReadParameters } from "./read-parameters";
import { parseScalarText } from "./scalar-text";
import type { DataValue } from "./data-value";
import { parseTextCell } from "./text-cell-reader";

export interface LoadedData {
  value: DataValue;
  /** The absolute path of the file read. */
  path: string;
  format: FileFormatName;
  /** The read() arguments merged with the sidecar. */
  parameters: MergedReadParameters;
  mtd?: MtdMetadata;
}

export interface ReadFileOptions {
  /** Default: the local disk. */
  fs?: FileSystem;
  /** A relative path is looked up next to this script first (default: the working directory). */
  scriptPath?: string;
  /** ... then in this folder. */
  workspaceRoot?: string;
  /** The read() arguments. */
  params?: ReadParameters;
  /**
   * Why `bytes` more bytes cannot be held (the runtime's memory budget), or
   * undefined when they can; without it only what one string or typed array holds limits a read.
   */
  memoryRefusal?: (bytes: number) => string | undefined;
}

export interface CheckFileOptions extends ReadFileOptions {
  /** Files up to this many bytes are parsed whole; larger ones get the up-front checks only. */
  parseLimitBytes: number;
}

/** The error `readDataFile` would give for this file (undefined: none found), reading whole only files up to `parseLimitBytes`. */
export function checkDataFile(pathText: string, options: CheckFileOptions): DataFileError | undefined {
  const result = catchDataFileError(() => {
    const warnings: DataFileWarning[] = [];
    const prepared = prepare(pathText, options, warnings);
    if (prepared.size === undefined || prepared.size <= options.parseLimitBytes) finishLoad(prepared, options, warnings);
    return { value: undefined, warnings };
  });
  return result.ok ? undefined : result.error;
}

export function readDataFile(pathText: string, options: ReadFileOptions = {}): DataReadResult<LoadedData> {
  return catchDataFileError(() => {
    const warnings: DataFileWarning[] = [];
    return { value: loadData(pathText, options, warnings), warnings };
  });
}

/** readDataFile for a matrix: a sidecar or argument naming another data type is an error. */
export function readMatrixFile(pathText: string, options: ReadFileOptions = {}): DataReadResult<LoadedData & { value: { kind: "matrix"; data: MatrixData } }> {
  return readKind(pathText, options, "matrix");
}

/** readDataFile for a frame (data_type="frame" is implied). */
export function readFrameFile(pathText: string, options: ReadFileOptions = {}): DataReadResult<LoadedData & { value: { kind: "frame"; frame: FrameData } }> {
  return readKind(pathText, { ...options, params: { dataType: "frame", ...options.params } }, "frame");
}

function readKind<K extends DataValue["kind"]>(pathText: string, options: ReadFileOptions, kind: K): DataReadResult<LoadedData & { value: Extract<DataValue, { kind: K }> }> {
  const result = readDataFile(pathText, options);
  if (!result.ok) return result;
  const loaded = result.value;
  if (loaded.value.kind !== kind) {
    const error = new DataFileError(`expected a ${kind}, but the data is a ${loaded.value.kind}`, { file: pathText, code: "mismatch" });
    return { ok: false, error };
  }
  return { ok: true, value: loaded as LoadedData & { value: Extract<DataValue, { kind: K }> }, warnings: result.warnings };
}

function loadData(pathText: string, options: ReadFileOptions, warnings: DataFileWarning[]): LoadedData {
  return finishLoad(prepare(pathText, options, warnings), options, warnings);
}

/** What is known about a data file before its data is read. */
interface PreparedRead {
  fs: FileSystem;
  /** The path as the script gives it (named in messages). */
  file: string;
  mtdFile: string;
  dataPath: string;
  /** Bytes of the data file (undefined when the file system cannot tell). */
  size: number | undefined;
  parameters: MergedReadParameters;
  format: FileFormatName;
  mtd?: MtdMetadata;
}

/** Finds the file, reads its .mtd and refuses what cannot be read before any data is: not a regular file, too large, claimed sizes beyond the memory allowed. */
function prepare(pathText: string, options: ReadFileOptions, warnings: DataFileWarning[]): PreparedRead {
  const fs = options.fs ?? nodeFileSystem;
  const file = pathText;
  const mtdFile = `${pathText}.mtd`;
  const dataPath = locate(pathText, options, fs);

  const kind = fileKind(fs, dataPath);
  if (kind === "folder") throw new DataFileError("is a folder: SystemDS's folders of part files cannot be read here", { file, code: "unsupported" });
  if (kind === "other") throw new DataFileError("is not a regular file (a FIFO, device or socket): it is not read", { file, code: "unsupported" });
  const sidecar = readMtd(fs, dataPath);
  throwMtdError(sidecar.diagnostics, mtdFile);
  for (const diagnostic of sidecar.diagnostics) warnings.push({ file: mtdFile, line: diagnostic.range.start.line + 1, message: diagnostic.message });
  const parameters = mergeReadParameters(options.params ?? {}, sidecar.metadata, mtdFile);
  const size = fileSize(fs, dataPath);
  if (size !== undefined) {
    if (size > MAX_TEXT_FILE_BYTES) {
      throw new DataFileError(`the file is ${mib(size)}: files are read whole as text here, at most ${mib(MAX_TEXT_FILE_BYTES)}`, { file, code: "too-large" });
    }
    const refusal = options.memoryRefusal?.(size);
    if (refusal) throw new DataFileError(`reading the file's ${mib(size)} of text ${refusal}`, { file, code: "too-large" });
  }
  const format = chooseFileFormat(parameters, fs, dataPath, file, warnings);
  const prepared: PreparedRead = { fs, file, mtdFile, dataPath, size, parameters, format };
  if (sidecar.metadata) prepared.mtd = sidecar.metadata;
  checkClaimedSize(prepared, options, size ?? 0);
  return prepared;
}

/**
 * Refuses dims that the .mtd, the read() arguments or a Matrix Market size
 * line claim when the matrix would not fit: the message says who claims
 * what, where, and what holding it needs.
 */
function checkClaimedSize(p: PreparedRead, options: ReadFileOptions, textBytes: number): void {
  if ((p.parameters.dataType ?? "matrix") !== "matrix") return;
  let claim: { rows: number; cols: number; nnz: number | undefined; file: string; line?: number; who: string } | undefined;
  if (p.format === "mm") {
    const header = readMatrixMarketHeader(p.fs, p.dataPath).header;
    if (header) {
      const nnz = header.format === "coordinate" ? header.entries * (header.symmetry === "general" ? 1 : 2) : undefined;
      claim = { rows: header.rows, cols: header.cols, nnz, file: p.file, line: header.sizeLine + 1, who: "the size line" };
    }
  } else if (p.parameters.rows !== undefined && p.parameters.cols !== undefined) {
    const fromMtd = p.parameters.sources.rows === "mtd" || p.parameters.sources.cols === "mtd";
    claim = { rows: p.parameters.rows, cols: p.parameters.cols, nnz: p.parameters.nnz, file: fromMtd ? p.mtdFile : p.file, who: fromMtd ? "the .mtd" : "read()" };
  }
  if (!claim) return;
  const { rows, cols, nnz } = claim;
  const dense = rows * cols * 8;
  const sparse = nnz === undefined ? Infinity : 4 * (rows + 1) + 12 * nnz;
  const bytes = nnz !== undefined && chooseFormat(rows, cols, nnz) === "sparse" ? sparse : Math.min(dense, sparse);
  const what = `${claim.who} claims a ${rows} x ${cols} matrix${nnz !== undefined ? ` with ${nnz} non-zeros` : ""}`;
  const at = { file: claim.file, ...(claim.line !== undefined ? { line: claim.line } : {}), code: "too-large" as const };
  const refusal = options.memoryRefusal?.(bytes + textBytes);
  if (refusal) throw new DataFileError(`${what}: reading it ${refusal}`, at);
  if (!Number.isFinite(bytes) || bytes > MAX_MATRIX_BYTES) throw new DataFileError(`${what}: holding it needs ${mib(bytes)}, more than one matrix can take here (${mib(MAX_MATRIX_BYTES)})`, at);
}

/** The most bytes one matrix read from a file may take without a budget (2^31 − 1 doubles, as dense-buffer.ts). */
const MAX_MATRIX_BYTES = (2 ** 31 - 1) * 8;

function mib(bytes: number): string {
  if (!Number.isFinite(bytes)) return "an unbounded amount";
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MiB` : `${bytes} bytes`;
}

/** Reads the whole file and parses it as prepared. */
function finishLoad(p: PreparedRead, options: ReadFileOptions, warnings: DataFileWarning[]): LoadedData {
  const { fs, file, mtdFile, dataPath, parameters, format } = p;
  const text = fs.readFile(dataPath);
  if (text === undefined) throw new DataFileError("cannot be read", { file, code: "io" });
  // The text is held while the data is parsed: buffers the parser grows count beside it.
  const refusal = options.memoryRefusal;
  const memoryRefusal = refusal ? (bytes: number) => refusal(bytes + text.length) : undefined;
  const value = parse(text, format, parameters, file, mtdFile, warnings, memoryRefusal);
  if (value.kind === "matrix" && parameters.nnz !== undefined) {
    const nnz = matrixDataNnz(value.data);
    if (nnz !== parameters.nnz) warnings.push({ file: parameters.sources.nnz === "mtd" ? mtdFile : file, message: `nnz ${parameters.nnz} is declared, but the data has ${nnz} non-zeros` });
  }
  const loaded: LoadedData = { value, path: dataPath, format, parameters };
  if (p.mtd) loaded.mtd = p.mtd;
  return loaded;
}

/** The absolute path of the data file, or a not-found error naming every path tried. */
function locate(pathText: string, options: ReadFileOptions, fs: FileSystem): string {
  const scriptPath = options.scriptPath ?? path.join(process.cwd(), "script.dml");
  const context = options.workspaceRoot === undefined ? { scriptPath, fs } : { scriptPath, workspaceRoot: options.workspaceRoot, fs };
  const resolution = resolveDataPath(pathText, context);
  if (resolution.remote) throw new DataFileError("remote files (hdfs:, s3:, ...) cannot be read here", { file: pathText, code: "unsupported" });
  const found = resolution.candidates.find((c) => fs.exists(c));
  if (found !== undefined) return found;
  if (resolution.resolved !== undefined) {
    // SystemDS parses the .mtd before it looks for the data: a malformed one is the first error.
    throwMtdError(readMtd(fs, resolution.resolved).diagnostics, `${pathText}.mtd`);
    throw new DataFileError(`file not found: only its .mtd exists (${resolution.resolved}.mtd)`, { file: pathText, code: "not-found", candidates: resolution.candidates });
  }
  throw new DataFileError(`file not found (looked in ${resolution.candidates.join(", ")})`, { file: pathText, code: "not-found", candidates: resolution.candidates });
}

/** The first error of a .mtd as a DataFileError at its line and column. */
function throwMtdError(diagnostics: readonly MetadataDiagnostic[], mtdFile: string): void {
  const error = diagnostics.find((d) => d.severity === "error");
  if (!error) return;
  throw new DataFileError(error.message, { file: mtdFile, line: error.range.start.line + 1, column: error.range.start.character + 1, code: "metadata" });
}

function chooseFileFormat(parameters: MergedReadParameters, fs: FileSystem, dataPath: string, file: string, warnings: DataFileWarning[]): FileFormatName {
  if (parameters.format !== undefined) return parameters.format;
  const head = readFileHead(fs, dataPath, 64);
  if (head !== undefined && looksLikeMatrixMarket(head)) return "mm";
  if (/\.csv$/i.test(dataPath)) {
    warnings.push({ file, message: 'no format="csv" in read() or the .mtd: SystemDS would read this file as text (i j v); it is read as csv' });
    return "csv";
  }
  return "text";
}

function parse(
  text: string,
  format: FileFormatName,
  p: MergedReadParameters,
  file: string,
  mtdFile: string,
  warnings: DataFileWarning[],
  memoryRefusal: ((bytes: number) => string | undefined) | undefined,
): DataValue {
  const dataType = p.dataType ?? "matrix";
  const source = dimsSource(p, mtdFile);
  const dims = { ...(p.rows !== undefined ? { rows: p.rows } : {}), ...(p.cols !== undefined ? { cols: p.cols } : {}), dimsSource: source };
  if (dataType === "scalar") return { kind: "scalar", scalar: parseScalarText(text, p.valueType, file) };
  if (dataType === "frame") {
    if (format !== "csv") throw new DataFileError(`frames can be read from csv only, not ${format}`, { file, code: "unsupported" });
    return { kind: "frame", frame: parseCsvFrame(text, { file, ...csvOptions(p), ...schemaOption(p, mtdFile), ...dims }) };
  }
  if (dataType !== "matrix") throw new DataFileError(`a ${dataType} cannot be read from a file here`, { file: p.sources.dataType === "mtd" ? mtdFile : file, code: "unsupported" });
  switch (format) {
    case "csv":
      return { kind: "matrix", data: parseCsvMatrix(text, { file, ...csvOptions(p), ...dims, ...(memoryRefusal ? { memoryRefusal } : {}) }) };
    case "mm": {
      const { header, data } = parseMatrixMarket(text, { file, warnings });
      if ((p.rows !== undefined && p.rows !== header.rows) || (p.cols !== undefined && p.cols !== header.cols)) {
        const declared = `${p.rows ?? "?"} x ${p.cols ?? "?"}`;
        throw new DataFileError(`the size line says ${header.rows} x ${header.cols}, but ${source} declares ${declared}`, { file, line: header.sizeLine + 1, code: "mismatch" });
      }
      return { kind: "matrix", data };
    }
    case "text":
      if (p.rows === undefined || p.cols === undefined) {
        throw new DataFileError(`the text (i j v) format needs the dims: give rows and cols in ${mtdFile} or as read() arguments`, { file, code: "metadata" });
      }
      return { kind: "matrix", data: parseTextCell(text, { file, rows: p.rows, cols: p.cols }) };
    case "libsvm": {
      const options = { file, ...dims, ...(p.sep !== undefined ? { sep: p.sep } : {}), ...(p.indSep !== undefined ? { indSep: p.indSep } : {}) };
      return { kind: "matrix", data: parseLibsvm(text, options) };
    }
    default:
      throw new DataFileError(`the ${format} format cannot be read here (csv, mm, text and libsvm can)`, { file, code: "unsupported" });
  }
}

function csvOptions(p: MergedReadParameters): { header?: boolean; sep?: string; fill?: boolean; default?: number; naStrings?: readonly string[] } {
  const out: { header?: boolean; sep?: string; fill?: boolean; default?: number; naStrings?: readonly string[] } = {};
  if (p.header !== undefined) out.header = p.header;
  if (p.sep !== undefined) out.sep = p.sep;
  if (p.fill !== undefined) out.fill = p.fill;
  if (p.default !== undefined) out.default = p.default;
  if (p.naStrings !== undefined) out.naStrings = p.naStrings;
  return out;
}

function schemaOption(p: MergedReadParameters, mtdFile: string): { schema?: FrameColumnType[] } {
  if (p.schema === undefined) return {};
  const parsed = parseFrameSchema(p.schema);
  if ("unknown" in parsed) {
    const where = p.sources.schema === "mtd" ? mtdFile : "read()";
    throw new DataFileError(`unknown value type '${parsed.unknown}' in the schema (STRING, FP64, INT64 or BOOLEAN)`, { file: where, code: "metadata" });
  }
  return { schema: parsed.types };
}
