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
 * `dmlLens/measuredSizes` (from the client's runtime) replaces estimates.
 * Answers the outline and folding ranges (`# %%` cells, brackets, block
 * comments). A result computed for an older version is never shown.
 *
 * Transport comes from the command line (`--node-ipc` when VS Code starts it,
 * `--stdio` via `dml lsp --stdio` for other editors).
 */
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
  type InitializeParams,
  type InitializeResult,
} from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import type { MeasuredSize, ProgramAnalysis } from "../../engine/stats/program-analysis";
import { parse, type Diagnostic, type ParseResultWithComments } from "../../engine/syntax";
import { BlockOptimizer, type DocumentOptimizations } from "./block-optimizations";
import { workerRunner } from "./optimizer-thread";
import { toLspDiagnostic } from "./convert";
import { documentCheck } from "./document-diagnostics";
import { foldingRanges } from "./folding";
import { cheaperRewriteFixes, hoverText, optimizerDiagnostics } from "./optimizer-views";
import { completions, type CompletionKind } from "./completion";
import { cellLenses, dimsHints, signatureHelp } from "./editor-aids";
import { carryOver } from "./stale-diagnostics";
import { definition, references, rename, RenameError } from "./navigation";
import { semanticTokens, TOKEN_MODIFIERS, TOKEN_TYPES } from "./semantic-tokens";
import { PLAN_REQUEST, planView } from "./plan-view";
import { documentSymbols } from "./symbols";

const connection = createConnection(ProposedFeatures.all);
const MEASURED_SIZES_NOTIFICATION = "dmlLens/measuredSizes";
const documents = new TextDocuments(TextDocument);

/** Settings from `initializationOptions.optimizer` (all optional). */
interface OptimizerSettings {
  enabled: boolean;
  /** Saturation budget per block, ms. */
  budgetMs: number;
  /** Pause after the last change before optimizing, ms. */
  debounceMs: number;
  /** Dims of assigned matrices as inlay hints. */
  inlayHints: boolean;
  /** Pause after the last change before the full analysis, ms (at least 1.5 times the last analysis's duration). */
  analysisDelayMs: number;
  /** Window in which keystrokes share one syntax check, ms. */
  syntaxWindowMs: number;
}

let settings: OptimizerSettings = { enabled: true, budgetMs: 200, debounceMs: 250, inlayHints: true, analysisDelayMs: 50, syntaxWindowMs: 15 };
const optimizer = new BlockOptimizer(() => ({ saturation: { timeLimitMs: settings.budgetMs } }), workerRunner());

interface DocumentState {
  version: number;
  parsed: ParseResultWithComments;
  diagnostics: Diagnostic[];
  analysis?: ProgramAnalysis;
  optimizations: DocumentOptimizations;
  timer?: NodeJS.Timeout;
}

const states = new Map<string, DocumentState>();

/** How long the last full analysis of each document took, ms. */
const analysisMs = new Map<string, number>();

/** Sizes the client's runtime measured, by document (`dmlLens/measuredSizes`). */
const measuredSizes = new Map<string, Map<string, MeasuredSize>>();

function parseText(text: string): ParseResultWithComments {
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
  const known = states.get(document.uri);
  if (known && known.version === document.version) return known;
  if (known?.timer) clearTimeout(known.timer);
  const text = document.getText();
  const newest = parsedOnly.get(document.uri);
  const parsed = newest && newest.version === document.version ? newest.parsed : parseText(text);
  const started = performance.now();
  const checked = documentCheck(document.uri, text, parsed, measuredSizes.get(document.uri));
  analysisMs.set(document.uri, performance.now() - started);
  const state: DocumentState = { version: document.version, parsed, diagnostics: checked.diagnostics, optimizations: new Map() };
  if (checked.analysis) {
    state.analysis = checked.analysis;
    if (settings.enabled) state.optimizations = optimizer.known(text, checked.analysis);
  }
  states.set(document.uri, state);
  return state;
}

function publish(document: TextDocument, state: DocumentState): void {
  const hints = state.analysis ? optimizerDiagnostics(state.analysis, state.optimizations) : [];
  const diagnostics = [...state.diagnostics, ...hints];
  analyzed.set(document.uri, { text: document.getText(), diagnostics: diagnostics.filter((d) => !state.parsed.diagnostics.includes(d)) });
  void connection.sendDiagnostics({ uri: document.uri, version: state.version, diagnostics: diagnostics.map(toLspDiagnostic) });
}

/** Optimizes the document's blocks after a pause; publishes the hints if the document is still at that version. */
function scheduleOptimization(document: TextDocument, state: DocumentState): void {
  if (!settings.enabled || !state.analysis) return;
  const analysis = state.analysis;
  state.timer = setTimeout(() => {
    const isCurrent = () => documents.get(document.uri)?.version === state.version && states.get(document.uri) === state;
    optimizer
      .optimize(document.getText(), analysis, isCurrent)
      .then((results) => {
        if (!results || !isCurrent()) return;
        state.optimizations = results;
        publish(document, state);
      })
      .catch((error: unknown) => connection.console.error(`optimizer: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`));
  }, settings.debounceMs);
}

