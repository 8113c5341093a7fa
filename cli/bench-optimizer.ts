/**
 * `dml bench optimizer`: optimization time per statement block over every
 * block of the shipped scripts (examples/*.dml)
 * at the default work budget, the median proof time of the
 * README's `dml prove` examples, then the e-graph and extraction
 * workloads (throughput, the 80-matrix associativity chain, ILP vs greedy).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { scriptBlocks } from "./script-blocks";
import { optimizeBlock } from "../engine/suggest";
import { runEgraphBench } from "./bench-egraph";
import { runExtractBench } from "./bench-extract";
import { runProveBench } from "./bench-prove";
import type { ExtractionGraph } from "../engine/extract";
import type { BenchRow } from "./bench-report";
import { packageRoot } from "./package-root";

const BLOCK_MEDIAN_TARGET_MS = 20;
const BLOCK_MAX_TARGET_MS = 300;

interface BlockTime {
  file: string;
  line: number;
  ms: number;
  nodes: number;
  stopReason: string;
  suggestions: number;
  planGraphs: ExtractionGraph[];
}

function blockTimes(): BlockTime[] {
  const dir = path.join(packageRoot(), "examples");
  const rows: BlockTime[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".dml")).sort()) {
    const full = path.join(dir, file);
    const text = readFileSync(full, "utf8");
    for (const { block, dag, stats, line } of scriptBlocks(full, text, packageRoot())) {
      const result = optimizeBlock({ block, dag, stats, sourceText: text }, { verify: false, keepPlanGraphs: true });
      rows.push({ file, line, ms: result.ms, nodes: result.nodes, stopReason: result.stopReason, suggestions: result.suggestions.length, planGraphs: result.planGraphs ?? [] });
    }
  }
  return rows;
}

export async function runOptimizerBench(): Promise<BenchRow[]> {
  const times = blockTimes();
  const sorted = times.map((t) => t.ms).sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  const max = sorted[sorted.length - 1] ?? 0;
  const slowest = times.reduce((a, b) => (b.ms > a.ms ? b : a), times[0]!);
  const rows: BenchRow[] = [
    {
      suite: "optimizer",
      case: `per block, ${times.length} blocks of examples/*.dml`,
      ours_ms: median,
      baseline: "SPORES (published) 120-720 ms per program",
      baseline_ms: null,
      ratio: null,
      median_ms: median,
      max_ms: max,
      slowest: `${slowest.file}:${slowest.line} (${slowest.nodes} e-nodes, ${slowest.stopReason})`,
      target: `median <= ${BLOCK_MEDIAN_TARGET_MS} ms, max <= ${BLOCK_MAX_TARGET_MS} ms`,
      target_met: median <= BLOCK_MEDIAN_TARGET_MS && max <= BLOCK_MAX_TARGET_MS,
    },
  ];
  rows.push(...runProveBench());
  rows.push(...runEgraphBench());
  const planGraphs = times.flatMap((t) => t.planGraphs.map((graph, k) => ({ name: `${t.file}:${t.line}#${k + 1}`, graph })));
  rows.push(...(await runExtractBench(planGraphs)));
  return rows;
}
