/**
 * What evaluating a block needs from the running interpreter: the variable
 * environment, `$params`, where the script lives, output, the memory
 * budget, and calls of user functions.
 */
import type { Range } from "../../syntax/ast";
import { DmlRuntimeError } from "./errors";
import type { Value } from "./values";

export interface EvalContext {
  env: Map<string, Value>;
  params: ReadonlyMap<string, string>;
  /** The script's path (relative reads/writes are next to it). */
  scriptPath?: string;
  /** Where relative reads are looked up after the script's folder (as the analysis does). */
  workspaceRoot?: string;
  /** The script's text, to name expressions in messages. */
  sourceText: string;
  /** Bytes a dense intermediate may take. */
  memoryBudget: number;
  print(line: string): void;
  callUser(name: string, args: Value[], argNames: (string | undefined)[], range: Range): Value[];
  /** The user functions callable here (for "did you mean"). */
  functionNames?(): Iterable<string>;
}

export const DEFAULT_MEMORY_BUDGET = 2 * 1024 ** 3;

export function sourceSlice(text: string, range: Range): string {
  const lines = text.split("\n");
  if (range.start.line === range.end.line) return (lines[range.start.line] ?? "").slice(range.start.character, range.end.character);
  const parts = [lines[range.start.line]?.slice(range.start.character) ?? ""];
  for (let l = range.start.line + 1; l < range.end.line; l++) parts.push(lines[l] ?? "");
  parts.push(lines[range.end.line]?.slice(0, range.end.character) ?? "");
  return parts.join(" ").replace(/\s+/g, " ").trim();
}

function bytesText(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
  return `${bytes} bytes`;
}

/** Refuses a dense rows x cols result larger than the budget, naming the expression. */
export function checkBudget(ctx: EvalContext, rows: number, cols: number, range: Range): void {
  const bytes = rows * cols * 8;
  if (bytes <= ctx.memoryBudget) return;
  const what = sourceSlice(ctx.sourceText, range);
  throw new DmlRuntimeError(
    `'${what}' would materialize a dense ${rows} x ${cols} intermediate (${bytesText(bytes)}), above the memory budget of ${bytesText(ctx.memoryBudget)}`,
    range,
  );
}
