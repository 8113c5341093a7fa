/**
 * How many times a loop is expected to run, for amortizing what work
 * before it costs (the redundancy eliminator's hoisting, the runtime's
 * optimization of the body's blocks): from its bounds when they are known (`for (i in 1:n)`,
 * `seq(a, b, by)`, and the counted `while (i < n)` whose body adds 1 to `i`
 * once and nowhere else), otherwise the `expectedIterations` setting. A
 * counted while loop that also tests something else
 * (`while (i < maxi & norm > tol)`, a convergence test) stops at the count
 * at the latest: its bound only caps the setting (it is expected to run
 * min(bound, setting) times; counting the bound alone overestimated every
 * converging loop). The setting is the caller's: the redundancy
 * eliminator's `expectedIterations`, the runtime's SystemDS default.
 */
import type { Expression, ForStatement, Statement, WhileStatement } from "../syntax";
import { forEachStatement } from "./statement-walk";

export interface LoopIterations {
  count: number;
  source: "bounds" | "setting";
  /** The most iterations its counter allows, when the count is the setting capped by it. */
  bound?: number;
}

/** Scalar constants known where the loop starts (names the loop does not assign), by name: a map, or a view of a run's values. */
export type KnownConstants = Pick<ReadonlyMap<string, number>, "get">;

export function loopIterations(loop: ForStatement | WhileStatement, constants: KnownConstants, setting: number): LoopIterations {
  if (loop.kind === "for") {
    const counted = forCount(loop, constants);
    return counted === undefined ? { count: setting, source: "setting" } : { count: counted, source: "bounds" };
  }
  const counted = whileCount(loop, constants);
  if (counted === undefined) return { count: setting, source: "setting" };
  if (counted.exact || counted.count <= setting) return { count: counted.count, source: "bounds" };
  return { count: setting, source: "setting", bound: counted.count };
}

function valueOf(e: Expression, constants: KnownConstants): number | undefined {
  if (e.kind === "number") return e.value;
  if (e.kind === "identifier") return constants.get(e.name);
  if (e.kind === "unary" && e.op === "-") {
    const v = valueOf(e.operand, constants);
    return v === undefined ? undefined : -v;
  }
  return undefined;
}

function forCount(loop: ForStatement, constants: KnownConstants): number | undefined {
  const from = valueOf(loop.iterable.from, constants);
  const to = valueOf(loop.iterable.to, constants);
  if (from === undefined || to === undefined) return undefined;
  const by = loop.iterable.kind === "seq" && loop.iterable.by ? valueOf(loop.iterable.by, constants) : from <= to ? 1 : -1;
  if (by === undefined || by === 0) return undefined;
  return Math.max(0, Math.floor((to - from) / by) + 1);
}

/**
 * `while (i < n & ...)` (or `<=`) with `i` known at the start and
 * `i = i + 1` its only assignment in the body, at the body's top level: the
 * count, exact when the counter test is the whole condition.
 */
function whileCount(loop: WhileStatement, constants: KnownConstants): { count: number; exact: boolean } | undefined {
  const tests = conjuncts(loop.condition);
  for (const c of tests) {
    if (c.kind !== "binary" || (c.op !== "<" && c.op !== "<=") || c.left.kind !== "identifier") continue;
    const counter = c.left.name;
    const start = constants.get(counter);
    const bound = valueOf(c.right, constants);
    if (start === undefined || bound === undefined || !countsUpByOne(loop.body, counter)) continue;
    if (c.right.kind === "identifier" && assigns(loop.body, c.right.name) > 0) continue;
    return { count: Math.max(0, Math.ceil(bound - start) + (c.op === "<=" && Number.isInteger(bound - start) ? 1 : 0)), exact: tests.length === 1 };
  }
  return undefined;
}

function conjuncts(e: Expression): Expression[] {
  return e.kind === "binary" && (e.op === "&" || e.op === "&&") ? [...conjuncts(e.left), ...conjuncts(e.right)] : [e];
}

function countsUpByOne(body: readonly Statement[], name: string): boolean {
  if (assigns(body, name) !== 1) return false;
  return body.some(
    (s) =>
      s.kind === "assign" &&
      s.target.kind === "identifier" &&
      s.target.name === name &&
      s.op === "=" &&
      s.value.kind === "binary" &&
      s.value.op === "+" &&
      s.value.left.kind === "identifier" &&
      s.value.left.name === name &&
      s.value.right.kind === "number" &&
      s.value.right.value === 1,
  );
}

function assigns(body: readonly Statement[], name: string): number {
  let count = 0;
  forEachStatement(body, (s) => {
    if (s.kind === "assign" && (s.target.kind === "identifier" || s.target.kind === "index") && (s.target.kind === "identifier" ? s.target.name : s.target.target.name) === name) count++;
    if (s.kind === "multiAssign" && s.targets.some((t) => (t.kind === "identifier" ? t.name : t.kind === "index" ? t.target.name : "") === name)) count++;
    if (s.kind === "for" && s.variable.name === name) count++;
  });
  return count;
}
