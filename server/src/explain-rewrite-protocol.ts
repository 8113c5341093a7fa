/**
 * "Explain this rewrite" between client and server: the request's name,
 * params and result, and the client command the code action runs. Plain
 * constants and types, no imports, so the client bundle pulls in no server
 * or engine code. (The server helper's protocol/custom-methods.ts, once
 * merged, is the place for the request's name.)
 */

/** The request (client to server) for a suggestion's derivation. */
export const EXPLAIN_REWRITE_REQUEST = "dmlLens/explainRewrite";
/** The client's command the code action runs: opens the derivation in a read-only view. */
export const EXPLAIN_REWRITE_COMMAND = "dmlLens.explainRewrite";

/** Which suggestion: the document and version it was made for, the range it replaces and its rewritten text. */
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