connection.onInitialize((params: InitializeParams): InitializeResult => {
  const options = (params.initializationOptions as { optimizer?: Partial<OptimizerSettings> } | undefined)?.optimizer;
  if (options) settings = { ...settings, ...options };
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
      renameProvider: true,
      semanticTokensProvider: { legend: { tokenTypes: [...TOKEN_TYPES], tokenModifiers: [...TOKEN_MODIFIERS] }, full: true },
      codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
    },
    serverInfo: { name: "dml-lens" },
  };
});

/** The text of each document's last full analysis, and its diagnostics other than the parser's. */
const analyzed = new Map<string, { text: string; diagnostics: Diagnostic[] }>();

/**
 * After a change: within a few milliseconds the newest version's syntax
 * diagnostics, with the last analysis's other diagnostics carried over
 * (stale-diagnostics.ts), once per short window however many keystrokes
 * arrive in it; the full analysis follows after a pause in typing, so a
 * burst of keystrokes costs one analysis, not one per keystroke.
 */
const quickTimers = new Map<string, NodeJS.Timeout>();

/** The pending full analysis of each document. */
const analysisTimers = new Map<string, NodeJS.Timeout>();

documents.onDidChangeContent((change) => {
  const uri = change.document.uri;
  const known = states.get(uri);
  if (known?.timer) clearTimeout(known.timer); // the older version's optimization never starts
  const pending = analysisTimers.get(uri);
  if (pending) clearTimeout(pending);
  const first = !analyzed.has(uri);
  const delay = first ? 0 : Math.max(settings.analysisDelayMs, 1.5 * (analysisMs.get(uri) ?? 0)); // a long analysis waits for a longer pause
  analysisTimers.set(
    uri,
    setTimeout(() => {
      analysisTimers.delete(uri);
      const current = documents.get(uri);
      if (!current) return;
      const state = stateOf(current);
      publish(current, state);
      scheduleOptimization(current, state);
    }, delay),
  );
  if (first || quickTimers.has(uri)) return;
  quickTimers.set(
    uri,
    setTimeout(() => {
      quickTimers.delete(uri);
      const document = documents.get(uri);
      const last = analyzed.get(uri);
      if (!document || !last || states.get(uri)?.version === document.version) return; // already fully analyzed
      const text = document.getText();
      const parsed = parseText(text);
      parsedOnly.set(uri, { version: document.version, parsed });
      const carried = parsed.diagnostics.some((d) => d.severity === "error") ? [] : carryOver(last.text, text, last.diagnostics);
      void connection.sendDiagnostics({ uri, version: document.version, diagnostics: [...parsed.diagnostics, ...carried].map(toLspDiagnostic) });
    }, settings.syntaxWindowMs),
  );
});

/** The newest parse of each document (reused by the analysis of that version). */
const parsedOnly = new Map<string, { version: number; parsed: ParseResultWithComments }>();


documents.onDidClose((event) => {
  const state = states.get(event.document.uri);
  if (state?.timer) clearTimeout(state.timer);
  states.delete(event.document.uri);
  analyzed.delete(event.document.uri);
  parsedOnly.delete(event.document.uri);
  const pending = analysisTimers.get(event.document.uri);
  if (pending) clearTimeout(pending);
  analysisTimers.delete(event.document.uri);
  analysisMs.delete(event.document.uri);
  const quick = quickTimers.get(event.document.uri);
  if (quick) clearTimeout(quick);
  quickTimers.delete(event.document.uri);
  void connection.sendDiagnostics({ uri: event.document.uri, diagnostics: [] });
});

connection.onDocumentSymbol((params) => {
  const document = documents.get(params.textDocument.uri);
  if (!document) return [];
  return documentSymbols(stateOf(document).parsed.program);
});

connection.onFoldingRanges((params) => {
  const document = documents.get(params.textDocument.uri);
  return document ? foldingRanges(document.getText()) : [];
});

connection.onHover((params) => {
  const document = documents.get(params.textDocument.uri);
  if (!document) return null;
  const state = stateOf(document);
  if (!state.analysis) return null;
  const text = hoverText(document.getText(), state.analysis, state.optimizations, params.position);
  return text === undefined ? null : { contents: { kind: MarkupKind.Markdown, value: text } };
});

connection.onCodeAction((params): CodeAction[] => {
  const document = documents.get(params.textDocument.uri);
  if (!document) return [];
  const state = stateOf(document);
  return cheaperRewriteFixes(document.getText(), state.optimizations, params.range).map((fix) => ({
    title: fix.title,
    kind: CodeActionKind.QuickFix,
    isPreferred: true,
    diagnostics: params.context.diagnostics.filter((d) => d.code === "cheaper-rewrite"),
    edit: { changes: { [document.uri]: fix.edits } },
  }));
});

