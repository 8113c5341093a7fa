/**
 * `dml bench fusion`: the fusion planner over every statement block of the
 * shipped scripts (examples/*.dml, each block's DAG as written with its
 * sizes):
 * - planning time per block (median and max; targets 20 ms and 200 ms) and
 *   the operators planned, per template;
 * - per plan partition, the plans MPSkipEnum evaluates with its pruning and
 *   plan cache against an enumeration without pruning (`pruning: false`),
 *   and the costs of the plans both choose, which must be equal (the row
 *   fails when they are not). A partition of more than NO_PRUNING_MAX_POINTS
 *   interesting points (2^points plans) is not enumerated without pruning;
 *   the row lists them;
 * - SystemDS's fusion test patterns (test/fixtures/fusion-patterns): how many
 *   get the operator SystemDS generates, and the same pruning comparison
 *   over their blocks (larger partitions than the examples have).
 * The patterns are planned first (their slowest block is reported), so the
 * examples' times are those of a warmed-up planner; each example block is
 * planned RUNS_PER_BLOCK times and counts with its median.
 * With `kernels`, the rows of the fusion-kernel cases follow
 * (bench-fusion-kernels.ts: generated kernels against our unfused runtime
 * and numpy, with the issue's targets).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { exploreFusionPlans, FUSION_TEMPLATES, fusionDagOfBlock, planFusion, type FusionDag, type FusionPlan, type TemplateType, choosePartitionPlans, type PartitionChoice } from "../engine/fusion";
import { kernelCaseLabels, runFusionKernelBench, type KernelBenchOptions } from "./bench-fusion-kernels";
import { median, type BenchRow } from "./bench-report";
import { formatCoverage, FUSION_PATTERN_DIR, patternCoverage, patternMatches, readFusionPatterns } from "./fusion-patterns";
import { noCaseMessage, selectsCase } from "./bench-only";
import { packageRoot } from "./package-root";
import { UsageError } from "./usage";
import { scriptBlocks } from "./script-blocks";

const BLOCK_MEDIAN_TARGET_MS = 20;
const BLOCK_MAX_TARGET_MS = 200;
/**
 * Partitions with more interesting points than this are not enumerated
 * without pruning (2^15 = 32,768 plans; the planner's own exact limit, past
 * which it approximates in both modes).
 */
export const NO_PRUNING_MAX_POINTS = 15;
const TEMPLATES: readonly TemplateType[] = ["cell", "row", "magg", "outer"];
/** Each block is planned this many times; its time is the median (a garbage collection in one run does not count). */
const RUNS_PER_BLOCK = 3;

export interface FusionBenchOptions {
  /** File names in examples/ to plan (default: every `.dml`). */
  exampleFiles?: readonly string[];
  /** Plan only the first N fixtures of test/fixtures/fusion-patterns (default: all). */
  patternLimit?: number;
  /** Also time the fusion-kernel cases, with these sizes (default: not run). */
  kernels?: KernelBenchOptions;
  /**
   * Only the rows whose label contains this text (case-insensitive): the
   * planner's rows (all three together) when it is in one of their labels,
   * the kernel cases whose label has it.
   */
  only?: string;
}

/** The labels of the planner's rows, before their counts. */
const PLANNER_LABELS = ["SystemDS fusion patterns", "planning per block", "plans evaluated with vs without pruning"];


interface PlannedBlock {
  name: string;
  nodes: number;
  dag: FusionDag;
  plan: FusionPlan;
  /** Median planning time of RUNS_PER_BLOCK runs. */
  ms: number;
}

/** Every statement block of a script as the planner's input, with a name `file:line`. */
function scriptDags(file: string, text: string, root: string): { name: string; dag: FusionDag }[] {
  return scriptBlocks(file, text, root).map((b) => ({ name: `${path.basename(file)}:${b.line}`, dag: fusionDagOfBlock(b.dag, b.stats) }));
}

function sameCost(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b), 1e-12);
}

