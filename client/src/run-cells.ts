/**
 * "Run Cell" and "Run Above" (the server's code lenses call them): the saved
 * script runs in a separate process (`dml run --cell N --json`, the embedded
 * runtime), its printed output goes to the "DML Lens: Run" channel, and the
 * measured sizes of the assigned variables go to the language server, which
 * puts them in place of its estimates. Refused in an untrusted workspace.
 * The commands return what happened (for callers such as tests and other
 * extensions): the run's result, or why it did not run.
 */
import { fork } from "node:child_process";
import * as path from "node:path";
import * as vscode from "vscode";
import type { LanguageClient } from "vscode-languageclient/node";

export interface RunResult {
  ok: boolean;
  output: string[];
  errors: string[];
  variables: { name: string; kind: string; rows?: number; cols?: number; nnz?: number }[];
}

export type RunOutcome = { status: "ran"; result: RunResult; ms: number } | { status: "refused"; reason: string } | { status: "failed"; reason: string };

export function registerRunCommands(context: vscode.ExtensionContext, client: () => LanguageClient | undefined): void {
  const channel = vscode.window.createOutputChannel("DML Lens: Run");
  context.subscriptions.push(channel);
  const run = async (uri: string | undefined, cell: number | undefined): Promise<RunOutcome> => {
    if (!vscode.workspace.isTrusted) {
      const reason = "DML Lens does not run scripts in an untrusted workspace (Workspace Trust); analysis and suggestions still work.";
      void vscode.window.showWarningMessage(reason);
      return { status: "refused", reason };
    }
    const document = uri ? vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri) : vscode.window.activeTextEditor?.document;
    if (!document || document.uri.scheme !== "file") return { status: "refused", reason: "no saved DML document to run" };
    if (cell === undefined || cell < 1) return { status: "refused", reason: "no cell to run" };
    if (document.isDirty && !(await document.save())) return { status: "refused", reason: "the document could not be saved" };
    const cli = context.asAbsolutePath(path.join("dist", "cli.js"));
    const started = Date.now();
    channel.show(true);
    channel.appendLine(`▶ ${path.basename(document.uri.fsPath)}, cells 1..${cell}`);
    const result = await new Promise<RunResult | undefined>((resolve) => {
      let stdout = "";
      const child = fork(cli, ["run", document.uri.fsPath, "--cell", String(cell), "--json"], { cwd: path.dirname(document.uri.fsPath), silent: true });
      child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr?.on("data", (chunk: Buffer) => channel.append(chunk.toString()));
      child.on("exit", () => {
        try {
          resolve(JSON.parse(stdout) as RunResult);
        } catch {
          channel.appendLine(stdout);
          resolve(undefined);
        }
      });
    });
    if (!result) return { status: "failed", reason: "the runtime did not report a result (see the DML Lens: Run output)" };
    for (const line of result.output) channel.appendLine(line);
    for (const error of result.errors) channel.appendLine(error);
    for (const v of result.variables) channel.appendLine(`  ${v.name}: ${v.kind}${v.rows !== undefined ? ` ${v.rows} x ${v.cols}, nnz ${v.nnz}` : ""}`);
    channel.appendLine(`${result.ok ? "done" : "failed"} in ${Date.now() - started} ms`);
    const measured = result.variables.filter((v) => v.kind === "matrix" && v.rows !== undefined && v.cols !== undefined && v.nnz !== undefined);
    if (measured.length > 0) {
      await client()?.sendNotification("dmlLens/measuredSizes", {
        textDocument: { uri: document.uri.toString() },
        variables: measured.map((v) => ({ name: v.name, rows: v.rows, cols: v.cols, nnz: v.nnz })),
      });
    }
    return { status: "ran", result, ms: Date.now() - started };
  };
  context.subscriptions.push(
    vscode.commands.registerCommand("dmlLens.runCell", (uri?: string, cell?: number) => run(uri, cell)),
    vscode.commands.registerCommand("dmlLens.runAbove", (uri?: string, cell?: number) => run(uri, cell === undefined ? undefined : cell - 1)),
  );
}
