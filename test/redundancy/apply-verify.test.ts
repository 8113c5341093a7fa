// The runtime checks a redundancy option before it is offered: the original
// and the edited script run on random data of the shapes their reads declare
// and must print the same values and end with the same variables (1e-9
// relative). A deliberately wrong option is dropped with the reason.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { analyzeText } from "../../engine/analysis/program-analysis";
import { verifyRedundancyOptions } from "../../engine/suggest/verify-redundancy";
import { verifyScriptEdit } from "../../engine/suggest/verify-script-edit";
import { scriptReadInputs } from "../../engine/suggest/script-read-inputs";
import { repoRoot } from "../repo-root";
import { gdOptions, option } from "./edit-options";

const examples = path.join(repoRoot, "examples");
const file = path.join(examples, "linreg_gd.dml");
const gd = readFileSync(file, "utf8");
const analysis = analyzeText(gd, { scriptPath: file, parameters: new Map([["A", "data/iris_X.csv"], ["b", "data/iris_y.csv"]]) });

const { AtA, Atb } = gdOptions(gd);

describe("verifying redundancy options with the runtime", () => {
  it("gives each read() of linreg_gd the sizes of its data", () => {
    const reads = scriptReadInputs(analysis, (k) => `in${k}`);
    assert.ok(Array.isArray(reads));
    assert.deepEqual(reads.map((r) => [r.shape.name, r.shape.rows, r.shape.cols, r.range.start.line, r.range.start.character]), [
      ["in1", 150, 4, 5, 4],
      ["in2", 150, 1, 6, 4],
    ]);
  });

  it("verifies the hoists of t(A) %*% A and t(A) %*% b, and a transposed reuse", () => {
    const transposed = option(gd, { kind: "lse", expression: "t(b) %*% A", name: "btA", before: ["while (i < maxi)"], occurrences: [["t(A) %*% b", 0, "t({name})"]] });
    const verdicts = verifyRedundancyOptions(gd, analysis, [AtA, Atb, transposed]);
    assert.deepEqual(verdicts.dropped, []);
    assert.deepEqual(verdicts.verified.map((v) => v.applied.assignment), ["AtA = t(A) %*% A", "Atb = t(A) %*% b", "btA = t(b) %*% A"]);
  });

  it("drops a deliberately wrong option with the difference the runtime found", () => {
    const wrong = option(gd, { kind: "lse", expression: "2 * t(A) %*% b", name: "Atb", before: ["while (i < maxi)"], occurrences: [["t(A) %*% b", 0, "{name}"]] });
    const verdicts = verifyRedundancyOptions(gd, analysis, [wrong, Atb]);
    assert.deepEqual(verdicts.verified.map((v) => v.option.id), [Atb.id]);
    assert.equal(verdicts.dropped.length, 1);
    assert.match(verdicts.dropped[0]!.reason, /^the runtime check failed: printed line 1: 'loss [\d.E-]+' vs 'loss [\d.E-]+' \(dense inputs, seed 17\)$/);
    // Wrong dims: the edited script fails where the original runs.
    const mismatched = option(gd, { kind: "lse", expression: "t(A) %*% b", name: "Atb", before: ["while (i < maxi)"], occurrences: [["t(A) %*% A", 0, "{name}"]] });
    assert.match(verifyRedundancyOptions(gd, analysis, [mismatched]).dropped[0]!.reason, /^the runtime check failed: the edited script fails on dense inputs: line \d+:\d+: error: /);
    // An option the text cannot take is dropped before anything runs.
    const variant = option(gd, { kind: "lse", expression: "A %*% x", name: "Ax", before: ["while (i < maxi)"], occurrences: [["A %*% x", 0, "{name}"]] });
    assert.match(verifyRedundancyOptions(gd, analysis, [variant]).dropped[0]!.reason, /^cannot apply it: x is assigned at/);
  });

  it("is bounded by counts: options checked and loop iterations run", () => {
    const verdicts = verifyRedundancyOptions(gd, analysis, [AtA, Atb], { maxOptions: 1 });
    assert.deepEqual(verdicts.verified.map((v) => v.option.id), [AtA.id]);
    assert.deepEqual(verdicts.dropped, [{ id: Atb.id, reason: "not checked: only the first 1 options are checked" }]);
    const endless = verifyScriptEdit(gd, [], analysis, { maxSteps: 10 });
    assert.deepEqual(endless.verified ? "verified" : endless.reason, "the original fails on dense inputs: it makes more than 10 loop iterations and function calls on small data");
  });

  it("does not run a script that builds large data of its own at full size (memory budget)", () => {
    const text = "X = rand(rows=3000, cols=3000, seed=1)\ny = sum(t(X) %*% X) + sum(t(X) %*% X)\nprint(y)\n";
    const big = analyzeText(text, { scriptPath: file });
    const cse = option(text, { kind: "cse", expression: "t(X) %*% X", name: "XtX", before: ["y = "], occurrences: [["t(X) %*% X", 0, "{name}"], ["t(X) %*% X", 1, "{name}"]] });
    const started = performance.now();
    const verdicts = verifyRedundancyOptions(text, big, [cse]);
    assert.ok(performance.now() - started < 5000);
    assert.match(verdicts.dropped[0]!.reason, /^the runtime check failed: the original fails on dense inputs: line 1:5: error: .*above the memory budget of 8\.0 MiB$/);
  });

  it("does not run a script that writes files", () => {
    const text = `${gd}write(x, "out.csv", format="csv")\n`;
    const writer = analyzeText(text, { scriptPath: file, parameters: new Map([["A", "data/iris_X.csv"], ["b", "data/iris_y.csv"]]) });
    const verdict = verifyScriptEdit(text, [], writer);
    assert.deepEqual(verdict, { verified: false, reason: "the script writes files (write() at line 21): it is not run to check the edit" });
  });
});

describe("what the check compares", () => {
  it("compares the variables' values when the script prints no number", () => {
    const text = "A = read($A)\nB = t(A) %*% A\nC = t(A) %*% A + 1\n";
    const silent = analyzeText(text, { scriptPath: file, parameters: new Map([["A", "data/iris_X.csv"]]) });
    const right = option(text, { kind: "cse", expression: "t(A) %*% A", name: "AtA", before: ["B = "], occurrences: [["t(A) %*% A", 0, "{name}"], ["t(A) %*% A", 1, "{name}"]] });
    const wrong = option(text, { kind: "cse", expression: "t(A) %*% A", name: "AtA", before: ["B = "], occurrences: [["t(A) %*% A", 0, "{name}"], ["t(A) %*% A + 1", 0, "{name}"]] });
    const verdicts = verifyRedundancyOptions(text, silent, [right, wrong]);
    assert.deepEqual(verdicts.verified.map((v) => v.option.id), [right.id]);
    assert.match(verdicts.dropped[0]!.reason, /^the runtime check failed: C: cell \(1, 1\): [-\d.e]+ vs [-\d.e]+ \(dense inputs, seed 17\)$/);
  });
});
