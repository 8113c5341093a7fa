/**
 * `dml bench estimators`: accuracy (q-error) and speed of the three sparsity
 * estimators against the exact non-zero count, on the cases of
 * bench-estimators-cases.ts. One row per case and estimator:
 * ours_ms = estimation time (statistics of the inputs prebuilt, their build
 * time in build_ms), baseline "exact" = computing the true structure.
 *
 * Checks (rows get `failed: true`, and `dml bench` exits 1): the chain bound
 * never underestimates, and MNC is exact where its theory says it is.
 */
import path from "node:path";
import {
  allEstimators,
  evaluateExact,
  evaluateWith,
  exprInputs,
  exprShape,
  exprText,
  mncEstimator,
  mncProductIsExact,
  type SparsityEstimator,
  type SparsityExpr,
} from "../engine/stats/estimators";
import { structureNnz, type SparsityStructure } from "../engine/stats/structure";
import { allEstimatorCases, type EstimatorCase } from "./bench-estimators-cases";
import { type BenchRow, timeRuns } from "./bench-report";
import { err } from "./output";
import { packageRoot } from "./package-root";

/** max(est/true, true/est); 0/0 is 1, a single 0 is infinitely wrong. */
export function qError(estimate: number, truth: number): number {
  if (estimate === truth) return 1;
  if (estimate <= 0 || truth <= 0) return Infinity;
  return Math.max(estimate / truth, truth / estimate);
}

/**
 * Whether MNC's estimate of `e` must be exact: an input or its transpose; an
 * aggregate of one; an element-wise op of one matrix with broadcast vectors;
 * a product of two whose sketches meet MNC's exact condition.
 */
export function mncMustBeExact(e: SparsityExpr): boolean {
  const leaf = (x: SparsityExpr): x is Extract<SparsityExpr, { op: "input" | "t" }> =>
    x.op === "input" || (x.op === "t" && x.arg.op === "input");
  if (leaf(e)) return true;
  if (e.op === "agg") return leaf(e.arg);
  if (e.op === "*" || e.op === "+") {
    const shape = exprShape(e);
    const full = e.args.filter((a) => {
      const s = exprShape(a);
      return s.rows === shape.rows && s.cols === shape.cols && shape.rows > 1 && shape.cols > 1;
    });
    return e.args.every(leaf) && full.length <= 1;
  }
  if (e.op === "%*%" && leaf(e.left) && leaf(e.right)) {
    const sketch = (x: SparsityExpr) => evaluateWith(mncEstimator, x);
    return mncProductIsExact(sketch(e.left), sketch(e.right));
  }
  return false;
}

const exactTiming = { warmup: 0, minRuns: 3, minTotalMs: 50, maxRuns: 20 };
const estimateTiming = { warmup: 1, minRuns: 7, minTotalMs: 5, maxRuns: 100 };

/**
 * Median milliseconds per call of a fast `fn`: calls are batched so that one
 * timed sample lasts about 0.2 ms, above the clock's resolution.
 */
function timePerCall(fn: () => void): number {
  const start = performance.now();
  fn();
  const once = performance.now() - start;
  const batch = Math.max(1, Math.min(10_000, Math.ceil(0.2 / Math.max(once, 1e-4))));
  const timing = timeRuns(() => {
    for (let k = 0; k < batch; k++) fn();
  }, estimateTiming);
  return timing.medianMs / batch;
}

function estimatorRow<S>(
  estimator: SparsityEstimator<S>,
  c: EstimatorCase,
  truth: number,
  exactMs: number,
  mustBeExact: boolean,
): BenchRow {
  const leaves = exprInputs(c.expr);
  let stats = new Map<string, S>();
  const build = () => {
    stats = new Map([...leaves].map(([name, s]) => [name, estimator.fromData(s)] as const));
  };
  const buildMs = timePerCall(build);
  const leaf = (name: string, s: SparsityStructure) => stats.get(name) ?? estimator.fromData(s);
  const estimate = estimator.estimate(evaluateWith(estimator, c.expr, leaf));
  const estimateMs = timePerCall(() => evaluateWith(estimator, c.expr, leaf));
  const q = qError(estimate, truth);
  const problems: string[] = [];
  if (estimator.name === "chain" && estimate < truth) problems.push(`chain bound ${estimate} < true ${truth}`);
  if (estimator.name === "mnc" && mustBeExact && Math.abs(estimate - truth) > 1e-9 * Math.max(1, truth)) {
    problems.push(`MNC estimate ${estimate} is not the exact ${truth}`);
  }
  const shape = exprShape(c.expr);
  return {
    suite: "estimators",
    case: `${c.source}: ${exprText(c.expr)} [${estimator.name}]`,
    ours_ms: estimateMs,
    baseline: "exact",
    baseline_ms: exactMs,
    ratio: estimateMs > 0 ? exactMs / estimateMs : null,
    source: c.source,
    expression: exprText(c.expr),
    kind: c.kind,
    dims: `${shape.rows}x${shape.cols}`,
    estimator: estimator.name,
    true_nnz: truth,
    estimate,
    q_error: Number.isFinite(q) ? q : null,
    build_ms: buildMs,
    mnc_exact_case: mustBeExact,
    failed: problems.length > 0,
    ...(problems.length > 0 ? { problem: problems.join("; ") } : {}),
  };
}

export function runEstimatorsBench(): BenchRow[] {
  const cases = allEstimatorCases(path.join(packageRoot(), "examples", "data"));
  const rows: BenchRow[] = [];
  for (const c of cases) {
    let truth = -1;
    const exact = timeRuns(() => {
      truth = structureNnz(evaluateExact(c.expr));
    }, exactTiming);
    const mustBeExact = mncMustBeExact(c.expr);
    for (const estimator of allEstimators) {
      rows.push(estimator.use((e) => estimatorRow(e, c, truth, exact.medianMs, mustBeExact)));
    }
  }
  for (const r of rows) if (r.failed === true) err(`dml bench estimators: ${r.case}: ${String(r.problem)}`);
  return rows;
}
