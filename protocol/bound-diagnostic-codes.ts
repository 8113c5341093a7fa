/**
 * The codes of the information diagnostics the language server publishes
 * for a document it does not check in full while the user types (its
 * bounds: server/src/document-bounds.ts, server/src/document-diagnostics.ts).
 * A client that waits for analysis results (hints, semantic diagnostics)
 * reads them to know that none will come: `dml bench lsp` does.
 */

/** More lines or characters than the server checks: no diagnostics, outline or hints at all. */
export const DOCUMENT_TOO_LARGE_CODE = "document-too-large";

/** More statements than the server analyzes: syntax diagnostics only (no sizes, semantic checks or hints). */
export const TOO_MANY_STATEMENTS_CODE = "too-many-statements";
