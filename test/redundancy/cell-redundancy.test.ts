// Run Cell applies the chosen, verified redundancy options like `dml run`
// (client/src/cell-redundancy.ts through run-sessions.ts): the hoists of
// t(A) %*% A and t(A) %*% b in the loop cell of a gradient descent script,
// the same printed values as the as-written plan, timings on the user's
// lines, and nothing applied under as-written, without the document or
// when the runtime check cannot verify the copy.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, describe, it } from "node:test";
import { splitCells, isolateCell } from "../../engine/syntax";
import { RunSessions } from "../../client/src/run-sessions";
import type { RunRequest } from "../../client/src/runtime-protocol";

const dir = mkdtempSync(path.join(os.tmpdir(), "dml-lens-cell-redundancy-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const SCRIPT = `# %% data
A = rand(rows=300, cols=6, min=-1, max=1, seed=3)
b = rand(rows=300, cols=1, min=-1, max=1, seed=4)
x = matrix(0, rows=6, cols=1)

# %% descend
for (i in 1:40) {
  x = x - 0.001 * (t(A) %*% (A %*% x - b))
}
print("loss " + sum((A %*% x - b)^2))
`;

let id = 1;
function cell(index: number, text = SCRIPT): string {
  const found = splitCells(text).find((c) => c.index === index);
  assert.ok(found);
  return isolateCell(text, found);
}

function runCells(plan: "fused" | "as-written", withScript = true, text = SCRIPT): ReturnType<RunSessions["run"]>[] {
  const sessions = new RunSessions({ shouldInterrupt: () => false, machineFile: path.join(dir, "machine.json"), recordObservations: false });
  const scriptPath = path.join(dir, `gd-${id}.dml`);
  return [1, 2].map((index) => {
    const request: RunRequest = { id: id++, scriptPath, texts: [cell(index, text)], params: {}, plan, ...(withScript ? { script: text, expectedIterations: 40 } : {}) };
    return sessions.run(request);
  });
}

describe("Run Cell with the chosen redundancy options", () => {
  it("the loop cell runs with t(A) %*% A and t(A) %*% b hoisted; the printed loss equals the as-written run's", () => {
    const [first, second] = runCells("fused");
    assert.ok(first!.ok && second!.ok, [...first!.errors, ...second!.errors].join("\n"));
    assert.equal(first!.redundancy, undefined, "the data cell has nothing to apply");
    assert.deepEqual(second!.redundancy?.applied.map((a) => a.assignment), ["AtA = t(A) %*% A", "Atb = t(A) %*% b"]);
    assert.deepEqual(second!.redundancy?.dropped, []);
    const [, plain] = runCells("as-written");
    assert.equal(plain!.redundancy, undefined);
    const loss = (r: typeof second) => Number(/loss (.*)$/.exec(r!.output[0] ?? "")?.[1]);
    assert.ok(Number.isFinite(loss(second)));
    assert.ok(Math.abs(loss(second) - loss(plain)) <= 1e-9 * Math.abs(loss(plain)), `${loss(second)} vs ${loss(plain)}`);
    // Timings are on the user's lines: the loop body's block is line 8 (0-based 7), not shifted by the inserted assignments, which count for the loop's line.
    assert.deepEqual(second!.blocks!.map((b) => [b.startLine, b.endLine, b.runs]), [[6, 6, 1], [7, 7, 40], [9, 9, 1]]);
    assert.deepEqual((second!.statements ?? []).map((s) => s.startLine), [6, 9]);
  });

  it("without the document the cell runs as written", () => {
    const [, second] = runCells("fused", false);
    assert.ok(second!.ok);
    assert.equal(second!.redundancy, undefined);
  });

  it("a cell whose original fails is not rewritten (the check cannot compare): it runs as written, the error at its line, the options dropped with why", () => {
    const failing = SCRIPT.replace('print("loss "', 'stop("the loss is " +');
    const [, second] = runCells("fused", true, failing);
    assert.equal(second!.ok, false);
    assert.deepEqual(second!.redundancy?.applied, []);
    assert.equal(second!.redundancy?.dropped.length, 2);
    assert.match(second!.redundancy?.dropped[0]?.reason ?? "", /^the runtime check of the rewritten copy failed: the original fails/);
    assert.equal(second!.error?.line, 9, JSON.stringify(second!.error));
    assert.match(second!.errors[0] ?? "", /:10:1: /);
  });
});
