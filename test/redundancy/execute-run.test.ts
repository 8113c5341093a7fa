// `dml run` executes ReMac's chosen options under the rewritten and fused
// plans (a rewritten copy, never the file) and the text as written under
// as-written: linreg_gd and linreg_dfp print the same values in all three
// modes (1e-9 relative); --json and --timings say which options ran; errors
// point at the user's lines.
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { redundancyRun, userErrorLine } from "../../engine/execution";
import { originalPositions } from "../../engine/redundancy/edited-positions";
import { findRedundancy } from "../../engine/redundancy";
import { analyzeText } from "../../engine/analysis/program-analysis";
import { applyEdits } from "../../engine/syntax/ranges";
import { repoRoot } from "../repo-root";

const examples = path.join(repoRoot, "examples");
const iris = ["A=data/iris_X.csv", "b=data/iris_y.csv"];

function dml(cwd: string, ...args: string[]) {
  return spawnSync(process.execPath, [path.join(repoRoot, "bin", "dml.js"), "run", ...args], { cwd, encoding: "utf8" });
}

interface JsonRun {
  ok: boolean;
  output: string[];
  errors: string[];
  redundancy: { applied: { id: string; name: string; assignment: string }[]; dropped: { id: string; reason: string }[] };
}

function numbers(line: string): number[] {
  return (line.match(/-?\d+\.?\d*(?:E-?\d+)?/gi) ?? []).map(Number);
}

describe("dml run with the chosen redundancy options", () => {
  for (const script of ["linreg_gd.dml", "linreg_dfp.dml"]) {
    it(`${script}: the three plans print the same values; rewritten and fused run the chosen options (the hoist of t(A) %*% A among them)`, () => {
      const text = readFileSync(path.join(examples, script), "utf8");
      const analysis = analyzeText(text, { scriptPath: path.join(examples, script), parameters: new Map([["A", "data/iris_X.csv"], ["b", "data/iris_y.csv"]]) });
      const report = findRedundancy(analysis, text);
      const applied = report.plans.chosen.options.map((id) => report.options.find((o) => o.id === id)!).map((o) => `${o.name} = ${o.expression}`);
      assert.ok(applied.includes("AtA = t(A) %*% A"), applied.join(", "));
      const runs = new Map<string, JsonRun>();
      for (const plan of ["as-written", "rewritten", "fused"]) {
        const result = dml(examples, script, ...iris, "--plan", plan, "--json");
        assert.equal(result.status, 0, result.stderr);
        runs.set(plan, JSON.parse(result.stdout) as JsonRun);
      }
      const base = runs.get("as-written")!;
      assert.deepEqual(base.redundancy, { applied: [], dropped: [] });
      assert.ok(base.output.length > 0);
      for (const plan of ["rewritten", "fused"]) {
        const run = runs.get(plan)!;
        assert.deepEqual(run.redundancy.applied.map((a) => a.assignment), applied, `${plan}: ${JSON.stringify(run.redundancy)}`);
        assert.deepEqual(run.redundancy.dropped, []);
        assert.equal(run.output.length, base.output.length);
        run.output.forEach((line, k) => {
          const [x, y] = [numbers(line), numbers(base.output[k]!)];
          assert.equal(x.length, y.length, `${plan}: '${line}' vs '${base.output[k]}'`);
          x.forEach((v, i) => assert.ok(Math.abs(v - y[i]!) <= 1e-9 * Math.max(Math.abs(v), Math.abs(y[i]!)), `${plan}: '${line}' vs as written '${base.output[k]}'`));
        });
      }
    });
  }

  it("never changes the file; --timings names the options and the user's lines", () => {
    const before = readFileSync(path.join(examples, "linreg_gd.dml"), "utf8");
    const result = dml(examples, "linreg_gd.dml", ...iris, "--timings");
    assert.equal(result.status, 0, result.stderr);
    assert.equal(readFileSync(path.join(examples, "linreg_gd.dml"), "utf8"), before);
    const lines = result.stderr.split("\n");
    assert.ok(lines.includes("linreg_gd.dml: redundancy: lse:t(A)%*%A@14:7 runs as `AtA = t(A) %*% A`"), result.stderr);
    // Block lines are the user's: the loop body starts on line 14 of the file (line 16 of the copy).
    assert.ok(lines.some((l) => l.startsWith("linreg_gd.dml:14: ")), result.stderr);
    assert.ok(!lines.some((l) => /^linreg_gd\.dml:(21|22): /.test(l)), result.stderr);
  });

  it("reports a runtime error of the copy at the user's line", () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), "dml-redundancy-run-"));
    mkdirSync(path.join(folder, "data"));
    for (const f of ["iris_X.csv", "iris_X.csv.mtd", "iris_y.csv", "iris_y.csv.mtd"]) copyFileSync(path.join(examples, "data", f), path.join(folder, "data", f));
    const text = readFileSync(path.join(examples, "linreg_gd.dml"), "utf8") + 'if (loss > 0) {\n  stop("the loss is positive")\n}\n';
    writeFileSync(path.join(folder, "gd.dml"), text);
    const line = text.split("\n").findIndex((l) => l.includes("stop(")) + 1;
    for (const plan of ["as-written", "fused"]) {
      const result = dml(folder, "gd.dml", ...iris, "--plan", plan);
      assert.equal(result.status, 1);
      assert.match(result.stderr, new RegExp(`^gd\\.dml:${line}:3: error: the loss is positive`, "m"), `${plan}: ${result.stderr}`);
    }
  });
});

