/**
 * `dml bench calibrate`: measures the cost model's machine constants on this
 * machine with small JavaScript microbenchmarks (calibrate-kernels.ts), prints
 * them next to the defaults, stores them in the machine file
 * (engine/cost/machine-file.ts: $DML_LENS_MACHINE, else
 * $XDG_CACHE_HOME/dml-lens/machine.json, else ~/.cache/dml-lens/machine.json)
 * and returns bench rows. About 3–5 s in all.
 *
 * Rows, one per measured constant (`baseline: "defaults"`):
 *   ours_ms      the fastest run of the kernel on this machine
 *   baseline_ms  the time the default constant predicts for the same work
 *   ratio        baseline_ms / ours_ms = measured rate / default rate
 *                (above 1: this machine is faster than the defaults assume)
 * and two GEMM rows against numpy (`baseline: "numpy"`, BLAS with its default
 * threads, and `"numpy-1-thread"`), ratio = numpy ms / our ms = our GFLOP/s /
 * numpy's (below 1: plain JS is slower, as expected); when python3 or numpy
 * is missing, baseline_ms and ratio are null and `note` says why.
 *
 * The disk read bandwidth is not measured (a file just written sits in the
 * page cache, so a quick measurement would report memory speed): the value
 * already in the machine file, else the default, is kept.
 */
import os from "node:os";
import {
  DEFAULT_MACHINE_CONSTANTS,
  formatQuantity,
  loadMachineConstants,
  MACHINE_CONSTANT_INFO,
  machineFilePath,
  saveMachineConstants,
  type MachineConstantName,
  type MachineConstants,
} from "../engine/cost";
import type { BenchRow } from "./bench-report";
import {
  blockedGemm,
  csrSpmv,
  measurement,
  randomCsr,
  randomDense,
  seededRandom,
  streamingFill,
  streamingSum,
  timeKernel,
  type KernelMeasurement,
} from "./calibrate-kernels";
import { numpyGemm, type NumpyGemmResult } from "./calibrate-numpy";
import { err, formatTable } from "./output";

export interface CalibrateOptions {
  /** Bytes of the array streamed for read / write bandwidth (default 128 MiB, far beyond caches). */
  streamBytes?: number;
  /** n of the n×n GEMM (default 512). */
  gemmSize?: number;
  /** The SpMV matrix: rows = cols, non-zeros per row (default 200,000 and 16). */
  spmvRows?: number;
  spmvPerRow?: number;
  /** Compare with numpy (default true). */
  numpy?: boolean;
  /** Where to store the constants (default `machineFilePath()`). */
  machineFile?: string;
  /** Where progress and the summary go (default stderr). */
  log?: (line: string) => void;
}

/** numpy's GEMM takes milliseconds, but its times vary a lot on shared machines: take the best of many runs. */
const numpyRuns = 20;

interface Measured {
  name: MachineConstantName;
  caseName: string;
  m: KernelMeasurement;
}

export function runCalibrateBench(options: CalibrateOptions = {}): BenchRow[] {
  const streamBytes = options.streamBytes ?? 128 * 1024 * 1024;
  const n = options.gemmSize ?? 512;
  const spmvRows = options.spmvRows ?? 200_000;
  const spmvPerRow = options.spmvPerRow ?? 16;
  const file = options.machineFile ?? machineFilePath();
  const log = options.log ?? err;
  const random = seededRandom(42);

  const previous = loadMachineConstants(file);
  const measured = measureAll(streamBytes, n, spmvRows, spmvPerRow, random);
  const constants: MachineConstants = {
    ...DEFAULT_MACHINE_CONSTANTS,
    diskReadBytesPerSecond: previous.source === "defaults" ? DEFAULT_MACHINE_CONSTANTS.diskReadBytesPerSecond : previous.constants.diskReadBytesPerSecond,
  };
  for (const x of measured) constants[x.name] = x.m.ratePerSecond;

  const gemm = measured.find((x) => x.name === "flopsPerSecond")!.m;
  const numpy = options.numpy === false ? undefined : { threads: numpyGemm(n, numpyRuns), single: numpyGemm(n, numpyRuns, { singleThread: true }) };

  const saved = saveMachineConstants(constants, file, {
    measuredBy: "dml bench calibrate",
    node: process.version,
    cpu: os.cpus()[0]?.model ?? null,
    cpus: os.cpus().length,
    streamBytes,
    gemmSize: n,
    spmv: `${spmvRows}x${spmvRows}, ${spmvPerRow} per row`,
    diskReadBytesPerSecond: "not measured",
    numpyGemmGflops: numpy?.threads.ok ? round3(gflops(n, numpy.threads.bestMs)) : null,
  });

  log(summary(constants, measured, file, saved.ok ? undefined : saved.message, numpy, n, gemm));
  return [...measured.map(constantRow), ...(numpy ? numpyRows(n, gemm, numpy) : [])];
}

