/**
 * The numpy baseline of `dml bench calibrate`: times `A @ B` for n×n float64
 * matrices in python3 with numpy (Debian's python3-numpy, BLAS-backed), if
 * both are installed. Never throws: when python3 or numpy is missing, or the
 * run fails, the result says why.
 */
import { baselinePython } from "./baseline-python";
import { spawnSync } from "node:child_process";

export type NumpyGemmResult =
  | { ok: true; version: string; bestMs: number; medianMs: number; runs: number }
  | { ok: false; reason: string };

const script = `
import json, sys, time
import numpy as np
n, runs = int(sys.argv[1]), int(sys.argv[2])
rng = np.random.default_rng(1)
a = rng.random((n, n))
b = rng.random((n, n))
a @ b
ts = []
for _ in range(runs):
    t = time.perf_counter()
    c = a @ b
    ts.append((time.perf_counter() - t) * 1e3)
ts.sort()
print(json.dumps({"version": np.__version__, "bestMs": ts[0], "medianMs": ts[len(ts) // 2], "runs": runs}))
`;

/** Environment variables that limit the common BLAS libraries to one thread. */
export const SINGLE_THREAD_BLAS_ENV: Readonly<Record<string, string>> = {
  OPENBLAS_NUM_THREADS: "1",
  OMP_NUM_THREADS: "1",
  MKL_NUM_THREADS: "1",
  BLIS_NUM_THREADS: "1",
};

/** Times numpy's n×n GEMM `runs` times after a warm-up; `singleThread` pins BLAS to one thread. */
export function numpyGemm(n: number, runs: number, options: { singleThread?: boolean; timeoutMs?: number } = {}): NumpyGemmResult {
  const env = options.singleThread ? { ...process.env, ...SINGLE_THREAD_BLAS_ENV } : process.env;
  const result = spawnSync(baselinePython(), ["-c", script, String(n), String(runs)], {
    encoding: "utf8",
    env,
    timeout: options.timeoutMs ?? 20_000,
  });
  if (result.error) {
    const code = (result.error as NodeJS.ErrnoException).code;
    return { ok: false, reason: code === "ENOENT" ? "python3 is not installed" : `python3 failed to run (${result.error.message})` };
  }
  if (result.status !== 0) {
    const stderr = result.stderr.trim();
    if (/No module named ['"]?numpy/.test(stderr)) return { ok: false, reason: "numpy is not installed (python3 -c 'import numpy' fails; Debian: apt install python3-numpy)" };
    const last = stderr.split("\n").pop() ?? "";
    return { ok: false, reason: `python3 exited with ${result.status ?? result.signal}: ${last}` };
  }
  try {
    const parsed = JSON.parse(result.stdout.trim().split("\n").pop() ?? "") as { version: string; bestMs: number; medianMs: number; runs: number };
    if (typeof parsed.bestMs !== "number" || !(parsed.bestMs > 0)) return { ok: false, reason: "numpy reported no usable timing" };
    return { ok: true, version: String(parsed.version), bestMs: parsed.bestMs, medianMs: parsed.medianMs, runs: parsed.runs };
  } catch {
    return { ok: false, reason: `unexpected output from python3: ${result.stdout.slice(0, 200)}` };
  }
}
