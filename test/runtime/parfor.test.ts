// parfor on worker threads (engine/runtime/parfor): the same printed output,
// errors and variables, bit for bit, as the same script with `for`, on
// several scripts (per-column statistics, per-row normalization, a seeded
// bootstrap, block slices, nested loops, locals used after the loop) and on
// random bodies (fast-check); that a large loop ran on workers and why the
// others ran sequentially (parfor-report.ts, counts, not times); stop(), a
// bad index and an interrupt inside a worker's iteration give the error at
// its source position after the output of the iterations before it.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { executionSession } from "../../engine/execution";
import { createSession, type Session, type SessionOptions, type Value } from "../../engine/runtime/interpreter";
import { toDense } from "../../engine/runtime/matrix/convert";
import { parforReportLine, parforWorkerCounts, takeParforReports, type ParforReport } from "../../engine/runtime/parfor/parfor-report";
import { locateParforWorker } from "../../engine/runtime/parfor/parfor-worker-file";

const skip = locateParforWorker() === undefined ? "dist/parfor-worker.js is not built (npm run build)" : false;

interface Outcome {
  lines: string[];
  errors: string[];
  env: Map<string, Value>;
  reports: ParforReport[];
}

function run(script: string, options: SessionOptions = {}, session?: Session): Outcome {
  const lines: string[] = [];
  takeParforReports();
  const s = session ?? createSession({ scriptPath: "/tmp/parfor.dml", ...options, print: (line) => lines.push(line) });
  const result = s.runScript(script);
  return { lines, errors: result.errors, env: s.env, reports: takeParforReports() };
}

/** A value as text that tells every bit apart (-0, NaN, the last digit). */
function exact(v: Value): string {
  if (v.kind === "matrix") {
    const d = toDense(v.matrix);
    return `${v.matrix.format} ${d.rows}x${d.cols} ${Array.from(d.data, (x) => (Object.is(x, -0) ? "-0" : String(x))).join(",")}`;
  }
  return JSON.stringify(v);
}