function patternRow(root: string, limit: number | undefined): { row: BenchRow; blocks: PlannedBlock[] } {
  const dir = path.join(root, FUSION_PATTERN_DIR);
  const base = { suite: "fusion", baseline: "SystemDS codegen tests (the operator they assert)", baseline_ms: null, ratio: null };
  if (!existsSync(dir)) return { row: { ...base, case: `SystemDS fusion patterns (${FUSION_PATTERN_DIR} not found)`, ours_ms: 0, matched: null, total: 0 }, blocks: [] };
  const blocks: PlannedBlock[] = [];
  const patterns = readFusionPatterns(dir).slice(0, limit);
  const start = performance.now();
  const results = patterns.map((pattern) => {
    const plans = scriptDags(path.join(dir, `${pattern.name}.dml`), pattern.text, root).map(({ name, dag }) => {
      const plan = planFusion(dag);
      blocks.push({ name, nodes: dag.nodes.length, dag, plan, ms: plan.ms });
      return plan;
    });
    const templates = plans.flatMap((plan) => plan.operators.map((op) => op.template));
    const slowest = plans.reduce<FusionPlan | undefined>((a, b) => (a === undefined || b.ms > a.ms ? b : a), undefined);
    return { pattern, matched: patternMatches(pattern, templates), slowest };
  });
  const coverage = patternCoverage(results);
  const slowest = results.reduce<(typeof results)[number] | undefined>((a, b) => (a === undefined || (b.slowest?.ms ?? 0) > (a.slowest?.ms ?? 0) ? b : a), undefined);
  const row: BenchRow = {
    ...base,
    case: `SystemDS fusion patterns, ${patterns.length} scripts of ${FUSION_PATTERN_DIR}`,
    ours_ms: performance.now() - start,
    matched: coverage.matched,
    total: coverage.total,
    ...Object.fromEntries(TEMPLATES.map((t) => [`${t}_matched`, `${coverage.byTemplate[t].matched}/${coverage.byTemplate[t].total}`])),
    coverage: formatCoverage(coverage),
    slowest_block_ms: slowest?.slowest?.ms ?? 0,
    slowest_block: slowest?.slowest ? `${slowest.pattern.name} (${slowest.slowest.search.maxInterestingPoints} interesting points, ${slowest.slowest.search.plansEvaluated} of ${slowest.slowest.search.plansWithoutPruning} plans evaluated)` : "none",
    missing: results.filter((r) => !r.matched).map((r) => r.pattern.name).join(", ") || "none",
  };
  return { row, blocks };
}

export function runFusionBench(options: FusionBenchOptions = {}): BenchRow[] {
  const { only } = options;
  const planner = PLANNER_LABELS.some((label) => selectsCase(only, label));
  const kernelLabels = options.kernels ? kernelCaseLabels(options.kernels.sizes) : [];
  const kernels = options.kernels && kernelLabels.some((label) => selectsCase(only, label)) ? { ...options.kernels, ...(only === undefined ? {} : { only }) } : undefined;
  if (only !== undefined && !planner && !kernels) throw new UsageError(noCaseMessage("fusion", only, [...PLANNER_LABELS, ...kernelLabels]));
  const rows = planner ? plannerRows(options) : [];
  if (kernels) rows.push(...runFusionKernelBench(kernels));
  return rows;
}

/** The planner's rows: SystemDS's patterns, planning per example block, pruning against none. */
function plannerRows(options: FusionBenchOptions): BenchRow[] {
  const root = packageRoot();
  const patterns = patternRow(root, options.patternLimit);
  const rows: BenchRow[] = [patterns.row];

  const dir = path.join(root, "examples");
  const files = options.exampleFiles ?? readdirSync(dir).filter((f) => f.endsWith(".dml")).sort();
  const inputs = files.flatMap((file) => scriptDags(path.join(dir, file), readFileSync(path.join(dir, file), "utf8"), root));
  const blocks: PlannedBlock[] = inputs.map(({ name, dag }) => {
    const runs = Array.from({ length: RUNS_PER_BLOCK }, () => planFusion(dag));
    return { name, nodes: dag.nodes.length, dag, plan: runs[0]!, ms: median(runs.map((r) => r.ms)) };
  });

  const times = blocks.map((b) => b.ms).sort((a, b) => a - b);
  const med = median(times);
  const max = times[times.length - 1] ?? 0;
  const slowest = blocks.reduce<PlannedBlock | undefined>((a, b) => (a === undefined || b.ms > a.ms ? b : a), undefined);
  const operators = blocks.flatMap((b) => b.plan.operators);
  const sum = (f: (s: FusionPlan["search"]) => number) => blocks.reduce((t, b) => t + f(b.plan.search), 0);
  rows.push({
    suite: "fusion",
    case: `planning per block, ${blocks.length} blocks of examples/*.dml`,
    ours_ms: med,
    baseline: "none",
    baseline_ms: null,
    ratio: null,
    median_ms: med,
    max_ms: max,
    runs_per_block: RUNS_PER_BLOCK,
    slowest: slowest ? `${slowest.name} (${slowest.nodes} nodes, ${slowest.plan.search.maxInterestingPoints} interesting points)` : "none",
    target: `median <= ${BLOCK_MEDIAN_TARGET_MS} ms, max <= ${BLOCK_MAX_TARGET_MS} ms`,
    target_met: med <= BLOCK_MEDIAN_TARGET_MS && max <= BLOCK_MAX_TARGET_MS,
    operators: operators.length,
    ...Object.fromEntries(TEMPLATES.map((t) => [`${t}_operators`, operators.filter((op) => op.template === t).length])),
    blocks_with_operators: blocks.filter((b) => b.plan.operators.length > 0).length,
    partitions: sum((s) => s.partitions),
    max_interesting_points: blocks.reduce((m, b) => Math.max(m, b.plan.search.maxInterestingPoints), 0),
    approximated_partitions: sum((s) => s.approximated),
    cache_hits: sum((s) => s.cacheHits),
  });

  rows.push(pruningRow(blocks, "examples/*.dml"));
  if (patterns.blocks.length > 0) rows.push(pruningRow(patterns.blocks, FUSION_PATTERN_DIR));
  return rows;
}

