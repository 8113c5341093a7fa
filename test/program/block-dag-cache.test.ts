// BlockDagCache (engine/program/block-dag-cache.ts): analyses of edited
// versions of every shipped script give the same DAGs, ranges, sizes and
// diagnostics with a warm cache as without one, and reuse the blocks an
// edit did not touch.
import { strict as assert } from "node:assert";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { BlockDagCache } from "../../engine/program/block-dag-cache";
import { printDag } from "../../engine/program/dag-print";
import { analyzeText, type ProgramAnalysis } from "../../engine/stats/program-analysis";
import { formatStats } from "../../engine/stats/sizes/node-stats";
import { repoRoot } from "../repo-root";

const examples = path.join(repoRoot, "examples");
const scripts = readdirSync(examples).filter((f) => f.endsWith(".dml"));

/** Everything the analysis reports, as text: each block's DAG with sizes, node ranges, inputs, outputs, live-out; all diagnostics. */
function summary(analysis: ProgramAnalysis): string {
  const blocks = analysis.dags.blocks.map((info) => {
    const sizes = analysis.sizes.blocks.get(info.block);
    const ranges = info.dag.nodes.map((n) => `${n.range.start.line}:${n.range.start.character}-${n.range.end.line}:${n.range.end.character}`).join(" ");
    return [printDag(info.dag, (id) => (sizes ? formatStats(sizes.nodes[id]!) : undefined)), ranges, [...info.dag.inputs].join(), [...info.dag.outputs].join(), (info.dag.liveOut ?? []).join()].join("\n");
  });
  const diagnostics = [...analysis.diagnostics].map((d) => `${d.range.start.line}:${d.range.start.character} ${d.code} ${d.message}`);
  return [...blocks, ...diagnostics].join("\n\n");
}

const analyze = (text: string, file: string, dagCache?: BlockDagCache) => analyzeText(text, { scriptPath: path.join(examples, file), ...(dagCache ? { dagCache } : {}) });

/** Edits a user makes: lines inserted above blocks (everything below moves), a statement changed, a variable's type changed at the top. */
function edits(text: string): string[] {
  const lines = text.split("\n");
  const middle = Math.floor(lines.length / 2);
  const statement = lines.findIndex((l, i) => i >= middle && /^\s*\w+\s*=\s*\S/.test(l));
  const firstAssigned = /^\s*(\w+)\s*=/m.exec(text)?.[1];
  return [
    ["# a new comment", "", ...lines].join("\n"),
    [...lines.slice(0, middle), "zz_new = 42", "print(zz_new)", ...lines.slice(middle)].join("\n"),
    statement >= 0 ? [...lines.slice(0, statement), `${lines[statement]} + 0`, ...lines.slice(statement + 1)].join("\n") : text,
    firstAssigned ? `${firstAssigned} = "now a string"\n${text}` : text,
    text,
    text,
  ];
}

for (const file of scripts) {
  test(`${file}: with a warm DAG cache, every edited version analyzes exactly as without one`, () => {
    const text = readFileSync(path.join(examples, file), "utf8");
    const cache = new BlockDagCache();
    analyze(text, file, cache);
    let previous = text;
    for (const edited of edits(text)) {
      const [hits, misses] = [cache.hits, cache.misses];
      const cached = analyze(edited, file, cache);
      assert.equal(summary(cached), summary(analyze(edited, file)));
      if (edited === previous) assert.ok(cache.hits > hits && cache.misses === misses, "the same text again reuses every block");
      previous = edited;
    }
  });
}

test("an edit in the middle rebuilds only the blocks it touches; moved blocks are reused", () => {
  const text = readFileSync(path.join(examples, "als_cg.dml"), "utf8");
  const cache = new BlockDagCache();
  const first = analyze(text, "als_cg.dml", cache);
  const blocks = first.dags.blocks.length;
  const lines = text.split("\n");
  const at = lines.findIndex((l, i) => i > lines.length / 2 && l.trim() === "");
  const edited = [...lines.slice(0, at), "# moved everything below by one line", ...lines.slice(at)].join("\n");
  const [hits, misses] = [cache.hits, cache.misses];
  analyze(edited, "als_cg.dml", cache);
  assert.ok(cache.misses - misses <= 1, `rebuilt ${cache.misses - misses} blocks for a comment`);
  assert.ok(cache.hits - hits >= blocks - 1, `reused ${cache.hits - hits} of ${blocks}`);
});
