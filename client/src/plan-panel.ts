/**
 * "DML: Show Optimized Plan": asks the server for the plan of the block at
 * the cursor (`dmlLens/plan`) and shows it in a webview panel (plan-html.ts),
 * whose only script (under a nonce) zooms the drawings.
 */
import { randomBytes } from "node:crypto";
import * as path from "node:path";
import * as vscode from "vscode";
import type { LanguageClient } from "vscode-languageclient/node";
import type { PlanView } from "../../server/src/plan-view";
import { PlanRequest } from "../../protocol/custom-methods";
import { planHtml } from "./plan-html";

export class PlanPanel {
  private panel: vscode.WebviewPanel | undefined;
  /** The plan shown now (for tests). */
  current: PlanView | undefined;

  constructor(private readonly client: () => LanguageClient | undefined) {}

  async show(uri?: string, position?: { line: number; character: number }): Promise<PlanView | undefined> {
    const editor = vscode.window.activeTextEditor;
    const document = uri ? vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri) : editor?.document;
    const client = this.client();
    if (!document || !client) return undefined;
    const at = position ?? editor?.selection.active ?? { line: 0, character: 0 };
    const plan = await client.sendRequest(PlanRequest, { textDocument: { uri: document.uri.toString() }, position: { line: at.line, character: at.character } });
    if (!plan) {
      void vscode.window.showInformationMessage("DML Lens: no analyzed statement block at the cursor.");
      return undefined;
    }
    this.current = plan;
    if (!this.panel) {
      this.panel = vscode.window.createWebviewPanel("dmlLens.plan", "DML Plan", { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, { enableScripts: true });
      this.panel.onDidDispose(() => (this.panel = undefined));
    }
    const title = `${path.basename(document.uri.fsPath || document.uri.path)}, lines ${plan.block.start.line + 1}-${plan.block.end.line + 1}`;
    this.panel.webview.html = planHtml(plan, title, this.panel.webview.cspSource, randomBytes(16).toString("base64"));
    this.panel.reveal(vscode.ViewColumn.Beside, true);
    return plan;
  }

  dispose(): void {
    this.panel?.dispose();
  }
}
