/**
 * The fusion-kernel cases of `dml bench fusion`: the issue's four templates
 * as small DML programs, each run by our runtime with the fused plan
 * (generated kernels) and as written (operation by operation), against numpy
 * on the same numbers (bench-runtime-data.ts streams; numpy makes them
 * itself in bench-fusion-kernels-numpy.ts):
 * - Cell `sum(X * Y * Z)`: fused >= 3x ours as written;
 * - MAgg `sum(X^2)`, `sum(X * Y)`, `sum(Y^2)` in one block: fused >= 2x ours
 *   as written (three separate passes);
 * - Row `t(X) %*% (w * (X %*% v))`: fused >= 1.5x numpy;
 * - Outer `sum(S * log(U %*% t(V) + 1e-15))`: fused >= 50x numpy written
 *   straightforwardly (a dense n x n product) and >= 1.5x numpy written
 *   sparse-aware (the product only at S's non-zeros).
 * The data is made before the clock starts and put into each run's session;
 * a run's time is the measured time of its blocks (the runner's
 * blockTimings: planning and compilation excluded), median of `runs` after
 * `warmup` (fewer for a case that takes seconds per run, as our unfused
 * runtime at full size: `ours_runs` / `baseline_runs` say how many).
 * Each row is one comparison: ratio = baseline / ours (above 1: we are
 * faster), with its target and whether it is met; comparisons the issue
 * sets no target for are printed with target "none". Every run's
 * result is checked against the others' (sum of the result, 1e-9 relative).
 */
import { allocateF64, allocateI32, csrShared, CsrMatrix, DenseMatrix } from "../engine/runtime/matrix";
import { executionSession, type PlanMode } from "../engine/execution";
import { DEFAULT_MEMORY_BUDGET, type Value } from "../engine/runtime/interpreter";
import { median, type BenchRow } from "./bench-report";
import { runNumpyKernels, type KernelCaseKind, type KernelSizes, type NumpyKernels, type NumpyKernelTiming } from "./bench-fusion-kernels-numpy";
import { environmentText } from "./bench-python";
import { fillUniform, hashUniform, sparseColumn } from "./bench-runtime-data";
import type { PythonRun } from "./bench-python";
import { selectsCase } from "./bench-only";
import { err } from "./output";

const KERNEL_SIZES: KernelSizes = { rows: 1_000_000, cols: 100, outerN: 20_000, outerPerRow: 20, outerRank: 100 };
export const QUICK_KERNEL_SIZES: KernelSizes = { rows: 2_000, cols: 10, outerN: 300, outerPerRow: 3, outerRank: 5 };

/** Seeds of the data streams, shared with numpy. */
const SEEDS = { x: 3, y: 4, z: 5, w: 8, v: 9, u: 10, vv: 11, col: 6, val: 7 };
const CHECK_TOLERANCE = 1e-9;
/** The dense Outer of numpy gets this long (it runs once, in a process of its own). */
const OUTER_DENSE_TIMEOUT_MS = 240_000;
/** A run this slow needs no warm-up (the bench's safety net for cases run as written at full size). */
const SLOW_RUN_MS = 5_000;
/** Timed runs of one case and mode stop once they took this long together (at least one runs). */
const TIMED_BUDGET_MS = 20_000;
/**
 * Our sessions' memory budget: the inputs of the dense cases alone are 2.4 GB
 * at full size, over a session's default 2 GiB, and our unfused runtime
 * adds 0.8 GB intermediates.
 */
const SESSION_MEMORY_BUDGET = 8 * 2 ** 30;

export interface KernelBenchOptions {
  sizes?: KernelSizes;
  runs?: number;
  warmup?: number;
  /** Only the cases whose label contains this text (case-insensitive; bench-only.ts). */
  only?: string;
}

interface KernelCase {
  kind: KernelCaseKind;
  label: string;
  dml: string;
  /** Variables whose values (scalars, or a matrix's cells) sum to the check. */
  outputs: string[];
}

