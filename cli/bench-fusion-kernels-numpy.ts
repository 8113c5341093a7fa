/**
 * The numpy / scipy side of the fusion-kernel cases of `dml bench fusion`:
 * a python process makes the same data as our side (bench-runtime-data.ts
 * streams) and times each case's expression, median of `runs` after
 * `warmup` untimed calls. "straightforward" is the expression as a numpy
 * user writes it (for Outer: the dense 20,000^2 product, run once in a process of
 * its own with a time bound); "sparse-aware" computes the low-rank
 * product only at S's non-zeros. Each case returns a check value (the sum of
 * its result) to compare with ours.
 */
import { numpyEnvironmentSource, runPythonJson, type NumpyEnvironment, type PythonRun } from "./bench-python";
import { numpyDataSource } from "./bench-runtime-data";
import { pythonTimedSource } from "./bench-runtime-numpy";

export type KernelCaseKind = "cell" | "magg" | "row" | "outer";

export interface KernelSizes {
  /** Rows and columns of the dense X, Y, Z of Cell, MAgg and Row. */
  rows: number;
  cols: number;
  /** Outer: S is n x n with perRow non-zeros per row; U and V are n x rank. */
  outerN: number;
  outerPerRow: number;
  outerRank: number;
}

export interface NumpyKernelInput {
  sizes: KernelSizes;
  seeds: Record<string, number>;
  runs: number;
  warmup: number;
  /**
   * Which cases: "dense" (Cell, MAgg and Row straightforward), "outer"
   * (Outer sparse-aware) or "outer-dense" (Outer straightforward, once: a
   * process of its own, so that its time bound ends only it).
   */
  part: "dense" | "outer" | "outer-dense";
}

export interface NumpyKernelTiming {
  medianMs: number;
  runs: number;
  check: number;
}

export interface NumpyKernels {
  environment: NumpyEnvironment;
  /** `${kind} straightforward` and `outer sparse-aware`, or an error text. */
  cases: Record<string, NumpyKernelTiming | { error: string }>;
}

const program = `${numpyEnvironmentSource}
${numpyDataSource}
${pythonTimedSource}

def run(name, f, runs, warmup, check):
    try:
        t, r = timed(f, runs, warmup)
        t["check"] = float(check(r))
        out[name] = t
    except Exception as e:
        out[name] = {"error": type(e).__name__ + ": " + str(e)}

cfg = json.loads(sys.argv[1])
z, S_ = cfg["sizes"], cfg["seeds"]
runs, warmup = cfg["runs"], cfg["warmup"]
out = {}
if cfg["part"] == "dense":
    m, n = z["rows"], z["cols"]
    X = uniform(m * n, S_["x"]).reshape(m, n)
    Y = uniform(m * n, S_["y"]).reshape(m, n)
    Z = uniform(m * n, S_["z"]).reshape(m, n)
    run("cell straightforward", lambda: np.sum(X * Y * Z), runs, warmup, lambda r: r)
    del Z
    run("magg straightforward", lambda: (np.sum(X ** 2), np.sum(X * Y), np.sum(Y ** 2)), runs, warmup, lambda r: r[0] + r[1] + r[2])
    del Y
    w = uniform(m, S_["w"]).reshape(m, 1)
    v = uniform(n, S_["v"]).reshape(n, 1)
    run("row straightforward", lambda: X.T @ (w * (X @ v)), runs, warmup, lambda r: r.sum())
    del X, w, v
else:
    on, k = z["outerN"], z["outerRank"]
    S = sparse_csr(on, on, z["outerPerRow"], S_["col"], S_["val"])
    U = uniform(on * k, S_["u"]).reshape(on, k)
    V = uniform(on * k, S_["vv"]).reshape(on, k)
    if cfg["part"] == "outer":
        coo = S.tocoo()
        def outer_sparse():
            dots = np.einsum("ij,ij->i", U[coo.row], V[coo.col])
            return np.sum(coo.data * np.log(dots + 1e-15))
        run("outer sparse-aware", outer_sparse, runs, warmup, lambda r: r)
    else:
        run("outer straightforward", lambda: S.multiply(np.log(U @ V.T + 1e-15)).sum(), 1, 0, lambda r: r)
print(json.dumps({"environment": environment(), "cases": out}))
`;

export function runNumpyKernels(input: NumpyKernelInput, timeoutMs: number): PythonRun<NumpyKernels> {
  return runPythonJson<NumpyKernels>(program, input, timeoutMs);
}
