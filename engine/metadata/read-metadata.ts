/**
 * The dims, non-zeros and types of the data a `read(...)` call reads.
 *
 * Sources, highest precedence first; each of rows, cols and nnz comes from
 * the first source that gives it:
 * 1. an `@size` annotation on the statement (`annotation`),
 * 2. an entry of the workspace file's "inputs" (`workspace`),
 * 3. the call's constant arguments rows=, cols=, nnz= (`read-arguments`),
 * 4. the `.mtd` sidecar (`mtd`), or the Matrix Market header (`matrix-market`),
 * 5. a scan of the file when it is local and small (`file-scan`, see DEFAULT_SCAN_LIMIT_BYTES).
 * A non-zero count from the data (3 to 5) is used only when the final rows
 * and cols are the data's: after `# @size 1e6 x 5e5` on a 150 x 4 file, nnz
 * stays unknown (or comes from the declared sparsity). A declared sparsity
 * becomes nnz = round(sparsity · rows · cols) once rows and cols are known.
 *
 * As in SystemDS, a constant argument that contradicts the `.mtd` or the
 * Matrix Market header is an error; the argument still wins here.
 * Nothing is guessed: what no source gives stays null.
 */
import type { CallExpression, Range } from "../syntax";
import { DEFAULT_SCAN_LIMIT_BYTES, scanCsv, scanMatrixMarketNnz, scanTextCellNnz } from "./data-scan";
import { type MetadataDiagnostic, metadataDiagnostic } from "./diagnostics";
import { type FileSystem, fileKind, fileSize, readFileHead } from "../files";
import { type MatrixMarketHeader, looksLikeMatrixMarket, readMatrixMarketHeader } from "./matrix-market";
import { readMtd } from "./mtd-reader";
import type { DataTypeName, FileFormatName, MtdMetadata, ValueTypeName } from "./mtd-types";
import type { DmlConstant, ParameterValues } from "./parameters";
import { type ReadArguments, readArguments } from "./read-arguments";
import { resolveDataPath } from "./path-resolution";
import type { SizeDeclaration } from "./size-annotation-syntax";
import type { SizeAnnotation } from "./size-annotations";
import { type WorkspaceConfig, workspaceInputFor } from "./workspace-config";
import { type EvaluatedPath, checkMatrixMarketConflicts, checkMtdConflicts, describeDims, evaluatePath } from "./read-checks";

export type MetadataSource = "annotation" | "workspace" | "read-arguments" | "mtd" | "matrix-market" | "file-scan";

export interface ReadMetadataContext {
  scriptPath: string;
  workspaceRoot?: string;
  fs: FileSystem;
  /** `$name` values, as text (typed by SystemDS's rule when used). */
  params: ParameterValues;
  /** Variables with a known constant value at the call (for `read(prefix + "X.csv")`). */
  constants?: ReadonlyMap<string, DmlConstant>;
  /** The variable the result is assigned to. */
  target?: string;
  /** The statement's `@size` annotation (see `sizeAnnotationFor`). */
  annotation?: SizeAnnotation;
  workspace?: WorkspaceConfig;
  /** Files up to this size are scanned when sizes are missing (default 50 MiB). */
  scanLimitBytes?: number;
}

export interface ReadMetadata {
  rows: number | null;
  cols: number | null;
  /** Null when unknown; see the bounds for a symmetric Matrix Market file. */
  nnz: number | null;
  nnzLowerBound?: number;
  nnzUpperBound?: number;
  dataType: DataTypeName;
  valueType: ValueTypeName;
  format: FileFormatName | null;
  /** Where rows and cols came from (null when from nowhere). */
  source: MetadataSource | null;
  sources: { rows?: MetadataSource; cols?: MetadataSource; nnz?: MetadataSource };
  /** The resolved absolute path of the data file, when the name is known and the file or its `.mtd` exists. */
  path?: string;
  /** The file name as the script gives it, after `$param` substitution. */
  pathText?: string;
  /** Absolute paths tried for a relative name. */
  candidates?: string[];
  mtd?: MtdMetadata;
  matrixMarket?: MatrixMarketHeader;
  diagnostics: MetadataDiagnostic[];
}

/** One source's sizes; a size it does not know is absent (or undefined). */
interface Layer {
  source: MetadataSource;
  rows?: number | undefined;
  cols?: number | undefined;
  nnz?: number | undefined;
  sparsity?: number | undefined;
  /** Whether the layer describes the data on disk (its nnz is valid only for the data's dims). */
  data: boolean;
}

