// Options whose source texts meet (engine/redundancy/option-order.ts): they
// are chosen together when the outer one's replacement computes the inner
// one's expression, applied outer first; otherwise they conflict.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { applyRedundancy, findRedundancy } from "../../engine/redundancy";
import { applicationOrder } from "../../engine/redundancy/option-order";
import { analyzeText } from "../../engine/analysis";

const GRADIENT =
  "A = rand(rows=400, cols=5, seed=1)\nb = rand(rows=400, cols=1, seed=2)\nx = matrix(0, rows=5, cols=1)\nfor (i in 1:30) {\n  x = x - 0.0001 * (t(A) %*% (A %*% x - b))\n}\nprint(sum(x))\n";

describe("options whose texts meet", () => {
  it("t(A) %*% A and t(A) %*% b both rewrite the gradient: they compose, hoisted together, t(A) %*% A first", () => {
    const r = findRedundancy(analyzeText(GRADIENT), GRADIENT);
    const ata = r.options.find((o) => o.expression === "t(A) %*% A")!;
    const atb = r.options.find((o) => o.expression === "t(A) %*% b")!;
    assert.deepEqual(ata.occurrences[0]!.range, atb.occurrences[0]!.range, "the same text");
    assert.deepEqual(ata.conflicts, []);
    assert.deepEqual(atb.conflicts, []);
    assert.deepEqual(r.plans.chosen.options, [ata.id, atb.id]);
    assert.deepEqual(r.plans.aggressive.options, [ata.id, atb.id]);
    // The plan's order is one the applier accepts; the other order is refused.
    const applied = applyRedundancy(GRADIENT, [ata, atb]);
    assert.deepEqual(applied.refused, []);
    assert.ok(applied.text.includes("x = x - 0.0001 * (AtA %*% x - Atb)\n"), applied.text);
    assert.equal(applyRedundancy(GRADIENT, [atb, ata]).refused.length, 1);
  });

  it("windows that overlap in a chain conflict although their texts nest: t(A) %*% A and A %*% d in t(d) %*% t(A) %*% A %*% d", () => {
    const text = "A = rand(rows=400, cols=5, seed=1)\nd = rand(rows=5, cols=1, seed=2)\ns = 0\nfor (i in 1:30) {\n  s = s + as.scalar(t(d) %*% t(A) %*% A %*% d)\n  d = d * 0.5\n}\nprint(s)\n";
    const r = findRedundancy(analyzeText(text), text);
    const ata = r.options.find((o) => o.expression === "t(A) %*% A")!;
    const ad = r.options.find((o) => o.expression === "A %*% d")!;
    assert.ok(ata.conflicts!.includes(ad.id) && ad.conflicts!.includes(ata.id));
    assert.ok(!(r.plans.chosen.options.includes(ata.id) && r.plans.chosen.options.includes(ad.id)));
  });

  it("the application order puts outer options first; a cycle has none", () => {
    const before = new Map([["a", new Set(["b"])], ["c", new Set(["a"])]]);
    assert.deepEqual(applicationOrder(["b", "a", "c", "d"], (x) => x, { before }), ["c", "a", "b", "d"]);
    assert.equal(applicationOrder(["a", "b"], (x) => x, { before: new Map([["a", new Set(["b"])], ["b", new Set(["a"])]]) }), undefined);
  });
});
