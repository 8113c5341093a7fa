/**
 * `cdf(target=x, dist=...)`, `icdf(target=p, dist=...)` and their shortcuts
 * `pnorm`/`qnorm`, `pexp`/`qexp`, `pchisq`/`qchisq`, `pf`/`qf`, `pt`/`qt`,
 * as SystemDS's ParameterizedBuiltin.computeFromDistribution computes them:
 *
 * | dist | parameters |
 * |---|---|
 * | `"normal"` | `mean=` (0), `sd=` (1, positive) |
 * | `"exp"` | `rate=` (1, positive; the mean is 1/rate) |
 * | `"chisq"` | `df=` (required) |
 * | `"f"` | `df1=`, `df2=` (required) |
 * | `"t"` | `df=` (required) |
 *
 * Degrees of freedom are cast to positive integers as SystemDS does
 * (UtilFunctions.toInt). `lower.tail=FALSE` gives 1 - cdf (SystemDS computes
 * the upper tail that way too, so tiny tail probabilities round to 0 alike);
 * the inverse functions take no lower.tail. The distribution functions are
 * those of stdlib (ports of Boost and Cephes, accurate to a few ulps), where
 * SystemDS uses Apache Commons Math.
 */
import chisquareCdf from "@stdlib/stats-base-dists-chisquare-cdf";
import chisquareQuantile from "@stdlib/stats-base-dists-chisquare-quantile";
import exponentialCdf from "@stdlib/stats-base-dists-exponential-cdf";
import fCdf from "@stdlib/stats-base-dists-f-cdf";
import fQuantile from "@stdlib/stats-base-dists-f-quantile";
import normalCdf from "@stdlib/stats-base-dists-normal-cdf";
import normalQuantile from "@stdlib/stats-base-dists-normal-quantile";
import tCdf from "@stdlib/stats-base-dists-t-cdf";
import tQuantile from "@stdlib/stats-base-dists-t-quantile";
import type { CallArgs } from "./builtins";
import { fail } from "./errors";
import { num, text } from "./operations";
import { toCount } from "./builtins-statistics";
import { describeValue, double, type Value } from "./values";

type DistributionName = "normal" | "exp" | "chisq" | "f" | "t";

/** A distribution with its parameters read: its cumulative distribution function and its inverse. */
interface Distribution {
  cdf(x: number): number;
  quantile(p: number): number;
}

function parameter(a: CallArgs, name: string): Value | undefined {
  const i = a.names.indexOf(name);
  return i >= 0 ? a.values[i] : undefined;
}

function number(a: CallArgs, fn: string, name: string, fallback?: number): number {
  const v = parameter(a, name);
  if (v === undefined) return fallback ?? fail(`${fn}: the ${name}= argument is required`);
  if (v.kind !== "scalar") fail(`${fn}: ${name}= must be a scalar, found a ${describeValue(v)}`);
  return num(v, `${fn} ${name}`);
}

function degreesOfFreedom(a: CallArgs, fn: string, name: string, what: string): number {
  const df = toCount(number(a, fn, name));
  if (!(df > 0)) fail(`${fn}: the degrees of freedom ${name}= of the ${what} distribution must be positive, found ${df}`);
  return df;
}

function distribution(a: CallArgs, fn: string, name: DistributionName): Distribution {
  switch (name) {
    case "normal": {
      const mean = number(a, fn, "mean", 0);
      const sd = number(a, fn, "sd", 1);
      if (!(sd > 0)) fail(`${fn}: the standard deviation sd= of the normal distribution must be positive, found ${sd}`);
      return { cdf: (x) => normalCdf(x, mean, sd), quantile: (p) => newtonStep(normalQuantile(p, mean, sd), p, mean, sd) };
    }
    case "exp": {
      const rate = number(a, fn, "rate", 1);
      if (!(rate > 0)) fail(`${fn}: the rate= of the exponential distribution must be positive, found ${rate}`);
      // -log(1 - p) / rate, with log1p: accurate for small p too.
      return { cdf: (x) => exponentialCdf(x, rate), quantile: (p) => -Math.log1p(-p) / rate };
    }
    case "chisq": {
      const df = degreesOfFreedom(a, fn, "df", "chi-squared");
      return { cdf: (x) => chisquareCdf(x, df), quantile: (p) => chisquareQuantile(p, df) };
    }
    case "f": {
      const df1 = degreesOfFreedom(a, fn, "df1", "F");
      const df2 = degreesOfFreedom(a, fn, "df2", "F");
      return { cdf: (x) => fCdf(x, df1, df2), quantile: (p) => fQuantile(p, df1, df2) };
    }
    case "t": {
      const df = degreesOfFreedom(a, fn, "df", "t");
      return { cdf: (x) => tCdf(x, df), quantile: (p) => tQuantile(p, df) };
    }
  }
}

