// MPSkipEnum against brute force on every statement block of the shipped
// scripts (examples/*.dml, the DAG as written, the planner's templates):
// the same cost per partition, never more plans costed, totals printed.
import { strict as assert } from "node:assert";
import { test } from "node:test";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { exploreFusionPlans, FUSION_TEMPLATES, fusionDagOfBlock } from "../../engine/fusion";
import { choosePartitionPlans } from "../../engine/fusion/select";
import { analyzeText } from "../../engine/analysis/program-analysis";
import { repoRoot } from "../repo-root";

test("examples/*.dml: pruned selection costs the same as brute force with no more plans", () => {
  const dir = path.join(repoRoot, "examples");
  const totals = { blocks: 0, partitions: 0, maxPoints: 0, evaluated: 0, withoutPruning: 0, cacheHits: 0 };
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".dml")).sort()) {
    const analysis = analyzeText(readFileSync(path.join(dir, file), "utf8"), { scriptPath: path.join(dir, file), workspaceRoot: dir });
    for (const info of analysis.dags.blocks) {
      const sizes = analysis.sizes.blocks.get(info.block);
      if (!sizes) continue;
      const dag = fusionDagOfBlock(info.dag, sizes.nodes);
      const memo = exploreFusionPlans(dag, FUSION_TEMPLATES);
      const pruned = choosePartitionPlans(dag, memo, FUSION_TEMPLATES);
      const brute = choosePartitionPlans(dag, memo, FUSION_TEMPLATES, { pruning: false });
      totals.blocks++;
      pruned.forEach((p, i) => {
        const q = brute[i]!;
        const where = `${file}:${info.block.range.start.line + 1} partition ${i}`;
        assert.equal(p.approximated, false, where);
        assert.ok(Math.abs(p.cost - q.cost) <= 1e-12 * Math.max(q.cost, 1e-300), `${where}: ${p.cost} vs ${q.cost}`);
        assert.ok(p.evaluated <= q.evaluated, `${where}: ${p.evaluated} > ${q.evaluated}`);
        totals.partitions++;
        totals.maxPoints = Math.max(totals.maxPoints, p.partition.points.length);
        totals.evaluated += p.evaluated;
        totals.withoutPruning += q.evaluated;
        if (p.cached) totals.cacheHits++;
      });
    }
  }
  console.log(`selection on examples: ${JSON.stringify(totals)}`);
  assert.ok(totals.partitions > 0);
  assert.ok(totals.evaluated <= totals.withoutPruning);
});
