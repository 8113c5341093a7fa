// ReMac's extension across blocks by regrouping common factors: products
// of an expanded expression that share left and right factors give back
// the sum between them, and a sum used twice (or loop-constant) is an
// option with its own temporary. Applied options print the same values as
// the original (the runtime, 1e-9 relative).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { findRedundancy, type RedundancyOption } from "../../engine/redundancy";
import { applyRedundancy } from "../../engine/redundancy/apply-redundancy";
import { analyzeText } from "../../engine/analysis/program-analysis";
import { createSession } from "../../engine/runtime/interpreter/session";
import { parse } from "../../engine/syntax/parse";
import { redundancyLines } from "../../cli/explain-redundancy";
import { redundancyRun } from "../../engine/execution";

const inputs = ["P", "X", "Y", "Z", "Q"].map((n, i) => `${n} = rand(rows=12, cols=12, min=-1, max=1, seed=${i + 1})`).join("\n");

function report(body: string) {
  const text = `${inputs}\n${body}`;
  return { text, report: findRedundancy(analyzeText(text), text) };
}

function results(script: string): number[] {
  const lines: string[] = [];
  const run = createSession({ scriptPath: "/tmp/grouped.dml", print: (l) => lines.push(l) }).runScript(script);
  assert.deepEqual(run.errors, [], script);
  return lines.map(Number);
}

/** Applies the option and checks that the edited script prints the same values. */
function assertApplied(text: string, option: RedundancyOption): string {
  const application = applyRedundancy(text, [option]);
  assert.deepEqual(application.refused, [], option.id);
  assert.deepEqual(parse(application.text).diagnostics, [], application.text);
  const expected = results(text);
  const actual = results(application.text);
  assert.ok(expected.length > 0);
  expected.forEach((e, i) => assert.ok(Math.abs(actual[i]! - e) <= 1e-9 * Math.max(1, Math.abs(e)), `${option.id}: ${actual[i]} vs ${e}\n${application.text}`));
  return application.text;
}

const summary = (o: RedundancyOption) => `${o.kind} ${o.expression} x${o.groupedUses}`;

