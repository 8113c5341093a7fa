// Compiled plans keep only the variables read after their block (liveness with
// every variable live at the end of a run, since a session's variables
// outlive it): a value reassigned before any read is not materialized, as
// SystemDS removes dead variables. What a run prints and the variables it
// ends with are those of the plan as written; effects of dead statements
// (a user function that prints) still happen; a dead variable is gone, not
// stale, when a run stops before its next assignment.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { executionSession, PLAN_MODES, type BlockTiming, type PlanMode } from "../../engine/execution";
import type { Value } from "../../engine/runtime/interpreter";

/** A line search like l2svm's: `out` and `sv` are reassigned after the loop before they are read. */
const LINE_SEARCH = [
  "X = rand(rows=20000, cols=1, min=-1, max=1, seed=1)",
  "Y = rand(rows=20000, cols=1, min=-1, max=1, seed=2)",
  "s = 0.5",
  "i = 0",
  "while (i < 3) {",
  "  out = 1 - Y * X * s",
  "  sv = (out > 0)",
  "  out = out * sv",
  "  g = sum(out * Y)",
  "  h = sum(X * sv * X) + 1",
  "  s = s - g / h",
  "  i = i + 1",
  "}",
];
const AFTER = ["out = 1 - Y * X * s", "sv = (out > 0)", "print(g + \" \" + h + \" \" + sum(out * sv))"];

function run(mode: PlanMode, lines: readonly string[]): { printed: string[]; env: Map<string, Value>; errors: string[]; loop: BlockTiming } {
  const printed: string[] = [];
  const { session, runner } = executionSession({ plan: mode, print: (line) => printed.push(line) });
  const result = session.runScript(lines.join("\n"));
  const loop = runner.blockTimings().find((t) => t.range.start.line === 5);
  assert.ok(loop, "the loop body ran");
  return { printed, env: session.env, errors: result.errors, loop };
}

/** A fused session that ran the lines without errors, computing deferred variables when read or when the run ends. */
function runFused(lines: readonly string[], deferredVariables: "end" | "read") {
  const printed: string[] = [];
  const { session, runner } = executionSession({ plan: "fused", print: (line) => printed.push(line), deferredVariables });
  assert.deepEqual(session.runScript(lines.join("\n")).errors, []);
  return { session, runner, printed };
}

function sameValue(a: Value | undefined, b: Value | undefined, name: string): void {
  assert.ok(a && b, `${name} is in both runs`);
  if (a.kind === "scalar" && b.kind === "scalar") return assert.equal(a.value, b.value, name);
  assert.ok(a.kind === "matrix" && b.kind === "matrix", `${name}: a scalar or a matrix in both runs`);
  const ma = a.matrix;
  const mb = b.matrix;
  assert.deepEqual([ma.rows, ma.cols], [mb.rows, mb.cols], name);
  for (let i = 0; i < ma.rows; i++) for (let j = 0; j < ma.cols; j++) assert.ok(Math.abs(ma.get(i, j) - mb.get(i, j)) <= 1e-9, `${name}[${i},${j}]`);
}

