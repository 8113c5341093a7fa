/**
 * The DML language server. Keeps the open documents, reparses a document on
 * every open/change and publishes its syntax and semantic diagnostics
 * (document-diagnostics.ts); answers the outline and
 * folding ranges (`# %%` cells, brackets, block comments).
 *
 * Transport comes from the command line (`--node-ipc` when VS Code starts it,
 * `--stdio` via `dml lsp --stdio` for other editors).
 */
import {
  createConnection,
  ProposedFeatures,
  TextDocuments,
  TextDocumentSyncKind,
  type InitializeResult,
} from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { parse, type ParseResultWithComments } from "../../engine/syntax";
import { toLspDiagnostic } from "./convert";
import { documentDiagnostics } from "./document-diagnostics";
import { foldingRanges } from "./folding";
import { documentSymbols } from "./symbols";

const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);

/** Parse results keyed by document URI, valid for the stored version. */
const parsed = new Map<string, { version: number; result: ParseResultWithComments }>();

function parseDocument(document: TextDocument): ParseResultWithComments {
  const cached = parsed.get(document.uri);
  if (cached && cached.version === document.version) return cached.result;
  let result: ParseResultWithComments;
  try {
    result = parse(document.getText(), { keepComments: true });
  } catch (error) {
    // A parser bug must not take the server down: report it on the first line.
    const message = error instanceof Error ? error.message : String(error);
    const zero = { line: 0, character: 0 };
    result = {
      program: { kind: "program", body: [], range: { start: zero, end: zero } },
      diagnostics: [
        { severity: "error", message: `internal error while parsing: ${message}`, range: { start: zero, end: zero }, code: "internal" },
      ],
      comments: [],
    };
  }
  parsed.set(document.uri, { version: document.version, result });
  return result;
}

connection.onInitialize(
  (): InitializeResult => ({
    capabilities: {
      textDocumentSync: TextDocumentSyncKind.Incremental,
      documentSymbolProvider: true,
      foldingRangeProvider: true,
    },
    serverInfo: { name: "dml-lens" },
  }),
);

documents.onDidChangeContent((change) => {
  const document = change.document;
  const result = parseDocument(document);
  void connection.sendDiagnostics({
    uri: document.uri,
    version: document.version,
    diagnostics: documentDiagnostics(document.uri, document.getText(), result).map(toLspDiagnostic),
  });
});

documents.onDidClose((event) => {
  parsed.delete(event.document.uri);
  void connection.sendDiagnostics({ uri: event.document.uri, diagnostics: [] });
});

connection.onDocumentSymbol((params) => {
  const document = documents.get(params.textDocument.uri);
  if (!document) return [];
  return documentSymbols(parseDocument(document).program);
});

connection.onFoldingRanges((params) => {
  const document = documents.get(params.textDocument.uri);
  return document ? foldingRanges(document.getText()) : [];
});

documents.listen(connection);
connection.listen();
