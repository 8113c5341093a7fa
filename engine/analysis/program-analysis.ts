/**
 * The whole analysis of one script: parse, statement blocks and their DAGs
 * with types, input metadata (`read` sizes from `.mtd` files, Matrix Market
 * headers, `@size` annotations, the workspace file, `$param` values) and the
 * sizes of every node, with all diagnostics of these stages.
 */
import { type SystemdsInstallation, buildProgramDags, type ProgramDags, createDagContext, type DagNode, type BasicBlock, fileSystemSourceAccess, type LoadedSource, SourceFiles, forEachStatement, statementExpressions, walkExpression, resolveBuiltinScript } from "../program";
import path from "node:path";
import { type CallExpression, type Diagnostic, type Expression, type Program, type Range, type Statement, parse, type ParseResultWithComments, rangeTexts } from "../syntax";
import type { AnalysisCache } from "./analysis-cache";
import { collectSizeAnnotations, loadWorkspaceConfig, mergeParameterValues, type MetadataDiagnostic, type ReadMetadata, resolveReadMetadata, sizeAnnotationFor, type SizeAnnotation, type SizeAnnotations, typeParameterValue, type WorkspaceConfig, workspaceParameters } from "../metadata";
import { fileSize, type FileSystem, nodeFileSystem } from "../files";
import { matrixStats, type NodeStats, type ScalarValue } from "../stats/sizes/node-stats";
import { readStatsLoader } from "../stats/read-sketches";
import type { SparsityEstimator } from "../stats/sizes/sketch-sizes";
import { type BuiltinScripts, type ProgramSizeOptions, programSizes, type ProgramSizes, type SourcedProgram } from "../stats/sizes/program-sizes";

export interface AnalysisOptions {
  /** The script's path (relative `read` paths resolve against its folder). */
  scriptPath?: string;
  /** The workspace root: second place to resolve paths; holds `dml-lens.json`. */
  workspaceRoot?: string;
  /** A size-assumptions file to use instead of the workspace root's `dml-lens.json` (same format; relative to the workspace root). */
  workspaceFile?: string;
  fs?: FileSystem;
  /** `$name` values as text (from the command line); they win over the workspace file's. */
  parameters?: ReadonlyMap<string, string>;
  /** Local data files up to this size are scanned for missing sizes (default: the metadata stage's limit). */
  scanLimitBytes?: number;
  /**
   * Sizes the runtime measured for variables (after running cells): each
   * replaces the estimate of the variable's value where it is assigned, if
   * the program assigns it exactly once (otherwise which value was measured
   * is ambiguous).
   */
  measured?: ReadonlyMap<string, MeasuredSize>;
  /** Which estimate an inexact nnz is (default `mnc`; see sketch-sizes.ts). */
  estimator?: SparsityEstimator;
  /** DAGs and sizes of earlier analyses of the same document (an editor's), reused for blocks that did not change. */
  cache?: AnalysisCache;
  /** Work bound of the size analysis of function calls (program-sizes.ts MAX_CALL_SIZING_NODES by default). */
  callSizingNodes?: number;
  /** Sourced files already read and parsed by this analysis's checks (source-reader.ts), by resolved path: each is parsed once. */
  sourceCache?: Map<string, LoadedSource>;
  /** The SystemDS installation whose builtin scripts and `scripts/` library calls and `source()`s resolve to. */
  installation?: SystemdsInstallation;
}

export interface MeasuredSize {
  rows: number;
  cols: number;
  nnz: number;
}

export interface ProgramAnalysis {
  parsed: ParseResultWithComments;
  dags: ProgramDags;
  sizes: ProgramSizes;
  /** Type, size, annotation and metadata diagnostics that point into the script (syntax ones are in `parsed`). */
  diagnostics: Diagnostic[];
  /** Metadata diagnostics that point into other files (`.mtd`, data files, `dml-lens.json`). */
  otherFiles: MetadataDiagnostic[];
  /** The `$name` values the analysis used (workspace file, then the caller's), as text. */
  parameters: ReadonlyMap<string, string>;
}