export function resolveReadMetadata(call: CallExpression, context: ReadMetadataContext): ReadMetadata {
  const script = context.scriptPath;
  const args = readArguments(call, { params: context.params, constants: context.constants ?? new Map() }, script);
  const diagnostics: MetadataDiagnostic[] = [...args.diagnostics];
  const result: ReadMetadata = {
    rows: null,
    cols: null,
    nnz: null,
    dataType: args.values.dataType?.value ?? "matrix",
    valueType: args.values.valueType?.value ?? "double",
    format: args.values.format?.value ?? null,
    source: null,
    sources: {},
    diagnostics,
  };

  const path = evaluatePath(args.file, { scriptPath: script, params: context.params, constants: context.constants }, diagnostics);
  const resolution = path.text === undefined ? undefined : resolveDataPath(path.text, context);
  if (resolution) {
    result.pathText = resolution.text;
    result.candidates = resolution.candidates;
    if (resolution.resolved) result.path = resolution.resolved;
  }

  const layers: Layer[] = [];
  const declared = declarationLayers(context, path.parameter, resolution?.candidates);
  layers.push(...declared.layers);
  const fromArgs = argumentLayer(args);
  if (fromArgs) layers.push(fromArgs);

  const dataPath = result.path;
  let mtd: MtdMetadata | undefined;
  let mm: MatrixMarketHeader | undefined;
  if (dataPath) {
    const explicitFormat = args.values.format?.value;
    const mtdFile = explicitFormat === "mm" ? undefined : readMtd(context.fs, dataPath);
    if (mtdFile?.exists) {
      diagnostics.push(...mtdFile.diagnostics);
      mtd = mtdFile.metadata;
    } else if (explicitFormat === "mm" || (explicitFormat === undefined && isMatrixMarketFile(context.fs, dataPath))) {
      const header = readMatrixMarketHeader(context.fs, dataPath);
      diagnostics.push(...header.diagnostics);
      mm = header.header;
      result.format = "mm";
    }
  }
  if (mtd) {
    result.mtd = mtd;
    result.format ??= mtd.format ?? null;
    if (!args.values.dataType && mtd.dataType) result.dataType = mtd.dataType;
    if (!args.values.valueType && mtd.valueType) result.valueType = mtd.valueType;
    diagnostics.push(...checkMtdConflicts(args, mtd, script));
    layers.push({ source: "mtd", rows: mtd.rows, cols: mtd.cols, nnz: mtd.nnz, data: true });
  }
  if (mm) {
    result.matrixMarket = mm;
    diagnostics.push(...checkMatrixMarketConflicts(args, mm, script));
    const layer: Layer = { source: "matrix-market", rows: mm.rows, cols: mm.cols, data: true };
    if (mm.nnz !== null) layer.nnz = mm.nnz;
    layers.push(layer);
  }
  if (result.format === null && dataPath && !mtd && /\.csv$/i.test(dataPath) && context.fs.exists(dataPath)) {
    const message = 'no .mtd file and no format="csv": SystemDS reads this file as text (i j v) and fails; it is sized here as csv';
    diagnostics.push(metadataDiagnostic(script, "warning", message, args.file!.range, "read-format"));
    result.format = "csv";
  }

  merge(result, layers);
  if (dataPath && context.fs.exists(dataPath) && needsScan(result, layers)) {
    const scan = scanData(context, dataPath, result, args, mtd, mm, diagnostics);
    if (scan) {
      layers.push(scan);
      merge(result, layers);
    }
  }
  if (result.nnz === null && mm && mm.nnz === null && sameDims(result, mm)) {
    result.nnzLowerBound = mm.nnzLowerBound;
    result.nnzUpperBound = mm.nnzUpperBound;
  }
  if (result.dataType === "scalar" || result.dataType === "list") {
    result.rows = result.cols = result.nnz = null;
    result.source = null;
    result.sources = {};
  } else if (result.dataType === "frame") {
    result.nnz = null;
    delete result.sources.nnz;
  }

  reportOverride(declared.first, layers, result, diagnostics, script);
  reportUnknown(result, path, resolution, args, diagnostics, script);
  return result;
}

