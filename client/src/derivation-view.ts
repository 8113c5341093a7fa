/**
 * "Explain this rewrite": the command behind the code action the server
 * offers next to each "Apply cheaper rewrite" fix. It asks the server for
 * the derivation (`dmlLens/explainRewrite`, server/src/rewrite-explanation.ts)
 * and shows the text in a read-only virtual document (scheme
 * `dml-derivation:`) in a side column.
 */
import { commands, EventEmitter, ProgressLocation, Uri, ViewColumn, window, workspace, type Disposable, type TextDocumentContentProvider } from "vscode";
import type { LanguageClient } from "vscode-languageclient/node";
import { EXPLAIN_REWRITE_COMMAND } from "../../protocol/client-commands";
import { ExplainRewriteRequest, type ExplainRewriteParams } from "../../protocol/custom-methods";

export const DERIVATION_SCHEME = "dml-derivation";

/** The texts of the derivation documents, by URI; a new derivation of the same statement replaces the old one. */
class DerivationDocuments implements TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private readonly changed = new EventEmitter<Uri>();
  readonly onDidChange = this.changed.event;

  set(uri: Uri, text: string): void {
    this.texts.set(uri.toString(), text);
    this.changed.fire(uri);
  }

  provideTextDocumentContent(uri: Uri): string {
    return this.texts.get(uri.toString()) ?? "";
  }
}

export function registerDerivationView(client: () => LanguageClient | undefined): Disposable[] {
  const documents = new DerivationDocuments();
  /** Shows the derivation beside the script; returns the shown document (for tests), undefined without a server. */
  const show = async (params: ExplainRewriteParams) => {
    const running = client();
    if (!running) return undefined;
    const result = await window.withProgress({ location: ProgressLocation.Window, title: "DML: deriving the rewrite" }, () => running.sendRequest(ExplainRewriteRequest, params));
    const uri = derivationUri(params);
    documents.set(uri, result?.text ?? "No derivation: the language server did not answer.\n");
    const document = await workspace.openTextDocument(uri);
    await window.showTextDocument(document, { viewColumn: ViewColumn.Beside, preview: true, preserveFocus: true });
    return { uri: uri.toString(), text: document.getText() };
  };
  return [workspace.registerTextDocumentContentProvider(DERIVATION_SCHEME, documents), commands.registerCommand(EXPLAIN_REWRITE_COMMAND, show)];
}

/** One document per statement: `dml-derivation:/script.dml line 12.txt?<document uri>`. */
function derivationUri(params: ExplainRewriteParams): Uri {
  const script = params.textDocument.uri.split("/").pop() ?? "script";
  return Uri.from({ scheme: DERIVATION_SCHEME, path: `/${decodeURIComponent(script)} line ${params.range.start.line + 1}.txt`, query: params.textDocument.uri });
}
