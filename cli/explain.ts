/**
 * `dml explain FILE [--json] [--budget-ms N] [--estimator E] [--extraction S] [name=value ...]`: per statement
 * block, its DAG with the type, dims and non-zeros of every node, and the
 * dims and nnz of the variables it assigns, and the optimizer's verified
 * cheaper rewrites per statement. Exit 0, or 2 on bad usage or
 * an unreadable file. `name=value` pairs give `$name` parameters;
 * `--estimator mnc|uniform|worst-case` picks the sparsity estimate,
 * `--extraction greedy|ilp` how the cheapest plan is extracted.
 * The optimizer is bounded by work (`--node-limit`: e-nodes per block), so
 * its suggestions do not depend on the machine; `--budget-ms` is only its
 * time safety net (default 10 s of CPU time per block), and a block where it
 * fired says so. A suggestion must save `--min-saving` of the estimated time
 * (default 0.2) and `--min-saving-ms` milliseconds (default 1).
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Range } from "../engine/syntax/ast";
import { printDag, printType } from "../engine/program/dag-print";
import { analyzeText, type ProgramAnalysis } from "../engine/stats/program-analysis";
import { formatStats, type NodeStats } from "../engine/stats/sizes/node-stats";
import { formatQuantity, formatSeconds } from "../engine/cost";
import { ilpExtractor } from "../engine/extract";
import { DEFAULT_SATURATION } from "../engine/rewrite";
import { SPARSITY_ESTIMATORS, type SparsityEstimator } from "../engine/stats/sizes/sketch-sizes";
import { optimizeBlock, safetyNetNote, type BlockOptimization, type Suggestion, type SuggestOptions } from "../engine/suggest";
import { err, out } from "./output";
import { parseArgs, UsageError } from "./usage";

export const explainUsage =
  "dml explain FILE [--json] [--budget-ms N] [--node-limit N] [--min-saving F] [--min-saving-ms N] [--estimator mnc|uniform|worst-case] [--extraction greedy|ilp] [name=value ...]";

export async function explain(args: readonly string[]): Promise<number> {
  const parsed = parseArgs("dml explain", args, { flags: ["--json"], values: ["--budget-ms", "--node-limit", "--min-saving", "--min-saving-ms", "--estimator", "--extraction"] });
  const [file, ...rest] = parsed.positionals;
  if (file === undefined) throw new UsageError("dml explain: no FILE given");
  const budget = parsed.values.get("--budget-ms");
  if (budget !== undefined && !(Number(budget) > 0)) throw new UsageError(`dml explain: --budget-ms needs a positive number, not '${budget}'`);
  const nodeLimit = parsed.values.get("--node-limit");
  if (nodeLimit !== undefined && !(Number.isInteger(Number(nodeLimit)) && Number(nodeLimit) > 0)) throw new UsageError(`dml explain: --node-limit needs a positive whole number, not '${nodeLimit}'`);
  const minSaving = parsed.values.get("--min-saving");
  if (minSaving !== undefined && !(Number(minSaving) >= 0 && Number(minSaving) < 1)) throw new UsageError(`dml explain: --min-saving needs a share from 0 up to (not including) 1, e.g. 0.2, not '${minSaving}'`);
  const minSavingMs = parsed.values.get("--min-saving-ms");
  if (minSavingMs !== undefined && !(Number(minSavingMs) >= 0)) throw new UsageError(`dml explain: --min-saving-ms needs a number of milliseconds, at least 0, not '${minSavingMs}'`);
  const estimator = parsed.values.get("--estimator") ?? "mnc";
  if (!(SPARSITY_ESTIMATORS as readonly string[]).includes(estimator)) throw new UsageError(`dml explain: --estimator is one of ${SPARSITY_ESTIMATORS.join(", ")}, not '${estimator}'`);
  const extraction = parsed.values.get("--extraction") ?? "greedy";
  if (extraction !== "greedy" && extraction !== "ilp") throw new UsageError(`dml explain: --extraction is greedy or ilp, not '${extraction}'`);
  const parameters = new Map<string, string>();
  for (const pair of rest) {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw new UsageError(`dml explain: expected name=value, not '${pair}'`);
    parameters.set(pair.slice(0, eq).replace(/^\$/, ""), pair.slice(eq + 1));
  }
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    err(`dml explain: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    return 2;
  }
  const analysis = analyzeText(text, { scriptPath: file, workspaceRoot: process.cwd(), parameters, estimator: estimator as SparsityEstimator });
  const options: SuggestOptions = { saturation: { ...(budget === undefined ? {} : { timeLimitMs: Number(budget) }), ...(nodeLimit === undefined ? {} : { nodeLimit: Number(nodeLimit) }) } };
  if (minSaving !== undefined) options.minSaving = Number(minSaving);
  if (minSavingMs !== undefined) options.minSavingMs = Number(minSavingMs);
  if (extraction === "ilp") options.extract = await ilpExtractor({ timeLimitMs: Number(budget ?? DEFAULT_SATURATION.timeLimitMs) });
  const optimized = optimizeProgram(analysis, text, options);
  if (parsed.flags.has("--json")) out(JSON.stringify(explainJson(file, analysis, optimized), null, 2));
  else out(explainText(file, analysis, optimized));
  return 0;
}

interface VariableJson {
  name: string;
  rows: number | null;
  cols: number | null;
  nnz: number | null;
  type: string;
}

function variables(analysis: ProgramAnalysis, block: ProgramAnalysis["dags"]["blocks"][number]): VariableJson[] {
  const sizes = analysis.sizes.blocks.get(block.block);
  return [...block.dag.outputs].map(([name, id]) => {
    const stats: NodeStats | undefined = sizes?.nodes[id];
    const matrix = stats?.type.dataType === "matrix";
    return {
      name,
      rows: matrix ? stats!.rows : null,
      cols: matrix ? stats!.cols : null,
      nnz: matrix && stats!.nnz !== null ? Math.round(stats!.nnz) : null,
      type: printType(block.dag.nodes[id].type),
    };
  });
}

type Optimized = Map<ProgramAnalysis["dags"]["blocks"][number], BlockOptimization>;

/** Runs the optimizer on every block with sizes (suggestions per statement). */
function optimizeProgram(analysis: ProgramAnalysis, text: string, options: SuggestOptions): Optimized {
  const result: Optimized = new Map();
  for (const info of analysis.dags.blocks) {
    const sizes = analysis.sizes.blocks.get(info.block);
    if (!sizes) continue;
    result.set(info, optimizeBlock({ block: info.block, dag: info.dag, stats: sizes.nodes, sourceText: text }, options));
  }
  return result;
}

