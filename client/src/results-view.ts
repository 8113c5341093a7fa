/**
 * The results view: a webview panel beside the editor that shows the latest
 * run (results-html.ts), opened by the first run or by "DML: Show Results".
 */
import * as vscode from "vscode";
import { resultsHtml, type ResultsPage } from "./results-html";

export class ResultsView {
  private panel: vscode.WebviewPanel | undefined;
  private page: ResultsPage | undefined;

  show(page?: ResultsPage): void {
    if (page) this.page = page;
    if (!this.panel) {
      this.panel = vscode.window.createWebviewPanel("dmlLens.results", "DML Results", { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, { enableScripts: false });
      this.panel.onDidDispose(() => (this.panel = undefined));
    }
    this.panel.webview.html = this.page ? resultsHtml(this.page, this.panel.webview.cspSource) : "<p>No run yet: run a cell (DML: Run Cell).</p>";
    this.panel.reveal(vscode.ViewColumn.Beside, true);
  }

  /** The page shown now (for tests and "copy results"). */
  get current(): ResultsPage | undefined {
    return this.page;
  }

  dispose(): void {
    this.panel?.dispose();
  }
}