/** Runs the script as written (parfor) and with every parfor a for; asserts equal output, errors and variables; returns the parfor run. */
function sameAsFor(script: string, options: SessionOptions = {}): Outcome {
  const parallel = run(script, options);
  const sequential = run(script.replace(/\bparfor\s*\(/g, "for (").replace(/,\s*(opt|par|check)\s*=\s*\w+/g, ""), options);
  assert.deepEqual(parallel.lines, sequential.lines, "printed output");
  assert.deepEqual(parallel.errors, sequential.errors, "errors");
  assert.deepEqual([...parallel.env.keys()].sort(), [...sequential.env.keys()].sort(), "variables");
  for (const [name, v] of sequential.env) assert.equal(exact(parallel.env.get(name)!), exact(v), `variable ${name}`);
  return parallel;
}

function ranOnWorkers(o: Outcome): void {
  assert.ok(o.reports.length > 0 && o.reports.every((r) => r.workers > 0), JSON.stringify(o.reports));
}

describe("parfor on worker threads: the same values as for", { skip }, () => {
  it("per-column statistics into R[1, j] and R[2, j], with prints in iteration order", () => {
    const o = sameAsFor(`
      X = rand(rows=300, cols=6, seed=3)
      R = matrix(0, 2, 6)
      parfor (j in 1:6, opt=NONE) {
        c = X[, j]
        R[1, j] = mean(c)
        R[2, j] = sd(c)
        print("column " + j + ": " + as.scalar(R[1, j]))
      }
      print(toString(R))
      print(j)`);
    ranOnWorkers(o);
    assert.equal(o.lines.filter((l) => l.startsWith("column ")).join("|"), [1, 2, 3, 4, 5, 6].map((j) => o.lines.find((l) => l.startsWith(`column ${j}:`))).join("|"));
  });

  it("per-row normalization into R[i, ], a local used after the loop", () => {
    ranOnWorkers(
      sameAsFor(`
        X = rand(rows=40, cols=7, seed=11, min=-1, max=3)
        R = matrix(0, 40, 7)
        parfor (i in 1:nrow(X), opt=NONE) {
          r = X[i, ]
          norm = sqrt(sum(r^2))
          R[i, ] = r / norm
        }
        print(norm)`),
    );
  });

  it("a bootstrap with a seeded sample per iteration into column slices R[, b]", () => {
    ranOnWorkers(
      sameAsFor(`
        y = rand(rows=50, cols=1, seed=5)
        B = 9
        R = matrix(0, 3, B)
        parfor (b in 1:B, opt=NONE) {
          s = sample(50, 50, TRUE, 100 + b)
          P = table(seq(1, 50), s, 50, 50)
          yb = P %*% y
          R[1, b] = mean(yb)
          R[2, b] = min(yb)
          R[3, b] = max(yb)
        }
        print(sum(R))`),
    );
  });

  it("block slices R[(i-1)*k+1 : i*k, ] with k from before the loop, nested for into R[i, j], a decreasing seq", () => {
    ranOnWorkers(sameAsFor("k = 3\nR = matrix(-1, 15, 2)\nparfor (i in 1:5, opt=NONE) {\n  R[(i-1)*k+1:i*k, ] = matrix(i * 0.1, k, 2)\n}\nprint(sum(R))"));
    ranOnWorkers(sameAsFor("R = matrix(0, 4, 5)\nparfor (i in 1:4, opt=NONE) {\n  for (j in 1:5) {\n    R[i, j] = i / j\n  }\n}\nprint(j)"));
    ranOnWorkers(sameAsFor("R = matrix(0, 1, 9)\nparfor (i in seq(9, 1, -2), opt=NONE) {\n  R[1, i] = -0 * i\n  R[1, i] = i\n}"));
  });

  it("the fused plan (engine/execution) on the workers gives the fused plan's values", () => {
    const script = "X = rand(rows=200, cols=8, seed=1)\nR = matrix(0, 8, 1)\nparfor (j in 1:8, opt=NONE) {\n  v = X[, j]\n  R[j, 1] = sum(v * v + 2 * v) / sum(exp(v))\n}";
    const outcome = (text: string) => {
      const { session } = executionSession({ plan: "fused", print: () => undefined });
      return run(text, {}, session);
    };
    const parallel = outcome(script);
    const sequential = outcome(script.replace("parfor (j in 1:8, opt=NONE)", "for (j in 1:8)"));
    ranOnWorkers(parallel);
    assert.equal(exact(parallel.env.get("R")!), exact(sequential.env.get("R")!));
  });

  it("random bodies (fast-check): results, locals and output equal the for loop's", () => {
    const scalar = fc.constantFrom("i", "2.5", "t", "sum(x)", "-1");
    const row = fc.constantFrom("x", "X[i, ]", "abs(x) + t", "x * i", "exp(-x)", "x / (1 + t * t)");
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 9 }), scalar, row, fc.constantFrom("+", "-", "*", "/"), fc.boolean(), (n, s, r, op, print) => {
        const script = [
          "X = rand(rows=9, cols=4, seed=2, min=-2, max=2)",
          "R = matrix(0, 9, 4)",
          "S = matrix(7, 1, 9)",
          `parfor (i in 1:${n}, opt=NONE) {`,
          "  x = X[i, ]",
          `  t = ${s === "t" ? "i" : s}`,
          `  R[i, ] = (${r}) ${op} t`,
          "  S[1, i] = sum(R[i, ])",
          print ? '  print(i + ": " + t)' : "",
          "}",
        ].join("\n");
        ranOnWorkers(sameAsFor(script));
      }),
      { numRuns: 12 },
    );
  });
});

