// ReMac's options as code actions on linreg_gd.dml (issue 19's done-means):
// hoisting `t(A) %*% A` and `t(A) %*% b` is offered on the loop's lines once
// the runtime verified it, the workspace edit applied gives a script whose
// printed loss equals the original's within 1e-9 relative, and work for an
// old version is never shown.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { analyzeText } from "../../engine/analysis/program-analysis";
import { applyEdits } from "../../engine/syntax/ranges";
import { createSession } from "../../engine/runtime/interpreter";
import { RedundancyActions } from "../../server/src/redundancy-actions";
import { repoRoot } from "../repo-root";

const file = path.join(repoRoot, "examples", "linreg_gd.dml");
const text = readFileSync(file, "utf8");
const params = { A: "data/iris_X.csv", b: "data/iris_y.csv" };
const analysis = analyzeText(text, { scriptPath: file, parameters: new Map(Object.entries(params)) });
const uri = "file:///linreg_gd.dml";
const lineOf = (needle: string) => text.split("\n").findIndex((l) => l.includes(needle));
const lineRange = (line: number) => ({ start: { line, character: 0 }, end: { line, character: 0 } });

function printedLoss(script: string): number {
  const printed: string[] = [];
  const result = createSession({ scriptPath: file, params, print: (l) => printed.push(l) }).runScript(script);
  assert.deepEqual(result.errors, []);
  const line = printed.find((l) => l.startsWith("loss "));
  assert.ok(line, `no loss printed: ${printed.join(" | ")}`);
  return Number(line.slice(5));
}

/** Runs the scheduled tasks in order, as the event loop would. */
function queue(): { later: (task: () => void) => void; drain: () => number } {
  const tasks: (() => void)[] = [];
  return {
    later: (task) => tasks.push(task),
    drain: () => {
      let n = 0;
      for (let task = tasks.shift(); task; task = tasks.shift()) (task(), n++);
      return n;
    },
  };
}

describe("redundancy code actions", () => {
  it("offers and applies the hoists of t(A) %*% A and t(A) %*% b on linreg_gd", () => {
    const log: string[] = [];
    const tasks = queue();
    const actions = new RedundancyActions((m) => log.push(m), tasks.later);
    actions.prepare(uri, 1, text, analysis);
    assert.deepEqual(actions.fixes(uri, 1, lineRange(lineOf("g = t(A)"))), [], "nothing before the checks ran");
    const ran = tasks.drain();
    assert.ok(ran >= 3, `${ran} tasks`);
    assert.ok(actions.finished(uri, 1));
    const atGradient = actions.fixes(uri, 1, lineRange(lineOf("g = t(A)")));
    const titles = atGradient.map((f) => f.title);
    assert.equal(titles.length, 2, titles.join("\n"));
    assert.match(titles[0]!, /^Hoist `t\(A\) %\*% A` out of the loop \(saves ≈ [\d.]+ [nµm]?s per iteration, in the chosen plan\)$/);
    assert.match(titles[1]!, /^Hoist `t\(A\) %\*% b` out of the loop \(saves ≈ [\d.]+ [nµm]?s per iteration, in the chosen plan\)$/);
    // Also on the loop's line; the reuse of A %*% g (it saves on its own) on the step-size line.
    assert.equal(actions.fixes(uri, 1, lineRange(lineOf("while (i < maxi)"))).length, 2);
    const atStep = actions.fixes(uri, 1, lineRange(lineOf("alpha = "))).map((f) => f.title);
    assert.ok(atStep.some((t) => /^Reuse `A %\*% g` \(computed 2 times; saves ≈ .*, not in the chosen plan\)$/.test(t)), atStep.join("\n"));
    assert.deepEqual(actions.fixes(uri, 1, lineRange(lineOf("loss = "))), []);
    assert.deepEqual(log, []);

    // Both applied, one after the other, as a user picks them: each edit on the text the previous one left.
    const first = applyEdits(text, atGradient[0]!.edits);
    assert.match(first, /^AtA = t\(A\) %\*% A\nwhile \(i < maxi\) \{\n {2}g = AtA %\*% x - t\(A\) %\*% b\n/m);
    const second = applyEdits(text, atGradient[1]!.edits);
    assert.match(second, /^Atb = t\(A\) %\*% b\nwhile/m);
    const original = printedLoss(text);
    for (const edited of [first, second]) {
      const loss = printedLoss(edited);
      assert.ok(Math.abs(loss - original) <= 1e-9 * Math.abs(original), `${loss} vs ${original}`);
    }
  });

  it("shows nothing for another version and stops the work of a replaced one", () => {
    const tasks = queue();
    const actions = new RedundancyActions(() => {}, tasks.later);
    actions.prepare(uri, 1, text, analysis);
    actions.prepare(uri, 2, text, analysis);
    tasks.drain();
    assert.ok(!actions.finished(uri, 1));
    assert.ok(actions.finished(uri, 2));
    assert.deepEqual(actions.fixes(uri, 1, lineRange(lineOf("g = t(A)"))), []);
    assert.equal(actions.fixes(uri, 2, lineRange(lineOf("g = t(A)"))).length, 2);
    actions.forget(uri);
    assert.deepEqual(actions.fixes(uri, 2, lineRange(lineOf("g = t(A)"))), []);
  });

  it("logs an option the runtime check drops and does not offer it", () => {
    // A script that writes a file is not run to check an edit: its options are logged, none offered.
    const writer = `${text}write(x, "x.csv", format="csv")\n`;
    const writerAnalysis = analyzeText(writer, { scriptPath: file, parameters: new Map(Object.entries(params)) });
    const log: string[] = [];
    const tasks = queue();
    const actions = new RedundancyActions((m) => log.push(m), tasks.later);
    actions.prepare(uri, 1, writer, writerAnalysis);
    tasks.drain();
    assert.deepEqual(actions.fixes(uri, 1, { start: { line: 0, character: 0 }, end: { line: 30, character: 0 } }), []);
    assert.equal(log.length, 3, log.join("\n"));
    for (const line of log) assert.match(line, /^redundancy: \S+ not offered: the runtime check failed: the script writes files \(write\(\) at line 21\): it is not run to check the edit$/);
  });
});
