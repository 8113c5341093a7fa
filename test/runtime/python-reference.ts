/**
 * Reference values from numpy and scipy, computed by python3: a test file
 * sends all its inputs as JSON on stdin in one run (python starts slowly)
 * and reads the script's JSON from stdout. When python3, numpy or scipy is
 * missing, the result says why, for the tests' visible skip reason.
 */
import { spawnSync } from "node:child_process";

export type PythonResult<T> = { ok: true; value: T } | { ok: false; reason: string };

/** Runs `script` (which reads `data` and prints JSON) on `input`; a python or library that is missing is a reason to skip, any other failure throws. */
export function pythonReference<T>(script: string, input: unknown): PythonResult<T> {
  const prelude = "import json, sys\ntry:\n    import numpy as np, scipy.linalg, scipy.stats\nexcept ImportError as e:\n    print('MISSING ' + str(e)); sys.exit(3)\ndata = json.load(sys.stdin)\n";
  const run = spawnSync("python3", ["-c", prelude + script], { input: JSON.stringify(input), encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (run.error) return { ok: false, reason: `python3 is not available (${run.error.message}): numpy/scipy reference skipped` };
  if (run.status === 3 && run.stdout.startsWith("MISSING")) return { ok: false, reason: `python3 lacks numpy/scipy (${run.stdout.slice(8).trim()}): reference skipped` };
  if (run.status !== 0) throw new Error(`python3 failed: ${run.stderr}`);
  return { ok: true, value: JSON.parse(run.stdout) as T };
}

/** `pythonReference`, run once on first use. */
export function lazyReference<T>(script: string, input: () => unknown): () => PythonResult<T> {
  let result: PythonResult<T> | undefined;
  return () => (result ??= pythonReference<T>(script, input()));
}

/** A deterministic stream of doubles in [0, 1) (a 32-bit LCG), so that the cases are the same on every run. */
export function uniformStream(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}
