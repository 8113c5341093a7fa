// SystemDS's fusion test patterns (test/fixtures/fusion-patterns, one DML
// script per pattern of SystemDS's codegen tests, with the template SystemDS
// generates for it): each is planned and must get that operator, except the
// known gaps below, which must still miss it (so the list stays true and the
// coverage printed here is honest).
import { strict as assert } from "node:assert";
import path from "node:path";
import { test } from "node:test";
import { analyzeText } from "../../engine/analysis/program-analysis";
import { parse } from "../../engine/syntax";
import { formatCoverage, FUSION_PATTERN_DIR, parseFusionPattern, patternCoverage, patternMatches, readFusionPatterns, type FusionPattern } from "../../cli/fusion-patterns";
import { repoRoot } from "../repo-root";
import { planText } from "./plan-text";

/**
 * SystemDS's wdivmm tests divide by the low-rank product: X / (U %*% t(V) + eps). SystemDS takes
 * the division as sparse-safe in X (its isBinarySparseSafe: `*` and `/`) and visits X's non-zeros
 * only. The runtime's semantics are exact: 0 / 0 is NaN, so at a zero of X the quotient is 0 only
 * where the divisor is not 0, which the planner cannot know for a divisor computed from the data
 * (zero-rules.ts); skipping those cells could change the result (a NaN row of the product), so no
 * Outer operator is formed. Closing the gap needs value ranges of U and V (U, V >= 0 and eps > 0
 * make the divisor positive) or a run-time check before the operator runs.
 */
const DIVISION = "X / (U %*% t(V) + eps) is not sparse-safe under exact semantics (0 / 0 is NaN where the divisor is 0 at a zero of X); SystemDS assumes the divisor non-zero and builds an Outer operator";

/** Patterns that do not get SystemDS's operator yet, with the reason. */
const KNOWN_GAPS: Readonly<Record<string, string>> = {
  "outer-wdivmm-basic": DIVISION,
  "outer-wdivmm-left": DIVISION,
  "outer-wdivmm-right": DIVISION,
  "outer-wdivmm-right-no-transpose": DIVISION,
  "outer-wdivmm-transposed-output": DIVISION,
  "cell-bias-add": "bias_add stays one opaque call (SystemDS expands it into a cell-wise + with the bias broadcast per channel), which no template covers",
  "cell-bias-multiply": "bias_multiply stays one opaque call (SystemDS expands it into a cell-wise * with the bias broadcast per channel), which no template covers",
  "cell-nary-min-with-scalars": "min(X, Y, Z, 3, 7) is one n-ary node alone in its block, and an operator of one node is reported as the basic operation itself (planFusion keeps only operators of several nodes); SystemDS compiles the n-ary min with scalars into a Cell operator",
  "magg-sparse-side-input": "sum(X + Y) over two sparse inputs (sparsity 0.1) stays unfused: a Cell operator over X + Y is not sparse-safe and visits every cell, which the cost model prices above the sparse addition kernel; the aggregate then reads the materialized X + Y and shares no input with sum(X ^ 2), so no MAgg is formed (SystemDS builds one with Y as a sparse side input)",
};

const patterns = readFusionPatterns(path.join(repoRoot, FUSION_PATTERN_DIR));

function plannedTemplates(pattern: FusionPattern) {
  return planText(pattern.text).flatMap((block) => block.plan.operators.map((op) => ({ template: op.template, text: block.text(op.roots[0]!) })));
}

// Planned once for all tests; a planner exception is kept and fails that pattern's test.
const results = patterns.map((pattern) => {
  try {
    const operators = plannedTemplates(pattern);
    return { pattern, operators, matched: patternMatches(pattern, operators.map((o) => o.template)), error: undefined };
  } catch (error) {
    return { pattern, operators: [], matched: false, error: String((error as Error)?.stack ?? error) };
  }
});

test("the fixtures cover SystemDS's four templates and analyze without errors", () => {
  assert.ok(patterns.length >= 60, `${patterns.length} fixtures`);
  const templates = new Set(patterns.map((p) => p.template));
  assert.deepEqual([...templates].sort(), ["cell", "magg", "outer", "row"]);
  for (const pattern of patterns) {
    const syntax = parse(pattern.text).diagnostics.filter((d) => d.severity === "error");
    const analysis = analyzeText(pattern.text).diagnostics.filter((d) => d.severity === "error");
    assert.deepEqual([...syntax, ...analysis].map((d) => d.message), [], pattern.name);
  }
});

test("every known gap names a fixture", () => {
  const names = new Set(patterns.map((p) => p.name));
  assert.deepEqual(Object.keys(KNOWN_GAPS).filter((name) => !names.has(name)), []);
});

test("a fixture's header says which operators SystemDS generates", () => {
  const pattern = parseFusionPattern("p.dml", "# expect: cell magg\n# expect-not: outer\nX = rand(rows=2, cols=2)\n");
  assert.deepEqual([pattern.expect, pattern.expectNot, pattern.template], [["cell", "magg"], ["outer"], "cell"]);
  assert.equal(patternMatches(pattern, ["row", "magg"]), true);
  assert.equal(patternMatches(pattern, ["row"]), false);
  assert.equal(patternMatches(pattern, ["cell", "outer"]), false);
  assert.throws(() => parseFusionPattern("q.dml", "# expect: fused\n"), /q\.dml: 'fused' is not a template/);
  assert.throws(() => parseFusionPattern("r.dml", "X = 1\n"), /r\.dml: no '# expect:'/);
});

for (const { pattern, operators, matched, error } of results) {
  const gap = KNOWN_GAPS[pattern.name];
  test(`${pattern.name}: ${gap === undefined ? "gets" : "known gap, does not get yet"} ${describe(pattern)}`, () => {
    assert.equal(error, undefined, `planning ${pattern.name} threw`);
    const planned = operators.map((o) => `${o.template}: ${o.text}`).join("; ") || "no fused operator";
    if (gap === undefined) assert.ok(matched, `expected ${describe(pattern)}, planned: ${planned}`);
    else assert.ok(!matched, `${pattern.name} now gets ${describe(pattern)} (${planned}): remove it from KNOWN_GAPS`);
  });
}

test("coverage of SystemDS's patterns", (t) => {
  const coverage = patternCoverage(results);
  t.diagnostic(formatCoverage(coverage));
  console.log(`SystemDS fusion patterns: ${formatCoverage(coverage)}; ${Object.keys(KNOWN_GAPS).length} known gaps`);
  assert.equal(coverage.matched, patterns.length - Object.keys(KNOWN_GAPS).length);
});

function describe(pattern: FusionPattern): string {
  const parts: string[] = [];
  if (pattern.expect.length > 0) parts.push(`a ${pattern.expect.join(" or ")} operator`);
  if (pattern.expectNot.length > 0) parts.push(`no ${pattern.expectNot.join(" or ")} operator`);
  return parts.join(" and ");
}
