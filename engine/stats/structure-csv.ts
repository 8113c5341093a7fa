/**
 * Reads the non-zero structure of a numeric csv matrix (SystemDS `format:
 * "csv"`), with the sizes, `header` and `sep` of its `.mtd` sidecar when there
 * is one. Empty fields are SystemDS's default fill value 0. Problems with the
 * file are returned as messages, never thrown.
 */
import { existsSync, readFileSync } from "node:fs";
import { parse } from "csv-parse/sync";
import { structureFromDense, type SparsityStructure } from "./structure";

export type CsvStructureResult =
  | { ok: true; structure: SparsityStructure; /** nnz the sidecar declares, if any. */ declaredNnz: number | null }
  | { ok: false; message: string };

export interface CsvSidecar {
  rows: number | null;
  cols: number | null;
  nnz: number | null;
  header: boolean;
  sep: string;
}

export function readCsvStructure(csvPath: string): CsvStructureResult {
  let sidecar: CsvSidecar;
  let text: string;
  try {
    sidecar = readSidecar(`${csvPath}.mtd`);
    text = readFileSync(csvPath, "utf8");
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  return csvTextToStructure(text, sidecar, csvPath);
}

/** Parses csv text with the given sidecar settings; `where` names the source in messages. */
export function csvTextToStructure(text: string, sidecar: CsvSidecar, where = "csv"): CsvStructureResult {
  let records: string[][];
  try {
    records = parse(text, {
      delimiter: sidecar.sep,
      from_line: sidecar.header ? 2 : 1,
      skip_empty_lines: true,
      trim: true,
    }) as string[][];
  } catch (error) {
    return { ok: false, message: `${where}: ${error instanceof Error ? error.message : String(error)}` };
  }
  const rows = records.length;
  const cols = rows === 0 ? (sidecar.cols ?? 0) : records[0]!.length;
  if (sidecar.rows !== null && sidecar.rows !== rows) {
    return { ok: false, message: `${where}: ${rows} rows, but the .mtd says ${sidecar.rows}` };
  }
  if (sidecar.cols !== null && sidecar.cols !== cols) {
    return { ok: false, message: `${where}: ${cols} columns, but the .mtd says ${sidecar.cols}` };
  }
  const values = new Float64Array(rows * cols);
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      const field = records[i]![j]!;
      const value = field === "" ? 0 : Number(field);
      if (Number.isNaN(value) && !/^nan$/i.test(field)) {
        return { ok: false, message: `${where}:${i + 1 + (sidecar.header ? 1 : 0)}: '${field}' in column ${j + 1} is not a number` };
      }
      values[i * cols + j] = value;
    }
  }
  return { ok: true, structure: structureFromDense(rows, cols, values), declaredNnz: sidecar.nnz };
}

function readSidecar(mtdPath: string): CsvSidecar {
  const sidecar: CsvSidecar = { rows: null, cols: null, nnz: null, header: false, sep: "," };
  if (!existsSync(mtdPath)) return sidecar;
  const json: unknown = JSON.parse(readFileSync(mtdPath, "utf8"));
  if (typeof json !== "object" || json === null) throw new Error(`${mtdPath}: not a JSON object`);
  const fields = json as Record<string, unknown>;
  const count = (key: string): number | null => {
    const v = fields[key];
    if (v === undefined) return null;
    if (typeof v !== "number" || !Number.isInteger(v) || v < 0) throw new Error(`${mtdPath}: '${key}' is not a count`);
    return v;
  };
  sidecar.rows = count("rows");
  sidecar.cols = count("cols");
  sidecar.nnz = count("nnz");
  if (typeof fields.header === "boolean") sidecar.header = fields.header;
  if (typeof fields.sep === "string" && fields.sep.length > 0) sidecar.sep = fields.sep;
  return sidecar;
}
