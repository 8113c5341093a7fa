/**
 * `dml explain FILE [--dag] [--json] [--why LINE] [--budget-ms N] [--estimator E] [--extraction S] [name=value ...]`:
 * summary first. The script's problems, as `dml check` prints them (same
 * checks, same parameters, cli/script-problems.ts); then per statement block
 * the variables it assigns with their dims and nnz (scalars with their type
 * and constant value), the optimizer's verified cheaper rewrites per
 * statement, and the operators the fusion planner fuses in the block as
 * written (each with its template, inputs and cost fused and unfused; with
 * rewrites, the block's cost as rewritten and fused too). `--dag` adds each block's DAG, node by node with type, dims and
 * nnz; `--json` has everything (the DAG too). Exit 0; 1 when the script has
 * an error (the summary is still printed, without suggestions: the optimizer
 * does not rewrite a script that cannot run); 2 on bad usage or an unreadable
 * file. `name=value` pairs give `$name` parameters (with any given, a `$name`
 * still missing is an error, as in `dml run`); `--estimator
 * mnc|uniform|worst-case` picks the sparsity estimate, `--extraction
 * greedy|ilp` how the cheapest plan is extracted.
 * The optimizer is bounded by work (`--node-limit`: e-nodes per block), so
 * its suggestions do not depend on the machine; `--budget-ms` is only its
 * time safety net (default 10 s of CPU time per block), and a block where it
 * fired says so. A suggestion must save `--min-saving` of the estimated time
 * (default 0.2) and `--min-saving-ms` milliseconds (default 1).
 * After the blocks, the bodies of the functions the main program calls
 * (its own, sourced files', the installation's builtin scripts), optimized
 * and fusion-planned with the sizes of each call site (engine/suggest
 * optimize-calls.ts): suggestions inside the script's own functions as
 * usual, read-only lines for code in other files (`lmCG line 131: t(X) %*%
 * (X %*% p) runs as one fused Row operator ... (called from line 3)`).
 * `--why LINE` prints instead, for each suggestion on that line, the
 * derivation from the original to the suggested expression, one line a
 * step with the rules and the facts they relied on (the text of the
 * editor's "Explain this rewrite"; engine/suggest/suggestion-derivation.ts).
 */
import path from "node:path";
import type { Diagnostic, Range } from "../engine/syntax";
import { dagNode, printDag, printType } from "../engine/program";
import { type BlockSizes, formatStats, type NodeStats, type ProgramAnalysis, scalarValueText, SPARSITY_ESTIMATORS, type SparsityEstimator } from "../engine/analysis";
import { formatCount, formatQuantity, formatSeconds } from "../engine/cost";
import { ilpExtractor } from "../engine/extract";
import { DEFAULT_SATURATION } from "../engine/rewrite";
import { documentBudget, MAX_OPTIMIZED_CALL_BLOCKS, MAX_OPTIMIZED_CALLS, optimizeCalls, optimizeProgram, safetyNetNote, suggestionDerivation, type ProveOptions, type BlockFusion, type CallOptimization, type CallOptimizations, type FusionView, type ProgramOptimization, type Suggestion, type SuggestOptions } from "../engine/suggest";
import { explainRedundancy } from "./explain-redundancy";
import { ITERATIONS_OPTION, ITERATIONS_USAGE, iterationsSetting } from "./iterations-option";
import type { RedundancySettings } from "../engine/redundancy";
import { out } from "./output";
import { formatDiagnostic, readScript, scriptProblems } from "./script-problems";
import { parameterArguments, parseArgs, UsageError } from "./usage";
import { commandInstallation, SYSTEMDS_OPTION, SYSTEMDS_USAGE } from "./systemds-option";

export const explainUsage =
  `dml explain FILE [--dag] [--json] [--why LINE] [--budget-ms N] [--node-limit N] [--min-saving F] [--min-saving-ms N] [--estimator mnc|uniform|worst-case] [--extraction greedy|ilp] ${ITERATIONS_USAGE} ${SYSTEMDS_USAGE} [name=value ...]`;