function suggestionJson(s: Suggestion) {
  return {
    range: s.range,
    original: s.original,
    rewritten: s.rewritten,
    costBefore: s.costBefore,
    costAfter: s.costAfter,
    unit: s.unit,
    flops: s.flops,
    bytes: s.bytes,
    target: s.target,
    rows: s.rows,
    cols: s.cols,
    nnz: s.nnz,
    explanation: s.explanation,
    ...(s.temporaries ? { temporaries: s.temporaries } : {}),
    ...(s.sharedWith && s.sharedWith.length > 0 ? { sharedWith: s.sharedWith } : {}),
  };
}

function explainJson(file: string, analysis: ProgramAnalysis, optimized: Optimized) {
  return {
    file,
    blocks: analysis.dags.blocks.map((block) => {
      const sizes = analysis.sizes.blocks.get(block.block);
      return {
        range: block.block.range,
        ...(block.functionName ? { function: block.functionName } : {}),
        variables: variables(analysis, block),
        suggestions: (optimized.get(block)?.suggestions ?? []).map(suggestionJson),
        dropped: optimized.get(block)?.dropped ?? [],
        ...(optimized.get(block)?.stopReason ? { stopReason: optimized.get(block)!.stopReason } : {}),
        ...(optimized.get(block)?.safetyNet ? { safetyNet: optimized.get(block)!.safetyNet } : {}),
        nodes: block.dag.nodes.map((node) => {
          const stats = sizes?.nodes[node.id];
          const matrix = stats?.type.dataType === "matrix";
          return {
            id: node.id,
            op: node.op,
            inputs: node.inputs,
            type: printType(node.type),
            rows: matrix ? stats!.rows : null,
            cols: matrix ? stats!.cols : null,
            nnz: matrix && stats!.nnz !== null ? Math.round(stats!.nnz) : null,
            ...(stats?.value !== undefined ? { value: stats.value } : {}),
            range: node.range,
          };
        }),
      };
    }),
    diagnostics: [...analysis.parsed.diagnostics, ...analysis.diagnostics],
  };
}

function lines(range: Range): string {
  const a = range.start.line + 1;
  const b = range.end.line + 1;
  return a === b ? `line ${a}` : `lines ${a}-${b}`;
}

function explainText(file: string, analysis: ProgramAnalysis, optimized: Optimized): string {
  const parts: string[] = [];
  for (const d of [...analysis.parsed.diagnostics, ...analysis.diagnostics]) {
    parts.push(`${file}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.severity}: ${d.message}`);
  }
  for (const block of analysis.dags.blocks) {
    const sizes = analysis.sizes.blocks.get(block.block);
    const where = block.functionName ? ` in function ${block.functionName}` : "";
    const loops = block.loopDepth > 0 ? `, inside ${block.loopDepth} loop${block.loopDepth > 1 ? "s" : ""}` : "";
    parts.push("", `== block, ${lines(block.block.range)}${where}${loops}`);
    parts.push(printDag(block.dag, (id) => (sizes ? formatStats(sizes.nodes[id]) : undefined)));
    const assigned = variables(analysis, block);
    if (assigned.length > 0) {
      const shown = assigned.map((v) => `${v.name}: ${v.rows === null && v.cols === null && v.type.startsWith("scalar") ? v.type : `${v.rows ?? "?"} x ${v.cols ?? "?"}, nnz ${v.nnz ?? "?"}`}`);
      parts.push(`variables: ${shown.join("; ")}`);
    }
    const safetyNet = optimized.get(block)?.safetyNet;
    if (safetyNet) parts.push(safetyNetNote(safetyNet));
    for (const s of optimized.get(block)?.suggestions ?? []) {
      for (const t of s.temporaries ?? []) parts.push(`new variable before line ${t.insertAt.line + 1}: ${t.name} = ${t.text}`);
      parts.push(
        `suggestion, line ${s.range.start.line + 1}: ${s.target} = ${s.rewritten}${s.sharedWith && s.sharedWith.length > 0 ? `  (shares temporaries with ${s.sharedWith.join(", ")})` : ""}`,
        `  instead of ${s.original}`,
        `  estimated ${formatSeconds(s.costBefore)} -> ${formatSeconds(s.costAfter)} (${(s.costBefore / Math.max(s.costAfter, 1e-12)).toFixed(1)}x less)${measured(s.flops, "FLOP")}${measured(s.bytes, "B")}`,
      );
    }
  }
  return `${path.basename(file)}: ${analysis.dags.blocks.length} blocks\n${parts.join("\n")}`;
}

/** `, A -> B FLOP` when both sides are known. */
function measured(pair: { before: number | null; after: number | null }, unit: string): string {
  return pair.before === null || pair.after === null ? "" : `; ${formatQuantity(pair.before, unit)} -> ${formatQuantity(pair.after, unit)}`;
}
