// The three plans give the same answers (issue 16's "done means"): every
// example script (on the shipped data, the large ones scaled down) and every
// fusion-pattern test script runs as written, rewritten and fused; the
// printed numbers must agree within 1e-9 relative. Every variable must
// agree too: for the pattern scripts within 1e-9 of the larger of 1 and the
// variable's largest magnitude; for the examples in kind and dims only,
// since their iterative methods end in intermediates that are rounding
// noise (mlogreg's CG residual R after one Newton step differs by 0.2 %
// between the WebAssembly and the JavaScript kernels of the same as-written
// plan: the summation order alone). The fused runs must run fused
// operators, so the property cannot pass on plans without any.
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { executionSession, PLAN_MODES, type PlanMode } from "../../engine/execution";
import type { Value } from "../../engine/runtime/interpreter";
import { repoRoot } from "../repo-root";

const examples = path.join(repoRoot, "examples");
const patterns = path.join(repoRoot, "test", "fixtures", "fusion-patterns");
const TOLERANCE = 1e-9;
/** Variables of the iterative examples: compared in kind and dims only (see above). */
const EXAMPLE_VARIABLE_TOLERANCE = Infinity;

interface ModeRun {
  errors: string[];
  printed: string[];
  env: Map<string, Value>;
  fusedOperators: number;
  rewrites: number;
}

function runIn(mode: PlanMode, text: string, scriptPath: string, params: Record<string, string>): ModeRun {
  const printed: string[] = [];
  const { session, runner } = executionSession({ plan: mode, scriptPath, params, print: (line) => printed.push(line) });
  const result = session.runScript(text);
  const timings = runner.blockTimings();
  return { errors: result.errors, printed, env: session.env, fusedOperators: timings.reduce((n, t) => n + t.fusedOperators, 0), rewrites: timings.reduce((n, t) => n + t.rewrites, 0) };
}

function close(a: number, b: number): boolean {
  if (Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b))) return true;
  return Math.abs(a - b) <= TOLERANCE * Math.max(Math.abs(a), Math.abs(b)) + 1e-12;
}

/** The numbers of a printed line must agree; the words between them must be equal. */
function sameLine(a: string, b: string): boolean {
  const number = /-?(?:\d+\.?\d*(?:E-?\d+)?|NaN|Infinity)/gi;
  if (a.replace(number, "#") !== b.replace(number, "#")) return false;
  const x = a.match(number) ?? [];
  const y = b.match(number) ?? [];
  return x.length === y.length && x.every((v, k) => close(Number(v), Number(y[k])));
}

function valueDifference(a: Value, b: Value, tolerance: number): string | undefined {
  if (a.kind !== b.kind) return `${a.kind} vs ${b.kind}`;
  if (a.kind === "scalar" && b.kind === "scalar") {
    if (typeof a.value === "number" && typeof b.value === "number") {
      const same = close(a.value, b.value) || Math.abs(a.value - b.value) <= tolerance * Math.max(1, Math.abs(a.value), Math.abs(b.value));
      return same ? undefined : `${a.value} vs ${b.value}`;
    }
    return a.value === b.value ? undefined : `${String(a.value)} vs ${String(b.value)}`;
  }
  if (a.kind === "matrix" && b.kind === "matrix") {
    const x = a.matrix;
    const y = b.matrix;
    if (x.rows !== y.rows || x.cols !== y.cols) return `${x.rows}x${x.cols} vs ${y.rows}x${y.cols}`;
    let scale = 1;
    for (let i = 0; i < x.rows; i++) for (let j = 0; j < x.cols; j++) scale = Math.max(scale, Math.abs(x.get(i, j)) || 0, Math.abs(y.get(i, j)) || 0);
    const near = (u: number, v: number) => Object.is(u, v) || (Number.isNaN(u) && Number.isNaN(v)) || Math.abs(u - v) <= tolerance * scale;
    for (let i = 0; i < x.rows; i++) for (let j = 0; j < x.cols; j++) if (!near(x.get(i, j), y.get(i, j))) return `[${i + 1},${j + 1}]: ${x.get(i, j)} vs ${y.get(i, j)}`;
  }
  return undefined;
}

