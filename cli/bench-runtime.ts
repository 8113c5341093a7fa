/**
 * `dml bench runtime`: the runtime's hot kernels (engine/runtime/wasm) against
 * numpy / scipy in the same run, on the same data (bench-runtime-data.ts makes
 * identical numbers on both sides; a checksum of each result is compared).
 *
 * Rows (`baseline` "numpy" or "scipy", ratio = baseline_ms / ours_ms, medians):
 * - the issue's cases with their targets (`target`, `meets`): operands live in
 *   the kernel heap (what the runtime's buffer pool hands out), all threads;
 *   numpy with its default BLAS threads, scipy.sparse single-threaded;
 * - "plain arrays": the same calls on ordinary Float64Arrays (gemm and spmm
 *   copy them into the heap; gemv, sum and spmv run the JS kernels on them);
 * - "interpreter matmul": gemv, spmv and spmm through the interpreter's
 *   `matmul` on matrices in kernel memory (shared arrays, as the runtime
 *   allocates them), split over the kernel threads (engine/runtime/codegen/
 *   kernel-runner.ts); each result goes back to the buffer pool as the
 *   interpreter's would;
 * - GEMM on one thread against numpy with one BLAS thread ("numpy-1-thread").
 * Without python3/numpy/scipy, baseline_ms and ratio are null and `note` says why.
 */
import os from "node:os";
import { matrixKernels, wasmKernels, type CsrArrays, type MatrixKernels, type WasmKernels } from "../engine/runtime/wasm";
import { kernelThreads, whenKernelThreadsReady } from "../engine/runtime/codegen";
import { matmul } from "../engine/runtime/kernels";
import { allocateF64, allocateI32, CsrMatrix, DenseMatrix, isDense, releaseMatrix } from "../engine/runtime/matrix";
import { timeRuns, type BenchRow } from "./bench-report";
import { fillUniform, hashUniform, sparseColumn } from "./bench-runtime-data";
import { runPythonBaseline, SEEDS, type PythonCase, type PythonResults } from "./bench-runtime-numpy";
import { err } from "./output";

/** The issue's targets (ratio = numpy time / ours). */
const TARGETS = { gemm: 0.35, gemv: 0.5, sum3: 1.5, spmv: 0.7, spmm: 0.7 } as const;

const CASES: readonly PythonCase[] = [
  { name: "gemm 1000x1000x1000", kind: "gemm", n: 1000, runs: 5, warmup: 1 },
  { name: "gemm 2000x2000x2000", kind: "gemm", n: 2000, runs: 3, warmup: 1 },
  { name: "gemv 10000x1000", kind: "gemv", m: 10_000, n: 1000, runs: 30, warmup: 3 },
  { name: "sum(X*Y*Z) 1e6x100", kind: "sum3", m: 1_000_000, n: 100, runs: 5, warmup: 1 },
  { name: "spmv 1e5x1e3 at 1%", kind: "spmv", m: 100_000, n: 1, cols: 1000, perRow: 10, runs: 50, warmup: 3 },
  { name: "spmm 1e5x1e3 at 1% x 1000x20", kind: "spmm", m: 100_000, n: 20, cols: 1000, perRow: 10, runs: 20, warmup: 2 },
];

/** Arrays for one case: from the kernel heap (released after) or plain. */
interface Arrays {
  f64(length: number): Float64Array;
  i32(length: number): Int32Array;
  releaseAll(): void;
}

function heapArrays(w: WasmKernels | undefined): Arrays {
  const taken: (Float64Array | Int32Array)[] = [];
  return {
    f64: (length) => {
      const a = w ? w.heap.allocateF64(length) : new Float64Array(length);
      taken.push(a);
      return a;
    },
    i32: (length) => {
      const a = w ? w.heap.allocateI32(length) : new Int32Array(length);
      taken.push(a);
      return a;
    },
    releaseAll: () => {
      for (const a of taken.splice(0)) w?.heap.releaseArray(a);
    },
  };
}

const plainArrays: Arrays = { f64: (n) => new Float64Array(n), i32: (n) => new Int32Array(n), releaseAll: () => undefined };

interface Measured {
  medianMs: number;
  bestMs: number;
  check: number;
}

