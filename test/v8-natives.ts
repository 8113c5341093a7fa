// V8's natives syntax in the priming tests: whether a function runs as
// TurboFan code, and what a priming source gives in a fresh process.
import { spawnSync } from "node:child_process";
import { setFlagsFromString } from "node:v8";

setFlagsFromString("--allow-natives-syntax");

/** Whether V8 runs `f` as TurboFan code now (its optimized code was not thrown away by a deoptimization). */
export const optimized = new Function("f", "return %ActiveTierIsTurbofan(f);") as (f: unknown) => boolean;

/** What calling the priming source `source` gives in a fresh node, with or without --allow-natives-syntax: "none" (undefined) or its type, and stderr. */
export function primerInFreshProcess(source: string, allowNatives: boolean): { stdout: string; stderr: string } {
  const probe = `const p = (${source})(); process.stdout.write(p === undefined ? "none" : typeof p);`;
  const run = spawnSync(process.execPath, [...(allowNatives ? ["--allow-natives-syntax"] : []), "-e", probe], { encoding: "utf8" });
  return { stdout: run.stdout, stderr: run.stderr };
}
