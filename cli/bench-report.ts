/** Benchmark rows (the `--json` contract of `dml bench`) and their text table. */
import { formatTable } from "./output";

/** One measured case. `ratio` = baseline_ms / ours_ms (above 1: we are faster). */
export interface BenchRow {
  suite: string;
  case: string;
  ours_ms: number;
  baseline: string;
  baseline_ms: number | null;
  ratio: number | null;
  /** Extra, suite-specific numbers (p90, throughput, ...), printed as notes. */
  [extra: string]: unknown;
}

export interface TimingSummary {
  runs: number;
  medianMs: number;
  p90Ms: number;
  minMs: number;
}

/** Times `fn`: `warmup` untimed calls, then at least `minRuns` timed ones (more until `minTotalMs`). */
export function timeRuns(fn: () => void, options: { warmup: number; minRuns: number; minTotalMs: number; maxRuns: number }): TimingSummary {
  for (let i = 0; i < options.warmup; i++) fn();
  const samples: number[] = [];
  let total = 0;
  while (samples.length < options.minRuns || (total < options.minTotalMs && samples.length < options.maxRuns)) {
    const start = performance.now();
    fn();
    const ms = performance.now() - start;
    samples.push(ms);
    total += ms;
  }
  samples.sort((a, b) => a - b);
  return {
    runs: samples.length,
    medianMs: quantile(samples, 0.5),
    p90Ms: quantile(samples, 0.9),
    minMs: samples[0]!,
  };
}

/** Linear-interpolated quantile of sorted samples. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

/** The median of samples in any order (NaN when there are none). */
export function median(values: readonly number[]): number {
  return quantile([...values].sort((a, b) => a - b), 0.5);
}

export function formatBenchTable(rows: readonly BenchRow[]): string {
  const fixed = new Set(["suite", "case", "ours_ms", "baseline", "baseline_ms", "ratio"]);
  return formatTable(
    ["suite", "case", "ours ms", "baseline", "baseline ms", "ratio", "notes"],
    rows.map((r) => [
      r.suite,
      r.case,
      r.ours_ms.toFixed(3),
      r.baseline,
      r.baseline_ms === null ? "-" : r.baseline_ms.toFixed(3),
      r.ratio === null ? "-" : r.ratio.toFixed(2),
      Object.entries(r)
        .filter(([k]) => !fixed.has(k))
        .map(([k, v]) => `${k}=${noteValue(v)}`)
        .join(" "),
    ]),
  );
}

/** A note's value as text: numbers rounded, objects and arrays as JSON (numbers inside rounded too). */
function noteValue(v: unknown): string {
  if (typeof v === "number") return round(v);
  if (typeof v === "object" && v !== null) return JSON.stringify(v, (_key, inner: unknown) => (typeof inner === "number" && !Number.isInteger(inner) ? Number(inner.toFixed(3)) : inner));
  return String(v);
}

function round(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(3);
}