/** Makes the case's data in `arrays` and times the kernel on it. */
function measure(c: PythonCase, kernels: MatrixKernels, arrays: Arrays): Measured {
  let run: () => number;
  switch (c.kind) {
    case "gemm": {
      const n = c.n;
      const [a, b, out] = [fillUniform(arrays.f64(n * n), SEEDS.a), fillUniform(arrays.f64(n * n), SEEDS.b), arrays.f64(n * n)];
      run = () => (kernels.gemm(n, n, n, a, b, out), sum(out));
      break;
    }
    case "gemv": {
      const [a, x, y] = [fillUniform(arrays.f64(c.m * c.n), SEEDS.a), fillUniform(arrays.f64(c.n), SEEDS.x), arrays.f64(c.m)];
      run = () => (kernels.gemv(c.m, c.n, a, x, y), sum(y));
      break;
    }
    case "sum3": {
      const len = c.m * c.n;
      const [x, y, z] = [fillUniform(arrays.f64(len), SEEDS.x), fillUniform(arrays.f64(len), SEEDS.y), fillUniform(arrays.f64(len), SEEDS.z)];
      run = () => kernels.sumProduct3(x, y, z);
      break;
    }
    case "spmv":
    case "spmm": {
      const a = benchCsr(c.m, c.cols, c.perRow, arrays);
      if (c.kind === "spmv") {
        const [x, y] = [fillUniform(arrays.f64(c.cols), SEEDS.x), arrays.f64(c.m)];
        run = () => (kernels.spmv(a, x, y), sum(y));
      } else {
        const [b, out] = [fillUniform(arrays.f64(c.cols * c.n), SEEDS.b), arrays.f64(c.m * c.n)];
        run = () => (kernels.spmm(a, c.n, b, out), sum(out));
      }
      break;
    }
  }
  let check = 0;
  const t = timeRuns(
    () => {
      check = run();
    },
    { warmup: c.warmup, minRuns: c.runs, minTotalMs: 0, maxRuns: c.runs },
  );
  return { medianMs: t.medianMs, bestMs: t.minMs, check };
}

/** Times the interpreter's matmul on the case's data in kernel memory (gemv, spmv, spmm only). */
function measureInterpreterMatmul(c: PythonCase): Measured | undefined {
  let a: DenseMatrix | CsrMatrix;
  let b: DenseMatrix;
  if (c.kind === "gemv") {
    a = new DenseMatrix(c.m, c.n, fillUniform(allocateF64(c.m * c.n), SEEDS.a));
    b = new DenseMatrix(c.n, 1, fillUniform(allocateF64(c.n), SEEDS.x));
  } else if (c.kind === "spmv" || c.kind === "spmm") {
    const arrays: Arrays = { f64: (n) => allocateF64(n), i32: (n) => allocateI32(n), releaseAll: () => undefined };
    const csr = benchCsr(c.m, c.cols, c.perRow, arrays);
    a = new CsrMatrix(csr.rows, csr.cols, csr.rowPtr, csr.colIdx, csr.values);
    b = c.kind === "spmv" ? new DenseMatrix(c.cols, 1, fillUniform(allocateF64(c.cols), SEEDS.x)) : new DenseMatrix(c.cols, c.n, fillUniform(allocateF64(c.cols * c.n), SEEDS.b));
  } else return undefined;
  let check = 0;
  const t = timeRuns(
    () => {
      const product = matmul(a, b);
      check = isDense(product) ? sum(product.data) : Number.NaN;
      releaseMatrix(product);
    },
    { warmup: c.warmup, minRuns: c.runs, minTotalMs: 0, maxRuns: c.runs },
  );
  return { medianMs: t.medianMs, bestMs: t.minMs, check };
}

function benchCsr(rows: number, cols: number, perRow: number, arrays: Arrays): CsrArrays {
  const nnz = rows * perRow;
  const rowPtr = arrays.i32(rows + 1);
  const colIdx = arrays.i32(nnz);
  const values = arrays.f64(nnz);
  for (let r = 0; r <= rows; r++) rowPtr[r] = r * perRow;
  for (let r = 0; r < rows; r++) {
    for (let t = 0; t < perRow; t++) {
      const p = r * perRow + t;
      colIdx[p] = sparseColumn(r, t, cols, perRow, SEEDS.col);
      values[p] = hashUniform(p, SEEDS.val);
    }
  }
  return { rows, cols, rowPtr, colIdx, values };
}

