// moment, cov, quantile, median, interQuartileMean and the distribution
// functions against numpy/scipy on random column vectors (with ties, zeros
// and negative values, which SystemDS's sorted table treats apart).
// References: scipy.stats.moment and numpy's weighted average for moment;
// numpy.cov (fweights for integer weights) for cov; numpy.quantile with
// method="inverted_cdf" for quantile (SystemDS picks the value where the
// cumulative weight first reaches ceil(p n)); numpy.median; for
// interQuartileMean the mean over [n/4, 3n/4] of the sorted values with the
// boundary values counted by their overlap; integer weights as repeated
// values (numpy.repeat). Distributions: scipy.stats' cdf and ppf, the upper
// tail as 1 - cdf as SystemDS computes it.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { STATISTICS_BUILTINS } from "../../engine/runtime/interpreter/builtins-statistics";
import { DISTRIBUTION_BUILTINS } from "../../engine/runtime/interpreter/distributions";
import { bool, double, str, type Value } from "../../engine/runtime/interpreter/values";
import { DenseMatrix } from "../../engine/runtime/matrix";
import { lazyReference, uniformStream } from "./python-reference";

const column = (xs: number[]): Value => ({ kind: "matrix", matrix: new DenseMatrix(xs.length, 1, Float64Array.from(xs)) });

function call(fn: string, ...args: (number[] | number)[]): number | number[] {
  const values = args.map((a) => (typeof a === "number" ? double(a) : column(a)));
  const v = STATISTICS_BUILTINS[fn]!({ values, names: values.map(() => undefined) });
  if (v.kind === "scalar") return v.value as number;
  assert.equal(v.kind, "matrix");
  return Array.from(((v as Extract<Value, { kind: "matrix" }>).matrix as DenseMatrix).data);
}

/** A random column: small integers (ties, zeros, negatives) or continuous values. */
function sample(n: number, seed: number, integers: boolean): number[] {
  const next = uniformStream(seed);
  return Array.from({ length: n }, () => (integers ? Math.round(10 * next() - 5) : 20 * next() - 7));
}

function weights(n: number, seed: number): number[] {
  const next = uniformStream(seed);
  // Positive: a non-zero value of weight 0 makes SystemDS's pick return it at times (numpy's repeat drops it).
  return Array.from({ length: n }, () => Math.floor(4 * next()) + 1);
}

const PROBABILITIES = [0, 0.1, 0.25, 1 / 3, 0.5, 0.75, 0.9, 1];

interface Case {
  x: number[];
  y: number[];
  w: number[];
}

const cases: Case[] = [1, 2, 5, 8, 13, 40, 101].flatMap((n, k) => [true, false].map((integers, i) => ({ x: sample(n, 100 + 2 * k + i, integers), y: sample(n, 300 + 2 * k + i, integers), w: weights(n, 500 + 2 * k + i) })));

interface StatisticsExpected {
  moments: number[][];
  weightedMoments: number[][];
  cov: number;
  weightedCov: number | null;
  quantiles: number[];
  weightedQuantiles: number[] | null;
  median: number;
  weightedMedian: number | null;
  iqm: number;
  weightedIqm: number | null;
}

const statisticsScript = [
  "def iqm(x):",
  "    x = np.sort(x); n = len(x); lo, hi = n / 4, 3 * n / 4",
  "    overlap = np.clip(np.minimum(np.arange(1, n + 1), hi) - np.maximum(np.arange(n), lo), 0, None)",
  "    return float(np.sum(x * overlap) / (n / 2))",
  "P = [0, 0.1, 0.25, 1/3, 0.5, 0.75, 0.9, 1]",
  "out = []",
  "for c in data:",
  "    x, y, w = np.array(c['x'], dtype=float), np.array(c['y'], dtype=float), np.array(c['w'], dtype=float)",
  "    r = np.repeat(x, w.astype(int))",
  "    wm = np.average(x, weights=w) if w.sum() > 0 else None",
  "    e = {",
  "      'moments': [[float(scipy.stats.moment(x, k)) for k in (2, 3, 4)], [float(np.mean(x))]],",
  "      'weightedMoments': [[float(np.average((x - wm) ** k, weights=w)) for k in (2, 3, 4)], [float(wm)]] if wm is not None else [],",
  "      'cov': float(np.cov(x, y)[0, 1]) if len(x) > 1 else 0.0,",
  "      'weightedCov': float(np.cov(x, y, fweights=w.astype(int))[0, 1]) if w.sum() > 1 else None,",
  "      'quantiles': [float(np.quantile(x, p, method='inverted_cdf')) for p in P],",
  "      'weightedQuantiles': [float(np.quantile(r, p, method='inverted_cdf')) for p in P] if len(r) else None,",
  "      'median': float(np.median(x)),",
  "      'weightedMedian': float(np.median(r)) if len(r) else None,",
  "      'iqm': iqm(x),",
  "      'weightedIqm': iqm(r) if len(r) else None,",
  "    }",
  "    out.append(e)",
  "print(json.dumps(out))",
].join("\n");

