/**
 * Writes a DML `write(X, path, format=..., ...)`: the data file in the
 * chosen format and its `.mtd` sidecar through the metadata stage's writer
 * (SystemDS's keys, order and layout). SystemDS's default format is text.
 * A relative path is taken from the script's folder (or the working
 * directory).
 */
import path from "node:path";
import { type FileFormatName, formatMtd, type MtdWriteInput } from "../../metadata";
import { csvFrameChunks } from "./csv-frame-writer";
import { csvMatrixChunks } from "./csv-matrix-writer";
import { DataFileError } from "./data-file-error";
import type { DataValue } from "./data-value";
import { nodeDataSink, type DataSink } from "./data-sink";
import { schemaName } from "./frame-data";
import { libsvmChunks } from "./libsvm-writer";
import { matrixDataNnz } from "./matrix-data";
import { type MatrixMarketLayout, matrixMarketChunks } from "./matrix-market-writer";
import { formatScalarText } from "./scalar-text";
import { textCellChunks } from "./text-cell-writer";

export interface WriteFileOptions {
  /** Default "text" (SystemDS's default); scalars are always text. */
  format?: FileFormatName;
  /** csv */
  header?: boolean;
  sep?: string;
  /** csv: zeros as empty fields. */
  sparse?: boolean;
  /** libsvm */
  indSep?: string;
  /** mm: coordinate or array (default by the data's form). */
  layout?: MatrixMarketLayout;
  /** Written to the .mtd. */
  description?: string;
  /** The .mtd's "created" (default now). */
  created?: string | Date;
  sink?: DataSink;
  /** A relative path is resolved against this script's folder (default: the working directory). */
  scriptPath?: string;
}

export interface WrittenData {
  /** Absolute paths of the data file and its sidecar. */
  path: string;
  mtdPath: string;
}

/** Writes the data and its `.mtd`; a DataFileError when the format does not fit the data or the disk fails. */
export function writeDataFile(pathText: string, value: DataValue, options: WriteFileOptions = {}): WrittenData {
  const sink = options.sink ?? nodeDataSink;
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]+):\/\//.exec(pathText)?.[1];
  if (scheme !== undefined && scheme.toLowerCase() !== "file") {
    throw new DataFileError("remote files (hdfs:, s3:, ...) cannot be written here", { file: pathText, code: "unsupported" });
  }
  const base = options.scriptPath !== undefined ? path.dirname(options.scriptPath) : process.cwd();
  const target = path.resolve(base, pathText.replace(/^file:\/\//i, ""));
  const format = value.kind === "scalar" ? "text" : (options.format ?? "text");
  const fail = (detail: string, code: "unsupported" | "io" = "unsupported") => new DataFileError(detail, { file: pathText, code });
  const mtd: MtdWriteInput = { dataType: value.kind, format };
  if (options.description !== undefined) mtd.description = options.description;
  if (options.created !== undefined) mtd.created = options.created;
  let chunks: Iterable<string>;

  switch (value.kind) {
    case "scalar":
      chunks = [formatScalarText(value.scalar)];
      mtd.valueType = value.scalar.type;
      break;
    case "frame": {
      if (format !== "csv") throw fail(`frames can be written as csv only, not ${format}`);
      const frame = value.frame;
      chunks = csvFrameChunks(frame, csvOptions(options));
      mtd.schema = frame.columns.map((c) => schemaName(c.type));
      mtd.rows = frame.rows;
      mtd.cols = frame.cols;
      mtd.header = options.header ?? false;
      mtd.sep = options.sep ?? ",";
      break;
    }
    case "matrix": {
      const data = value.data;
      mtd.valueType = "double";
      mtd.rows = data.rows;
      mtd.cols = data.cols;
      mtd.nnz = matrixDataNnz(data);
      switch (format) {
        case "csv":
          if (data.cols === 0 && data.rows > 0) throw fail(`a ${data.rows} x 0 matrix cannot be written as csv`);
          chunks = csvMatrixChunks(data, { ...csvOptions(options), ...(options.sparse !== undefined ? { sparse: options.sparse } : {}) });
          mtd.header = options.header ?? false;
          mtd.sep = options.sep ?? ",";
          break;
        case "mm":
          chunks = matrixMarketChunks(data, options.layout !== undefined ? { layout: options.layout } : {});
          break;
        case "text":
          chunks = textCellChunks(data);
          break;
        case "libsvm":
          if (data.cols === 0) throw fail("a libsvm matrix needs at least 1 column (the label, in the last column)");
          chunks = libsvmChunks(data, { ...(options.sep !== undefined ? { sep: options.sep } : {}), ...(options.indSep !== undefined ? { indSep: options.indSep } : {}) });
          break;
        default:
          throw fail(`the ${format} format cannot be written here (csv, mm, text and libsvm can)`);
      }
      break;
    }
  }

  const mtdPath = `${target}.mtd`;
  try {
    sink.writeFile(target, chunks);
    sink.writeFile(mtdPath, [formatMtd(mtd)]);
  } catch (error) {
    if (error instanceof DataFileError) throw error;
    throw fail(`cannot be written: ${error instanceof Error ? error.message : String(error)}`, "io");
  }
  return { path: target, mtdPath };
}

function csvOptions(options: WriteFileOptions): { header?: boolean; sep?: string } {
  const out: { header?: boolean; sep?: string } = {};
  if (options.header !== undefined) out.header = options.header;
  if (options.sep !== undefined) out.sep = options.sep;
  return out;
}
