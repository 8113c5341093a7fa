/**
 * How many iterations a `while` loop is expected to run, as known when it
 * starts: SystemDS's cost model assumes UNKNOWN_LOOP_ITERATIONS (its
 * DEFAULT_NUMITER), unless the condition bounds a counter, as most DML
 * loops' conditions do (`while (!converged & iter < maxi)`):
 *
 * - the condition is `i < n` or `i <= n` (or `n > i`, `n >= i`), alone or
 *   as a conjunct of `&` / `&&`;
 * - `i` is a number now, and the body assigns it exactly once, at its top
 *   level (so every iteration runs it: DML has no `break`), as `i = i + c`,
 *   `i = c + i` or `i += c` with a positive number literal c;
 * - `n` is a number literal, or a variable holding a number now that the
 *   body never assigns.
 *
 * Then the loop runs at most ceil((n - i) / c) iterations (`<`; one more
 * when n - i is a multiple of c for `<=`; up to rounding when c is not an
 * integer): that many are expected when the comparison is the whole
 * condition, else the smaller of that and UNKNOWN_LOOP_ITERATIONS (another
 * conjunct may end it sooner). Counts from the values only, so every
 * machine expects the same. It decides how long the runtime optimizes the
 * body's blocks (compile-block.ts matchLimit), not what the loop computes.
 */
import type { AssignmentStatement, BinaryExpression, DataIdentifier, Expression, Statement, WhileStatement } from "../../syntax";
import type { Value } from "./values";

/** Iterations a `while` loop is expected to run when its count is unknown: SystemDS's cost model's (CostEstimator's DEFAULT_NUMITER). */
export const UNKNOWN_LOOP_ITERATIONS = 15;

export function expectedWhileIterations(statement: WhileStatement, env: ReadonlyMap<string, Value>): number {
  const comparisons = conjuncts(statement.condition);
  for (const comparison of comparisons) {
    const bound = counterBound(comparison, statement.body, env);
    if (bound === undefined) continue;
    return comparisons.length === 1 ? bound : Math.min(bound, UNKNOWN_LOOP_ITERATIONS);
  }
  return UNKNOWN_LOOP_ITERATIONS;
}

/** The terms of a conjunction (`a & b & c`; the syntax tree has no parentheses). */
function conjuncts(e: Expression): Expression[] {
  if (e.kind === "binary" && (e.op === "&" || e.op === "&&")) return [...conjuncts(e.left), ...conjuncts(e.right)];
  return [e];
}

/** The most iterations `counter < limit` (in any of its spellings) allows, when the body counts `counter` up. */
function counterBound(e: Expression, body: readonly Statement[], env: ReadonlyMap<string, Value>): number | undefined {
  if (e.kind !== "binary") return undefined;
  const oriented = orient(e);
  if (!oriented) return undefined;
  const { counter, limit, inclusive } = oriented;
  const start = numberOf(env.get(counter));
  const end = limit.kind === "number" ? limit.value : limit.kind === "identifier" && !assigns(body, limit.name) ? numberOf(env.get(limit.name)) : undefined;
  const step = countingStep(body, counter);
  if (start === undefined || end === undefined || step === undefined) return undefined;
  const span = (end - start) / step;
  if (!(span >= 0)) return 0;
  const iterations = inclusive ? Math.floor(span + 1e-10) + 1 : Math.ceil(span - 1e-10);
  return Number.isFinite(iterations) ? Math.max(0, iterations) : undefined;
}

/** `i < n`, `i <= n`, `n > i`, `n >= i` with `i` a variable. */
function orient(e: BinaryExpression): { counter: string; limit: Expression; inclusive: boolean } | undefined {
  const { left, right } = e;
  if ((e.op === "<" || e.op === "<=") && left.kind === "identifier") return { counter: left.name, limit: right, inclusive: e.op === "<=" };
  if ((e.op === ">" || e.op === ">=") && right.kind === "identifier") return { counter: right.name, limit: left, inclusive: e.op === ">=" };
  return undefined;
}

function numberOf(value: Value | undefined): number | undefined {
  return value?.kind === "scalar" && typeof value.value === "number" && Number.isFinite(value.value) ? value.value : undefined;
}

/** c when the body's only assignment of `name` is `name = name + c` (or `c + name`, `name += c`) at its top level, c > 0. */
function countingStep(body: readonly Statement[], name: string): number | undefined {
  if (countAssignments(body, name) !== 1) return undefined;
  const update = body.find((s): s is AssignmentStatement => s.kind === "assign" && s.target.kind === "identifier" && s.target.name === name);
  if (!update) return undefined;
  const value = update.value;
  if (update.op === "+=") return positiveLiteral(value);
  if (update.op !== "=" && update.op !== "<-") return undefined;
  if (value.kind !== "binary" || value.op !== "+") return undefined;
  const { left, right } = value;
  if (left.kind === "identifier" && left.name === name) return positiveLiteral(right);
  if (right.kind === "identifier" && right.name === name) return positiveLiteral(left);
  return undefined;
}

function positiveLiteral(e: Expression): number | undefined {
  return e.kind === "number" && e.value > 0 && Number.isFinite(e.value) ? e.value : undefined;
}

function assigns(body: readonly Statement[], name: string): boolean {
  return countAssignments(body, name) > 0;
}

/** How many statements of the body, nested ones included, assign `name` (a loop variable counts). */
function countAssignments(body: readonly Statement[], name: string): number {
  let count = 0;
  for (const s of body) {
    switch (s.kind) {
      case "assign":
        if (assignedName(s.target) === name) count++;
        break;
      case "multiAssign":
        count += s.targets.filter((t) => assignedName(t) === name).length;
        break;
      case "if":
        count += countAssignments(s.thenBody, name) + countAssignments(s.elseBody ?? [], name);
        break;
      case "for":
        count += (s.variable.name === name ? 1 : 0) + countAssignments(s.body, name);
        break;
      case "while":
        count += countAssignments(s.body, name);
        break;
      default:
        break;
    }
  }
  return count;
}

/** The variable an assignment writes: `x` of `x = ...` and of `x[i, j] = ...`. */
function assignedName(target: DataIdentifier): string | undefined {
  if (target.kind === "identifier") return target.name;
  if (target.kind === "index") return target.target.name;
  return undefined;
}