export function analyzeText(text: string, options: AnalysisOptions = {}): ProgramAnalysis {
  return analyzeParsed(text, parse(text, { keepComments: true }), options);
}

export function analyzeParsed(text: string, parsed: ParseResultWithComments, options: AnalysisOptions = {}): ProgramAnalysis {
  const scriptPath = path.resolve(options.scriptPath ?? "untitled.dml");
  const fs = options.fs ?? nodeFileSystem;
  const diagnostics: Diagnostic[] = [];
  const otherFiles: MetadataDiagnostic[] = [];
  const keep = (d: MetadataDiagnostic) => {
    if (path.resolve(d.file) === scriptPath) diagnostics.push(d);
    else otherFiles.push(d);
  };

  let workspace: WorkspaceConfig | undefined;
  const workspaceRoot = options.workspaceRoot ?? (options.workspaceFile !== undefined ? path.dirname(path.resolve(options.workspaceFile)) : undefined);
  if (workspaceRoot !== undefined) {
    const file = options.workspaceFile !== undefined ? { path: path.resolve(workspaceRoot, options.workspaceFile), scriptPath } : undefined;
    const loaded = loadWorkspaceConfig(fs, workspaceRoot, file);
    workspace = loaded.config;
    loaded.diagnostics.forEach(keep);
  }
  const params = mergeParameterValues(workspaceParameters(workspace, scriptPath), options.parameters);
  const annotations = collectSizeAnnotations(text, parsed);
  diagnostics.push(...annotations.diagnostics);

  const program = parsed.program;
  const cache = options.cache;
  const sourceFiles = new SourceFiles(workspaceRoot ? [workspaceRoot] : [], fileSystemSourceAccess(fs), options.sourceCache, options.installation);
  const builtinScripts = options.installation ? { builtinScripts: sourceFiles } : {};
  const dags = buildProgramDags(program, { ...builtinScripts, ...(cache ? { cache: { dags: cache.dags, sourceText: text } } : {}) });
  diagnostics.push(...dags.diagnostics);
  const readCache = new Map<string, NodeStats | undefined>();
  const estimator = options.estimator ?? "mnc";
  const readStats = readStatsLoader(fs, options.scanLimitBytes, estimator === "mnc"); // sketches from local data, else metadata
  /**
   * The sizes of the `read`s of one program: the script's, or a sourced
   * file's or builtin script's (`file`: their metadata problems point into
   * that file). Paths resolve as in the script: SystemDS reads them relative
   * to its working directory, wherever the `read` is written.
   */
  const readMetadataOf = (program: Program, annotations: SizeAnnotations, file?: string) => {
    const reads = readCalls(program);
    const keepIn = file === undefined ? keep : (d: MetadataDiagnostic) => keep(path.resolve(d.file) === scriptPath ? { ...d, file } : d);
    return (node: DagNode, inputs: readonly NodeStats[], dead = false): NodeStats | undefined => {
      const position = positionKey(node.range.start);
      const located = reads.get(position);
      // Arguments the size analysis found constant (`f = $X; read(f)`, `read(dir + "X.csv")`) are read as those constants.
      const found = located && { ...located, call: withConstantArguments(located.call, inputs) };
      const key = `${file ?? ""} ${found ? `${position} ${JSON.stringify(found.call.args.map((a) => (isLiteral(a.value) ? a.value.value : null)))}` : position}`;
      if (readCache.has(key)) return readCache.get(key);
      let stats: NodeStats | undefined;
      if (found) {
        const context = {
          scriptPath,
          ...(workspaceRoot !== undefined ? { workspaceRoot } : {}),
          fs,
          params,
          ...(found.target ? { target: found.target } : {}),
          ...annotationFor(annotations, found.statement, found.target),
          ...(workspace ? { workspace } : {}),
          ...(options.scanLimitBytes !== undefined ? { scanLimitBytes: options.scanLimitBytes } : {}),
        };
        const metadata = resolveReadMetadata(found.call, context);
        // A read in a dead branch (`if (fileX != " ") { X = read(fileX) }` with the placeholder " ") reports nothing.
        if (dead) return metadata.dataType === "matrix" ? readStats(metadata) : undefined;
        metadata.diagnostics.forEach(keepIn);
        if (metadata.dataType === "matrix") stats = cache ? cache.sizes.readStats(readKey(metadata, fs, estimator), () => readStats(metadata)) : readStats(metadata);
      }
      readCache.set(key, stats);
      return stats;
    };
  };
  const readMetadata = readMetadataOf(program, annotations);
  const parameters = new Map<string, ScalarValue>();
  for (const [name, value] of params) parameters.set(name, typeParameterValue(value).value);
  const library = programLibrary(scriptPath, sourceFiles, { parameters, estimator }, (loaded) => readMetadataOf(loaded.parsed.program, sourcedAnnotations(loaded), loaded.file));
  const annotated = declaredSizes(annotations);
  const measured = options.measured ? measuredSizes(program, options.measured) : undefined;
  const declared = (node: DagNode, found: NodeStats) => measured?.(node, found) ?? annotated(node, found);
  const sizesCache = cache && {
    sizes: cache.sizes,
    key: JSON.stringify([[...parameters].sort(), estimator]),
    cacheable: declaresNoSize(annotations, measured ? measuredLines(program, options.measured!) : new Set()),
    textOf: rangeTexts(text),
  };
  const sizes = programSizes(dags, createDagContext(program, builtinScripts), { parameters, readMetadata, declared, namespace: library.namespacesOf(program), ...(library.builtins ? { builtins: library.builtins } : {}), estimator, ...(sizesCache ? { cache: sizesCache } : {}), ...(options.callSizingNodes !== undefined ? { callSizingNodes: options.callSizingNodes } : {}) });
  cache?.sizes.sweep();
  diagnostics.push(...sizes.diagnostics);
  diagnostics.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
  return { parsed, dags, sizes, diagnostics, otherFiles, parameters: params };
}

