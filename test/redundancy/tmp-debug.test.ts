import { readFileSync } from "node:fs";
import path from "node:path";
import { it } from "node:test";
import { findRedundancy } from "../../engine/redundancy";
import { memoryFileSystem } from "../../engine/stats/metadata";
import { analyzeText } from "../../engine/stats/program-analysis";
import { repoRoot } from "../repo-root";

const cases = JSON.parse(process.env.DBG ?? "[]") as [string, object, number | undefined][];
it("debug", () => {
  for (const [name, inputs, maxi] of cases) {
    const text = readFileSync(path.join(repoRoot, "examples", `${name}.dml`), "utf8");
    const fs = memoryFileSystem({ "/w/dml-lens.json": JSON.stringify({ inputs }) });
    const parameters = new Map(maxi === undefined ? [] : [["maxi", String(maxi)]]);
    const r = findRedundancy(analyzeText(text, { scriptPath: "/w/s.dml", workspaceRoot: "/w", fs, parameters }), text, process.env.ITER ? { expectedIterations: Number(process.env.ITER) } : {});
    console.log(`== ${name} ${JSON.stringify(inputs)} maxi=${maxi}`);
    for (const o of r.options) console.log(o.id, o.name, o.iterations?.count ?? "", o.saving.toFixed(4), (o.conflicts ?? []).join(" "));
    for (const [k, v] of Object.entries(r.plans)) console.log(k, v.cost.toFixed(4), v.options.join(" "));
    console.log("original", r.originalCost.toFixed(4), "ms", r.ms.toFixed(1), "truncated", r.truncated, "evaluations", r.evaluations);
  }
});
