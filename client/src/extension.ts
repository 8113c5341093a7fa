/**
 * The VS Code side of DML Lens: starts the language server (dist/server.js)
 * over IPC and hands it every `dml` document, and implements the commands the
 * server's code lenses call (run-cells.ts). All language knowledge lives in
 * the server and the engine; this file stays thin.
 */
import * as path from "node:path";
import { workspace, type ExtensionContext } from "vscode";
import {
  LanguageClient,
  TransportKind,
  type LanguageClientOptions,
  type ServerOptions,
} from "vscode-languageclient/node";
import { registerRunCommands } from "./run-cells";

let client: LanguageClient | undefined;

export async function activate(context: ExtensionContext): Promise<void> {
  const serverModule = context.asAbsolutePath(path.join("dist", "server.js"));
  const serverOptions: ServerOptions = {
    run: { module: serverModule, transport: TransportKind.ipc },
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
    // The `dmlLens.optimizer.*` settings at start, then on every change (server/src/settings.ts).
    initializationOptions: { optimizer: workspace.getConfiguration("dmlLens").get("optimizer") ?? {} },
    synchronize: { configurationSection: "dmlLens" },
  };
  client = new LanguageClient("dmlLens", "DML Lens", serverOptions, clientOptions);
  context.subscriptions.push(client);
  registerRunCommands(context, () => client);
  await client.start();
}

export async function deactivate(): Promise<void> {
  if (client) {
    const stopping = client.stop();
    client = undefined;
    await stopping;
  }
}