/**
 * The programs the size analysis reaches beyond the script: `source("f.dml")
 * as ns` files, looked up as `dml check` does (source-reader.ts, the
 * workspace root as working directory), and the scripts of the installation's
 * DML-bodied builtins (builtin-script.ts: `m_`/`s_`/`f_` by the first
 * argument's type). Each file is read safely and parsed once (SourceFiles)
 * and turned into DAGs once; its own `source()`s and builtin calls resolve
 * the same way, its `read`s get their metadata as the script's do. A file
 * that sources itself, directly or not, resolves to nothing the second time.
 */
function programLibrary(
  scriptPath: string,
  files: SourceFiles,
  base: ProgramSizeOptions,
  readMetadataOf: (loaded: LoadedSource & { kind: "file" }) => NonNullable<ProgramSizeOptions["readMetadata"]>,
): { namespacesOf: (program: Program) => (name: string) => SourcedProgram | undefined; builtins?: BuiltinScripts } {
  const programs = new Map<string, SourcedProgram | undefined>();
  const programOf = (found: LoadedSource & { kind: "file" }): SourcedProgram | undefined => {
    if (programs.has(found.file)) return programs.get(found.file);
    programs.set(found.file, undefined); // cycle guard
    const program = found.parsed.program;
    const withScripts = files.installation ? { builtinScripts: files } : {};
    const result: SourcedProgram = {
      dags: buildProgramDags(program, withScripts),
      context: createDagContext(program, withScripts),
      options: { ...base, namespace: namespacesOf(program), readMetadata: readMetadataOf(found), ...(builtins ? { builtins } : {}) },
      file: found.file,
      text: found.text,
    };
    programs.set(found.file, result);
    return result;
  };
  const namespacesOf = (program: Program) => {
    const sources = new Map<string, string>();
    forEachStatement(program.body, (statement) => {
      if (statement.kind === "source" && statement.namespace) sources.set(statement.namespace.name, statement.path);
    });
    return (name: string): SourcedProgram | undefined => {
      const file = sources.get(name);
      if (file === undefined) return undefined;
      const found = files.load(scriptPath, file);
      return found.kind === "file" ? programOf(found) : undefined;
    };
  };
  const installation = files.installation;
  const builtins: BuiltinScripts | undefined = installation && {
    names: installation.builtinScripts,
    resolve: (name, firstArgument) => {
      const resolved = resolveBuiltinScript(files, name, firstArgument);
      if (resolved?.kind !== "function") return undefined;
      const program = programOf(resolved.loaded);
      return program && { ...program, file: resolved.file, functionName: resolved.name };
    },
  };
  return { namespacesOf, ...(builtins ? { builtins } : {}) };
}

