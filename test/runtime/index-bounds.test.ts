// An omitted index bound (`X[, 1]`) means "all rows"; no index a user
// writes or computes is taken for it: `X[-1, 1]` is an out-of-range row in
// the checker and in the runtime, as in SystemDS, never the whole column.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createSession } from "../../engine/runtime/interpreter";
import { checkDocument } from "../../engine/analysis/check-document";

function run(script: string): { lines: string[]; errors: string[] } {
  const lines: string[] = [];
  const session = createSession({ scriptPath: "/tmp/index-bounds.dml", print: (line) => lines.push(line) });
  const result = session.runScript(script);
  return { lines, errors: result.errors };
}

function checkErrors(text: string): string[] {
  return checkDocument(text).filter((d) => d.severity === "error").map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.message}`);
}

const X = "X = matrix(seq(1, 6), rows=3, cols=2)\n";

describe("index bounds: omitted means all, -1 is out of range", () => {
  it("X[, 1] and X[1, ] select the whole column and row", () => {
    assert.deepEqual(run(`${X}print(sum(X[, 1]))\nprint(sum(X[2, ]))\nprint(sum(X[, ]))`), { lines: ["9.0", "7.0", "21.0"], errors: [] });
    assert.deepEqual(checkErrors(`${X}y = X[, 1]\nprint(sum(y))`), []);
  });

  for (const [label, index] of [["a literal -1", "-1"], ["a computed -1", "i"], ["-1 as an upper bound", "1:-1"], ["0 - 1", "0 - 1"]] as const) {
    it(`${label} in X[${index}, 1] is an out-of-range row, not 'all rows'`, () => {
      const script = `${X}i = 2 - 3\ny = X[${index}, 1]\nprint(sum(y))`;
      const result = run(script);
      assert.deepEqual(result.lines, [], "nothing printed: the run stops at the index");
      assert.equal(result.errors.length, 1);
      assert.match(result.errors[0]!, /^\/tmp\/index-bounds\.dml:3:\d+: .*(row index out of range|lower row bound 1 exceeds the upper bound -1)/);
    });
  }

  it("the checker reports a constant -1 row index, located at the indexing", () => {
    const found = checkErrors(`${X}y = X[-1, 1]\nprint(sum(y))`);
    assert.equal(found.length, 1, found.join("\n"));
    assert.match(found[0]!, /^2:5: index out of range: rows -1 of 3/);
  });
});
