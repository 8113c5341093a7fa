/**
 * What evaluating a block needs from the running interpreter: the variable
 * environment, `$params`, where the script lives, output, the memory
 * budget, and calls of user functions.
 */
import type { Range } from "../../syntax";
import type { MemoryMeter } from "./memory-meter";
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
  /** Bytes the values of a run may take together. */
  memoryBudget: number;
  /** The budget's accounting, shared by every block and function call of a run. */
  memory: MemoryMeter;
  print(line: string): void;
  callUser(name: string, args: Value[], argNames: (string | undefined)[], range: Range): Value[];
  /**
   * A call the DAG left to the builtins that no native builtin of the
   * runtime takes: a function of an earlier run of the session, a function
   * of a loaded builtin script (SystemDS's builtin namespace), or a
   * DML-bodied builtin run from the SystemDS installation's script. Throws
   * when a DML-bodied builtin's script is not at hand; undefined when the
   * name is none of these.
   */
  callBuiltin?(name: string, args: Value[], argNames: (string | undefined)[], range: Range): Value[] | undefined;
  /** `eval(name, ...)`: calls the function `name` as a call written here would (its errors take the `eval`'s position). */
  callByName?(name: string, args: Value[], argNames: (string | undefined)[]): Value[];
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
