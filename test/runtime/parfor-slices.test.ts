// Disjointness of a parfor result's slices with the values of the index
// names (engine/runtime/parfor/disjoint-slices.ts), and the work estimate
// that keeps small loops sequential (parfor-work.ts).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { analyzeParfor } from "../../engine/program/parfor-dependencies";
import type { ForStatement } from "../../engine/syntax/ast";
import { parse } from "../../engine/syntax/parse";
import { int, type Value } from "../../engine/runtime/interpreter/values";
import { overlapReason } from "../../engine/runtime/parfor/disjoint-slices";
import { parforWork } from "../../engine/runtime/parfor/parfor-work";
import { DenseMatrix } from "../../engine/runtime/matrix";

function loop(body: string): ForStatement {
  const program = parse(`parfor (i in 1:8) {\n${body}\n}`).program;
  return program.body[0] as ForStatement;
}

/** The overlap reason for the body's single result, with names' values and the loop's increment. */
function overlap(body: string, values: Record<string, number> = {}, by = 1): string | undefined {
  const a = analyzeParfor(loop(body));
  assert.equal(a.results.length, 1, JSON.stringify(a.dependencies));
  return overlapReason(a.results[0]!, "i", by, (n) => values[n]);
}

describe("disjoint slices with values", () => {
  it("block slices of width k are disjoint for any k; wider ranges only with a larger increment", () => {
    for (const k of [1, 2, 7]) assert.equal(overlap("R[(i-1)*k+1:i*k, ] = X", { k }), undefined);
    assert.match(overlap("R[i:i+1, ] = X")!, /disjoint parts of 'R'/);
    assert.equal(overlap("R[i:i+1, ] = X", {}, 2), undefined);
    assert.equal(overlap("R[2*i, 1] = 1\nR[2*i - 1, 1] = 2"), undefined);
    assert.equal(overlap("R[2*i, 1] = 1\nR[2*i + 1, 1] = 2"), undefined);
    assert.match(overlap("R[2*i, 1] = 1\nR[2*i + 2, 1] = 2")!, /disjoint/);
  });

  it("a name without a value, a zero coefficient or mixed dimensions are not disjoint", () => {
    assert.match(overlap("R[(i-1)*k+1:i*k, ] = X")!, /disjoint/);
    assert.match(overlap("R[i*k, ] = X", { k: 0 })!, /disjoint/);
    assert.match(overlap("R[i, 1] = 1\nR[1, i] = 2")!, /disjoint/);
    assert.equal(overlap("R[i, 1] = 1\nR[i, 2] = 2"), undefined);
  });

  it("reads inside the own slice are allowed, reads of another iteration's are not", () => {
    assert.equal(overlap("R[i, ] = R[i, ] * 2"), undefined);
    assert.match(overlap("R[i, ] = R[i + 1, ] * 2")!, /disjoint/);
    assert.match(overlap("R[i, ] = R[, 1] * 2")!, /disjoint/);
  });
});

describe("the work estimate", () => {
  it("iterations x matrix cells x the trips of the most repeated nested for", () => {
    const statement = loop("v = X[, i]\nfor (k in 1:n) {\n  for (m in 1:3) { v = v + 1 }\n}\nwhile (FALSE) { v = v }\nR[1, i] = sum(v)");
    const a = analyzeParfor(statement);
    const env = new Map<string, Value>([
      ["X", { kind: "matrix" as const, matrix: new DenseMatrix(100, 8) }],
      ["R", { kind: "matrix" as const, matrix: new DenseMatrix(1, 8) }],
      ["n", int(40)],
    ]);
    assert.equal(parforWork(a, statement.body, 8, env), 8 * (1 + 800 + 8) * 40 * 3);
    env.delete("n");
    assert.equal(parforWork(a, statement.body, 8, env), 8 * (1 + 800 + 8) * 3);
  });
});
