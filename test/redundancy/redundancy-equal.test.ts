// Every option the search finds in the shipped quasi-Newton and gradient
// descent scripts, applied on its own, gives the same results as the
// original (the runtime is the oracle): x, the loss, within 1e-9 relative.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { findRedundancy } from "../../engine/redundancy";
import { createSession } from "../../engine/runtime/interpreter/session";
import { analyzeText } from "../../engine/analysis/program-analysis";
import { parse } from "../../engine/syntax/parse";
import { repoRoot } from "../repo-root";
import { applyRedundancy } from "../../engine/redundancy/apply-redundancy";

/** The example with its reads replaced by small random data, a few iterations, and its results printed. */
function runnable(name: string): string {
  const text = readFileSync(path.join(repoRoot, "examples", `${name}.dml`), "utf8");
  return text
    .replace("read($A)", "rand(rows=40, cols=6, min=-1, max=1, seed=7)")
    .replace("read($b)", "rand(rows=40, cols=1, min=-1, max=1, seed=8)")
    .replace(/ifdef\(\$maxi, \d+\)/, "4")
    .concat("print(sum(x))\nprint(sum(x^2))\n");
}

function results(script: string): number[] {
  const lines: string[] = [];
  const run = createSession({ scriptPath: "/tmp/redundancy.dml", print: (l) => lines.push(l) }).runScript(script);
  assert.deepEqual(run.errors, [], script);
  return lines.map((l) => Number(l.replace(/^loss /, "")));
}

describe("applying each option keeps the results", () => {
  for (const name of ["linreg_dfp", "linreg_bfgs", "linreg_gd"]) {
    it(name, () => {
      const text = runnable(name);
      const report = findRedundancy(analyzeText(text), text);
      assert.ok(report.options.length >= 3, `${name}: ${report.options.length} options`);
      const expected = results(text);
      assert.equal(expected.length, 3);
      for (const option of report.options) {
        const application = applyRedundancy(text, [option]);
        assert.deepEqual(application.refused, [], option.id);
        const applied = application.text;
        assert.notEqual(applied, text);
        assert.deepEqual(parse(applied).diagnostics, [], `${option.id} gives a syntax error:\n${applied}`);
        const got = results(applied);
        for (const [i, v] of expected.entries()) {
          assert.ok(Math.abs(got[i]! - v) <= 1e-9 * Math.max(1, Math.abs(v)), `${option.id}: result ${i} ${got[i]} != ${v}\n${applied}`);
        }
      }
    });
  }
});
