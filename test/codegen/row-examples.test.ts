// The example scripts' Row operators run as generated kernels: in the fused
// plan mode on the shipped data, no Row operator is refused by the code
// generator (neither when generated nor when run), kernels do run, and the
// printed numbers equal those of the rewritten plan (the same plan with
// every operator unfused) to 1e-9 relative.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { executionSession } from "../../engine/execution";
import type { PlanMode } from "../../engine/execution/plan-mode";
import { rowOperatorRuns } from "../../engine/runtime/codegen/row-operator";
import { valuesClose } from "../../engine/runtime/matrix/compare";
import { repoRoot } from "../repo-root";

const examples = path.join(repoRoot, "examples");
const cancer = { X: "data/breast_cancer_X.csv", Y: "data/breast_cancer_y.csv" };
const iris = { X: "data/iris_X.csv", Y: "data/iris_y.csv" };

function run(name: string, params: Record<string, string>, plan: PlanMode): { lines: string[]; unfusedRows: string[] } {
  const file = path.join(examples, name);
  const lines: string[] = [];
  const { session, runner } = executionSession({ plan, scriptPath: file, params, print: (l) => lines.push(l) });
  const result = session.runScript(readFileSync(file, "utf8"));
  assert.deepEqual(result.errors, []);
  const unfusedRows = runner.blockTimings().flatMap((b) => b.unfused).filter((reason) => /Row kernel/.test(reason));
  return { lines, unfusedRows };
}

function numbers(lines: readonly string[]): number[] {
  return (lines.join(" ").match(/-?\d+(\.\d+)?(E-?\d+)?/gi) ?? []).map(Number);
}

const CASES: [string, Record<string, string>][] = [
  ["linreg_cg.dml", iris],
  ["l2svm.dml", cancer],
  ["kmeans.dml", { X: iris.X, k: "3", maxi: "5" }],
  ["mlogreg.dml", { X: "data/digits_X.csv", Y: "data/digits_y.csv", maxi: "1", maxii: "3" }],
];

describe("the examples' Row operators as generated kernels", () => {
  for (const [name, params] of CASES) {
    it(`${name}: Row kernels run, none refused, printed numbers as the rewritten plan's`, () => {
      const before = rowOperatorRuns();
      const fused = run(name, params, "fused");
      const after = rowOperatorRuns();
      assert.deepEqual(fused.unfusedRows, [], "Row operators the generator refused");
      assert.ok(after.kernels > before.kernels, "no Row kernel ran");
      assert.equal(after.unsupported, before.unsupported, "Row operators refused at run time");
      const expected = numbers(run(name, params, "rewritten").lines);
      const actual = numbers(fused.lines);
      assert.equal(actual.length, expected.length);
      assert.ok(expected.length > 0);
      for (let k = 0; k < expected.length; k++) assert.ok(valuesClose(actual[k]!, expected[k]!, { relative: 1e-9, absolute: 1e-12 }), `number ${k}: ${actual[k]} vs ${expected[k]}`);
    });
  }
});
