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
 */
import path from "node:path";
import {
  type FileFormatName,
  type FileSystem,
  type MtdMetadata,
  nodeFileSystem,
  readFileHead,
  readMtd,
  resolveDataPath,
  looksLikeMatrixMarket,
} from "../../stats/metadata";
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
  const fs = options.fs ?? nodeFileSystem;
  const file = pathText;
  const mtdFile = `${pathText}.mtd`;
  const dataPath = locate(pathText, options, fs);

  const sidecar = readMtd(fs, dataPath);
  for (const diagnostic of sidecar.diagnostics) {
    const at = { line: diagnostic.range.start.line + 1, column: diagnostic.range.start.character + 1 };
    if (diagnostic.severity === "error") throw new DataFileError(diagnostic.message, { file: mtdFile, ...at, code: "metadata" });
    warnings.push({ file: mtdFile, line: at.line, message: diagnostic.message });
  }
  const parameters = mergeReadParameters(options.params ?? {}, sidecar.metadata, mtdFile);
  const text = fs.readFile(dataPath);
  if (text === undefined) {
    throw new DataFileError("cannot be read (a folder of part files is not supported)", { file, code: "io" });
  }
  const format = chooseFormat(parameters, fs, dataPath, file, warnings);
  const value = parse(text, format, parameters, file, mtdFile, warnings);
  if (value.kind === "matrix" && parameters.nnz !== undefined) {
    const nnz = matrixDataNnz(value.data);
    if (nnz !== parameters.nnz) warnings.push({ file: parameters.sources.nnz === "mtd" ? mtdFile : file, message: `nnz ${parameters.nnz} is declared, but the data has ${nnz} non-zeros` });
  }
  const loaded: LoadedData = { value, path: dataPath, format, parameters };
  if (sidecar.metadata) loaded.mtd = sidecar.metadata;
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
    throw new DataFileError(`file not found: only its .mtd exists (${resolution.resolved}.mtd)`, { file: pathText, code: "not-found", candidates: resolution.candidates });
  }
  throw new DataFileError(`file not found (looked in ${resolution.candidates.join(", ")})`, { file: pathText, code: "not-found", candidates: resolution.candidates });
}

function chooseFormat(parameters: MergedReadParameters, fs: FileSystem, dataPath: string, file: string, warnings: DataFileWarning[]): FileFormatName {
  if (parameters.format !== undefined) return parameters.format;
  const head = readFileHead(fs, dataPath, 64);
  if (head !== undefined && looksLikeMatrixMarket(head)) return "mm";
  if (/\.csv$/i.test(dataPath)) {
    warnings.push({ file, message: 'no format="csv" in read() or the .mtd: SystemDS would read this file as text (i j v); it is read as csv' });
    return "csv";
  }
  return "text";
}

function parse(text: string, format: FileFormatName, p: MergedReadParameters, file: string, mtdFile: string, warnings: DataFileWarning[]): DataValue {
  const dataType = p.dataType ?? "matrix";
  const source = dimsSource(p, mtdFile);
  const dims = { ...(p.rows !== undefined ? { rows: p.rows } : {}), ...(p.cols !== undefined ? { cols: p.cols } : {}), dimsSource: source };
  if (dataType === "scalar") return { kind: "scalar", scalar: parseScalarText(text, p.valueType, file) };
  if (dataType === "frame") {
    if (format !== "csv") throw new DataFileError(`frames can be read from csv only, not ${format}`, { file, code: "unsupported" });
    return { kind: "frame", frame: parseCsvFrame(text, { file, ...csvOptions(p), ...schemaOption(p, mtdFile), ...dims }) };
  }
  if (dataType !== "matrix") throw new DataFileError(`a ${dataType} cannot be read from a file here`, { file, code: "unsupported" });
  switch (format) {
    case "csv":
      return { kind: "matrix", data: parseCsvMatrix(text, { file, ...csvOptions(p), ...dims }) };
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
