/**
 * `dml prove FILE A B [--json] [--budget-ms N] [name=value ...]`: whether the
 * optimizer proves the values of variables A and B (assigned in the same
 * statement block) equal, i.e. in the same e-class after saturation, with
 * the rule steps of the proof. Exit 0 proven, 1 not proven, 2 bad usage.
 */
import { readFile } from "node:fs/promises";
import { analyzeText } from "../engine/stats/program-analysis";
import { bindRoots, buildBlockEGraph, sameValue, saturate } from "../engine/rewrite";
import { err, out } from "./output";
import { parseArgs, UsageError } from "./usage";

export const proveUsage = "dml prove FILE A B [--json] [--budget-ms N] [name=value ...]";

export async function prove(args: readonly string[]): Promise<number> {
  const parsed = parseArgs("dml prove", args, { flags: ["--json"], values: ["--budget-ms"] });
  const [file, a, b, ...rest] = parsed.positionals;
  if (file === undefined || a === undefined || b === undefined) throw new UsageError("dml prove: needs FILE A B");
  const budget = parsed.values.get("--budget-ms");
  if (budget !== undefined && !(Number(budget) > 0)) throw new UsageError(`dml prove: --budget-ms needs a positive number, not '${budget}'`);
  const parameters = new Map<string, string>();
  for (const pair of rest) {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw new UsageError(`dml prove: expected name=value, not '${pair}'`);
    parameters.set(pair.slice(0, eq).replace(/^\$/, ""), pair.slice(eq + 1));
  }
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    err(`dml prove: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    return 2;
  }
  const start = performance.now();
  const analysis = analyzeText(text, { scriptPath: file, workspaceRoot: process.cwd(), parameters });
  const info = analysis.dags.blocks.find((block) => block.dag.outputs.has(a) && block.dag.outputs.has(b));
  const sizes = info ? analysis.sizes.blocks.get(info.block) : undefined;
  if (!info || !sizes) {
    err(`dml prove: ${a} and ${b} are not both assigned in one statement block of ${file}`);
    return 2;
  }
  const block = buildBlockEGraph(info.dag, sizes.nodes, { explanations: true });
  const left = block.classOfNode[info.dag.outputs.get(a)!]!;
  const right = block.classOfNode[info.dag.outputs.get(b)!]!;
  bindRoots(block, [left, right]);
  const report = saturate(block.egraph, block.attributes, budget === undefined ? { timeLimitMs: 2000 } : { timeLimitMs: Number(budget) });
  const proven = sameValue(block.egraph, left, right);
  const steps = proven ? (block.egraph.explain(left, right) ?? []).map((s) => `${s.rule}: ${s.left} = ${s.right}`) : [];
  const ms = performance.now() - start;
  if (parsed.flags.has("--json")) out(JSON.stringify({ proven, steps, ms, stopReason: report.stopReason }, null, 2));
  else {
    out(proven ? `proven: ${a} = ${b} (${steps.length} steps, ${ms.toFixed(0)} ms)` : `not proven: ${a} = ${b} (saturation stopped: ${report.stopReason}, ${ms.toFixed(0)} ms)`);
    for (const step of steps) out(`  ${step}`);
  }
  return proven ? 0 : 1;
}