/**
 * Per partition, MPSkipEnum (pruning, plan cache) against costing every
 * plan: the plans each evaluates and the cost of the plan each chooses,
 * which must be equal. Partitions above NO_PRUNING_MAX_POINTS are not
 * enumerated without pruning (they are listed), nor are partitions both
 * modes approximate.
 */
function pruningRow(blocks: readonly PlannedBlock[], where: string): BenchRow {
  const compared: { block: string; pruned: PartitionChoice; unpruned: PartitionChoice }[] = [];
  const skipped: string[] = [];
  let prunedMs = 0;
  let unprunedMs = 0;
  for (const block of blocks) {
    const memo = exploreFusionPlans(block.dag, FUSION_TEMPLATES);
    let start = performance.now();
    const pruned = choosePartitionPlans(block.dag, memo, FUSION_TEMPLATES);
    prunedMs += performance.now() - start;
    start = performance.now();
    const unpruned = choosePartitionPlans(block.dag, memo, FUSION_TEMPLATES, { pruning: false, exactLimit: NO_PRUNING_MAX_POINTS });
    unprunedMs += performance.now() - start;
    pruned.forEach((choice, k) => {
      const other = unpruned[k]!;
      if (other.approximated) skipped.push(`${block.name} (${choice.partition.points.length} interesting points)`);
      else if (!choice.approximated) compared.push({ block: block.name, pruned: choice, unpruned: other });
    });
  }
  const differs = compared.filter((c) => !sameCost(c.pruned.cost, c.unpruned.cost));
  const withPruning = compared.reduce((t, c) => t + c.pruned.evaluated, 0);
  const withoutPruning = compared.reduce((t, c) => t + c.unpruned.evaluated, 0);
  return {
    suite: "fusion",
    case: `plans evaluated with vs without pruning, ${compared.length} plan partitions of ${where}`,
    ours_ms: prunedMs,
    baseline: "no pruning (same run)",
    baseline_ms: unprunedMs,
    ratio: prunedMs > 0 ? unprunedMs / prunedMs : null,
    plans_with_pruning: withPruning,
    plans_without_pruning: withoutPruning,
    plans_without_pruning_expected: compared.reduce((t, c) => t + 2 ** c.pruned.partition.points.length, 0),
    max_interesting_points: compared.reduce((m, c) => Math.max(m, c.pruned.partition.points.length), 0),
    cache_hits: compared.filter((c) => c.pruned.cached).length,
    skipped_partitions: skipped.length,
    skipped: skipped.length === 0 ? "none" : `${skipped.join(", ")}: more than ${NO_PRUNING_MAX_POINTS} interesting points, not enumerated without pruning`,
    same_cost: differs.length === 0,
    ...(differs.length > 0
      ? { failed: true, cost_differs: differs.map((c) => `${c.block}: ${c.pruned.cost} s with pruning, ${c.unpruned.cost} s without`).join("; ") }
      : {}),
  };
}