function declarationLayers(
  context: ReadMetadataContext,
  parameter: string | undefined,
  candidates: readonly string[] | undefined,
): { layers: Layer[]; first?: { source: MetadataSource; file: string; range: Range } } {
  const layers: Layer[] = [];
  let first: { source: MetadataSource; file: string; range: Range } | undefined;
  if (context.annotation) {
    layers.push(declarationLayer("annotation", context.annotation.declaration));
    first = { source: "annotation", file: context.scriptPath, range: context.annotation.range };
  }
  const input = workspaceInputFor(context.workspace, context.scriptPath, { target: context.target, parameter, paths: candidates });
  if (input && context.workspace) {
    layers.push(declarationLayer("workspace", input.declaration));
    first ??= { source: "workspace", file: context.workspace.file, range: input.range };
  }
  return first ? { layers, first } : { layers };
}

function declarationLayer(source: MetadataSource, declaration: SizeDeclaration): Layer {
  return { source, ...declaration, data: false };
}

function argumentLayer(args: ReadArguments): Layer | undefined {
  const { rows, cols, nnz } = args.values;
  if (!rows && !cols && !nnz) return undefined;
  return { source: "read-arguments", rows: rows?.value, cols: cols?.value, nnz: nnz?.value, data: true };
}

/** Fills rows, cols and nnz from the layers in order. */
function merge(result: ReadMetadata, layers: readonly Layer[]): void {
  result.rows = result.cols = result.nnz = null;
  result.sources = {};
  for (const layer of layers) {
    if (result.rows === null && layer.rows !== undefined) {
      result.rows = layer.rows;
      result.sources.rows = layer.source;
    }
    if (result.cols === null && layer.cols !== undefined) {
      result.cols = layer.cols;
      result.sources.cols = layer.source;
    }
  }
  const dataRows = layers.find((l) => l.data && l.rows !== undefined)?.rows;
  const dataCols = layers.find((l) => l.data && l.cols !== undefined)?.cols;
  const dataDimsHold = (dataRows === undefined || dataRows === result.rows) && (dataCols === undefined || dataCols === result.cols);
  for (const layer of layers) {
    if (layer.data && !dataDimsHold) continue;
    if (layer.nnz !== undefined) {
      result.nnz = layer.nnz;
      result.sources.nnz = layer.source;
      break;
    }
    if (layer.sparsity !== undefined && result.rows !== null && result.cols !== null) {
      result.nnz = Math.round(layer.sparsity * result.rows * result.cols);
      result.sources.nnz = layer.source;
      break;
    }
  }
  result.source = result.sources.rows ?? result.sources.cols ?? null;
}

function sameDims(result: ReadMetadata, dims: { rows: number; cols: number }): boolean {
  return result.rows === dims.rows && result.cols === dims.cols;
}

function needsScan(result: ReadMetadata, layers: readonly Layer[]): boolean {
  if (result.dataType === "scalar" || result.dataType === "list") return false;
  if (result.rows === null || result.cols === null) return true;
  return result.dataType === "matrix" && result.nnz === null && !layers.some((l) => !l.data && l.sparsity !== undefined);
}

function isMatrixMarketFile(fs: FileSystem, dataPath: string): boolean {
  const head = readFileHead(fs, dataPath, 64);
  return head !== undefined && looksLikeMatrixMarket(head);
}

