/**
 * The numpy / scipy side of `dml bench runtime`: one python3 process makes
 * the same data as the JS side (bench-runtime-data.ts) and times each case
 * with numpy's BLAS (its default threads, or one with `singleThread`) and
 * scipy.sparse. Never throws: a missing python3, numpy or scipy is a reason.
 */
import { baselinePython } from "./baseline-python";
import { spawnSync } from "node:child_process";
import { numpyDataSource } from "./bench-runtime-data";
import { SINGLE_THREAD_BLAS_ENV } from "./calibrate-numpy";

/** One case for python: kind and sizes, with runs after `warmup` untimed calls. */
export type PythonCase =
  | { name: string; kind: "gemm"; n: number; runs: number; warmup: number }
  | { name: string; kind: "gemv"; m: number; n: number; runs: number; warmup: number }
  | { name: string; kind: "sum3"; m: number; n: number; runs: number; warmup: number }
  | { name: string; kind: "spmv" | "spmm"; m: number; n: number; perRow: number; cols: number; runs: number; warmup: number };

interface PythonTiming {
  medianMs: number;
  bestMs: number;
  runs: number;
  /** Sum of the result's cells, to check both sides computed the same thing. */
  check: number;
}

export type PythonResults = { ok: true; numpy: string; scipy: string | null; cases: Record<string, PythonTiming> } | { ok: false; reason: string };

/** Seeds of the data streams, shared with the JS side. */
export const SEEDS = { a: 1, b: 2, x: 3, y: 4, z: 5, col: 6, val: 7 } as const;

/** Python: `timed(f, runs, warmup)` gives the median and best milliseconds of `runs` calls after `warmup` untimed ones, and the last result. */


/** Python: `timed(f, runs, warmup)` gives the median and best milliseconds of `runs` calls after `warmup` untimed ones, and the last result. */
export const pythonTimedSource = `def timed(f, runs, warmup):
    r = None
    for _ in range(warmup):
        r = f()
    ts = []
    for _ in range(runs):
        t = time.perf_counter()
        r = f()
        ts.append((time.perf_counter() - t) * 1e3)
    ts.sort()
    return {"medianMs": ts[len(ts) // 2], "bestMs": ts[0], "runs": runs}, r`;

const script = `
import json, sys, time
${numpyDataSource}
try:
    import scipy
    scipy_version = scipy.__version__
except ImportError:
    scipy_version = None
S = ${JSON.stringify(SEEDS)}
${pythonTimedSource}
out = {}
for c in json.loads(sys.argv[1]):
    k = c["kind"]
    if k == "gemm":
        n = c["n"]
        a = uniform(n * n, S["a"]).reshape(n, n); b = uniform(n * n, S["b"]).reshape(n, n)
        t, r = timed(lambda: a @ b, c["runs"], c["warmup"]); check = float(r.sum())
        del a, b, r
    elif k == "gemv":
        a = uniform(c["m"] * c["n"], S["a"]).reshape(c["m"], c["n"]); x = uniform(c["n"], S["x"])
        t, r = timed(lambda: a @ x, c["runs"], c["warmup"]); check = float(r.sum())
        del a
    elif k == "sum3":
        shape = (c["m"], c["n"])
        X = uniform(c["m"] * c["n"], S["x"]).reshape(shape); Y = uniform(c["m"] * c["n"], S["y"]).reshape(shape); Z = uniform(c["m"] * c["n"], S["z"]).reshape(shape)
        t, r = timed(lambda: np.sum(X * Y * Z), c["runs"], c["warmup"]); check = float(r)
        del X, Y, Z
    else:
        if scipy_version is None:
            continue
        A = sparse_csr(c["m"], c["cols"], c["perRow"], S["col"], S["val"])
        if k == "spmv":
            x = uniform(c["cols"], S["x"])
            t, r = timed(lambda: A @ x, c["runs"], c["warmup"])
        else:
            B = uniform(c["cols"] * c["n"], S["b"]).reshape(c["cols"], c["n"])
            t, r = timed(lambda: A @ B, c["runs"], c["warmup"])
        check = float(r.sum())
    t["check"] = check
    out[c["name"]] = t
print(json.dumps({"numpy": np.__version__, "scipy": scipy_version, "cases": out}))
`;

export function runPythonBaseline(cases: readonly PythonCase[], options: { singleThread?: boolean; timeoutMs?: number } = {}): PythonResults {
  if (cases.length === 0) return { ok: true, numpy: "", scipy: null, cases: {} };
  const env = options.singleThread ? { ...process.env, ...SINGLE_THREAD_BLAS_ENV } : process.env;
  const result = spawnSync(baselinePython(), ["-c", script, JSON.stringify(cases)], {
    encoding: "utf8",
    env,
    timeout: options.timeoutMs ?? 120_000,
    maxBuffer: 1 << 20,
  });
  if (result.error) {
    const code = (result.error as NodeJS.ErrnoException).code;
    return { ok: false, reason: code === "ENOENT" ? "python3 is not installed" : `python3 failed to run (${result.error.message})` };
  }
  if (result.status !== 0) {
    const stderr = result.stderr.trim();
    if (/No module named ['"]?numpy/.test(stderr)) return { ok: false, reason: "numpy is not installed (Debian: apt-get install python3-numpy)" };
    return { ok: false, reason: `python3 exited with ${result.status ?? result.signal}: ${stderr.split("\n").pop() ?? ""}` };
  }
  try {
    const parsed = JSON.parse(result.stdout.trim().split("\n").pop() ?? "") as { numpy: string; scipy: string | null; cases: Record<string, PythonTiming> };
    return { ok: true, numpy: parsed.numpy, scipy: parsed.scipy, cases: parsed.cases };
  } catch {
    return { ok: false, reason: `unexpected output from python3: ${result.stdout.slice(0, 200)}` };
  }
}
