/**
 * A parfor's estimated work, by counts: iterations x the cells of the
 * matrices the body uses x the trips of its most repeated nested `for`
 * (bounds evaluated with the values before the loop; a bound that cannot be
 * evaluated counts one trip, a `while` one). Below MIN_PARALLEL_WORK the
 * loop is not worth the worker threads' start and copies.
 */
import type { Statement } from "../../syntax";
import { evaluatePoly, polyOf, type ParforAnalysis } from "../../program";
import type { Value } from "../interpreter";

export const MIN_PARALLEL_WORK = 1 << 22;

export function parforWork(analysis: ParforAnalysis, body: readonly Statement[], iterations: number, env: ReadonlyMap<string, Value>): number {
  let cells = 1;
  for (const name of analysis.names) {
    const v = env.get(name);
    if (v?.kind === "matrix") cells += v.matrix.rows * v.matrix.cols;
  }
  return iterations * cells * nestedTrips(body, env);
}

function nestedTrips(statements: readonly Statement[], env: ReadonlyMap<string, Value>): number {
  let most = 1;
  for (const s of statements) {
    if (s.kind === "for") most = Math.max(most, trips(s.iterable, env) * nestedTrips(s.body, env));
    else if (s.kind === "while") most = Math.max(most, nestedTrips(s.body, env));
    else if (s.kind === "if") most = Math.max(most, nestedTrips(s.thenBody, env), nestedTrips(s.elseBody ?? [], env));
  }
  return most;
}

function trips(it: Extract<Statement, { kind: "for" }>["iterable"], env: ReadonlyMap<string, Value>): number {
  const valueOf = (name: string) => {
    const v = env.get(name);
    return v?.kind === "scalar" && typeof v.value === "number" ? v.value : undefined;
  };
  const value = (e: typeof it.from) => {
    const p = polyOf(e, (name) => name);
    return p === undefined ? undefined : evaluatePoly(p, valueOf);
  };
  const from = value(it.from);
  const to = value(it.to);
  const by = it.kind === "seq" && it.by ? value(it.by) : from !== undefined && to !== undefined && from > to ? -1 : 1;
  if (from === undefined || to === undefined || by === undefined || by === 0) return 1;
  return Math.max(1, Math.floor((to - from) / by) + 1);
}