/** Counts what is missing from the file itself, when it is small enough. */
function scanData(
  context: ReadMetadataContext,
  dataPath: string,
  result: ReadMetadata,
  args: ReadArguments,
  mtd: MtdMetadata | undefined,
  mm: MatrixMarketHeader | undefined,
  diagnostics: MetadataDiagnostic[],
): Layer | undefined {
  const format = result.format ?? "text";
  if (format !== "csv" && format !== "text" && format !== "mm") return undefined;
  if (format === "mm" && !mm) return undefined;
  const limit = context.scanLimitBytes ?? DEFAULT_SCAN_LIMIT_BYTES;
  const kind = fileKind(context.fs, dataPath);
  if (kind !== "file") {
    const what = kind === "folder" ? "a folder (of part files?)" : "not a regular file (a FIFO, device or socket)";
    diagnostics.push(metadataDiagnostic(context.scriptPath, "information", `${dataPath} is ${what} and is not scanned`, args.file!.range, "read-not-scanned"));
    return undefined;
  }
  const size = fileSize(context.fs, dataPath);
  if (size === undefined || size > limit) {
    const message = `${dataPath} is larger than ${Math.round(limit / (1024 * 1024))} MiB and is not scanned: ${result.rows === null || result.cols === null ? "its dims" : "its non-zeros"} stay unknown unless declared (# @size or dml-lens.json)`;
    diagnostics.push(metadataDiagnostic(context.scriptPath, "information", message, args.file!.range, "read-not-scanned"));
    return undefined;
  }
  const text = context.fs.readFile(dataPath);
  if (text === undefined) return undefined;
  const problemAt = (message: string, position: { line: number; character: number }) =>
    diagnostics.push(metadataDiagnostic(dataPath, "warning", `${message}: the non-zeros are not counted`, { start: position, end: position }, "read-scan"));
  if (format === "csv") {
    const scan = scanCsv(text, {
      header: args.values.header?.value ?? mtd?.header ?? false,
      sep: args.values.sep?.value ?? mtd?.sep ?? ",",
      fillValue: args.values.default?.value ?? mtd?.default ?? 0,
      naStrings: args.values.naStrings?.value ?? mtd?.naStrings ?? [],
    });
    if (scan.problem) problemAt(scan.problem.message, scan.problem.position);
    const layer: Layer = { source: "file-scan", rows: scan.rows, cols: scan.cols, data: true };
    if (scan.nnz !== null && result.dataType === "matrix") layer.nnz = scan.nnz;
    return layer;
  }
  const scan = format === "mm" ? scanMatrixMarketNnz(text, mm!) : scanTextCellNnz(text);
  if (scan.problem) problemAt(scan.problem.message, scan.problem.position);
  return scan.nnz === null ? undefined : { source: "file-scan", nnz: scan.nnz, data: true };
}

/** One note when a declaration replaces sizes the data's own metadata give. */
function reportOverride(
  first: { source: MetadataSource; file: string; range: Range } | undefined,
  layers: readonly Layer[],
  result: ReadMetadata,
  diagnostics: MetadataDiagnostic[],
  script: string,
): void {
  if (!first) return;
  const data = { rows: layers.find((l) => l.data && l.rows !== undefined)?.rows, cols: layers.find((l) => l.data && l.cols !== undefined)?.cols };
  const differs = (data.rows !== undefined && data.rows !== result.rows) || (data.cols !== undefined && data.cols !== result.cols);
  if (!differs) return;
  const by = first.source === "annotation" ? "@size" : "dml-lens.json";
  const message = `${by} overrides the data's own size ${describeDims(data.rows, data.cols)} with ${describeDims(result.rows, result.cols)}`;
  diagnostics.push(metadataDiagnostic(first.source === "annotation" ? script : first.file, "information", message, first.range, "size-override"));
}

/** Why dims are unknown, once, where the user can act. */
function reportUnknown(
  result: ReadMetadata,
  path: EvaluatedPath,
  resolution: ReturnType<typeof resolveDataPath> | undefined,
  args: ReadArguments,
  diagnostics: MetadataDiagnostic[],
  script: string,
): void {
  if (result.dataType === "scalar" || result.dataType === "list") return;
  if (result.rows !== null && result.cols !== null) return;
  if (path.unknownReason) diagnostics.push(path.unknownReason);
  if (!resolution || !args.file) return;
  const declare = "declare them with '# @size ROWS x COLS' on the statement or in dml-lens.json \"inputs\"";
  if (path.text !== undefined && path.text.trim() === "") {
    // SystemDS scripts use " " as the default of a file $param that was not given (`ifdef($X, " ")`).
    const message = `the file name is blank (the placeholder of a file parameter that was not given): its sizes are unknown; give the parameter, or ${declare}`;
    diagnostics.push(metadataDiagnostic(script, "hint", message, args.file.range, "read-file-unknown"));
    return;
  }
  let message: string;
  if (resolution.remote) message = `${path.text} is not on this machine: its sizes are unknown; ${declare}`;
  else if (!resolution.resolved) message = `${path.text} not found (looked in ${resolution.candidates.join(", ")}): its sizes are unknown; ${declare}`;
  else if (result.format === "mm" && !result.matrixMarket) return; // the header problem is reported
  else message = `the sizes of ${path.text} are unknown (no .mtd with rows and cols, no rows=/cols= arguments); ${declare}`;
  diagnostics.push(metadataDiagnostic(script, resolution.resolved ? "information" : "warning", message, args.file.range, "read-size-unknown"));
}