const completionKinds: Record<CompletionKind, CompletionItemKind> = {
  function: CompletionItemKind.Function,
  variable: CompletionItemKind.Variable,
  argument: CompletionItemKind.Property,
  parameter: CompletionItemKind.Constant,
  keyword: CompletionItemKind.Keyword,
};

connection.onCompletion((params): CompletionItem[] => {
  const document = documents.get(params.textDocument.uri);
  if (!document) return [];
  const state = stateOf(document);
  return completions(document.getText(), state.parsed.program, state.analysis, params.position).map((c) => {
    const item: CompletionItem = { label: c.label, kind: completionKinds[c.kind] };
    if (c.detail !== undefined) item.detail = c.detail;
    if (c.documentation !== undefined) item.documentation = c.documentation;
    if (c.insertText !== undefined) item.insertText = c.insertText;
    return item;
  });
});

connection.onSignatureHelp((params) => {
  const document = documents.get(params.textDocument.uri);
  const help = document ? signatureHelp(document.getText(), params.position) : undefined;
  if (!help) return null;
  return { signatures: [{ label: help.label, parameters: help.parameters.map((label) => ({ label })) }], activeSignature: 0, activeParameter: help.active };
});

connection.onCodeLens((params) => {
  const document = documents.get(params.textDocument.uri);
  if (!document) return [];
  return cellLenses(document.getText()).map((lens) => ({
    range: { start: { line: lens.line, character: 0 }, end: { line: lens.line, character: 0 } },
    command: { title: lens.title, command: lens.command, arguments: [document.uri, lens.cell] },
  }));
});

connection.languages.inlayHint.on((params) => {
  const document = documents.get(params.textDocument.uri);
  if (!document || !settings.inlayHints) return [];
  const state = stateOf(document);
  if (!state.analysis) return [];
  return dimsHints(state.analysis, params.range).map((hint) => ({ position: hint.position, label: hint.label, kind: InlayHintKind.Type, paddingLeft: false }));
});

connection.onDefinition((params) => {
  const document = documents.get(params.textDocument.uri);
  const range = document ? definition(stateOf(document).parsed.program, params.position) : undefined;
  return range && document ? { uri: document.uri, range } : null;
});

connection.onReferences((params) => {
  const document = documents.get(params.textDocument.uri);
  if (!document) return [];
  return references(stateOf(document).parsed.program, params.position).map((range) => ({ uri: document.uri, range }));
});

connection.onRenameRequest((params) => {
  const document = documents.get(params.textDocument.uri);
  if (!document) return null;
  try {
    const edits = rename(stateOf(document).parsed.program, params.position, params.newName);
    return edits.length === 0 ? null : { changes: { [document.uri]: edits } };
  } catch (error) {
    if (error instanceof RenameError) throw new ResponseError(ErrorCodes.InvalidParams, error.message);
    throw error;
  }
});

connection.languages.semanticTokens.on((params) => {
  const document = documents.get(params.textDocument.uri);
  return { data: document ? semanticTokens(document.getText()) : [] };
});

connection.onRequest(PLAN_REQUEST, (params: { textDocument: { uri: string }; position: { line: number; character: number } }) => {
  const document = documents.get(params.textDocument.uri);
  if (!document) return null;
  const state = stateOf(document);
  return state.analysis ? planView(state.analysis, state.optimizations, params.position) : null;
});

/** `{"dmlLens": {"optimizer": {...}}}` from the client's settings: the same fields as initializationOptions.optimizer. */
connection.onDidChangeConfiguration((change) => {
  const next = (change.settings as { dmlLens?: { optimizer?: Partial<OptimizerSettings> } } | undefined)?.dmlLens?.optimizer;
  if (!next) return;
  const budgetChanged = next.budgetMs !== undefined && next.budgetMs !== settings.budgetMs;
  settings = { ...settings, ...next };
  if (budgetChanged) optimizer.clear();
  for (const document of documents.all()) {
    const state = stateOf(document);
    if (!settings.enabled) state.optimizations = new Map();
    publish(document, state);
    scheduleOptimization(document, state);
  }
});

/** After a run, the client reports the variables' measured sizes: they replace estimates (hover, hints, suggestions). */
connection.onNotification(MEASURED_SIZES_NOTIFICATION, (params: { textDocument: { uri: string }; variables: ({ name: string } & MeasuredSize)[] }) => {
  const sizes = measuredSizes.get(params.textDocument.uri) ?? new Map<string, MeasuredSize>();
  for (const v of params.variables) {
    if ([v.rows, v.cols, v.nnz].every((n) => Number.isInteger(n) && n >= 0)) sizes.set(v.name, { rows: v.rows, cols: v.cols, nnz: v.nnz });
  }
  measuredSizes.set(params.textDocument.uri, sizes);
  const document = documents.get(params.textDocument.uri);
  if (!document) return;
  const known = states.get(document.uri);
  if (known?.timer) clearTimeout(known.timer);
  states.delete(document.uri);
  const state = stateOf(document);
  publish(document, state);
  scheduleOptimization(document, state);
});

documents.listen(connection);
connection.listen();