const statistics = lazyReference<StatisticsExpected[]>(statisticsScript, () => cases);

interface DistributionCase {
  call: string;
  params: Record<string, number>;
  xs: number[];
}

const distributionCases: DistributionCase[] = [
  { call: "normal", params: {}, xs: [-6, -1.96, -0.3, 0, 0.5, 1.96, 4] },
  { call: "normal", params: { mean: 3, sd: 2.5 }, xs: [-4, 0, 3, 5.5, 12] },
  { call: "exp", params: {}, xs: [0, 0.01, 0.7, 2, 9] },
  { call: "exp", params: { rate: 3.5 }, xs: [0.001, 0.2, 1, 4] },
  { call: "chisq", params: { df: 1 }, xs: [0.001, 0.5, 1, 3.84, 10] },
  { call: "chisq", params: { df: 7 }, xs: [0.5, 3, 7, 14.07, 30] },
  { call: "f", params: { df1: 3, df2: 7 }, xs: [0.01, 0.5, 1, 4.35, 20] },
  { call: "f", params: { df1: 12, df2: 40 }, xs: [0.2, 1, 2.5, 6] },
  { call: "t", params: { df: 1 }, xs: [-30, -2, 0, 0.7, 12.7] },
  { call: "t", params: { df: 15 }, xs: [-4, -2.13, 0, 1, 3.5] },
];
const PS = [1e-6, 0.001, 0.025, 0.3, 0.5, 0.77, 0.975, 0.999];

const distributionScript = [
  "d = scipy.stats",
  "def dist(c):",
  "    p = c['params']; k = c['call']",
  "    if k == 'normal': return d.norm(p.get('mean', 0), p.get('sd', 1))",
  "    if k == 'exp': return d.expon(scale=1 / p.get('rate', 1))",
  "    if k == 'chisq': return d.chi2(p['df'])",
  "    if k == 'f': return d.f(p['df1'], p['df2'])",
  "    return d.t(p['df'])",
  "out = []",
  "for c in data['cases']:",
  "    D = dist(c)",
  "    out.append({'cdf': [float(D.cdf(x)) for x in c['xs']], 'upper': [float(1 - D.cdf(x)) for x in c['xs']], 'quantile': [float(D.ppf(p)) for p in data['ps']]})",
  "print(json.dumps(out))",
].join("\n");

const distributions = lazyReference<{ cdf: number[]; upper: number[]; quantile: number[] }[]>(distributionScript, () => ({ cases: distributionCases, ps: PS }));