describe("grouped sums across blocks", () => {
  it("finds X %*% Y + Y %*% Z in the paper's four blocks and applies it", () => {
    const { text, report: r } = report("R = P %*% X %*% Y + P %*% Y %*% Z + X %*% Y %*% Q + Y %*% Z %*% Q\nprint(sum(R))\nprint(sum(R^2))\n");
    assert.deepEqual(r.groupedSums.map(summary), ["cse X %*% Y + Y %*% Z x2"]);
    const [option] = r.groupedSums;
    assert.ok(option);
    assert.equal(option.name, "XY_YZ");
    assert.equal(option.occurrences.length, 1);
    assert.match(option.occurrences[0]!.replacement, /^\(P %\*% \{name\} \+ \{name\} %\*% Q\)$/);
    assert.ok(option.costed && option.evaluationCost > 0 && option.saving > 0 && option.saving < r.originalCost, JSON.stringify(option));
    const applied = assertApplied(text, option);
    assert.match(applied, /XY_YZ = X %\*% Y \+ Y %\*% Z\nR = \(P %\*% XY_YZ \+ XY_YZ %\*% Q\)/);
    // The window options are unchanged by the extension; the grouped sum meets both and, saving more, goes with the plan in their place.
    assert.deepEqual(r.options.map((o) => o.expression).sort(), ["X %*% Y", "Y %*% Z"]);
    assert.deepEqual([...option.conflicts!].sort(), r.options.map((o) => o.id).sort());
    assert.deepEqual(r.groupedChoice.chosen, [option.id]);
    assert.deepEqual([...r.groupedChoice.replaces].sort(), r.options.map((o) => o.id).sort());
    // The plan the runtime executes is the grouped sum alone, at the grouped estimate, below the window options' plan (the conservative one holds neither).
    assert.deepEqual(r.plans.chosen.options, [option.id]);
    assert.equal(r.plans.chosen.cost, r.groupedChoice.cost);
    assert.ok(r.groupedChoice.cost > 0 && r.groupedChoice.cost < r.originalCost, JSON.stringify(r.groupedChoice));
    const run = redundancyRun(text, "rewritten", analyzeText(text));
    assert.deepEqual(run.applied.map((a) => a.assignment), ["XY_YZ = X %*% Y + Y %*% Z"], JSON.stringify(run.dropped));
    const [ran, written] = [results(run.text), results(text)];
    assert.equal(ran.length, written.length);
    written.forEach((e, i) => assert.ok(Math.abs(ran[i]! - e) <= 1e-9 * Math.max(1, Math.abs(e)), `${ran[i]} vs ${e}`));
    const explained = redundancyLines(r, text, "paper.dml").join("\n");
    assert.match(explained, /grouped sums across blocks \(products regrouped by common factors; 1 option, each costed alone\):\n  cse XY_YZ = X %\*% Y \+ Y %\*% Z  \(implicit, used by 2 groups of products in 1 expression, computed before line 6\): saves /);
    assert.match(explained, /-> \(P %\*% XY_YZ \+ XY_YZ %\*% Q\)\n  with the chosen plan: XY_YZ in place of XY, YZ, estimate /);
  });

  it("does not group a sum whose signs or scalars differ", () => {
    const sign = report("R = P %*% X %*% Y + P %*% Y %*% Z + X %*% Y %*% Q - Y %*% Z %*% Q\nprint(sum(R))\n").report;
    assert.deepEqual(sign.groupedSums.map(summary), []);
    const scalar = report("R = P %*% X %*% Y + P %*% Y %*% Z + X %*% Y %*% Q + 2 * (Y %*% Z %*% Q)\nprint(sum(R))\n").report;
    assert.deepEqual(scalar.groupedSums.map(summary), []);
    const same = report("R = P %*% X %*% Y + 2 * (P %*% Y %*% Z) + X %*% Y %*% Q + 2 * (Y %*% Z %*% Q)\nprint(sum(R))\n");
    assert.deepEqual(same.report.groupedSums.map(summary), ["cse X %*% Y + 2 * (Y %*% Z) x2"]);
    assertApplied(same.text, same.report.groupedSums[0]!);
  });

  it("finds a sum across statements, one of them written transposed", () => {
    const { text, report: r } = report("R = P %*% (X %*% Y + Y %*% Z)\nS = (t(Y) %*% t(X) + t(Z) %*% t(Y)) %*% Q\nprint(sum(R))\nprint(sum(S * S))\nprint(sum(R %*% S))\n");
    assert.deepEqual(r.groupedSums.map(summary), ["cse X %*% Y + Y %*% Z x2"]);
    const option = r.groupedSums[0]!;
    assert.deepEqual(option.occurrences.map((o) => [o.replacement, o.transposed]), [
      ["P %*% {name}", false],
      ["t({name}) %*% Q", true],
    ]);
    assertApplied(text, option);
  });

  it("hoists a loop-constant sum out of the loop (LSE), saving more the more iterations", () => {
    const body = (n: number) => `R = matrix(0, rows=12, cols=12)\nfor (i in 1:${n}) {\n  R = R + P %*% X %*% Y + P %*% Y %*% Z\n}\nprint(sum(R))\n`;
    const few = report(body(3));
    const many = report(body(30));
    assert.deepEqual(few.report.groupedSums.map(summary), ["lse X %*% Y + Y %*% Z x1"]);
    const [a] = few.report.groupedSums;
    const [b] = many.report.groupedSums;
    assert.ok(a && b);
    assert.ok(a.saving > 0 && b.saving > a.saving, `${a.saving} ${b.saving}`);
    assert.deepEqual(a.iterations, { count: 3, source: "bounds" });
    const applied = assertApplied(few.text, a);
    assert.match(applied, /XY_YZ = X %\*% Y \+ Y %\*% Z\nfor \(i in 1:3\) \{\n  R = \(R \+ P %\*% XY_YZ\)\n/);
  });

  it("does not group one written sum expanded over another", () => {
    const { report: r } = report("R = (X %*% Y + Y %*% Z) %*% (P + Q)\nprint(sum(R))\n");
    assert.deepEqual(r.groupedSums.map(summary), []);
  });
});