function measureAll(streamBytes: number, n: number, spmvRows: number, spmvPerRow: number, random: () => number): Measured[] {
  const stream = randomDense(Math.max(1024, Math.floor(streamBytes / 8)), random);
  const bytes = stream.length * 8;
  const mib = `${Math.round(bytes / (1024 * 1024))}MiB`;
  const streamRuns = { warmup: 1, minRuns: 5, minTotalMs: 200, maxRuns: 30 };
  const read = measurement(bytes, timeKernel(() => streamingSum(stream), streamRuns));
  let fillValue = 0;
  const write = measurement(bytes, timeKernel(() => streamingFill(stream, ++fillValue), streamRuns));

  const a = randomDense(n * n, random);
  const b = randomDense(n * n, random);
  const c = new Float64Array(n * n);
  const gemmTiming = timeKernel(
    () => {
      c.fill(0);
      blockedGemm(a, b, c, n, n, n);
      return c[0] ?? 0;
    },
    { warmup: 1, minRuns: 3, minTotalMs: 500, maxRuns: 10 },
  );
  const gemm = measurement(2 * n * n * n, gemmTiming);

  const sparse = randomCsr(spmvRows, spmvRows, spmvPerRow, random);
  const x = randomDense(spmvRows, random);
  const y = new Float64Array(spmvRows);
  const spmvTiming = timeKernel(
    () => {
      csrSpmv(sparse, x, y);
      return y[0] ?? 0;
    },
    { warmup: 2, minRuns: 5, minTotalMs: 300, maxRuns: 40 },
  );
  const spmv = measurement(2 * sparse.values.length, spmvTiming);

  return [
    { name: "memoryBandwidthBytesPerSecond", caseName: `memory-read-sum-${mib}`, m: read },
    { name: "writeBandwidthBytesPerSecond", caseName: `memory-write-fill-${mib}`, m: write },
    { name: "flopsPerSecond", caseName: `dense-gemm-${n}x${n}`, m: gemm },
    { name: "sparseFlopsPerSecond", caseName: `csr-spmv-${spmvRows}x${spmvRows}-${spmvPerRow}-per-row`, m: spmv },
  ];
}

function constantRow({ name, caseName, m }: Measured): BenchRow {
  const info = MACHINE_CONSTANT_INFO.find((i) => i.name === name)!;
  const baselineMs = (m.work / DEFAULT_MACHINE_CONSTANTS[name]) * 1000;
  return {
    suite: "calibrate",
    case: caseName,
    ours_ms: m.bestMs,
    baseline: "defaults",
    baseline_ms: baselineMs,
    ratio: baselineMs / m.bestMs,
    constant: name,
    measured: round3(m.ratePerSecond / 1e9),
    default: round3(DEFAULT_MACHINE_CONSTANTS[name] / 1e9),
    unit: info.unit,
    median_ms: m.medianMs,
    runs: m.runs,
  };
}

function numpyRows(n: number, gemm: KernelMeasurement, numpy: { threads: NumpyGemmResult; single: NumpyGemmResult }): BenchRow[] {
  const row = (baseline: string, r: NumpyGemmResult): BenchRow => {
    const head = { suite: "calibrate", case: `gemm-${n}x${n}-vs-numpy`, ours_ms: gemm.bestMs, baseline };
    const ours_gflops = round3(gflops(n, gemm.bestMs));
    if (!r.ok) return { ...head, baseline_ms: null, ratio: null, ours_gflops, note: `skipped: ${r.reason}` };
    return {
      ...head,
      baseline_ms: r.bestMs,
      ratio: r.bestMs / gemm.bestMs,
      ours_gflops,
      numpy_gflops: round3(gflops(n, r.bestMs)),
      numpy_median_ms: r.medianMs,
      numpy_runs: r.runs,
      numpy_version: r.version,
    };
  };
  return [row("numpy", numpy.threads), row("numpy-1-thread", numpy.single)];
}

function summary(
  constants: MachineConstants,
  measured: readonly Measured[],
  file: string,
  saveError: string | undefined,
  numpy: { threads: NumpyGemmResult; single: NumpyGemmResult } | undefined,
  n: number,
  gemm: KernelMeasurement,
): string {
  const rate = (v: number, unit: string) => formatQuantity(v, unit === "GB/s" ? "B/s" : "FLOP/s");
  const lines = MACHINE_CONSTANT_INFO.map(({ name, description, unit }) => {
    const m = measured.find((x) => x.name === name);
    const value = m ? rate(constants[name], unit) : `not measured, kept ${rate(constants[name], unit)}`;
    return [description, value, rate(DEFAULT_MACHINE_CONSTANTS[name], unit)];
  });
  const out = [
    `calibrate: machine constants measured on this machine (one JavaScript thread, ${os.cpus().length} CPUs, node ${process.version}):`,
    formatTable(["constant", "this machine", "default"], lines).replace(/^/gm, "  "),
    saveError ? `calibrate: warning: ${saveError}; the constants were not stored` : `calibrate: stored in ${file}`,
  ];
  if (numpy) {
    const ours = `ours ${rate(gflops(n, gemm.bestMs) * 1e9, "GFLOP/s")}`;
    const show = (r: NumpyGemmResult) => (r.ok ? rate(gflops(n, r.bestMs) * 1e9, "GFLOP/s") : `skipped (${r.reason})`);
    const version = numpy.threads.ok ? `numpy ${numpy.threads.version}` : "numpy";
    out.push(`calibrate: ${n}×${n} GEMM, ${version}: ${show(numpy.threads)} (BLAS default threads), ${show(numpy.single)} (1 thread); ${ours}`);
  }
  return out.join("\n");
}

function gflops(n: number, ms: number): number {
  return (2 * n * n * n) / (ms / 1000) / 1e9;
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
