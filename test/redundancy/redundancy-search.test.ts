// The pieces of ReMac's search on small scripts: window keys (a chain and
// its transpose share one), symmetry, distributive expansion, loop
// iteration counts, forced windows in the chain cost, the search bounds.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { findRedundancy } from "../../engine/redundancy";
import { chainCost } from "../../engine/redundancy/chain-cost";
import type { Factor } from "../../engine/redundancy/chain-terms";
import { windowKey } from "../../engine/redundancy/window-key";
import { analyzeText } from "../../engine/analysis/program-analysis";

const atom = (key: string, rows: number, cols: number, symmetric = false) => ({ key, text: key, name: key, size: { rows, cols, nnz: rows * cols }, invariantLoops: 0, symmetric });
const f = (a: ReturnType<typeof atom>, transposed = false, leaf = 0): Factor => ({ atom: a, transposed, leaf });

describe("window keys", () => {
  const A = atom("A", 100, 10);
  const d = atom("d", 10, 1);
  const H = atom("H", 10, 10, true);
  it("a chain and its transpose share the key", () => {
    assert.deepEqual(windowKey([f(A), f(d)]), { key: "A d", transposed: false });
    assert.deepEqual(windowKey([f(d, true), f(A, true)]), { key: "A d", transposed: true });
  });
  it("a symmetric matrix is its own transpose", () => {
    assert.equal(windowKey([f(H), f(A, true)]).key, windowKey([f(A), f(H)]).key);
    assert.notEqual(windowKey([f(atom("G", 10, 10)), f(A, true)]).key, windowKey([f(A), f(atom("G", 10, 10))]).key);
  });
});

describe("chain cost", () => {
  const A = atom("A", 1000, 10);
  const d = atom("d", 10, 1);
  it("orders the chain and takes forced windows as ready operands", () => {
    const chain = [f(d, true), f(A, true), f(A), f(d)];
    const free = chainCost(chain)!;
    const forced = chainCost(chain, [{ start: 1, end: 2 }])!;
    assert.ok(forced.seconds < free.seconds);
    assert.deepEqual(forced.tree.kind, "split");
    assert.equal(chainCost(chain, [{ start: 0, end: 1 }, { start: 1, end: 2 }]), undefined, "crossing windows");
    assert.equal(chainCost([f(atom("X", 5, 5)), f({ ...atom("Y", 5, 5), size: undefined } as never)]), undefined, "unknown size");
  });
});

function report(text: string) {
  return findRedundancy(analyzeText(text), text);
}

describe("search on small scripts", () => {
  it("finds the implicit CSE of A %*% d in t(d) %*% t(A) %*% A %*% d and rewrites the chain", () => {
    const r = report("A = rand(rows=50, cols=5, seed=1)\nd = rand(rows=5, cols=1, seed=2)\ns = as.scalar(t(d) %*% t(A) %*% A %*% d)\nprint(s)\n");
    const ad = r.options.find((o) => o.expression === "A %*% d")!;
    assert.equal(ad.kind, "cse");
    assert.equal(ad.explicit, false);
    assert.deepEqual(ad.occurrences.map((o) => o.replacement), ["t({name}) %*% {name}"]);
    assert.equal(ad.name, "Ad");
    assert.ok(ad.costed && ad.saving > 0);
  });

  it("expands t(A) %*% (A %*% x - b) to find t(A) %*% A and t(A) %*% b loop-constant, with for-loop bounds", () => {
    const r = report("A = rand(rows=50, cols=5, seed=1)\nb = rand(rows=50, cols=1, seed=2)\nx = matrix(0, rows=5, cols=1)\nfor (i in 1:7) {\n  x = x - 0.001 * (t(A) %*% (A %*% x - b))\n}\nprint(sum(x))\n");
    const lse = r.options.filter((o) => o.kind === "lse");
    assert.deepEqual(lse.map((o) => o.expression).sort(), ["t(A) %*% A", "t(A) %*% b"]);
    assert.deepEqual(lse[0]!.iterations, { count: 7, source: "bounds" });
    const ata = lse.find((o) => o.expression === "t(A) %*% A")!;
    assert.equal(ata.occurrences[0]!.replacement, "({name} %*% x - t(A) %*% b)");
    assert.deepEqual(ata.insertBefore.start, { line: 3, character: 0 });
  });

  it("a loop without known bounds uses the expectedIterations setting", () => {
    const text = "A = rand(rows=50, cols=5, seed=1)\nx = matrix(1, rows=5, cols=1)\nwhile (sum(x) < 100) {\n  x = t(A) %*% A %*% x\n}\nprint(sum(x))\n";
    const r = findRedundancy(analyzeText(text), text, { expectedIterations: 3 });
    const ata = r.options.find((o) => o.kind === "lse")!;
    assert.deepEqual(ata.iterations, { count: 3, source: "setting" });
    assert.equal(ata.explicit, true);
    assert.deepEqual(r.settings, { expectedIterations: 3 });
  });

  it("a variable updated symmetrically is symmetric; one updated otherwise is not", () => {
    const sym = report("A = rand(rows=30, cols=4, seed=1)\nH = diag(matrix(1, rows=4, cols=1))\nd = rand(rows=4, cols=1, seed=2)\nfor (i in 1:3) {\n  H = H + d %*% t(d)\n  d = H %*% d\n}\nX = H %*% t(A) %*% A\nY = A %*% H\nprint(sum(X) + sum(Y))\n");
    assert.ok(sym.options.some((o) => o.kind === "cse" && o.key === "A H"), sym.options.map((o) => o.key).join(" / "));
    const asym = report("A = rand(rows=30, cols=4, seed=1)\nH = diag(matrix(1, rows=4, cols=1))\nd = rand(rows=4, cols=1, seed=2)\nfor (i in 1:3) {\n  H = H + d %*% t(H %*% d)\n  d = H %*% d\n}\nX = H %*% t(A) %*% A\nY = A %*% H\nprint(sum(X) + sum(Y))\n");
    assert.ok(!asym.options.some((o) => o.key === "A H"));
  });

  it("variables reassigned between statements are not common", () => {
    const r = report("A = rand(rows=30, cols=4, seed=1)\nd = rand(rows=4, cols=1, seed=2)\ny = A %*% d\nd = d * 2\nz = A %*% d\nprint(sum(y) + sum(z))\n");
    assert.equal(r.options.length, 0);
  });
});