export async function explain(args: readonly string[]): Promise<number> {
  const parsed = parseArgs("dml explain", args, { flags: ["--json", "--dag"], values: ["--why", "--budget-ms", "--node-limit", "--min-saving", "--min-saving-ms", "--estimator", "--extraction", ITERATIONS_OPTION, SYSTEMDS_OPTION] });
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
  const why = parsed.values.get("--why");
  if (why !== undefined && !(Number.isInteger(Number(why)) && Number(why) > 0)) throw new UsageError(`dml explain: --why needs a line number (1 or more), not '${why}'`);
  const redundancySettings = iterationsSetting("dml explain", parsed.values.get(ITERATIONS_OPTION));
  const parameters = parameterArguments("dml explain", rest);
  const installation = commandInstallation("dml explain", parsed);
  const text = await readScript("dml explain", file);
  if (text === undefined) return 2;
  const { diagnostics, analysis } = scriptProblems(text, { file, parameters, invocation: parameters.size > 0, estimator: estimator as SparsityEstimator, ...(installation ? { installation } : {}) });
  const hasErrors = diagnostics.some((d) => d.severity === "error");
  const options: SuggestOptions = { saturation: { ...(budget === undefined ? {} : { timeLimitMs: Number(budget) }), ...(nodeLimit === undefined ? {} : { nodeLimit: Number(nodeLimit) }) } };
  if (minSaving !== undefined) options.minSaving = Number(minSaving);
  if (minSavingMs !== undefined) options.minSavingMs = Number(minSavingMs);
  if (extraction === "ilp" && !hasErrors) options.extract = await ilpExtractor({ timeLimitMs: Number(budget ?? DEFAULT_SATURATION.timeLimitMs) });
  if (why !== undefined) {
    const proveOptions = { parameters, analysis: { estimator: estimator as SparsityEstimator }, ...(installation ? { installation } : {}) };
    out(whyReport(file, text, diagnostics, analysis, options, Number(why), proveOptions).join("\n"));
    return hasErrors ? 1 : 0;
  }
  const report = explainReport(file, text, diagnostics, analysis, options, { json: parsed.flags.has("--json"), dag: parsed.flags.has("--dag"), redundancy: redundancySettings });
  out(report);
  return hasErrors ? 1 : 0;
}

/**
 * What `dml explain` prints for an analysed script (text, or `--json`): the
 * optimizer runs on the main program's blocks, then on the called bodies
 * with each call site's sizes, within one document work budget; nothing is
 * optimized when the script has errors.
 */
export function explainReport(file: string, text: string, diagnostics: readonly Diagnostic[], analysis: ProgramAnalysis | undefined, options: SuggestOptions, view: { json: boolean; dag: boolean; redundancy?: RedundancySettings }): string {
  const hasErrors = diagnostics.some((d) => d.severity === "error");
  const left = documentBudget();
  const optimized: Optimized = analysis && !hasErrors ? optimizeProgram(analysis, text, { ...options, documentBudget: left }) : new Map();
  const calls: CallOptimizations = analysis && !hasErrors ? optimizeCalls(analysis, text, { ...options, documentBudget: left }) : { calls: [], skipped: { calls: 0, blocks: 0 } };
  const redundancy = explainRedundancy(analysis && !hasErrors ? analysis : undefined, text, file, view.redundancy);
  if (view.json) return JSON.stringify({ ...explainJson(file, diagnostics, analysis, optimized, calls), redundancy: redundancy.json }, null, 2);
  return explainText(file, diagnostics, analysis, optimized, calls, { dag: view.dag, hasErrors }) + redundancy.text;
}

/**
 * What `dml explain --why LINE` prints: for each suggestion whose statement
 * covers the line, the derivation from its original to its suggested
 * expression (the main program's and its own functions' blocks).
 */
export function whyReport(file: string, text: string, diagnostics: readonly Diagnostic[], analysis: ProgramAnalysis | undefined, options: SuggestOptions, line: number, prove: ProveOptions): string[] {
  if (diagnostics.some((d) => d.severity === "error") || !analysis) return [`${path.basename(file)}: no suggestions: the script has errors`];
  const optimized = optimizeProgram(analysis, text, { ...options, documentBudget: documentBudget() });
  const lines: string[] = [];
  for (const { suggestions } of optimized.values()) {
    const temporaries = suggestions.flatMap((s) => s.temporaries ?? []);
    for (const s of suggestions) {
      if (s.range.start.line + 1 > line || s.range.end.line + 1 < line) continue;
      if (lines.length > 0) lines.push("");
      lines.push(...suggestionDerivation(text, file, s, temporaries, prove).lines);
    }
  }
  return lines.length > 0 ? lines : [`${path.basename(file)}: no suggestion on line ${line}`];
}

