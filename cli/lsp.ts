/**
 * `dml lsp --stdio`: runs the language server (the bundle dist/server.js) in
 * this process, for editors other than VS Code. The server reads its transport
 * (`--stdio`, `--node-ipc`, `--socket=N`, `--pipe=NAME`) from process.argv.
 * It is loaded at run time rather than imported, so that the command line
 * depends on the engine only.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { packageRoot } from "./package-root";
import { err } from "./output";
import { UsageError } from "./usage";

export const lspUsage = "dml lsp --stdio";

export async function lsp(args: readonly string[]): Promise<number> {
  const transport = args.find((a) => a === "--stdio" || a === "--node-ipc" || /^--(socket|pipe)=/.test(a));
  const unknown = args.filter((a) => a !== transport);
  if (!transport) throw new UsageError("dml lsp: say how to talk, e.g. --stdio");
  if (unknown.length > 0) throw new UsageError(`dml lsp: unknown option ${unknown[0]}`);
  const serverPath = path.join(packageRoot(), "dist", "server.js");
  if (!existsSync(serverPath)) {
    err(`dml lsp: ${serverPath} is missing; run \`npm run build\` first.`);
    return 2;
  }
  require(serverPath);
  // The server owns the process from here; it exits when the client says so.
  return new Promise<number>(() => {});
}