describe("positions of the copy mapped back", () => {
  const text = "A = rand(rows=3, cols=3)\nfor (k in 1:2) {\n  y = t(A) %*% A + k\n}\nz = 1\n";
  const edits = [
    { range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } }, newText: "AtA = t(A) %*% A\n" },
    { range: { start: { line: 2, character: 6 }, end: { line: 2, character: 16 } }, newText: "AtA" },
  ];
  const edited = applyEdits(text, edits);
  const map = originalPositions(text, edits);

  it("maps lines after an insertion up, and columns after a replacement left", () => {
    assert.equal(edited, "A = rand(rows=3, cols=3)\nAtA = t(A) %*% A\nfor (k in 1:2) {\n  y = AtA + k\n}\nz = 1\n");
    assert.deepEqual(map({ line: 0, character: 4 }), { position: { line: 0, character: 4 } });
    assert.deepEqual(map({ line: 2, character: 0 }), { position: { line: 1, character: 0 } });
    assert.deepEqual(map({ line: 3, character: 12 }), { position: { line: 2, character: 19 } });
    assert.deepEqual(map({ line: 5, character: 0 }), { position: { line: 4, character: 0 } });
    assert.deepEqual(map({ line: 1, character: 6 }), { position: { line: 1, character: 0 }, written: "AtA = t(A) %*% A", inserted: true });
    assert.deepEqual(map({ line: 3, character: 7 }), { position: { line: 2, character: 6 }, written: "AtA", inserted: false });
  });

  it("says when an error lies in an inserted assignment", () => {
    const run = { text: edited, edits, applied: [{ id: "lse", name: "AtA", assignment: "AtA = t(A) %*% A" }], dropped: [], userPosition: map };
    assert.equal(userErrorLine("/x/s.dml:2:7: error: boom", "/x/s.dml", run), "/x/s.dml:2:1: error: boom (in `AtA = t(A) %*% A`, which the run computes once before line 2)");
    assert.equal(userErrorLine("/x/s.dml:6:1: error: boom", "/x/s.dml", run), "/x/s.dml:5:1: error: boom");
    assert.equal(userErrorLine("other: error", "/x/s.dml", run), "other: error");
  });

  it("runs the text as written under as-written, and without an analysis", () => {
    const gd = readFileSync(path.join(examples, "linreg_gd.dml"), "utf8");
    const analysis = analyzeText(gd, { scriptPath: path.join(examples, "linreg_gd.dml"), parameters: new Map([["A", "data/iris_X.csv"], ["b", "data/iris_y.csv"]]) });
    assert.equal(redundancyRun(gd, "as-written", analysis).text, gd);
    assert.equal(redundancyRun(gd, "fused", undefined).text, gd);
    const fused = redundancyRun(gd, "fused", analysis);
    assert.deepEqual(fused.applied.map((a) => a.name), ["AtA", "Atb"]);
    assert.equal(fused.text.split("\n").length, gd.split("\n").length + 2);
  });
});
