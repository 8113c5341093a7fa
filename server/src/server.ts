/**
 * The language server process (dist/server.js): connects a
 * DmlLanguageServer (dml-language-server.ts) to the editor with the real
 * clock and the optimizer's worker thread, and starts it.
 *
 * Transport comes from the command line (`--node-ipc` when VS Code starts it,
 * `--stdio` via `dml lsp --stdio` for other editors).
 */
import { createConnection, ProposedFeatures } from "vscode-languageserver/node";
import { applyJitFlags } from "../../engine/runtime/codegen";
import { systemClock } from "./clock";
import { CONNECTION_OPTIONS } from "./connection-options";
import { DmlLanguageServer } from "./dml-language-server";
import { workerRunner } from "./optimizer-thread";
import { pythonOnlySitePackages } from "./systemds-setting";

applyJitFlags();
const connection = createConnection(ProposedFeatures.all, CONNECTION_OPTIONS);
const server = new DmlLanguageServer({ connection, clock: systemClock, optimizerRunner: workerRunner(), pythonSitePackages: pythonOnlySitePackages });
server.listen();