/** The `@size` annotations of a sourced file or builtin script (parsed again with its comments only when it has one). */
function sourcedAnnotations(loaded: LoadedSource & { kind: "file" }): SizeAnnotations {
  if (!loaded.text.includes("@size")) return { annotations: [], diagnostics: [] };
  return collectSizeAnnotations(loaded.text, parse(loaded.text, { keepComments: true }));
}

/** A file system given to the analysis (tests keep files in memory) as sourced files see it. */
/**
 * `@size` annotations on assignments other than `read` (those are handled by
 * the read metadata): the value node of `x = ...` (same start as the right
 * side) gets the declared dims; a declared sparsity becomes nnz.
 */
function declaredSizes(annotations: SizeAnnotations) {
  const byStart = new Map<string, SizeAnnotation>();
  for (const annotation of annotations.annotations) {
    const statement = annotation.statement;
    const start = statement.kind === "assign" ? statement.value.range.start : statement.call.range.start;
    byStart.set(positionKey(start), annotation);
  }
  return (node: DagNode, found: NodeStats): NodeStats | undefined => {
    if (node.op.kind === "read" || found.type.dataType !== "matrix") return undefined;
    const annotation = byStart.get(positionKey(node.range.start));
    if (!annotation) return undefined;
    if (annotation.statement.kind === "multiAssign" && !isAnnotatedOutput(annotation, node)) return undefined;
    const d = annotation.declaration;
    const rows = d.rows ?? found.rows;
    const cols = d.cols ?? found.cols;
    const nnz = d.nnz ?? (d.sparsity !== undefined && rows !== null && cols !== null ? Math.round(d.sparsity * rows * cols) : rows === found.rows && cols === found.cols ? found.nnz : null);
    return matrixStats(rows, cols, nnz, d.nnz !== undefined || d.sparsity !== undefined);
  };
}

/** Measured sizes on the value nodes of variables assigned once (the node written exactly as the right side). */
function measuredSizes(program: Program, measured: ReadonlyMap<string, MeasuredSize>) {
  const assignments = new Map<string, Range[]>();
  forEachStatement(program.body, (statement) => {
    const targets = statement.kind === "assign" ? [statement.target] : statement.kind === "multiAssign" ? statement.targets : statement.kind === "for" ? [statement.variable] : [];
    for (const target of targets) {
      const name = target.kind === "identifier" ? target.name : target.kind === "index" ? target.target.name : undefined;
      if (name === undefined) continue;
      const list = assignments.get(name) ?? [];
      list.push(statement.kind === "assign" && target.kind === "identifier" ? statement.value.range : statement.range);
      assignments.set(name, list);
    }
  });
  const byRange = new Map<string, MeasuredSize>();
  for (const [name, size] of measured) {
    const ranges = assignments.get(name);
    if (ranges?.length === 1) byRange.set(`${positionKey(ranges[0]!.start)}-${positionKey(ranges[0]!.end)}`, size);
  }
  return (node: DagNode, found: NodeStats): NodeStats | undefined => {
    if (found.type.dataType !== "matrix") return undefined;
    const size = byRange.get(`${positionKey(node.range.start)}-${positionKey(node.range.end)}`);
    return size ? matrixStats(size.rows, size.cols, size.nnz, true) : undefined;
  };
}

/** For `[a, b] = f(...)`: whether `node` (one output of the call) is the annotated target's. */
function isAnnotatedOutput(annotation: SizeAnnotation, node: DagNode): boolean {
  if (annotation.statement.kind !== "multiAssign" || node.op.kind !== "call") return false;
  const target = annotation.statement.targets[node.op.output];
  return target?.kind === "identifier" && target.name === annotation.target;
}

function annotationFor(annotations: SizeAnnotations, statement: Statement, target: string | undefined) {
  const annotation = sizeAnnotationFor(annotations, statement, target);
  return annotation ? { annotation } : {};
}

