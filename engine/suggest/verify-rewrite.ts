/**
 * The runtime as the oracle of rewrites: both sides are evaluated on the
 * same random inputs of the inferred shapes (dense, sparse, with empty rows
 * and columns) and must agree within a floating-point tolerance. A scalar
 * and a 1x1 matrix are different values here. The inputs are shrunk; a
 * statement with sizes of its own (`matrix(X, rows=800, cols=1000)`,
 * `X[1:800, ]`) fails on shrunk inputs, so when the original fails on them
 * it is checked on inputs of their true sizes, if those are few enough
 * cells and both sides are estimated to be cheap enough there.
 */
import { DmlRuntimeError, evaluateExpression, type Value } from "../runtime/interpreter";
import { randomInputs, shapeProblem, trueSizeCells, type InputCase, type VariableShape } from "./random-inputs";

/** The most cells (all inputs together) a rewrite is checked on at the inputs' true sizes: 16 MB of values. */
export const TRUE_SIZE_MAX_CELLS = 2_000_000;

/** The most estimated seconds of one evaluation of both sides at the true sizes for that check (it evaluates them up to six times). */
export const TRUE_SIZE_MAX_SECONDS = 0.05;

export type { InputCase, VariableShape } from "./random-inputs";

export interface VerifyOptions {
  /** Trials per input case (default 2). */
  trials?: number;
  seed?: number;
  cases?: readonly InputCase[];
  /** Largest input, in cells, after shrinking (default 40,000). */
  maxCells?: number;
  /** Allowed difference relative to the largest magnitude of the results (default 1e-8). */
  relative?: number;
  /** The cost model's seconds for evaluating both sides once at the inputs' true sizes; above TRUE_SIZE_MAX_SECONDS they are not checked at those sizes (unknown: the cells alone decide). */
  trueSizeSeconds?: number;
}

export type VerifyResult = { verified: true; trials: number } | { verified: false; reason: string; inputCase?: InputCase; seed?: number };

export function verifyRewrite(original: string, rewritten: string, shapes: readonly VariableShape[], options: VerifyOptions = {}): VerifyResult {
  const cases = options.cases ?? ["dense", "sparse", "empty-rows-cols"];
  const trials = options.trials ?? 2;
  const problem = shapeProblem(shapes);
  if (problem !== undefined) return { verified: false, reason: `cannot check the rewrite: ${problem}` };
  let count = 0;
  // Inputs at their true sizes once the original fails on shrunk ones, when they are few and cheap enough there.
  const trueSizeAllowed = trueSizeCells(shapes) <= TRUE_SIZE_MAX_CELLS && (options.trueSizeSeconds ?? 0) <= TRUE_SIZE_MAX_SECONDS;
  let trueSize = false;
  for (const inputCase of cases) {
    for (let t = 0; t < trials; t++) {
      const seed = (options.seed ?? 17) + 7919 * t + 104729 * cases.indexOf(inputCase);
      let inputs = randomInputs(shapes, inputCase, seed, options.maxCells, trueSize);
      let before = valueOrFailure(original, inputs);
      if (typeof before === "string" && !trueSize && trueSizeAllowed) {
        trueSize = true;
        inputs = randomInputs(shapes, inputCase, seed, options.maxCells, trueSize);
        before = valueOrFailure(original, inputs);
      }
      if (typeof before === "string") return { verified: false, reason: `original fails on ${inputCase} inputs: ${before}`, inputCase, seed };
      const after = valueOrFailure(rewritten, inputs);
      if (typeof after === "string") return { verified: false, reason: `rewritten fails on ${inputCase} inputs: ${after}`, inputCase, seed };
      const difference = valueDifference(before, after, options.relative ?? 1e-8);
      if (difference !== undefined) return { verified: false, reason: `${difference} (${inputCase} inputs, seed ${seed})`, inputCase, seed };
      count++;
    }
  }
  return { verified: true, trials: count };
}

/** The expression's value, or the runtime's message when the run fails; any other error is a bug and propagates. */
function valueOrFailure(expression: string, inputs: ReadonlyMap<string, Value>): Value | string {
  try {
    return evaluateExpression(expression, inputs);
  } catch (error) {
    if (error instanceof DmlRuntimeError) return error.message;
    throw error;
  }
}

/** Why two values differ, or undefined when they agree within `relative` of the largest magnitude. */
export function valueDifference(a: Value, b: Value, relative: number): string | undefined {
  if (a.kind === "scalar" && b.kind === "scalar") {
    if (typeof a.value !== "number" && typeof a.value !== "boolean") return a.value === b.value ? undefined : `${a.value} vs ${b.value}`;
    const x = Number(a.value);
    const y = Number(b.value);
    return close(x, y, relative * Math.max(1, Math.abs(x), Math.abs(y))) ? undefined : `${x} vs ${y}`;
  }
  if (a.kind === "matrix" && b.kind === "matrix") {
    const [m, n] = [a.matrix, b.matrix];
    if (m.rows !== n.rows || m.cols !== n.cols) return `shapes differ: ${m.rows} x ${m.cols} vs ${n.rows} x ${n.cols}`;
    let scale = 1;
    for (let i = 0; i < m.rows; i++) for (let j = 0; j < m.cols; j++) scale = Math.max(scale, Math.abs(m.get(i, j)), Math.abs(n.get(i, j)));
    for (let i = 0; i < m.rows; i++) {
      for (let j = 0; j < m.cols; j++) {
        if (!close(m.get(i, j), n.get(i, j), relative * scale)) return `cell (${i + 1}, ${j + 1}): ${m.get(i, j)} vs ${n.get(i, j)}`;
      }
    }
    return undefined;
  }
  return `a ${a.kind} vs a ${b.kind}`;
}

function close(x: number, y: number, tolerance: number): boolean {
  if (x === y) return true;
  if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) && Number.isNaN(y);
  return Math.abs(x - y) <= tolerance;
}
