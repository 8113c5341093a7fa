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
 * SystemDS's Outer tests use a dense X (matrix(3, ...)); with the default machine constants
 * (1 GFLOP/s dense, 0.3 GFLOP/s for the per-cell dot products of an Outer operator, 10 GB/s
 * reads) the planner prices those dot products above computing U %*% t(V) once at the dense
 * rate plus a Cell operator over it, so it chooses Outer only for a sparse X (as issue 15
 * asks: outer-wcemm, outer-masked-squared-loss, outer-sparse-side-input ... match).
 * SystemDS, memory-bound there, chooses Outer for the dense X too.
 */
const DENSE_OUTER = "X is dense, as in SystemDS's test: the cost model chooses U %*% t(V) materialized and a Cell operator over it, cheaper at the default machine constants than per-cell dot products (SystemDS chooses Outer)";

/** Patterns that do not get SystemDS's operator yet, with the reason. */
const KNOWN_GAPS: Readonly<Record<string, string>> = {
  "outer-wdivmm-basic": DENSE_OUTER,
  "outer-wdivmm-left": DENSE_OUTER,
  "outer-wdivmm-nonzero-mask": DENSE_OUTER,
  "outer-wdivmm-right": DENSE_OUTER,
  "outer-wdivmm-right-no-transpose": DENSE_OUTER,
  "outer-wdivmm-transposed-output": DENSE_OUTER,
  "outer-wsigmoid": DENSE_OUTER,
  "cell-bias-add": "bias_add stays one opaque call (SystemDS expands it into a cell-wise + with the bias broadcast per channel), which no template covers",
  "cell-bias-multiply": "bias_multiply stays one opaque call (SystemDS expands it into a cell-wise * with the bias broadcast per channel), which no template covers",
  "cell-nary-min-with-scalars": "min(X, Y, Z, 3, 7) is one n-ary node alone in its block, and an operator of one node is reported as the basic operation itself (planFusion keeps only operators of several nodes); SystemDS compiles the n-ary min with scalars into a Cell operator",
  "magg-sparse-side-input": "sum(X + Y) over two sparse inputs (sparsity 0.1) stays unfused: a Cell operator over X + Y is not sparse-safe and visits every cell, which the cost model prices above the sparse addition kernel; the aggregate then reads the materialized X + Y and shares no input with sum(X ^ 2), so no MAgg is formed (SystemDS builds one with Y as a sparse side input)",
  "outer-overlapping-cell": "X has 63 % non-zeros, as in SystemDS's test: of the 4 plans of the two interesting points (the template switch at X * (U %*% t(V)) included), the cost model finds U %*% t(V) materialized plus one Cell operator for Y + X * ... cheapest (as for a dense X, see DENSE_OUTER); SystemDS ends a sparse-safe Outer operator at the * instead",
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