function sum(a: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]!;
  return s;
}

function row(
  c: PythonCase,
  label: string,
  ours: Measured,
  baseline: string,
  python: PythonResults,
  extra: Record<string, unknown>,
): BenchRow {
  const base = python.ok ? python.cases[c.name] : undefined;
  const r: BenchRow = {
    suite: "runtime",
    case: label,
    ours_ms: round3(ours.medianMs),
    baseline,
    baseline_ms: base ? round3(base.medianMs) : null,
    ratio: base ? round3(base.medianMs / ours.medianMs) : null,
    ...extra,
    ours_best_ms: round3(ours.bestMs),
  };
  if (base) {
    r["baseline_best_ms"] = round3(base.bestMs);
    const diff = Math.abs(ours.check - base.check) / Math.max(1e-300, Math.abs(base.check));
    if (!(diff <= 1e-9)) {
      r["failed"] = true;
      r["note"] = `results differ: ours ${ours.check}, ${baseline} ${base.check}`;
    }
    if (typeof extra["target"] === "number") r["meets"] = base.medianMs / ours.medianMs >= extra["target"] ? "yes" : "no";
  } else {
    r["note"] = python.ok ? `${baseline} is not installed` : python.reason;
  }
  return r;
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

export async function runRuntimeBench(): Promise<BenchRow[]> {
  const w = wasmKernels();
  const kernels = matrixKernels();
  const cores = typeof os.availableParallelism === "function" ? os.availableParallelism() : os.cpus().length;
  err(`bench runtime: kernels ${kernels.backend}${w ? `, ${cores} threads` : ""}; timing numpy/scipy first (about a minute)...`);
  // Python first, so its arrays are gone before ours are made.
  const python = runPythonBaseline(CASES);
  const gemmCases = CASES.filter((c) => c.kind === "gemm");
  const python1 = runPythonBaseline(gemmCases, { singleThread: true });
  if (!python.ok) err(`bench runtime: no baseline: ${python.reason}`);
  await w?.whenReady();
  kernelThreads();
  await whenKernelThreadsReady();

  const rows: BenchRow[] = [];
  const target = (c: PythonCase): number => TARGETS[c.kind];
  const baselineName = (c: PythonCase): string => (c.kind === "spmv" || c.kind === "spmm" ? "scipy" : "numpy");
  for (const c of CASES) {
    const arrays = heapArrays(w);
    try {
      const threads = w ? w.activeThreads : 1;
      rows.push(row(c, c.name, measure(c, kernels, arrays), baselineName(c), python, { target: target(c), backend: kernels.backend, threads, inputs: "kernel heap" }));
    } finally {
      arrays.releaseAll();
    }
    const plainPath = c.kind === "gemm" || c.kind === "spmm" ? "copied into the heap" : "JS kernel";
    rows.push(
      row(c, `${c.name}, plain arrays`, measure(c, kernels, plainArrays), baselineName(c), python, {
        backend: w ? `${kernels.backend} (${plainPath})` : "js",
        inputs: "plain arrays",
      }),
    );
    const interpreted = measureInterpreterMatmul(c);
    if (interpreted) {
      const threads = kernelThreads().threads;
      rows.push(row(c, `${c.name}, interpreter matmul`, interpreted, baselineName(c), python, { target: target(c), backend: "js kernel threads", threads, inputs: "kernel memory" }));
    }
  }
  if (w) {
    const saved = w.threads;
    w.threads = 1;
    try {
      for (const c of gemmCases) {
        const arrays = heapArrays(w);
        try {
          rows.push(row(c, `${c.name}, 1 thread`, measure(c, w, arrays), "numpy-1-thread", python1, { backend: w.backend, threads: 1, inputs: "kernel heap" }));
        } finally {
          arrays.releaseAll();
        }
      }
    } finally {
      w.threads = saved;
    }
  }
  for (const r of rows) if (r.case.startsWith("gemm") && typeof r.ours_ms === "number") r["gflops"] = round3(gflops(r.case, r.ours_ms));
  return rows;
}

function gflops(label: string, ms: number): number {
  const n = Number(/gemm (\d+)x/.exec(label)?.[1] ?? 0);
  return (2 * n * n * n) / ms / 1e6;
}
