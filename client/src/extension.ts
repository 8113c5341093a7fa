/**
 * The VS Code side of DML Lens: starts the language server (dist/server.js)
 * over IPC and hands it every `dml` document; runs `# %%` cells in the
 * runtime worker (run-cells.ts, runtime-client.ts) and shows the results
 * view, the Variables view and the status bar; shows a block's plan
 * before and after optimization (plan-panel.ts). All language knowledge
 * lives in the server and the engine; this side stays thin.
 */
import * as path from "node:path";
import { commands, window, workspace, type ExtensionContext } from "vscode";
import {
  LanguageClient,
  TransportKind,
  type LanguageClientOptions,
  type ServerOptions,
} from "vscode-languageclient/node";
import { registerDerivationView } from "./derivation-view";
import { PlanPanel } from "./plan-panel";
import { registerRunCommands } from "./run-cells";
import { registerRunOnSystemds } from "./run-on-systemds";
import { ResultsView } from "./results-view";
import { RuntimeClient } from "./runtime-client";
import { StatusBar } from "./status-bar";
import { InstallationNotification, OptimizerStateNotification } from "../../protocol/custom-methods";
import { VariablesView } from "./variables-view";

let client: LanguageClient | undefined;

export async function activate(context: ExtensionContext): Promise<void> {
  // The server through its start (server/src/startup.ts: V8's code cache); for debugging, the bundle itself.
  const serverModule = context.asAbsolutePath(path.join("dist", "server.js"));
  const serverOptions: ServerOptions = {
    run: { module: context.asAbsolutePath(path.join("dist", "server-startup.js")), transport: TransportKind.ipc },
    debug: {
      module: serverModule,
      transport: TransportKind.ipc,
      options: { execArgv: ["--nolazy", "--inspect=6009"] },
    },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: "dml" },
      { scheme: "untitled", language: "dml" },
    ],
    // The `dmlLens.optimizer.*`, `dmlLens.analysis.*` and `dmlLens.systemds.*` settings at start, then on every change (server/src/settings.ts, systemds-setting.ts).
    initializationOptions: {
      optimizer: workspace.getConfiguration("dmlLens").get("optimizer") ?? {},
      analysis: workspace.getConfiguration("dmlLens").get("analysis") ?? {},
      redundancy: workspace.getConfiguration("dmlLens").get("redundancy") ?? {},
      systemds: workspace.getConfiguration("dmlLens").get("systemds") ?? {},
    },
    synchronize: { configurationSection: "dmlLens" },
  };
  client = new LanguageClient("dmlLens", "DML Lens", serverOptions, clientOptions);
  context.subscriptions.push(client);

  const runtime = new RuntimeClient(context.asAbsolutePath(path.join("dist", "runtime-worker.js")));
  const results = new ResultsView();
  const variables = new VariablesView();
  const status = new StatusBar();
  context.subscriptions.push(runtime, results, variables, status);
  context.subscriptions.push(window.registerTreeDataProvider("dmlLens.variables", variables));
  context.subscriptions.push(runtime.onState((state) => status.showRuntime(state)));
  context.subscriptions.push(window.onDidChangeActiveTextEditor(() => status.showOptimizer()));
  registerRunCommands(context, { runtime, results, variables, client: () => client });
  registerRunOnSystemds(context, { results, client: () => client });
  context.subscriptions.push(...registerDerivationView(() => client));
  const plans = new PlanPanel(() => client);
  context.subscriptions.push(plans, commands.registerCommand("dmlLens.showPlan", (uri?: string, position?: { line: number; character: number }) => plans.show(uri, position)));

  // Registered before start: the server says which installation it uses as soon as it is initialized.
  context.subscriptions.push(client.onNotification(InstallationNotification, (installation) => status.setInstallation(installation)));
  await client.start();
  context.subscriptions.push(client.onNotification(OptimizerStateNotification, (state) => status.setOptimizerState(state)));
}

export async function deactivate(): Promise<void> {
  if (client) {
    const stopping = client.stop();
    client = undefined;
    await stopping;
  }
}
