/**
 * Extraction in `dml bench optimizer`: ILP (glpk.js) against greedy DAG on
 * every serialized e-graph in examples/egraphs (the extraction-gym subset)
 * and on every statement's plan graph of the shipped scripts: DAG cost, time,
 * whether the ILP proved optimality within its limit, and that every
 * extraction is acyclic and complete.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { extractGreedyDag, extractIlp, parseSerializedEGraph, validateExtraction, type Extraction, type ExtractionGraph } from "../engine/extract";
import type { BenchRow } from "./bench-report";
import { packageRoot } from "./package-root";

const ILP_TIME_LIMIT_MS = 5_000;

function jsonFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir).sort()) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) files.push(...jsonFiles(full));
    else if (entry.endsWith(".json")) files.push(full);
  }
  return files;
}

interface Comparison {
  name: string;
  greedy: Extraction;
  ilp: Extraction;
  invalid: string[];
}

async function compare(name: string, graph: ExtractionGraph): Promise<Comparison> {
  const greedy = extractGreedyDag(graph);
  const ilp = await extractIlp(graph, { timeLimitMs: ILP_TIME_LIMIT_MS, initial: greedy });
  const invalid = [...validateExtraction(graph, greedy.choices).map((p) => `greedy: ${p}`), ...validateExtraction(graph, ilp.choices).map((p) => `ilp: ${p}`)];
  return { name, greedy, ilp, invalid };
}

function row(c: Comparison, nodes: number): BenchRow {
  return {
    suite: "optimizer",
    case: `extract ${c.name} (${nodes} e-nodes)`,
    ours_ms: c.ilp.ms,
    baseline: "greedy DAG (same run)",
    baseline_ms: c.greedy.ms,
    ratio: c.greedy.ms / c.ilp.ms,
    greedy_dag_cost: c.greedy.dagCost,
    ilp_dag_cost: c.ilp.dagCost,
    ilp_method: c.ilp.method,
    ilp_optimal: c.ilp.optimal === true,
    ilp_timed_out: c.ilp.timedOut === true,
    acyclic: c.invalid.length === 0,
    failed: c.invalid.length > 0 || c.ilp.dagCost > c.greedy.dagCost * (1 + 1e-9),
  };
}

export async function runExtractBench(planGraphs: readonly { name: string; graph: ExtractionGraph }[]): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const dir = path.join(packageRoot(), "examples", "egraphs");
  for (const file of jsonFiles(dir)) {
    const graph = parseSerializedEGraph(JSON.parse(readFileSync(file, "utf8")));
    rows.push(row(await compare(path.relative(dir, file), graph), graph.nodes.size));
  }
  const blockRuns: Comparison[] = [];
  for (const { name, graph } of planGraphs) blockRuns.push(await compare(name, graph));
  const sum = (f: (c: Comparison) => number) => blockRuns.reduce((t, c) => t + f(c), 0);
  const improved = blockRuns.filter((c) => c.ilp.dagCost < c.greedy.dagCost * (1 - 1e-9));
  rows.push({
    suite: "optimizer",
    case: `extract all ${blockRuns.length} statement plan graphs of examples/*.dml`,
    ours_ms: sum((c) => c.ilp.ms),
    baseline: "greedy DAG (same run)",
    baseline_ms: sum((c) => c.greedy.ms),
    ratio: sum((c) => c.greedy.ms) / Math.max(sum((c) => c.ilp.ms), 1e-9),
    greedy_dag_cost_s: sum((c) => c.greedy.dagCost),
    ilp_dag_cost_s: sum((c) => c.ilp.dagCost),
    ilp_cheaper_on: improved.map((c) => c.name).join(", ") || "none",
    ilp_optimal: blockRuns.filter((c) => c.ilp.optimal === true).length,
    ilp_timed_out: blockRuns.filter((c) => c.ilp.timedOut === true).length,
    acyclic: blockRuns.every((c) => c.invalid.length === 0),
    failed: blockRuns.some((c) => c.invalid.length > 0),
  });
  return rows;
}
