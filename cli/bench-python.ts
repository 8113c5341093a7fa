/**
 * Runs a numpy baseline program of the fusion-kernel and e2e suites: the
 * baseline python (baseline-python.ts) gets the program and one JSON
 * argument and prints one JSON line last. Every program starts with
 * `numpyEnvironmentSource`, whose `environment()` says which numpy, scipy
 * and BLAS ran: numpy.__version__, the BLAS/LAPACK libraries mapped into the
 * process after a product (what really ran) and numpy.show_config()'s
 * BLAS entry. Never throws: a missing python3 or numpy, a crash or a
 * timeout is a reason.
 */
import { spawnSync } from "node:child_process";
import { baselinePython } from "./baseline-python";

export const numpyEnvironmentSource = `
import contextlib, io, json, os, sys, time
import numpy as np
def environment():
    (np.ones((64, 64)) @ np.ones((64, 64))).sum()
    libs = set()
    try:
        with open("/proc/self/maps") as f:
            for line in f:
                p = line.split()[-1]
                name = os.path.basename(p).lower()
                if "cpython" not in name and any(k in name for k in ("blas", "lapack", "mkl", "blis", "atlas")):
                    libs.add(p)
    except OSError:
        pass
    config = io.StringIO()
    with contextlib.redirect_stdout(config):
        try:
            np.show_config()
        except Exception:
            pass
    text = config.getvalue()
    blas_config = ""
    for key in ("blas_opt_info:", "blas:", "blas_info:"):
        at = text.find(key)
        if at >= 0:
            blas_config = " ".join(text[at:].split("\\n", 6)[:6]).replace("  ", " ").strip()
            break
    try:
        import scipy
        scipy_version = scipy.__version__
    except ImportError:
        scipy_version = None
    return {"python": sys.executable, "numpy": np.__version__, "scipy": scipy_version, "blas_loaded": sorted(libs), "blas_config": blas_config}
`;

export interface NumpyEnvironment {
  python: string;
  numpy: string;
  scipy: string | null;
  blas_loaded: string[];
  blas_config: string;
}

export type PythonRun<T> = { ok: true; value: T } | { ok: false; reason: string };

/** Runs `program` (which must print one JSON line last) with `input` as its JSON argument. */
export function runPythonJson<T>(program: string, input: unknown, timeoutMs: number): PythonRun<T> {
  const result = spawnSync(baselinePython(), ["-c", program, JSON.stringify(input)], { encoding: "utf8", timeout: timeoutMs, maxBuffer: 16 << 20 });
  if (result.error) {
    const code = (result.error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { ok: false, reason: "python3 is not installed" };
    if (code === "ETIMEDOUT") return { ok: false, reason: `python3 did not finish within ${Math.round(timeoutMs / 1000)} s` };
    return { ok: false, reason: `python3 failed to run (${result.error.message})` };
  }
  if (result.status !== 0) {
    const stderr = result.stderr.trim();
    if (/No module named ['"]?numpy/.test(stderr)) return { ok: false, reason: "numpy is not installed (Debian: apt-get install python3-numpy python3-scipy)" };
    return { ok: false, reason: `python3 exited with ${result.status ?? result.signal}: ${stderr.split("\n").pop() ?? ""}` };
  }
  try {
    return { ok: true, value: JSON.parse(result.stdout.trim().split("\n").pop() ?? "") as T };
  } catch {
    return { ok: false, reason: `unexpected output from python3: ${result.stdout.slice(0, 200)}` };
  }
}

/** One line naming the numpy, scipy and BLAS that ran. */
export function environmentText(env: NumpyEnvironment): string {
  const blas = env.blas_loaded.length > 0 ? env.blas_loaded.join(", ") : "no BLAS library mapped (numpy's internal fallback)";
  return `${env.python}: numpy ${env.numpy}, scipy ${env.scipy ?? "not installed"}, BLAS loaded: ${blas}`;
}