function assertSameRuns(name: string, runs: Map<PlanMode, ModeRun>, variableTolerance: number): void {
  const base = runs.get("as-written")!;
  for (const mode of PLAN_MODES) {
    const run = runs.get(mode)!;
    assert.deepEqual(run.errors, base.errors, `${name} ${mode}: errors differ from as written`);
    assert.equal(run.printed.length, base.printed.length, `${name} ${mode}: printed ${run.printed.length} lines, as written ${base.printed.length}`);
    run.printed.forEach((line, k) => assert.ok(sameLine(line, base.printed[k]!), `${name} ${mode}: '${line}' vs as written '${base.printed[k]}'`));
    for (const [variable, value] of base.env) {
      const other = run.env.get(variable);
      assert.ok(other, `${name} ${mode}: no ${variable}`);
      const difference = valueDifference(value, other, variableTolerance);
      assert.equal(difference, undefined, `${name} ${mode}: ${variable} ${difference}`);
    }
  }
}

function runModes(name: string, text: string, scriptPath: string, params: Record<string, string>, variableTolerance = TOLERANCE): Map<PlanMode, ModeRun> {
  const runs = new Map(PLAN_MODES.map((mode) => [mode, runIn(mode, text, scriptPath, params)] as const));
  assertSameRuns(name, runs, variableTolerance);
  return runs;
}

const cancer = { X: "data/breast_cancer_X.csv", Y: "data/breast_cancer_y.csv" };
const iris = { A: "data/iris_X.csv", b: "data/iris_y.csv" };
const EXAMPLES: Record<string, Record<string, string>> = {
  "als_cg.dml": { X: "data/iris_X.csv", maxi: "2" },
  "fusion_micro.dml": {},
  "glm_logit.dml": cancer,
  "iris_tour.dml": {},
  "kmeans.dml": { X: "data/iris_X.csv", k: "3" },
  "l2svm.dml": cancer,
  "linreg_bfgs.dml": iris,
  "linreg_cg.dml": { X: "data/iris_X.csv", Y: "data/iris_y.csv" },
  "linreg_dfp.dml": iris,
  "linreg_gd.dml": iris,
  // One Newton step: from the second on, the inner CG's stopping test turns last-bit differences (4e-14 in the
  // first objective, from products summed in another order) into 4e-5 in the objective.
  "mlogreg.dml": { X: "data/digits_X.csv", Y: "data/digits_y.csv", maxi: "1" },
  "pnmf.dml": { X: "data/iris_X.csv", maxi: "5" },
  "prove.dml": {},
  "sum_product.dml": {},
};

/** The two micro-benchmark scripts, scaled down so that the as-written plan (which materializes dense products) stays small. */
function scaledDown(name: string, text: string): string {
  if (name === "fusion_micro.dml") return text.replace("m = 100000", "m = 2000").replace(/rows=20000/g, "rows=600").replace("cols=20000", "cols=600");
  if (name === "sum_product.dml") return text.replace(/rows=10000/g, "rows=700").replace(/(rows|cols)=5000/g, "$1=400").replace("sparsity=0.001", "sparsity=0.02");
  return text;
}

describe("as written, rewritten and fused plans agree", () => {
  it("covers every example script", () => {
    const shipped = readdirSync(examples).filter((f) => f.endsWith(".dml")).sort();
    assert.deepEqual(shipped, Object.keys(EXAMPLES).sort());
  });

  for (const [name, params] of Object.entries(EXAMPLES)) {
    it(`examples/${name}`, () => {
      const file = path.join(examples, name);
      const runs = runModes(name, scaledDown(name, readFileSync(file, "utf8")), file, params, EXAMPLE_VARIABLE_TOLERANCE);
      assert.deepEqual(runs.get("as-written")!.errors, [], name);
    });
  }

  it("every fusion-pattern test script, with fused operators run", () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), "dml-plan-modes-"));
    let fused = 0;
    let rewritten = 0;
    let failing = 0;
    for (const name of readdirSync(patterns).filter((f) => f.endsWith(".dml")).sort()) {
      const runs = runModes(name, readFileSync(path.join(patterns, name), "utf8"), path.join(folder, name), {});
      // A script the runtime cannot run (a builtin it lacks) must fail alike in every mode.
      if (runs.get("as-written")!.errors.length > 0) failing++;
      fused += runs.get("fused")!.fusedOperators;
      rewritten += runs.get("rewritten")!.rewrites;
    }
    console.log(`fusion patterns: ${fused} fused operators run, ${rewritten} statements rewritten, ${failing} scripts the runtime cannot run`);
    assert.ok(failing <= 10, `${failing} scripts fail`);
    assert.ok(fused >= 100, `only ${fused} fused operators ran`);
  });
});
