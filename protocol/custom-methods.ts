/**
 * The messages DML Lens adds to LSP (`dmlLens/*`), shared by the language
 * server (server/src) and the VS Code client (client/src), and used by the
 * tests and benchmarks that talk to the server: each method's name, its
 * params and its result, as typed vscode-jsonrpc message types. Nothing
 * else names these methods, so server and client cannot drift apart
 * (test/server/custom-methods.test.ts checks that no bare `"dmlLens/..."`
 * string is left in the sources).
 *
 * Only types and the message-type constants live here: the client bundle
 * imports this file without pulling in server or engine code (every import
 * below is `import type`, erased by the build).
 */
import { NotificationType, RequestType, type TextDocumentIdentifier, type TextDocumentPositionParams } from "vscode-languageserver-protocol";
import type { MeasuredSize } from "../engine/analysis";
import type { PlanView } from "../server/src/plan-view";
import type { RunEstimate } from "../server/src/run-estimate";

/** Client -> server: the statement block at a position, its DAG before and after optimization (server/src/plan-view.ts); null where no analyzed block is. */
export const PlanRequest = new RequestType<TextDocumentPositionParams, PlanView | null, void>("dmlLens/plan");

export interface EstimateParams {
  textDocument: TextDocumentIdentifier;
  /** The cell's first and last line, 0-based. */
  startLine: number;
  endLine: number;
}

/** Client -> server: the estimated time of the operations written in a range of lines (server/src/run-estimate.ts); null before the document is analyzed. */
export const EstimateRequest = new RequestType<EstimateParams, RunEstimate | null, void>("dmlLens/estimate");

export interface RunParametersParams {
  textDocument: TextDocumentIdentifier;
}

/** Client -> server: the `$name` values a run of the document should use (from its workspace file), by name. */
export const RunParametersRequest = new RequestType<RunParametersParams, Record<string, string>, void>("dmlLens/runParameters");

export interface MeasuredSizesParams {
  textDocument: TextDocumentIdentifier;
  /** The matrices a run left, with their measured sizes. */
  variables: MeasuredVariable[];
}

export interface MeasuredVariable extends MeasuredSize {
  name: string;
}

/** Client -> server, after a run: the variables' measured sizes, which replace the estimates (hover, hints, suggestions). */
export const MeasuredSizesNotification = new NotificationType<MeasuredSizesParams>("dmlLens/measuredSizes");

/** What the optimizer is doing for a document, for the client's status bar. */
export interface OptimizerState {
  uri: string;
  /** "budget reached": the time safety net stopped `safetyNets` blocks (results may differ on a faster machine). */
  state: "optimizing" | "idle" | "budget reached";
  /** Blocks the time safety net stopped (with "idle" and "budget reached"). */
  safetyNets?: number;
  /** Suggestions found in the document (with "idle" and "budget reached"). */
  suggestions?: number;
}

/** Server -> client: the optimizer started on a document ("optimizing") or finished it. */
export const OptimizerStateNotification = new NotificationType<OptimizerState>("dmlLens/optimizerState");

/** What the client's status bar shows about the SystemDS installation the server uses. */
export interface InstallationStatus {
  /** `SystemDS 3.2.0` (`SystemDS` when the version is unknown), or `SystemDS: none`. */
  text: string;
  /** describeInstallation, or how to point DML Lens to one; then the problems found. */
  tooltip: string;
  /** Whether an installation is used. */
  found: boolean;
}

/** Server -> client: the SystemDS installation used, once initialized and whenever it changes (server/src/systemds-setting.ts). */
export const InstallationNotification = new NotificationType<InstallationStatus>("dmlLens/installation");

/** Which suggestion to explain: the document and version it was made for, the range it replaces and its rewritten text. */
export interface ExplainRewriteParams {
  textDocument: { uri: string; version: number };
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  rewritten: string;
}

export interface ExplainRewriteResult {
  /** "proven", "not proven", "not equal", "unavailable" (no derivation: the suggestion is gone or stale). */
  verdict: string;
  /** The derivation text, one line a step after a header. */
  text: string;
}

/** Client -> server: the derivation from a suggestion's original expression to its rewrite ("Explain this rewrite", server/src/rewrite-explanation.ts). */
export const ExplainRewriteRequest = new RequestType<ExplainRewriteParams, ExplainRewriteResult, void>("dmlLens/explainRewrite");