describe("dead variables in compiled plans", () => {
  it("every plan prints the same and ends with the same variables", () => {
    const runs = PLAN_MODES.map((mode) => run(mode, [...LINE_SEARCH, ...AFTER]));
    const [asWritten, ...compiled] = runs;
    for (const other of compiled) {
      assert.deepEqual(other.errors, []);
      assert.deepEqual(other.printed, asWritten!.printed);
      assert.deepEqual([...other.env.keys()].sort(), [...asWritten!.env.keys()].sort());
      for (const name of asWritten!.env.keys()) sameValue(other.env.get(name), asWritten!.env.get(name), name);
    }
  });

  it("a loop whose temporaries are dead is planned cheaper than the same loop keeping them", () => {
    const dead = run("fused", [...LINE_SEARCH, ...AFTER]).loop;
    // The program reads out and sv after the loop: every iteration materializes them.
    const kept = run("fused", [...LINE_SEARCH, "print(g + \" \" + h + \" \" + sum(out) + \" \" + sum(sv))"]).loop;
    assert.ok(dead.estimatedSeconds < 0.9 * kept.estimatedSeconds, `estimated ${dead.estimatedSeconds} s with dead temporaries vs ${kept.estimatedSeconds} s keeping them`);
  });

  it("temporaries only the session reads after the run are planned as dead ones, and hold their last values when the run ends", () => {
    const dead = run("fused", [...LINE_SEARCH, ...AFTER]).loop;
    // Nothing after the loop reads out and sv: they are the session's final values, computed once when the run ends.
    const lines = [...LINE_SEARCH, "print(g + \" \" + h)"];
    const sessionOnly = run("fused", lines);
    assert.ok(Math.abs(sessionOnly.loop.estimatedSeconds - dead.estimatedSeconds) <= 1e-12, `estimated ${sessionOnly.loop.estimatedSeconds} s vs ${dead.estimatedSeconds} s with dead temporaries`);
    const asWritten = run("as-written", lines);
    assert.deepEqual(sessionOnly.printed, asWritten.printed);
    for (const name of ["out", "sv"]) sameValue(sessionOnly.env.get(name), asWritten.env.get(name), name);
  });

  it("with deferredVariables 'read', such a temporary is computed only when read: by settle(), variables() or a later cell", () => {
    const lines = [...LINE_SEARCH, "print(g + \" \" + h)"];
    const asWritten = run("as-written", lines);
    const lazy = () => {
      const s = executionSession({ plan: "fused", print: () => undefined, deferredVariables: "read" }).session;
      assert.deepEqual(s.runScript(lines.join("\n")).errors, []);
      return s;
    };
    const settled = lazy();
    assert.equal(settled.env.has("out"), false, "out is pending after the run");
    settled.settle();
    for (const name of ["out", "sv"]) sameValue(settled.env.get(name), asWritten.env.get(name), name);
    const listed = lazy();
    const out = listed.variables().find((v) => v.name === "out");
    assert.deepEqual([out?.rows, out?.cols], [20000, 1]);
    sameValue(listed.env.get("out"), asWritten.env.get("out"), "out");
    const printed: string[] = [];
    const next = executionSession({ plan: "fused", print: (line) => printed.push(line), deferredVariables: "read" }).session;
    assert.deepEqual(next.runScript(lines.join("\n")).errors, []);
    assert.deepEqual(next.runCell("print(sum(out))").errors, []);
    const expected: string[] = [];
    const reference = executionSession({ plan: "as-written", print: (line) => expected.push(line) }).session;
    reference.runScript(lines.join("\n"));
    reference.runCell("print(sum(out))");
    assert.deepEqual(printed.slice(-1), expected.slice(-1));
    // A later cell's loop condition reads it (outside any block's inputs).
    const looped = executionSession({ plan: "fused", print: () => undefined, deferredVariables: "read" }).session;
    assert.deepEqual(looped.runScript(lines.join("\n")).errors, []);
    assert.deepEqual(looped.runCell("k = 0\nwhile (sum(out) > -1e300 & k < 1) { k = k + 1 }\nprint(k)").errors, []);
  });

  it("a session-only product (kmeans' D) is deferred when the session computes only what is read, and kept when the run ends; a matrix-vector product is not", () => {
    const lines = [
      "X = rand(rows=3000, cols=4, min=-1, max=1, seed=3)",
      "C = rand(rows=3, cols=4, min=-1, max=1, seed=4)",
      "i = 0",
      "while (i < 2) {",
      "  D = -2 * (X %*% t(C)) + t(rowSums(C^2))",
      "  minD = rowMins(D)",
      "  e = X %*% t(C[1, ])",
      "  C = C + 0.01 * i",
      "  i = i + 1",
      "}",
      "print(sum(minD))",
    ];
    const plan = (deferredVariables: "end" | "read") => {
      const { session, runner, printed } = runFused(lines, deferredVariables);
      return { session, printed, loop: runner.blockTimings().find((t) => t.range.start.line === 4)! };
    };
    const lazy = plan("read");
    const eager = plan("end");
    // Until read, D is not written in the loop: the plan is estimated cheaper.
    assert.ok(lazy.loop.estimatedSeconds < eager.loop.estimatedSeconds, `${lazy.loop.estimatedSeconds} s deferring D vs ${eager.loop.estimatedSeconds} s writing it`);
    assert.equal(lazy.session.env.has("D"), false, "D is pending after the run");
    // A matrix-vector product runs as the WebAssembly GEMV and stays a value of its own.
    assert.equal(lazy.session.env.has("e"), true, "e is computed in the loop");
    assert.deepEqual(lazy.printed, eager.printed);
    lazy.session.settle();
    // Computed when read: the value of the last iteration, as the run that wrote it every time holds.
    sameValue(lazy.session.env.get("D"), eager.session.env.get("D"), "D");
  });

  it("a session-only call of a row-wise or cumulative builtin (kmeans' final Y = rowIndexMax(P)) is deferred until read; other calls are computed", () => {
    const lines = [
      "P = rand(rows=2000, cols=5, min=0, max=1, seed=5)",
      "while (FALSE) {}",
      "Y = rowIndexMax(P)",
      "Z = cumsum(P * 2)",
      "Q = order(target=P, by=1)",
      "print(sum(P))",
    ];
    const lazy = runFused(lines, "read");
    const eager = runFused(lines, "end");
    assert.deepEqual(lazy.printed, eager.printed);
    assert.equal(lazy.session.env.has("Y"), false, "Y is pending after the run");
    assert.equal(lazy.session.env.has("Z"), false, "Z is pending after the run");
    // order() may be pure, but it is not one of the builtins a deferred value may call.
    assert.equal(lazy.session.env.has("Q"), true, "Q is computed by the run");
    lazy.session.settle();
    for (const name of ["Y", "Z", "Q"]) sameValue(lazy.session.env.get(name), eager.session.env.get(name), name);
  });

  it("a value the plan would not compute (dead, or only the session reads it) still fails as written when its sizes do not fit", () => {
    const head = ["A = matrix(1, rows=3, cols=2)", "B = matrix(1, rows=4, cols=5)", "while (FALSE) {}"];
    for (const failing of ["C = A + B", "C = A %*% B", "C = cbind(A, B)", "C = A[5, 1]"]) {
      for (const tail of [[], ["C = 1"]]) {
        const lines = [...head, failing, ...tail, 'print("done")'];
        const errors = (mode: PlanMode, deferredVariables: "end" | "read") => {
          const printed: string[] = [];
          const { session } = executionSession({ plan: mode, print: (line) => printed.push(line), deferredVariables });
          return { errors: session.runScript(lines.join("\n")).errors, printed };
        };
        const expected = errors("as-written", "end");
        assert.equal(expected.errors.length, 1, `${failing}: the plan as written fails`);
        for (const mode of PLAN_MODES) {
          for (const deferral of ["end", "read"] as const) assert.deepEqual(errors(mode, deferral), expected, `${failing}${tail.length ? " (then reassigned)" : ""}, ${mode}, deferred until ${deferral}`);
        }
      }
    }
  });

  it("a temporary computed from unseeded random numbers is kept as it was computed, not computed again", () => {
    const lines = ["i = 0", "s = 0", "while (i < 3) {", "  r = rand(rows=50, cols=1)", "  t = r * 2", "  s = s + sum(t)", "  i = i + 1", "}", "print(s)"];
    const { session } = executionSession({ plan: "fused", print: () => undefined });
    assert.deepEqual(session.runScript(lines.join("\n")).errors, []);
    const r = session.env.get("r");
    const t = session.env.get("t");
    assert.ok(r?.kind === "matrix" && t?.kind === "matrix", "r and t are matrices after the run");
    for (let k = 0; k < 50; k++) assert.equal(t.matrix.get(k, 0), 2 * r.matrix.get(k, 0), `t[${k}]`);
  });

  it("a dead assignment's effects still happen: a user function that prints", () => {
    const lines = ["f = function(double a) return (double b) {", "  print(\"called with \" + a)", "  b = a * 2", "}", "y = 1", "z = f(3)", "y = 2", "print(y)"];
    for (const mode of PLAN_MODES) {
      const printed: string[] = [];
      const { session } = executionSession({ plan: mode, print: (line) => printed.push(line) });
      assert.deepEqual(session.runScript(lines.join("\n")).errors, []);
      assert.deepEqual(printed, ["called with 3.0", "2"], mode);
    }
  });

  it("a dead variable is gone, not stale, when the run stops before its next assignment", () => {
    const stopped = [...LINE_SEARCH, "stop(\"halt\")", ...AFTER];
    const asWritten = run("as-written", stopped);
    const fused = run("fused", stopped);
    assert.match(asWritten.errors.join(), /halt/);
    assert.match(fused.errors.join(), /halt/);
    assert.ok(asWritten.env.has("sv"));
    assert.ok(!fused.env.has("sv"), "sv was never materialized by the fused loop");
    sameValue(fused.env.get("s"), asWritten.env.get("s"), "s");
  });
});