describe("parfor: where it runs", { skip }, () => {
  it("a large loop runs on worker threads without opt=NONE (the counters grow)", () => {
    const before = parforWorkerCounts();
    const o = run("X = rand(rows=600, cols=800, seed=1)\nR = matrix(0, 1, 16)\nparfor (j in 1:16) {\n  R[1, j] = sum(X[, j] * 2)\n}");
    assert.deepEqual(o.errors, []);
    ranOnWorkers(o);
    const after = parforWorkerCounts();
    assert.equal(after.runs, before.runs + 1);
    assert.equal(after.iterations, before.iterations + 16);
  });

  it("dependent, small, side-effecting and par=1 loops run sequentially, saying why", () => {
    const reason = (script: string) => {
      const o = run(script);
      assert.deepEqual(o.errors, []);
      assert.equal(o.reports.length, 1);
      assert.equal(o.reports[0]!.workers, 0);
      return o.reports[0]!.reason!;
    };
    assert.match(reason("s = 0\nparfor (i in 1:4, opt=NONE) { s = s + i }\nprint(s)"), /loop-carried dependency on 's'/);
    assert.match(reason("R = matrix(0, 4, 3)\nparfor (i in 1:4) { R[i, ] = matrix(i, 1, 3) }"), /^small: 4 iterations/);
    assert.match(reason("R = matrix(0, 4, 3)\nparfor (i in 1:4, opt=NONE) { R[1, ] = matrix(i, 1, 3) }"), /same cells of 'R'/);
    assert.match(reason("R = matrix(0, 4, 3)\nparfor (i in 1:3, opt=NONE) { R[i, ] = R[i + 1, ] }"), /disjoint parts of 'R'/);
    assert.match(reason("R = matrix(0, 4, 3)\nparfor (i in 1:4, opt=NONE, par=1) { R[i, ] = matrix(i, 1, 3) }"), /par=1/);
    assert.match(reason('parfor (i in 1:4, opt=NONE) { write(matrix(i, 1, 1), "/nonexistent/x.csv", format="csv") }'), /write\(\)/);
    assert.match(reason("s = 0\nparfor (i in 1:1) { s = i }"), /1 iteration/);
  });

  it("a report line per parfor for dml run --timings", () => {
    const range = { start: { line: 2, character: 0 }, end: { line: 4, character: 1 } };
    assert.equal(parforReportLine({ range, iterations: 16, workers: 2 }, "a.dml"), "a.dml:3: parfor: 16 iterations on 2 worker threads");
    assert.equal(parforReportLine({ range, iterations: 1, workers: 0, reason: "1 iteration" }, "a.dml"), "a.dml:3: parfor: 1 iteration, sequential: 1 iteration");
  });

  it("a nested parfor runs sequentially inside the outer one's workers, with the same values", () => {
    ranOnWorkers(sameAsFor("R = matrix(0, 3, 4)\nparfor (i in 1:3, opt=NONE) {\n  parfor (j in 1:4, opt=NONE) {\n    R[i, j] = i * 10 + j\n  }\n}"));
  });
});

describe("parfor: errors inside a worker's iteration", { skip }, () => {
  it("stop() in iteration 5: the error at its position, after the output of iterations 1-4", () => {
    const o = sameAsFor('R = matrix(0, 8, 1)\nparfor (i in 1:8, opt=NONE) {\n  print("it " + i)\n  if (i == 5) {\n    stop("five")\n  }\n  R[i, 1] = i\n}');
    ranOnWorkers(o);
    assert.deepEqual(o.lines, ["it 1", "it 2", "it 3", "it 4", "it 5"]);
    assert.deepEqual(o.errors, ["/tmp/parfor.dml:5:5: error: five"]);
  });

  it("an index out of bounds in a function called by the last iteration", () => {
    const o = sameAsFor("f = function(matrix[double] X, int i) return (double y) {\n  y = as.scalar(X[i + 1, 1])\n}\nX = matrix(1, 6, 1)\nR = matrix(0, 6, 1)\nparfor (i in 1:6, opt=NONE) {\n  R[i, 1] = f(X, i)\n}");
    ranOnWorkers(o);
    assert.equal(o.errors.length, 1);
    assert.match(o.errors[0]!, /^\/tmp\/parfor\.dml:2:/);
  });

  it("an interrupt reaches the workers: 'interrupted' at a position inside the loop body", () => {
    const started = Date.now();
    const o = run("R = matrix(0, 4, 1)\nparfor (i in 1:4, opt=NONE) {\n  s = 0\n  while (s >= 0) {\n    s = s + 1\n  }\n  R[i, 1] = s\n}", { shouldInterrupt: () => Date.now() > started + 1500 });
    ranOnWorkers(o);
    assert.equal(o.errors.length, 1);
    assert.match(o.errors[0]!, /^\/tmp\/parfor\.dml:4:\d+: error: interrupted$/);
  });
});