function cases(z: KernelSizes): KernelCase[] {
  const dense = `${z.rows}x${z.cols}`;
  const outer = `S ${z.outerN}x${z.outerN} with ${z.outerPerRow} non-zeros per row, rank ${z.outerRank}`;
  return [
    { kind: "cell", label: `Cell sum(X*Y*Z), X Y Z ${dense}`, dml: "s = sum(X * Y * Z)", outputs: ["s"] },
    { kind: "magg", label: `MAgg sum(X^2), sum(X*Y), sum(Y^2), X Y ${dense}`, dml: "a = sum(X^2)\nb = sum(X * Y)\nc = sum(Y^2)", outputs: ["a", "b", "c"] },
    { kind: "row", label: `Row t(X) %*% (w * (X %*% v)), X ${dense}`, dml: "r = t(X) %*% (w * (X %*% v))", outputs: ["r"] },
    { kind: "outer", label: `Outer sum(S * log(U %*% t(V) + 1e-15)), ${outer}`, dml: "s = sum(S * log(U %*% t(V) + 1e-15))", outputs: ["s"] },
  ];
}

/** The kernel cases' labels at sizes `z` (what `--only` matches). */
export function kernelCaseLabels(z: KernelSizes = KERNEL_SIZES): string[] {
  return cases(z).map((c) => c.label);
}

interface OurTiming {
  medianMs: number;
  runs: number;
  check: number;
  fusedOperators: number;
  unfused: string[];
}

type Measured = OurTiming | { error: string };

/** The data is allocated as the runtime allocates a matrix of its size (in kernel memory when large), so the kernels see it as they see read or generated data. */
function dense(rows: number, cols: number, seed: number): Value {
  return { kind: "matrix", matrix: new DenseMatrix(rows, cols, fillUniform(allocateF64(rows * cols), seed)) };
}

/** S of the Outer case: perRow entries per row, one per band of columns (numpy's sparse_csr). */
function sparse(n: number, perRow: number): Value {
  const nnz = n * perRow;
  const rowPtr = allocateI32(n + 1, csrShared(n, nnz));
  const colIdx = allocateI32(nnz, csrShared(n, nnz));
  const values = allocateF64(nnz, csrShared(n, nnz));
  for (let r = 0; r <= n; r++) rowPtr[r] = r * perRow;
  for (let r = 0; r < n; r++) {
    for (let t = 0; t < perRow; t++) {
      const p = r * perRow + t;
      colIdx[p] = sparseColumn(r, t, n, perRow, SEEDS.col);
      values[p] = hashUniform(p, SEEDS.val);
    }
  }
  return { kind: "matrix", matrix: new CsrMatrix(n, n, rowPtr, colIdx, values) };
}

function valueSum(v: Value | undefined): number {
  if (v === undefined) return Number.NaN;
  if (v.kind === "scalar") return typeof v.value === "number" ? v.value : Number.NaN;
  if (v.kind !== "matrix") return Number.NaN;
  const m = v.matrix;
  const cells = m.format === "dense" ? m.data : m.values.subarray(0, m.rowPtr[m.rows]!);
  let s = 0;
  for (let i = 0; i < cells.length; i++) s += cells[i]!;
  return s;
}

/**
 * Runs `c` in fresh sessions holding `data`: `warmup` untimed runs, then
 * `runs` timed ones; the median of the blocks' measured times. A slow case
 * (a run over SLOW_RUN_MS, as written at full size) skips the rest of its
 * warm-up and stops after the first timed run past TIMED_BUDGET_MS in all;
 * `runs` in the result says how many were timed.
 */
function timeOurs(c: KernelCase, data: ReadonlyMap<string, Value>, plan: PlanMode, runs: number, warmup: number): Measured {
  const samples: number[] = [];
  let check = Number.NaN;
  let fusedOperators = 0;
  let unfused: string[] = [];
  let warm = 0;
  while (samples.length < runs) {
    const { session, runner } = executionSession({ plan, print: () => undefined, memoryBudget: SESSION_MEMORY_BUDGET });
    for (const [name, value] of data) session.env.set(name, value);
    const result = session.runCell(c.dml);
    if (!result.ok) return { error: result.errors.join("; ") };
    const timings = runner.blockTimings();
    const ms = timings.reduce((t, b) => t + b.measuredSeconds, 0) * 1000;
    check = c.outputs.reduce((t, name) => t + valueSum(session.env.get(name)), 0);
    fusedOperators = timings.reduce((t, b) => t + b.fusedOperators, 0);
    unfused = timings.flatMap((b) => b.unfused);
    if (warm < warmup && ms <= SLOW_RUN_MS) {
      warm++;
      continue;
    }
    warm = warmup;
    samples.push(ms);
    if (samples.reduce((t, x) => t + x, 0) > TIMED_BUDGET_MS) break;
  }
  return { medianMs: median(samples), runs: samples.length, check, fusedOperators, unfused };
}

