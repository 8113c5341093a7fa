/**
 * The optimizer on the SPORES examples (examples/sum_product.dml, a copy of
 * ../shared/dml/sum_product.dml): each statement gets its cheaper, verified
 * rewrite; with X dense the squared loss is left alone (the cost decides).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { analyzeText } from "../../engine/stats/program-analysis";
import { optimizeBlock, type Suggestion } from "../../engine/suggest";
import { repoRoot } from "../repo-root";

const script = readFileSync(path.join(repoRoot, "examples", "sum_product.dml"), "utf8");

function suggestions(text: string): Map<string, Suggestion> {
  const analysis = analyzeText(text);
  const found = new Map<string, Suggestion>();
  for (const info of analysis.dags.blocks) {
    const sizes = analysis.sizes.blocks.get(info.block)!;
    const result = optimizeBlock({ block: info.block, dag: info.dag, stats: sizes.nodes, sourceText: text }, {});
    for (const s of result.suggestions) found.set(s.target, s);
  }
  return found;
}

const squash = (s: string) => s.replace(/\s+/g, "");
const sparse = suggestions(script);

function cheaper(s: Suggestion | undefined, name: string): Suggestion {
  assert.ok(s, `no suggestion for ${name}`);
  assert.ok(s.costAfter < s.costBefore, `${name}: ${s.costAfter} is not below ${s.costBefore}`);
  return s;
}

test("sum((X - U %*% t(V))^2) with X sparse: built from sum(X^2), t(U) %*% X %*% V, sum(U^2), sum(V^2)", () => {
  const s = cheaper(sparse.get("l1"), "l1");
  const text = squash(s.rewritten);
  assert.doesNotMatch(text, /U%\*%t\(V\)/, s.rewritten);
  assert.match(text, /X\^2|X\*X/, s.rewritten);
  assert.match(text, /U\^2|U\*U|t\(U\)%\*%U/, s.rewritten);
  assert.match(text, /V\^2|V\*V|t\(V\)%\*%V/, s.rewritten);
  assert.ok(s.costBefore / s.costAfter > 10, `only ${s.costBefore / s.costAfter}x`);
});

test("the + variant is rewritten the same way", () => {
  const s = cheaper(sparse.get("l2"), "l2");
  assert.doesNotMatch(squash(s.rewritten), /U%\*%t\(V\)/, s.rewritten);
});

test("(Uk %*% t(Vk) - X) %*% Vk distributes over the sparse X", () => {
  const s = cheaper(sparse.get("G"), "G");
  const text = squash(s.rewritten);
  assert.match(text, /t\(Vk\)%\*%Vk/, s.rewritten);
  assert.match(text, /X%\*%Vk/, s.rewritten);
  assert.doesNotMatch(text, /Uk%\*%t\(Vk\)/, s.rewritten);
});

test("sum(W %*% H) uses colSums(W) and rowSums(H)", () => {
  const s = cheaper(sparse.get("s1"), "s1");
  assert.match(s.rewritten, /colSums\(W\)/);
  assert.match(s.rewritten, /rowSums\(H\)/);
});

test("P * Xd - P * rowSums(P) * Xd factors out P", () => {
  const s = cheaper(sparse.get("Q"), "Q");
  assert.match(squash(s.rewritten), /1-P/, s.rewritten);
  assert.doesNotMatch(s.rewritten, /rowSums/);
});

test("with X dense, the squared loss is not rewritten: the fused original is cheaper", () => {
  const dense = suggestions(script.replace("sparsity=0.001", "sparsity=1.0"));
  assert.equal(dense.get("l1"), undefined, `unexpected: ${dense.get("l1")?.rewritten}`);
  assert.ok(dense.get("s1"), "the other rewrites do not depend on X");
});
