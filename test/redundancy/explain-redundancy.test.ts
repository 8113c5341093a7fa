// `dml explain`'s redundancy part: the options with kind, expression,
// occurrences and saving, and the three plans with their costs.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { explainRedundancy } from "../../cli/explain-redundancy";
import { memoryFileSystem } from "../../engine/files";
import { analyzeText } from "../../engine/analysis/program-analysis";
import { repoRoot } from "../repo-root";

describe("dml explain: redundancy", () => {
  const text = readFileSync(path.join(repoRoot, "examples", "linreg_gd.dml"), "utf8");
  const fs = memoryFileSystem({ "/w/dml-lens.json": JSON.stringify({ inputs: { $A: { rows: 1_000_000, cols: 100 }, $b: { rows: 1_000_000, cols: 1 } } }) });
  const analysis = analyzeText(text, { scriptPath: "/w/linreg_gd.dml", workspaceRoot: "/w", fs });

  it("lists the options found and the plans", () => {
    const { text: out, json } = explainRedundancy(analysis, text, "linreg_gd.dml");
    const lines = out.trim().split("\n");
    assert.equal(lines[0], "== redundancy (ReMac) in linreg_gd.dml: 3 options found (1 CSE, 2 LSE) over 5 chains, 12 windows");
    assert.ok(lines.some((l) => /^ {2}lse AtA = t\(A\) %\*% A {2}\(implicit, 2 occurrences, hoisted before the loop at line 13, 50 iterations from its bounds\): saves \d/.test(l)), out);
    assert.ok(lines.includes("    line 14: t(A) %*% A -> AtA"), out);
    // Declared sizes, no data: every cost rests on the uniform estimate.
    assert.ok(lines.filter((l) => l.includes("saves")).every((l) => l.endsWith(", nnz: uniform")), out);
    assert.ok(!lines.some((l) => l.includes("nnz estimates")), out);
    assert.ok(lines.some((l) => /^ {2}chosen: .* with lse AtA = t\(A\) %\*% A; lse Atb = t\(A\) %\*% b$/.test(l)), out);
    assert.ok(lines.some((l) => l.startsWith("  conservative: ")) && lines.some((l) => l.startsWith("  aggressive: ")));
    assert.equal(json!.options.length, 3);
  });

  it("says nothing without options, and nothing is searched for a script with errors", () => {
    const plain = "x = 1\nprint(x)\n";
    assert.equal(explainRedundancy(analyzeText(plain), plain, "p.dml").text, "");
    assert.deepEqual(explainRedundancy(undefined, text, "linreg_gd.dml"), { json: null, text: "" });
  });
});
