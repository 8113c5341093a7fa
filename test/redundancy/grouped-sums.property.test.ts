// Property: on random scripts whose statements add products of square
// matrices that share left and right factors (some written transposed,
// negated or scaled, some in a loop, with reassignments in between), every
// grouped sum the search offers, applied on its own, is accepted by the
// applier and prints the same values as the original (the runtime is the
// oracle, 1e-9 relative). The generator finds grouped sums often (counted).
import assert from "node:assert/strict";
import { it } from "node:test";
import fc from "fast-check";
import { findRedundancy } from "../../engine/redundancy";
import { applyRedundancy } from "../../engine/redundancy/apply-redundancy";
import { analyzeText } from "../../engine/analysis/program-analysis";
import { createSession } from "../../engine/runtime/interpreter/session";

const LEFT = ["", "P %*% ", "t(P) %*% "];
const MIDDLE = ["X %*% Y", "Y %*% Z", "t(Y) %*% t(X)", "t(Z) %*% t(Y)", "X"];
const RIGHT = ["", " %*% Q"];

const product = fc.record({
  left: fc.integer({ min: 0, max: LEFT.length - 1 }),
  middle: fc.integer({ min: 0, max: MIDDLE.length - 1 }),
  right: fc.integer({ min: 0, max: RIGHT.length - 1 }),
  negative: fc.boolean(),
  scaled: fc.boolean(),
});
type Product = typeof product extends fc.Arbitrary<infer T> ? T : never;

// The paper's shape: the same middles under a left factor and over a right one (a common sum across blocks).
const paired = fc
  .record({ middles: fc.array(fc.integer({ min: 0, max: MIDDLE.length - 1 }), { minLength: 2, maxLength: 3 }), left: fc.integer({ min: 1, max: LEFT.length - 1 }), negative: fc.boolean() })
  .map(({ middles, left, negative }) => [
    ...middles.map((middle) => ({ left, middle, right: 0, negative, scaled: false })),
    ...middles.map((middle) => ({ left: 0, middle, right: 1, negative, scaled: false })),
  ]);
const statement = fc.oneof(
  { weight: 3, arbitrary: fc.array(product, { minLength: 2, maxLength: 5 }).map((terms) => ({ kind: "sum" as const, terms })) },
  { weight: 2, arbitrary: paired.map((terms) => ({ kind: "sum" as const, terms })) },
  { weight: 1, arbitrary: fc.constant({ kind: "reassign" as const }) },
);
const script = fc.record({ statements: fc.array(statement, { minLength: 1, maxLength: 4 }), loop: fc.boolean() });

function productText(p: Product): string {
  const chain = `${LEFT[p.left]}${MIDDLE[p.middle]}${RIGHT[p.right]}`;
  const scaled = p.scaled ? `2 * (${chain})` : chain;
  return `${p.negative ? "- " : "+ "}${scaled}`;
}

function scriptText(s: typeof script extends fc.Arbitrary<infer T> ? T : never): string {
  const inputs = ["P", "X", "Y", "Z", "Q"].map((n, i) => `${n} = rand(rows=6, cols=6, min=-1, max=1, seed=${i + 11})`);
  let count = 0;
  const body = s.statements.map((st) => {
    if (st.kind === "reassign") return "X = X * 0.5 + 0.1";
    count++;
    return `R${count} = R${count} ${st.terms.map(productText).join(" ")}`;
  });
  const init = Array.from({ length: count }, (_, i) => `R${i + 1} = matrix(0, rows=6, cols=6)`);
  const prints = Array.from({ length: count }, (_, i) => `print(sum(R${i + 1}))\nprint(sum(R${i + 1}^2))`);
  const indented = s.loop ? ["for (i in 1:3) {", ...body.map((l) => `  ${l}`), "}"] : body;
  return [...inputs, ...init, ...indented, ...prints, ""].join("\n");
}

function results(text: string): number[] {
  const printed: string[] = [];
  const run = createSession({ scriptPath: "/tmp/grouped-property.dml", print: (l) => printed.push(l) }).runScript(text);
  assert.deepEqual(run.errors, [], text);
  return printed.map(Number);
}

it("every grouped sum applied alone prints the same values as the original", () => {
  let found = 0;
  let lse = 0;
  let cse = 0;
  fc.assert(
    fc.property(script, (s) => {
      const text = scriptText(s);
      const report = findRedundancy(analyzeText(text), text);
      if (report.groupedSums.length === 0) return;
      const expected = results(text);
      for (const option of report.groupedSums) {
        found++;
        if (option.kind === "lse") lse++;
        else cse++;
        const application = applyRedundancy(text, [option]);
        assert.deepEqual(application.refused, [], `${option.id}\n${text}`);
        const actual = results(application.text);
        assert.equal(actual.length, expected.length);
        expected.forEach((e, i) => assert.ok(Math.abs(actual[i]! - e) <= 1e-9 * Math.max(1, Math.abs(e)), `${option.id}: ${actual[i]} vs ${e}\n${text}\n---\n${application.text}`));
      }
    }),
    { numRuns: 60, seed: 19 },
  );
  assert.ok(cse >= 10 && lse >= 10, `grouped sums found: ${cse} CSE, ${lse} LSE`);
});