interface VariableJson {
  name: string;
  rows: number | null;
  cols: number | null;
  nnz: number | null;
  type: string;
}

function variables(sizes: BlockSizes | undefined, block: ProgramAnalysis["dags"]["blocks"][number]): VariableJson[] {
  return [...block.dag.outputs].map(([name, id]) => {
    const stats: NodeStats | undefined = sizes?.nodes[id];
    const matrix = stats?.type.dataType === "matrix";
    return {
      name,
      rows: matrix ? stats!.rows : null,
      cols: matrix ? stats!.cols : null,
      nnz: matrix && stats!.nnz !== null ? Math.round(stats!.nnz) : null,
      type: printType(dagNode(block.dag, id).type),
    };
  });
}

type Optimized = ProgramOptimization;

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

function explainJson(file: string, diagnostics: readonly Diagnostic[], analysis: ProgramAnalysis | undefined, optimized: Optimized, calls: CallOptimizations) {
  return {
    file,
    blocks: (analysis?.dags.blocks ?? []).map((block) => {
      const sizes = analysis!.sizes.blocks.get(block.block);
      return {
        range: block.block.range,
        ...(block.functionName ? { function: block.functionName } : {}),
        variables: variables(sizes, block),
        suggestions: (optimized.get(block)?.suggestions ?? []).map(suggestionJson),
        dropped: optimized.get(block)?.dropped ?? [],
        ...(optimized.get(block)?.stopReason ? { stopReason: optimized.get(block)!.stopReason } : {}),
        ...(optimized.get(block)?.safetyNet ? { safetyNet: optimized.get(block)!.safetyNet } : {}),
        ...(optimized.get(block) ? { fusion: fusionJson(optimized.get(block)!.fusion) } : {}),
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
    calls: calls.calls.map(callJson),
    ...(calls.skipped.calls > 0 ? { callsSkipped: calls.skipped } : {}),
    diagnostics,
  };
}

/** A called body optimized with one call site's sizes: where it is, the call, and per block what explain shows of the script's blocks. */
function callJson(c: CallOptimization) {
  return {
    function: c.call.functionName,
    ...(c.call.builtin !== undefined ? { builtin: c.call.builtin } : {}),
    ...(c.call.file !== undefined ? { file: c.call.file } : {}),
    editable: c.editable,
    calledFrom: c.call.site,
    arguments: argumentsText(c.call.signature),
    blocks: c.blocks.map(({ info, result }) => ({
      range: info.block.range,
      variables: variables(c.call.blocks.get(info.block), info),
      suggestions: result.suggestions.map(suggestionJson),
      dropped: result.dropped,
      stopReason: result.stopReason,
      ...(result.safetyNet ? { safetyNet: result.safetyNet } : {}),
      fusion: fusionJson(result.fusion),
    })),
  };
}

/** The block's fusion plans: operators (covered ids are `nodes` ids as written; a rewritten plan lists its own nodes), costs, and the selection's search counts. */
function fusionJson(fusion: BlockFusion) {
  const view = (v: FusionView, withNodes: boolean) => ({
    operators: v.operators.map((op) => ({
      template: op.template,
      variant: op.variant,
      sparseSafe: op.sparseSafe,
      text: op.text,
      ...(op.range ? { range: op.range } : {}),
      roots: op.roots,
      covered: op.covered,
      inputs: op.inputs,
      mainInput: op.mainInput,
      seconds: op.seconds,
      unfusedSeconds: op.unfusedSeconds,
    })),
    cost: v.cost,
    search: {
      partitions: v.search.partitions,
      interestingPoints: v.search.interestingPoints,
      plansEvaluated: v.search.plansEvaluated,
      plansWithoutPruning: v.search.plansWithoutPruning,
      cacheHits: v.search.cacheHits,
      approximated: v.search.approximated,
    },
    ...(withNodes ? { nodes: v.nodes.map((n) => ({ id: n.id, label: n.label, inputs: n.children, rows: n.rows, cols: n.cols, nnz: n.nnz })) } : {}),
  });
  return { asWritten: view(fusion.asWritten, false), ...(fusion.rewritten ? { rewritten: view(fusion.rewritten, true) } : {}) };
}

function lines(range: Range): string {
  const a = range.start.line + 1;
  const b = range.end.line + 1;
  return a === b ? `line ${a}` : `lines ${a}-${b}`;
}

const DOCUMENT_BUDGET_NOTE = "  not searched for rewrites: earlier blocks used the optimizer's work budget for this file (only multiplication-chain orders were tried)";

function explainText(file: string, diagnostics: readonly Diagnostic[], analysis: ProgramAnalysis | undefined, optimized: Optimized, calls: CallOptimizations, options: { dag: boolean; hasErrors: boolean }): string {
  const blocks = analysis?.dags.blocks ?? [];
  const parts = diagnostics.map((d) => formatDiagnostic(file, d));
  if (options.hasErrors && analysis) parts.push("no suggestions: the script has errors");
  for (const block of blocks) {
    const sizes = analysis!.sizes.blocks.get(block.block);
    const where = block.functionName ? ` in function ${block.functionName}` : "";
    const loops = block.loopDepth > 0 ? `, inside ${block.loopDepth} loop${block.loopDepth > 1 ? "s" : ""}` : "";
    parts.push("", `== block, ${lines(block.block.range)}${where}${loops}`);
    const assigned = [...block.dag.outputs].map(([name, id]) => `  ${name}: ${variableText(sizes?.nodes[id], dagNode(block.dag, id).type)}`);
    parts.push(...(assigned.length > 0 ? assigned : ["  (assigns no variable)"]));
    const safetyNet = optimized.get(block)?.safetyNet;
    if (safetyNet) parts.push(safetyNetNote(safetyNet));
    if (optimized.get(block)?.stopReason === "documentBudget") parts.push(DOCUMENT_BUDGET_NOTE);
    for (const s of optimized.get(block)?.suggestions ?? []) parts.push(...suggestionLines(s));
    const fusion = optimized.get(block)?.fusion;
    if (fusion) parts.push(...fusionLines(fusion));
    if (options.dag) parts.push("dag:", printDag(block.dag, (id) => statsText(sizes?.nodes[id])));
  }
  for (const call of calls.calls) parts.push("", ...callLines(call));
  const { calls: skippedCalls, blocks: skippedBlocks } = calls.skipped;
  if (skippedCalls > 0) parts.push("", `${skippedCalls} more called bod${skippedCalls === 1 ? "y" : "ies"} (${skippedBlocks} block${skippedBlocks === 1 ? "" : "s"}) not optimized: explain optimizes at most ${MAX_CALLS_TEXT}`);
  return `${path.basename(file)}: ${blocks.length} block${blocks.length === 1 ? "" : "s"}\n${parts.join("\n")}`;
}

const MAX_CALLS_TEXT = `${MAX_OPTIMIZED_CALLS} called bodies and ${MAX_OPTIMIZED_CALL_BLOCKS} of their blocks`;

/** The arguments of a body analysis as the size analysis keys them, without sketch ids and defaults: `X: 100 x 7, nnz ~700; k: scalar 5`. */
function argumentsText(signature: string): string {
  return signature
    .split("; ")
    .filter((part) => !part.endsWith(": default"))
    .map((part) => part.replace(/ #\d+$/, ""))
    .join("; ");
}

/**
 * A called body with one call site's sizes: a header naming the function,
 * its file and the call; for the script's own functions the suggestions (as
 * for the main program's blocks) and fused operators; for a builtin script
 * or sourced file read-only lines, each naming the function and the line in
 * its file.
 */
function callLines(c: CallOptimization): string[] {
  const call = c.call;
  const site = `called from line ${call.site.start.line + 1}`;
  const where = c.editable ? `function ${call.functionName}` : call.builtin !== undefined ? `builtin ${call.builtin} (${call.functionName} in ${call.file})` : `function ${call.functionName} (in ${call.file})`;
  const args = argumentsText(call.signature);
  const lines = [`== ${where}, ${site}${args ? ` with ${args}` : ""}`];
  const prefix = c.editable ? "" : `${call.builtin ?? path.basename(call.file ?? "")} `;
  let found = 0;
  for (const { result } of c.blocks) {
    if (result.safetyNet) lines.push(safetyNetNote(result.safetyNet));
    for (const s of result.suggestions) {
      found++;
      if (c.editable) lines.push(...suggestionLines(s).map((l, k) => (k === 0 ? `${l}  (in ${call.functionName}, ${site})` : l)));
      else lines.push(`  ${prefix}line ${s.range.start.line + 1}: a cheaper equivalent exists: ${s.target} = ${s.rewritten} instead of ${s.original}, estimated ${formatSeconds(s.costBefore)} -> ${formatSeconds(s.costAfter)} (${site}; read-only: not in this script)`);
    }
    for (const op of result.fusion.asWritten.operators) {
      found++;
      const over = op.inputs.length > 0 ? ` over ${op.inputs.join(", ")}` : "";
      const line = op.range ? `line ${op.range.start.line + 1}: ` : "";
      lines.push(`  ${prefix}${line}${op.text} runs as one fused ${TEMPLATE_NAMES[op.template]} operator (${op.variant})${over}: ${formatSeconds(op.seconds)} instead of ${formatSeconds(op.unfusedSeconds)} (${site})`);
    }
  }
  if (found === 0) lines.push(`  nothing fused or rewritten in its ${c.blocks.length} block${c.blocks.length === 1 ? "" : "s"}`);
  return lines;
}

/** What a variable holds after the block: dims and nnz of a matrix (digits grouped), the type (and constant value) of a scalar. */
function variableText(stats: NodeStats | undefined, type: Parameters<typeof printType>[0]): string {
  if (!stats) return printType(type);
  if (stats.type.dataType === "scalar") return stats.value === undefined ? printType(stats.type) : `${printType(stats.type)} = ${scalarValueText(stats.value)}`;
  if (stats.type.dataType === "matrix") return `${formatCount(stats.rows)} x ${formatCount(stats.cols)}, nnz ${stats.nnz !== null && !stats.nnzExact ? "~" : ""}${formatCount(stats.nnz)}`;
  return printType(type);
}

/** A suggestion as the README shows it: new temporaries, the rewritten statement, what it replaces, the estimates. */
function suggestionLines(s: Suggestion): string[] {
  return [
    ...(s.temporaries ?? []).map((t) => `new variable before line ${t.insertAt.line + 1}: ${t.name} = ${t.text}`),
    `suggestion, line ${s.range.start.line + 1}: ${s.target} = ${s.rewritten}${s.sharedWith && s.sharedWith.length > 0 ? `  (shares temporaries with ${s.sharedWith.join(", ")})` : ""}`,
    `  instead of ${s.original}`,
    `  estimated ${formatSeconds(s.costBefore)} -> ${formatSeconds(s.costAfter)} (${(s.costBefore / Math.max(s.costAfter, 1e-12)).toFixed(1)}x less)${measured(s.flops, "FLOP")}${measured(s.bytes, "B")}`,
  ];
}

/**
 * The block's fused operators as written, one line each
 * (`line 12: sum(X * Y * Z) runs as one Cell operator (full-agg) over X, Y, Z: 4.1 ms instead of 9.8 ms`),
 * and with rewrites the block's cost as rewritten, both fused.
 */
function fusionLines(fusion: BlockFusion): string[] {
  const found = fusion.asWritten.operators.map((op) => {
    const where = op.range ? `line ${op.range.start.line + 1}: ` : "";
    const over = op.inputs.length > 0 ? ` over ${op.inputs.join(", ")}` : "";
    return `${where}${op.text} runs as one ${TEMPLATE_NAMES[op.template]} operator (${op.variant})${over}: ${formatSeconds(op.seconds)} instead of ${formatSeconds(op.unfusedSeconds)}`;
  });
  const rewritten = fusion.rewritten;
  if (found.length === 0 && !rewritten) return [];
  const { fused, unfused } = fusion.asWritten.cost;
  const lines = [`fusion, as written: the block ${formatSeconds(fused)} with ${found.length} fused operator${found.length === 1 ? "" : "s"}, ${formatSeconds(unfused)} without`, ...found.map((l) => `  ${l}`)];
  if (rewritten) {
    const count = rewritten.operators.length;
    lines.push(`fusion, with the rewrites: the block ${formatSeconds(rewritten.cost.fused)} with ${count} fused operator${count === 1 ? "" : "s"}, ${formatSeconds(rewritten.cost.unfused)} without`);
  }
  return lines;
}

const TEMPLATE_NAMES = { cell: "Cell", row: "Row", magg: "MAgg", outer: "Outer" } as const;

/** `, A -> B FLOP` when both sides are known. */
function measured(pair: { before: number | null; after: number | null }, unit: string): string {
  return pair.before === null || pair.after === null ? "" : `; ${formatQuantity(pair.before, unit)} -> ${formatQuantity(pair.after, unit)}`;
}

function statsText(stats: NodeStats | undefined): string | undefined {
  return stats ? formatStats(stats) : undefined;
}