function sameCheck(a: number, b: number): boolean {
  return Math.abs(a - b) <= CHECK_TOLERANCE * Math.max(Math.abs(a), Math.abs(b), 1e-300);
}

interface Comparison {
  baseline: string;
  /** The baseline's timing, or why there is none. */
  timing: { medianMs: number; runs: number; check: number } | { error: string };
  target: number | null;
}

function comparisonRow(c: KernelCase, fused: Measured, cmp: Comparison): BenchRow {
  const base = { suite: "fusion", case: `${c.label}: fused vs ${cmp.baseline}`, baseline: cmp.baseline, target: cmp.target === null ? "none" : `>= ${cmp.target}x` };
  if ("error" in fused) {
    const baselineMs = "error" in cmp.timing ? null : round3(cmp.timing.medianMs);
    return { ...base, ours_ms: 0, baseline_ms: baselineMs, ratio: null, ...(cmp.target !== null ? { target_met: false } : {}), failed: true, note: `ours (fused) failed: ${fused.error}` };
  }
  const ours = { ours_ms: round3(fused.medianMs), ours_runs: fused.runs, fused_operators: fused.fusedOperators, ...(fused.unfused.length > 0 ? { unfused: fused.unfused.join("; ") } : {}) };
  if ("error" in cmp.timing) return { ...base, ...ours, baseline_ms: null, ratio: null, ...(cmp.target !== null ? { target_met: false } : {}), note: `${cmp.baseline}: ${cmp.timing.error}` };
  const ratio = cmp.timing.medianMs / fused.medianMs;
  const same = sameCheck(fused.check, cmp.timing.check);
  return {
    ...base,
    ...ours,
    baseline_ms: round3(cmp.timing.medianMs),
    baseline_runs: cmp.timing.runs,
    ratio: round3(ratio),
    ...(cmp.target !== null ? { target_met: ratio >= cmp.target } : {}),
    check_ours: fused.check,
    check_baseline: cmp.timing.check,
    same_result: same,
    ...(same ? {} : { failed: true, note: `results differ beyond ${CHECK_TOLERANCE} relative` }),
  };
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

function numpyTiming(run: PythonRun<NumpyKernels>, name: string): Comparison["timing"] {
  if (!run.ok) return { error: run.reason };
  const t = run.value.cases[name] as NumpyKernelTiming | { error: string } | undefined;
  return t === undefined ? { error: "not run" } : t;
}

/** The four fusion-kernel comparisons of the issue, with the informative ones beside them. */
export function runFusionKernelBench(options: KernelBenchOptions = {}): BenchRow[] {
  const z = options.sizes ?? KERNEL_SIZES;
  const runs = options.runs ?? 3;
  const warmup = options.warmup ?? 1;
  const timeoutMs = 600_000;
  const outerDenseBytes = z.outerN * z.outerN * 8;
  const [cell, magg, row, outer] = cases(z);
  const chosen = (c: KernelCase | undefined): c is KernelCase => c !== undefined && selectsCase(options.only, c.label);
  const anyDense = [cell, magg, row].some(chosen);
  const notRun: PythonRun<NumpyKernels> = { ok: false, reason: "not selected by --only" };
  // numpy first, so that its arrays are gone before ours are made.
  err(`bench fusion: numpy on the kernel cases (${z.rows}x${z.cols} dense, Outer ${z.outerN}^2)...`);
  const numpyDense = anyDense ? runNumpyKernels({ sizes: z, seeds: SEEDS, runs, warmup, part: "dense" }, timeoutMs) : notRun;
  const numpyOuter = chosen(outer) ? runNumpyKernels({ sizes: z, seeds: SEEDS, runs, warmup, part: "outer" }, timeoutMs) : notRun;
  const numpyOuterDense = chosen(outer) ? runNumpyKernels({ sizes: z, seeds: SEEDS, runs: 1, warmup: 0, part: "outer-dense" }, OUTER_DENSE_TIMEOUT_MS) : notRun;
  const environment = [numpyDense, numpyOuter].find((r) => r.ok);

  const rows: BenchRow[] = [];
  const ours = (c: KernelCase, data: ReadonlyMap<string, Value>) => {
    err(`bench fusion: ours on ${c.label}...`);
    return { fused: timeOurs(c, data, "fused", runs, warmup), asWritten: timeOurs(c, data, "as-written", runs, warmup) };
  };
  const asTiming = (m: Measured): Comparison["timing"] => ("error" in m ? m : { medianMs: m.medianMs, runs: m.runs, check: m.check });
  if (anyDense) {
    const X = dense(z.rows, z.cols, SEEDS.x);
    const Y = dense(z.rows, z.cols, SEEDS.y);
    if (chosen(cell)) {
      const t = ours(cell, new Map([["X", X], ["Y", Y], ["Z", dense(z.rows, z.cols, SEEDS.z)]]));
      rows.push(comparisonRow(cell, t.fused, { baseline: "ours as-written", timing: asTiming(t.asWritten), target: 3 }));
      rows.push(comparisonRow(cell, t.fused, { baseline: "numpy", timing: numpyTiming(numpyDense, "cell straightforward"), target: null }));
    }
    if (chosen(magg)) {
      const t = ours(magg, new Map([["X", X], ["Y", Y]]));
      rows.push(comparisonRow(magg, t.fused, { baseline: "ours as-written (three separate passes)", timing: asTiming(t.asWritten), target: 2 }));
      rows.push(comparisonRow(magg, t.fused, { baseline: "numpy", timing: numpyTiming(numpyDense, "magg straightforward"), target: null }));
    }
    if (chosen(row)) {
      const t = ours(row, new Map([["X", X], ["w", dense(z.rows, 1, SEEDS.w)], ["v", dense(z.cols, 1, SEEDS.v)]]));
      rows.push(comparisonRow(row, t.fused, { baseline: "numpy", timing: numpyTiming(numpyDense, "row straightforward"), target: 1.5 }));
      rows.push(comparisonRow(row, t.fused, { baseline: "ours as-written", timing: asTiming(t.asWritten), target: null }));
    }
  }
  if (chosen(outer)) {
    const data = new Map([["S", sparse(z.outerN, z.outerPerRow)], ["U", dense(z.outerN, z.outerRank, SEEDS.u)], ["V", dense(z.outerN, z.outerRank, SEEDS.vv)]]);
    err(`bench fusion: ours on ${outer.label}...`);
    const fused = timeOurs(outer, data, "fused", runs, warmup);
    const denseTiming = numpyTiming(numpyOuterDense, "outer straightforward");
    rows.push(
      comparisonRow(outer, fused, {
        baseline: "numpy straightforward (dense U @ V.T, one run)",
        timing: "error" in denseTiming ? { error: `${denseTiming.error} (the dense product is ${gb(outerDenseBytes)})` } : denseTiming,
        target: 50,
      }),
    );
    rows.push(comparisonRow(outer, fused, { baseline: "numpy sparse-aware (products at S's non-zeros)", timing: numpyTiming(numpyOuter, "outer sparse-aware"), target: 1.5 }));
    // As written, U %*% t(V) is a dense n x n intermediate: not run when it alone is over a session's default budget.
    const asWritten: Comparison["timing"] =
      outerDenseBytes > DEFAULT_MEMORY_BUDGET
        ? { error: `not run: U %*% t(V) is a dense ${z.outerN}x${z.outerN} intermediate of ${gb(outerDenseBytes)}, over a session's default ${DEFAULT_MEMORY_BUDGET / 2 ** 30} GiB budget (numpy straightforward measures that plan)` }
        : asTiming(timeOurs(outer, data, "as-written", runs, warmup));
    rows.push(comparisonRow(outer, fused, { baseline: "ours as-written", timing: asWritten, target: null }));
  }
  const envText = environment?.ok ? environmentText(environment.value.environment) : `no numpy: ${!numpyDense.ok ? numpyDense.reason : ""}`;
  for (const r of rows) if (r.baseline.startsWith("numpy")) r["numpy_env"] = envText;
  return rows;
}

function gb(bytes: number): string {
  return `${(bytes / 1e9).toFixed(1)} GB`;
}
