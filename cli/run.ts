/**
 * `dml run FILE [--cell N] [--json] [--memory-budget BYTES] [name=value ...]`:
 * runs a script (or its cells 1..N, in one session) with the embedded
 * runtime. print() goes to standard output; a runtime error is reported as
 * `file:line:col: error: message` on standard error with exit code 1.
 * --json prints the assigned variables with their measured dims and nnz.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { createSession } from "../engine/runtime/interpreter";
import { err, out } from "./output";
import { parseArgs, UsageError } from "./usage";

export const runUsage = "dml run FILE [--cell N] [--json] [--memory-budget BYTES] [name=value ...]";

export async function run(args: readonly string[]): Promise<number> {
  const parsed = parseArgs("dml run", args, { flags: ["--json"], values: ["--cell", "--memory-budget"] });
  const [file, ...rest] = parsed.positionals;
  if (file === undefined) throw new UsageError("dml run: no FILE given");
  const params = new Map<string, string>();
  for (const p of rest) {
    const eq = p.indexOf("=");
    if (eq <= 0) throw new UsageError(`dml run: expected name=value, found '${p}'`);
    params.set(p.slice(0, eq).replace(/^\$/, ""), p.slice(eq + 1));
  }
  const cellText = parsed.values.get("--cell");
  const cell = cellText === undefined ? undefined : Number(cellText);
  if (cell !== undefined && (!Number.isInteger(cell) || cell < 1)) throw new UsageError(`dml run: --cell needs a positive integer, found '${cellText}'`);
  const budgetText = parsed.values.get("--memory-budget");
  const memoryBudget = budgetText === undefined ? undefined : Number(budgetText);
  if (memoryBudget !== undefined && !(memoryBudget > 0)) throw new UsageError(`dml run: --memory-budget needs a positive number of bytes, found '${budgetText}'`);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    err(`dml run: cannot read ${file}: ${(error as Error).message}`);
    return 2;
  }
  const json = parsed.flags.has("--json");
  const printed: string[] = [];
  const session = createSession({
    params,
    scriptPath: path.resolve(file),
    workspaceRoot: process.cwd(),
    ...(memoryBudget !== undefined ? { memoryBudget } : {}),
    print: json ? (line) => printed.push(line) : (line) => process.stdout.write(`${line}\n`),
  });
  const result = cell === undefined ? session.runScript(text) : session.runCellsThrough(text, cell);
  const errors = result.errors.map((e) => e.replace(path.resolve(file), file));
  if (json) {
    out(JSON.stringify({ ok: result.ok, output: printed, errors, variables: session.variables() }, null, 2));
  } else {
    for (const e of errors) err(e);
  }
  return result.ok ? 0 : 1;
}