interface ReadCall {
  call: CallExpression;
  statement: Statement;
  /** The variable the read's value is assigned to, when the read is the whole right side. */
  target?: string;
}

function positionKey(p: { line: number; character: number }): string {
  return `${p.line}:${p.character}`;
}

type Literal = Extract<Expression, { kind: "number" | "string" | "boolean" }>;

function isLiteral(expression: Expression): expression is Literal {
  return expression.kind === "number" || expression.kind === "string" || expression.kind === "boolean";
}

/**
 * The call with each argument whose value the size analysis knows as a
 * constant (`inputs`, one per argument, as the DAG's read node has them)
 * written as that literal; literals and `$params` stay as written (a
 * `$param` keeps naming its workspace declaration).
 */
function withConstantArguments(call: CallExpression, inputs: readonly NodeStats[]): CallExpression {
  if (inputs.length !== call.args.length) return call;
  let changed = false;
  const args = call.args.map((arg, i) => {
    const input = inputs[i];
    const value = input?.value;
    if (input === undefined || value === undefined || isLiteral(arg.value) || arg.value.kind === "parameter") return arg;
    changed = true;
    const range = arg.value.range;
    const literal: Literal =
      typeof value === "string"
        ? { kind: "string", value, range }
        : typeof value === "boolean"
          ? { kind: "boolean", value, range }
          : { kind: "number", text: String(value), value, isInteger: input.type.valueType === "int" && Number.isInteger(value), range };
    return { ...arg, value: literal };
  });
  return changed ? { ...call, args } : call;
}

/** Every `read(...)` call, by the start of its range (the DAG's read node has the same range). */
function readCalls(program: Program): Map<string, ReadCall> {
  const reads = new Map<string, ReadCall>();
  forEachStatement(program.body, (statement) => {
    if (statement.kind !== "assign" && statement.kind !== "multiAssign" && statement.kind !== "callStatement") return;
    const target = statement.kind === "assign" && statement.target.kind === "identifier" ? statement.target.name : undefined;
    for (const expression of statementExpressions(statement)) {
      walkExpression(expression, (node) => {
        if (node.kind !== "call" || node.callee.name !== "read") return;
        const whole = statement.kind === "assign" && statement.value === node;
        reads.set(positionKey(node.range.start), { call: node, statement, ...(whole && target ? { target } : {}) });
      });
    }
  });
  return reads;
}

/** What a read's stats depend on: its resolved metadata, the data file's modification time and size, and the estimator. */
function readKey(metadata: ReadMetadata, fs: FileSystem, estimator: SparsityEstimator): string {
  const { diagnostics: _diagnostics, ...rest } = metadata;
  const file = metadata.path;
  return JSON.stringify([rest, file !== undefined ? [fs.mtime?.(file) ?? null, fileSize(fs, file) ?? null] : null, estimator]);
}

/** Blocks whose sizes depend only on their inputs: none of their statements carries a `@size` annotation or a measured size. */
function declaresNoSize(annotations: SizeAnnotations, measured: ReadonlySet<number>): (block: BasicBlock) => boolean {
  const lines = new Set(measured);
  for (const annotation of annotations.annotations) for (let l = annotation.statement.range.start.line; l <= annotation.statement.range.end.line; l++) lines.add(l);
  return (block) => {
    for (let l = block.range.start.line; l <= block.range.end.line; l++) if (lines.has(l)) return false;
    return true;
  };
}

/** The lines of the statements that assign variables whose measured sizes are given. */
function measuredLines(program: Program, measured: ReadonlyMap<string, MeasuredSize>): Set<number> {
  const lines = new Set<number>();
  forEachStatement(program.body, (statement) => {
    const targets = statement.kind === "assign" ? [statement.target] : statement.kind === "multiAssign" ? statement.targets : [];
    const hit = targets.some((t) => (t.kind === "identifier" ? measured.has(t.name) : t.kind === "index" ? measured.has(t.target.name) : false));
    if (hit) for (let l = statement.range.start.line; l <= statement.range.end.line; l++) lines.add(l);
  });
  return lines;
}