function close(actual: number, expected: number, relative: number, what: string): void {
  const tolerance = relative * Math.max(Math.abs(expected), 1e-300);
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: ${actual}, expected ${expected} (relative difference ${Math.abs(actual - expected) / Math.abs(expected)})`);
}

function reference<T>(t: { skip(message: string): void }, r: ReturnType<typeof statistics> | ReturnType<typeof distributions>): T | undefined {
  if (r.ok) return r.value as T;
  t.skip(r.reason);
  return undefined;
}

describe("statistics against numpy/scipy", () => {
  it("moment(X, k) and moment(X, W, k), k = 2, 3, 4 and 0 (the mean), within 1e-12", (t) => {
    const expected = reference<StatisticsExpected[]>(t, statistics());
    if (!expected) return;
    cases.forEach((c, i) => {
      const e = expected[i]!;
      const scale = Math.max(1, ...c.x.map(Math.abs));
      [2, 3, 4].forEach((k, j) => {
        const tol = 1e-12 * scale ** k * 10;
        assert.ok(Math.abs((call("moment", c.x, k) as number) - e.moments[0]![j]!) <= tol, `moment ${k} of case ${i}`);
        if (e.weightedMoments.length) assert.ok(Math.abs((call("moment", c.x, c.w, k) as number) - e.weightedMoments[0]![j]!) <= tol, `weighted moment ${k} of case ${i}`);
      });
      assert.ok(Math.abs((call("moment", c.x, 0) as number) - e.moments[1]![0]!) <= 1e-12 * scale, `mean of case ${i}`);
    });
  });

  it("cov(X, Y) and cov(X, Y, W) within 1e-12", (t) => {
    const expected = reference<StatisticsExpected[]>(t, statistics());
    if (!expected) return;
    cases.forEach((c, i) => {
      const scale = Math.max(1, ...c.x.map(Math.abs)) * Math.max(1, ...c.y.map(Math.abs));
      assert.ok(Math.abs((call("cov", c.x, c.y) as number) - expected[i]!.cov) <= 1e-12 * scale, `cov of case ${i}`);
      const weighted = expected[i]!.weightedCov;
      if (weighted !== null) assert.ok(Math.abs((call("cov", c.x, c.y, c.w) as number) - weighted) <= 1e-12 * scale, `weighted cov of case ${i}`);
    });
  });

  it("quantile (scalar p and vector P, weighted and not) equals numpy.quantile inverted_cdf exactly", (t) => {
    const expected = reference<StatisticsExpected[]>(t, statistics());
    if (!expected) return;
    cases.forEach((c, i) => {
      const e = expected[i]!;
      PROBABILITIES.forEach((p, j) => assert.equal(call("quantile", c.x, p), e.quantiles[j], `quantile(X, ${p}) of case ${i}: ${JSON.stringify(c.x)}`));
      assert.deepEqual(call("quantile", c.x, PROBABILITIES), e.quantiles, `quantile(X, P) of case ${i}`);
      if (e.weightedQuantiles) {
        PROBABILITIES.forEach((p, j) => assert.equal(call("quantile", c.x, c.w, p), e.weightedQuantiles![j], `quantile(X, W, ${p}) of case ${i}`));
        assert.deepEqual(call("quantile", c.x, c.w, PROBABILITIES), e.weightedQuantiles, `quantile(X, W, P) of case ${i}`);
      }
    });
  });

  it("median and interQuartileMean (weighted and not) equal numpy's median and the overlap-weighted inter-quartile mean", (t) => {
    const expected = reference<StatisticsExpected[]>(t, statistics());
    if (!expected) return;
    cases.forEach((c, i) => {
      const e = expected[i]!;
      assert.equal(call("median", c.x), e.median, `median of case ${i}: ${JSON.stringify(c.x)}`);
      close(call("interQuartileMean", c.x) as number, e.iqm, 1e-12, `interQuartileMean of case ${i}: ${JSON.stringify(c.x)}`);
      if (e.weightedMedian !== null) assert.equal(call("median", c.x, c.w), e.weightedMedian, `weighted median of case ${i}`);
      if (e.weightedIqm !== null) close(call("interQuartileMean", c.x, c.w) as number, e.weightedIqm, 1e-12, `weighted interQuartileMean of case ${i}`);
    });
  });
});

describe("distributions against scipy.stats", () => {
  const shortcut: Record<string, [string, string]> = { normal: ["pnorm", "qnorm"], exp: ["pexp", "qexp"], chisq: ["pchisq", "qchisq"], f: ["pf", "qf"], t: ["pt", "qt"] };

  function evaluate(fn: string, targetValue: number, c: DistributionCase, extra: [string, Value][] = []): number {
    const named: [string, Value][] = [["target", double(targetValue)], ...Object.entries(c.params).map(([k, v]): [string, Value] => [k, double(v)]), ...extra];
    const v = DISTRIBUTION_BUILTINS[fn]!({ values: named.map(([, v]) => v), names: named.map(([k]) => k) });
    return (v as Extract<Value, { kind: "scalar" }>).value as number;
  }

  it("cdf and the p-shortcuts, lower and upper tail, within 1e-12 (relative)", (t) => {
    const expected = reference<{ cdf: number[]; upper: number[] }[]>(t, distributions());
    if (!expected) return;
    distributionCases.forEach((c, i) => {
      c.xs.forEach((x, j) => {
        const what = `${c.call}(${JSON.stringify(c.params)}) at ${x}`;
        close(evaluate("cdf", x, c, [["dist", str(c.call)]]), expected[i]!.cdf[j]!, 1e-12, `cdf ${what}`);
        close(evaluate(shortcut[c.call]![0], x, c), expected[i]!.cdf[j]!, 1e-12, `${shortcut[c.call]![0]} ${what}`);
        close(evaluate(shortcut[c.call]![0], x, c, [["lower.tail", bool(false)]]), expected[i]!.upper[j]!, 1e-12, `upper tail ${what}`);
      });
    });
  });

  it("icdf and the q-shortcuts within 1e-12 (relative)", (t) => {
    const expected = reference<{ quantile: number[] }[]>(t, distributions());
    if (!expected) return;
    distributionCases.forEach((c, i) => {
      PS.forEach((p, j) => {
        const what = `${c.call}(${JSON.stringify(c.params)}) at ${p}`;
        close(evaluate("icdf", p, c, [["dist", str(c.call)]]), expected[i]!.quantile[j]!, 1e-12, `icdf ${what}`);
        close(evaluate(shortcut[c.call]![1], p, c), expected[i]!.quantile[j]!, 1e-12, `${shortcut[c.call]![1]} ${what}`);
      });
    });
  });
});
