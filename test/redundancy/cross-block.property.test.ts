// Property: on random scripts of blocks (statements cut by function calls,
// ifs, for loops, reassignments of the matrices in between), every option
// the search offers, applied on its own, is accepted by the applier and
// prints the same values as the original (the runtime is the oracle,
// 1e-9 relative). The generated scripts hold the same products in many
// blocks, so options across blocks are found often (counted below).
import assert from "node:assert/strict";
import { it } from "node:test";
import fc from "fast-check";
import { findRedundancy } from "../../engine/redundancy";
import { applyRedundancy } from "../../engine/redundancy/apply-redundancy";
import { analyzeText } from "../../engine/analysis/program-analysis";
import { createSession } from "../../engine/runtime/interpreter/session";

const PRODUCTS = ["t(X) %*% X", "t(X) %*% X %*% v", "X %*% Y %*% v", "Y %*% v", "t(v) %*% t(Y) %*% t(X)", "t(X) %*% X %*% Y"];

type Statement =
  | { kind: "use"; product: number }
  | { kind: "cut" }
  | { kind: "reassign"; target: "X" | "Y" | "v" }
  | { kind: "if"; then: Statement[]; otherwise: Statement[] }
  | { kind: "for"; body: Statement[] };

const leaf: fc.Arbitrary<Statement> = fc.oneof(
  { weight: 5, arbitrary: fc.integer({ min: 0, max: PRODUCTS.length - 1 }).map((product): Statement => ({ kind: "use", product })) },
  { weight: 2, arbitrary: fc.constant<Statement>({ kind: "cut" }) },
  { weight: 1, arbitrary: fc.constantFrom<"X" | "Y" | "v">("X", "Y", "v").map((target): Statement => ({ kind: "reassign", target })) },
);
const statement: fc.Arbitrary<Statement> = fc.oneof(
  { weight: 4, arbitrary: leaf },
  { weight: 1, arbitrary: fc.record({ then: fc.array(leaf, { maxLength: 3 }), otherwise: fc.array(leaf, { maxLength: 3 }) }).map(({ then, otherwise }): Statement => ({ kind: "if", then, otherwise })) },
  { weight: 1, arbitrary: fc.array(leaf, { minLength: 1, maxLength: 3 }).map((body): Statement => ({ kind: "for", body })) },
);

const REASSIGN = { X: "X = X * 0.5 + 0.1", Y: "Y = t(Y) - 0.2", v: "v = v + 1" };

function lines(statements: readonly Statement[], indent: string): string[] {
  return statements.flatMap((s): string[] => {
    switch (s.kind) {
      case "use":
        return [`${indent}s = s + sum(${PRODUCTS[s.product]})`];
      case "cut":
        return [`${indent}s = damp(s)`];
      case "reassign":
        return [`${indent}${REASSIGN[s.target]}`];
      case "if":
        return [`${indent}if (s > 0) {`, ...lines(s.then, `${indent}  `), `${indent}} else {`, ...lines(s.otherwise, `${indent}  `), `${indent}}`];
      case "for":
        return [`${indent}for (i in 1:2) {`, ...lines(s.body, `${indent}  `), `${indent}}`];
    }
  });
}

function script(statements: readonly Statement[]): string {
  return [
    "damp = function(Double s) return (Double r) {",
    "  r = s / 2",
    "}",
    "X = rand(rows=12, cols=4, min=-1, max=1, seed=31)",
    "Y = rand(rows=4, cols=4, min=-1, max=1, seed=32)",
    "v = rand(rows=4, cols=1, min=-1, max=1, seed=33)",
    "s = 0",
    ...lines(statements, ""),
    "print(s)",
    "print(sum(X) + sum(Y) + sum(v))",
    "",
  ].join("\n");
}

function printed(text: string): number[] {
  const out: string[] = [];
  const run = createSession({ scriptPath: "/tmp/cross-block-property.dml", print: (l) => out.push(l) }).runScript(text);
  assert.deepEqual(run.errors, [], text);
  return out.map(Number);
}

it("every option on random block structures keeps the printed values", () => {
  let across = 0;
  fc.assert(
    fc.property(fc.array(statement, { minLength: 2, maxLength: 7 }), (statements) => {
      const text = script(statements);
      const report = findRedundancy(analyzeText(text), text);
      const expected = printed(text);
      for (const option of report.options) {
        const application = applyRedundancy(text, [option]);
        assert.deepEqual(application.refused, [], `${option.id}\n${text}`);
        // An option whose assignment goes before another block than its first occurrence's statement spans blocks.
        if (option.occurrences.some((o) => o.range.start.line !== option.insertBefore.start.line)) across++;
        const got = printed(application.text);
        for (const [i, v] of expected.entries()) {
          assert.ok(Math.abs(got[i]! - v) <= 1e-9 * Math.max(1, Math.abs(v)), `${option.id}: ${got[i]} != ${v}\n${application.text}`);
        }
      }
    }),
    { numRuns: 40, seed: 19 },
  );
  assert.ok(across >= 10, `only ${across} options spanned statements`);
});
