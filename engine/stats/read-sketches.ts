/**
 * The stats of what a `read` reads, with its sketches: from the data when it
 * is local, else from the metadata.
 *
 * From the data: a csv file (format "csv" by its `.mtd`, the `read` call or
 * the `.csv` fallback of the metadata stage) that exists and is no larger
 * than the scan limit is loaded with structure-csv.ts (`header` and `sep` of
 * its `.mtd`); its MNC sketch and chain-bound statistics are built from that
 * structure. The data is used only when it is what the metadata describe:
 * same rows, cols and nnz (so a `@size` "what if" or a different fill value
 * falls back to the metadata). Other formats (Matrix Market, text, binary)
 * are sized from their metadata only, for now.
 *
 * From the metadata: chain-bound statistics from rows, cols and nnz (or the
 * upper bound of a symmetric Matrix Market file); no MNC sketch, since one
 * from metadata has no structure (sketch-sizes.ts).
 *
 * Loaded files are cached per path, modification time and size for the
 * loader's lifetime: one analysis call.
 */
import { chainBoundEstimator, mncEstimator } from "./estimators";
import { DEFAULT_SCAN_LIMIT_BYTES, type ReadMetadata } from "../metadata";
import { type FileSystem, fileSize } from "../files";
import { matrixStats, type NodeSketch, type NodeStats } from "./sizes/node-stats";
import { MAX_SKETCH_LENGTH } from "./sizes/sketch-sizes";
import { structureNnz } from "./structure";
import { csvTextToStructure } from "./structure-csv";

interface Loaded {
  rows: number;
  cols: number;
  nnz: number;
  sketch: NodeSketch;
}

/** The stats of one read matrix, given its resolved metadata. */
export type ReadStats = (metadata: ReadMetadata) => NodeStats;

export function readStatsLoader(fs: FileSystem, scanLimitBytes: number = DEFAULT_SCAN_LIMIT_BYTES, withMnc = true): ReadStats {
  const cache = new Map<string, Loaded | undefined>();
  const load = (metadata: ReadMetadata): Loaded | undefined => {
    const file = metadata.path;
    if (file === undefined || metadata.format !== "csv" || !fs.exists(file)) return undefined;
    const size = fileSize(fs, file);
    if (size === undefined || size > scanLimitBytes) return undefined;
    const header = metadata.mtd?.header ?? false;
    const sep = metadata.mtd?.sep ?? ",";
    const key = JSON.stringify([file, fs.mtime?.(file) ?? null, size, header, sep]);
    if (!cache.has(key)) cache.set(key, loadCsv(fs, file, header, sep, withMnc));
    return cache.get(key);
  };
  return (metadata) => {
    const { rows, cols, nnz } = metadata;
    const stats = matrixStats(rows, cols, nnz, nnz !== null);
    const data = load(metadata);
    if (data && data.rows === rows && data.cols === cols && data.nnz === nnz) {
      return { ...stats, nnzUpperBound: data.nnz, sketch: data.sketch };
    }
    if (nnz === null && metadata.nnzUpperBound !== undefined) stats.nnzUpperBound = metadata.nnzUpperBound;
    return stats;
  };
}

function loadCsv(fs: FileSystem, file: string, header: boolean, sep: string, withMnc: boolean): Loaded | undefined {
  const text = fs.readFile(file);
  if (text === undefined) return undefined;
  const result = csvTextToStructure(text, { rows: null, cols: null, nnz: null, header, sep }, file);
  if (!result.ok) return undefined; // the metadata stage reports what is wrong with the file
  const structure = result.structure;
  const small = withMnc && structure.rows + structure.cols <= MAX_SKETCH_LENGTH;
  const sketch: NodeSketch = {
    ...(small ? { mnc: mncEstimator.fromData(structure) } : {}),
    chain: chainBoundEstimator.fromData(structure),
    pattern: { root: {}, relation: "equal" },
  };
  return { rows: structure.rows, cols: structure.cols, nnz: structureNnz(structure), sketch };
}