/**
 * One Newton step on cdf(x) = p from stdlib's normal quantile (accurate to
 * about 1e-12 in the tails, by its inverse error function): with the
 * accurate cdf it brings x to a few ulps of the exact quantile.
 */
function newtonStep(x: number, p: number, mean: number, sd: number): number {
  if (!Number.isFinite(x)) return x;
  const z = (x - mean) / sd;
  const density = Math.exp(-0.5 * z * z) / (sd * Math.sqrt(2 * Math.PI));
  return density > 0 ? x - (normalCdf(x, mean, sd) - p) / density : x;
}

const DISTRIBUTIONS: readonly DistributionName[] = ["normal", "exp", "chisq", "f", "t"];

/** `target=`, or the first positional argument. */
function target(a: CallArgs, fn: string): number {
  const named = parameter(a, "target");
  const v = named ?? a.values[a.names.indexOf(undefined)];
  if (v === undefined) return fail(`${fn}: the target= argument is required`);
  if (v.kind !== "scalar") fail(`${fn}: target= must be a scalar, found a ${describeValue(v)}`);
  return num(v, `${fn} target`);
}

/** The cumulative probability (`inverse` false) or the quantile of `dist` (given, or read from `dist=`). */
function distributionFunction(fn: string, inverse: boolean, dist?: DistributionName): (a: CallArgs) => Value {
  return (a) => {
    const name = dist ?? distributionName(a, fn);
    const x = target(a, fn);
    const d = distribution(a, fn, name);
    const lowerTail = parameter(a, "lower.tail");
    if (inverse) {
      if (lowerTail !== undefined) fail(`${fn}: lower.tail= is not allowed when computing inverse cumulative probabilities`);
      if (!(x >= 0 && x <= 1)) fail(`${fn}: the probability target= must be between 0 and 1, found ${x}`);
      return double(d.quantile(x));
    }
    if (lowerTail !== undefined && !(lowerTail.kind === "scalar" && lowerTail.type === "boolean")) fail(`${fn}: lower.tail= must be TRUE or FALSE`);
    const lower = lowerTail === undefined || lowerTail.value === true;
    return double(lower ? d.cdf(x) : 1 - d.cdf(x));
  };
}

function distributionName(a: CallArgs, fn: string): DistributionName {
  const v = parameter(a, "dist") ?? fail(`${fn}: the distribution dist= is required ("normal", "exp", "chisq", "f" or "t")`);
  const name = text(v).toLowerCase();
  if (!(DISTRIBUTIONS as readonly string[]).includes(name)) fail(`${fn}: unknown distribution dist="${text(v)}" (expected "normal", "exp", "chisq", "f" or "t")`);
  return name as DistributionName;
}

export const DISTRIBUTION_BUILTINS: Record<string, (a: CallArgs) => Value> = {
  cdf: distributionFunction("cdf", false),
  icdf: distributionFunction("icdf", true),
  pnorm: distributionFunction("pnorm", false, "normal"),
  qnorm: distributionFunction("qnorm", true, "normal"),
  pexp: distributionFunction("pexp", false, "exp"),
  qexp: distributionFunction("qexp", true, "exp"),
  pchisq: distributionFunction("pchisq", false, "chisq"),
  qchisq: distributionFunction("qchisq", true, "chisq"),
  pf: distributionFunction("pf", false, "f"),
  qf: distributionFunction("qf", true, "f"),
  pt: distributionFunction("pt", false, "t"),
  qt: distributionFunction("qt", true, "t"),
};
