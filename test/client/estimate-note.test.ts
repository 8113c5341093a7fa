// Why a run's time was far from its estimate (client/src/estimate-note.ts),
// from the estimate the server gives (server/src/run-estimate.ts) and the
// sizes the run measured.
import { strict as assert } from "node:assert";
import { test } from "node:test";
import { estimateNote } from "../../client/src/estimate-note";
import { analyzeText } from "../../engine/analysis/program-analysis";
import { runEstimate } from "../../server/src/run-estimate";
import { statementTexts } from "../../client/src/statement-texts";
import { createSession } from "../../engine/runtime/interpreter";

const matrix = (name: string, rows: number, cols: number, nnz: number) => ({ name, kind: "matrix" as const, rows, cols, nnz });

test("the server's estimate names the costliest operations in DML and the sizes it assumed", () => {
  const text = "X = rand(rows=1000, cols=500, seed=1)\nY = t(X) %*% X\ns = sum(Y ^ 2)\n";
  const estimate = runEstimate(analyzeText(text), 0, 2, text);
  assert.ok(estimate.seconds > 0);
  assert.equal(estimate.unknown, 0);
  assert.deepEqual(estimate.variables, [
    { name: "X", rows: 1000, cols: 500, nnz: 500000 },
    { name: "Y", rows: 500, cols: 500, nnz: 250000 },
  ]);
  assert.equal(estimate.largest![0]!.text, "t(X) %*% X");
  assert.equal(estimate.largest![0]!.line, 1);
  assert.deepEqual(estimate.largest!.map((op) => op.text), ["t(X) %*% X", "rand(rows=1000, cols=500, seed=…", "t(X)"]);
});

test("unknown sizes: the operations left out and the variables whose size was unknown", () => {
  const text = "X = read($input)\nY = X %*% t(X)\n";
  const estimate = runEstimate(analyzeText(text), 0, 1, text);
  assert.ok(estimate.unknown >= 1);
  assert.deepEqual(estimate.unknownVariables, ["X"]);
  const note = estimateNote({ ok: true, ms: 900, variables: [matrix("X", 100, 100, 10000), matrix("Y", 100, 100, 10000)] }, estimate)!;
  assert.match(note.summary, /^the run took [\d,.]+× longer than estimated$/);
  assert.match(note.reasons[0]!, /^3 operations are left out of the estimate: the sizes of X, Y were unknown; e\.g\. `read\(\$input\)` \(line 1\), `t\(X\)` \(line 2\), `X %\*% t\(X\)` \(line 2\)$/);
});

test("sizes off: the variable with the largest miss is named with both sizes", () => {
  const estimate = { seconds: 0.0117, unknown: 0, variables: [{ name: "A", rows: 10, cols: 10, nnz: 100 }, { name: "B", rows: 100, cols: 100, nnz: 10000 }], largest: [{ text: "A %*% B", line: 4, seconds: 0.01 }] };
  const note = estimateNote({ ok: true, ms: 767, variables: [matrix("A", 10000, 5000, 49963), matrix("B", 100, 100, 10000)] }, estimate)!;
  assert.equal(note.summary, "the run took 66× longer than estimated");
  assert.equal(note.reasons[0], "sizes were off, most for A: estimated 10 × 10, nnz 100; the run measured 10,000 × 5,000, nnz 49,963 (500,000× more cells)");
  assert.equal(note.reasons[1], "the estimate's largest operations: `A %*% B` (line 5) 10.0 ms");
});

test("sizes right: says so and names where the estimate spent its time; close runs and failed runs get no note", () => {
  const estimate = { seconds: 0.0117, unknown: 0, variables: [{ name: "X", rows: 10000, cols: 5000, nnz: 50000 }], largest: [{ text: "rand(rows=10000, cols=5000, sparsity=0.001)", line: 5, seconds: 0.008 }] };
  const note = estimateNote({ ok: true, ms: 767, variables: [matrix("X", 10000, 5000, 49963)] }, estimate)!;
  assert.match(note.reasons[0]!, /^the estimated sizes matched the run \(1 matrix within 10 %\)/);
  assert.match(note.reasons[1]!, /`rand\(rows=10000, cols=5000, sparsity=0\.001\)` \(line 6\) 8\.00 ms/);
  assert.equal(estimateNote({ ok: true, ms: 20, variables: [] }, estimate), undefined, "within 3× / 50 ms");
  assert.equal(estimateNote({ ok: true, ms: 30, variables: [] }, { seconds: 0.001, unknown: 0 }), undefined, "30× but only 29 ms apart");
  assert.equal(estimateNote({ ok: false, ms: 2000, variables: [] }, estimate), undefined);
  assert.match(estimateNote({ ok: true, ms: 10, variables: [] }, { seconds: 2, unknown: 0 })!.summary, /200× less time than estimated/);
});

test("a cell split into its statements: each with the rest blanked, positions kept; cells with functions or syntax errors stay whole", () => {
  const cell = "# %% data\nX = rand(rows=3, cols=2, seed=1); s = sum(X)\nY = t(X) %*%\n  X\n";
  const pieces = statementTexts(cell)!;
  assert.deepEqual(pieces.map((p) => [p.startLine, p.endLine, p.statement]), [
    [1, 1, "X = rand(rows=3, cols=2, seed=1)"],
    [1, 1, "s = sum(X)"],
    [2, 3, "Y = t(X) %*% X"],
  ]);
  assert.equal(pieces[0]!.text, `${" ".repeat(9)}\nX = rand(rows=3, cols=2, seed=1);`);
  assert.equal(pieces[1]!.text, `${" ".repeat(9)}\n${" ".repeat(34)}s = sum(X)`);
  assert.equal(pieces[2]!.text.split("\n")[3], "  X");
  assert.equal(pieces[1]!.text.split("\n")[1]!.trim(), "s = sum(X)");
  // Run one by one in a session, the pieces give what the whole cell gives.
  const session = createSession({ print: () => undefined });
  for (const p of pieces) assert.ok(session.runCell(p.text).ok);
  const whole = createSession({ print: () => undefined });
  assert.ok(whole.runCell(cell).ok);
  assert.deepEqual(session.variables(), whole.variables());
  assert.equal(statementTexts("y = f(1)\nf = function(double x) return (double y) { y = x }\n"), undefined);
  assert.equal(statementTexts("x = (1 +\n"), undefined);
});

test("the statement the run spent most time on, against its estimate", () => {
  const estimate = { seconds: 0.0117, unknown: 0, variables: [{ name: "X", rows: 10000, cols: 5000, nnz: 50000 }], lines: [{ line: 5, seconds: 0.00093 }, { line: 6, seconds: 0.0001 }] };
  const statements = [
    { startLine: 5, endLine: 5, statement: "X = rand(rows=10000, cols=5000, sparsity=…", ms: 700 },
    { startLine: 6, endLine: 6, statement: "U = rand(rows=10000, cols=1, seed=2)", ms: 9 },
  ];
  const note = estimateNote({ ok: true, ms: 767, statements, variables: [matrix("X", 10000, 5000, 49963)] }, estimate)!;
  assert.equal(note.reasons[0], "most of the time went to line 6, `X = rand(rows=10000, cols=5000, sparsity=…`: 700 ms of the run's 767 ms, estimated 930 µs (753× more)");
});
