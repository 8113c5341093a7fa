/**
 * `dml lsp --stdio`: runs the language server (the bundle dist/server.js) in
 * this process, for editors other than VS Code. The server reads its transport
 * (`--stdio`, `--node-ipc`, `--socket=N`, `--pipe=NAME`) from process.argv.
 * It is loaded at run time rather than imported, so that the command line
 * depends on the engine only.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { startBundle } from "../engine/execution";
import { packageRoot } from "./package-root";
import { err } from "./output";
import { UsageError } from "./usage";

export const lspUsage = "dml lsp --stdio";

export async function lsp(args: readonly string[]): Promise<number> {
  const transport = args.find((a) => a === "--stdio" || a === "--node-ipc" || /^--(socket|pipe)=/s.test(a));
  const unknown = args.filter((a) => a !== transport);
  if (!transport) throw new UsageError("dml lsp: say how to talk, e.g. --stdio");
  if (unknown.length > 0) throw new UsageError(`dml lsp: unknown option ${unknown[0]}`);
  const problem = transportProblem(transport);
  if (problem) throw new UsageError(`dml lsp: ${problem}`);
  const serverPath = path.join(packageRoot(), "dist", "server.js");
  if (!existsSync(serverPath)) {
    err(`dml lsp: ${serverPath} is missing; run \`npm run build\` first.`);
    return 2;
  }
  startBundle(serverPath);
  // The server owns the process from here; it exits when the client says so.
  return new Promise<number>(() => {});
}

/** What is wrong with a `--socket=N` or `--pipe=NAME` value (the server library would throw on it), or undefined. */
function transportProblem(transport: string): string | undefined {
  const socket = /^--socket=(.*)$/s.exec(transport);
  if (socket) {
    const port = socket[1]!;
    const valid = /^[0-9]+$/.test(port) && Number(port) >= 1 && Number(port) <= 65535;
    return valid ? undefined : `--socket needs a port number from 1 to 65535, found '${port}'`;
  }
  const pipe = /^--pipe=(.*)$/s.exec(transport);
  if (pipe && pipe[1]!.length === 0) return "--pipe needs the name of a pipe, e.g. --pipe=/tmp/dml-lens.sock";
  return undefined;
}
