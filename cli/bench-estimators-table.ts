/**
 * The text report of `dml bench estimators`: one line per case with the true
 * non-zeros and each estimator's estimate and q-error, then a summary line
 * per estimator (median and max q-error, timing, and the checks).
 */
import { type BenchRow, quantile } from "./bench-report";
import { formatTable } from "./output";

interface CaseLine {
  name: string;
  dims: string;
  truth: number;
  exactMs: number;
  byEstimator: Map<string, BenchRow>;
}

export function formatEstimatorsReport(rows: readonly BenchRow[]): string {
  const estimators = [...new Set(rows.map((r) => String(r.estimator)))];
  const cases = new Map<string, CaseLine>();
  for (const r of rows) {
    const name = `${String(r.source)}: ${String(r.expression)}`;
    let line = cases.get(name);
    if (!line) {
      line = { name, dims: String(r.dims), truth: Number(r.true_nnz), exactMs: r.baseline_ms ?? Number.NaN, byEstimator: new Map() };
      cases.set(name, line);
    }
    line.byEstimator.set(String(r.estimator), r);
  }
  const header = ["case", "dims", "true nnz", ...estimators.flatMap((e) => [`${e} est`, "q"]), "exact ms", ...estimators.map((e) => `${e} ms`)];
  const body = [...cases.values()].map((c) => [
    c.name + (c.byEstimator.get("mnc")?.mnc_exact_case === true ? " *" : ""),
    c.dims,
    String(c.truth),
    ...estimators.flatMap((e) => {
      const r = c.byEstimator.get(e);
      return r ? [count(Number(r.estimate)) + (r.failed === true ? " !" : ""), q(r.q_error)] : ["-", "-"];
    }),
    ms(c.exactMs),
    ...estimators.map((e) => {
      const r = c.byEstimator.get(e);
      return r ? ms(r.ours_ms) : "-";
    }),
  ]);
  const lines = [
    "suite estimators: q-error = max(est/true, true/est); * = a case MNC must get exactly; ! = a failed check",
    formatTable(header, body),
    "",
    ...estimators.map((e) => summaryLine(e, rows.filter((r) => r.estimator === e))),
    "",
    byKindTable(estimators, rows),
  ];
  return lines.join("\n");
}

function summaryLine(estimator: string, rows: readonly BenchRow[]): string {
  const qs = rows.map((r) => (typeof r.q_error === "number" ? r.q_error : Infinity)).sort((a, b) => a - b);
  const worst = rows.reduce((w, r) => (qOf(r) > qOf(w) ? r : w), rows[0]!);
  const median = (values: number[]) => quantile(values.sort((a, b) => a - b), 0.5);
  const estimateMs = median(rows.map((r) => r.ours_ms));
  const exactMs = median(rows.map((r) => r.baseline_ms ?? 0));
  const buildMs = median(rows.map((r) => Number(r.build_ms)));
  const parts = [
    `${estimator}:`,
    `median q-error ${q(quantile(qs, 0.5))},`,
    `max ${q(qs[qs.length - 1]!)} (${String(worst.source)}: ${String(worst.expression)}),`,
    `median time ${ms(estimateMs)} ms per estimate (statistics from data ${ms(buildMs)} ms) vs exact ${ms(exactMs)} ms`,
  ];
  if (estimator === "chain") {
    parts.push(`; chain bound underestimates: ${rows.filter((r) => Number(r.estimate) < Number(r.true_nnz)).length}`);
  }
  if (estimator === "mnc") {
    const exactCases = rows.filter((r) => r.mnc_exact_case === true);
    parts.push(`; MNC exact cases exact: ${exactCases.filter((r) => r.failed !== true).length}/${exactCases.length}`);
  }
  return parts.join(" ");
}

/** Median / max q-error per estimator and kind of case. */
function byKindTable(estimators: readonly string[], rows: readonly BenchRow[]): string {
  const kinds = [...new Set(rows.map((r) => String(r.kind)))];
  const cell = (e: string, kind: string) => {
    const qs = rows.filter((r) => r.estimator === e && r.kind === kind).map(qOf).sort((a, b) => a - b);
    return qs.length === 0 ? "-" : `${q(quantile(qs, 0.5))} / ${q(qs[qs.length - 1]!)}`;
  };
  return formatTable(
    ["q-error median / max", ...kinds],
    estimators.map((e) => [e, ...kinds.map((k) => cell(e, k))]),
  );
}

function qOf(r: BenchRow): number {
  return typeof r.q_error === "number" ? r.q_error : Infinity;
}

function q(v: unknown): string {
  if (typeof v !== "number" || !Number.isFinite(v)) return "inf";
  return v < 10 ? v.toFixed(3) : v < 1000 ? v.toFixed(1) : v.toExponential(2);
}

/** Milliseconds with three significant digits. */
function ms(v: number): string {
  if (!Number.isFinite(v)) return "-";
  return v >= 100 ? v.toFixed(0) : v.toPrecision(3);
}

function count(v: number): string {
  return Number.isInteger(v) ? String(v) : v.toFixed(1);
}
