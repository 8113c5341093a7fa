/**
 * `dml run --timings`: per block, the plan that ran and its estimated vs
 * measured time (engine/execution/block-report.ts), its compilations and
 * the matches the optimizer applied in them, and the operation farthest
 * from its estimate on the line after it; `--json`: the reports as the
 * field `blocks`.
 */
import { blockRatio, type BlockReport } from "../engine/execution";

export function timingLines(file: string, reports: readonly BlockReport[]): string[] {
  return reports.flatMap((r) => {
    const where = `${file}:${r.startLine + 1}`;
    const ratio = blockRatio(r);
    const plan = [`${r.rewrites} rewritten`, `${r.fusedOperators} fused`, ...(r.unfused.length > 0 ? [`${r.unfused.length} unfused`] : [])].join(", ");
    // The optimizer's work in counts (the same on every machine): what the compile time mostly went into.
    const search = r.optimizerMatches > 0 ? ` (${r.optimizerMatches} optimizer matches)` : "";
    const line = `${where}: ${r.runs} run${r.runs === 1 ? "" : "s"}, estimated ${ms(r.estimatedSeconds)}, measured ${ms(r.measuredSeconds)}${Number.isFinite(ratio) ? ` (${ratio.toFixed(1)}x)` : ""}; ${r.mode}: ${plan}; compiled ${r.compilations}x in ${r.compileMs.toFixed(1)} ms${search}`;
    return r.worst ? [line, `  worst operation: ${r.worst}`] : [line];
  });
}

export function timingJson(r: BlockReport): object {
  return { line: r.startLine + 1, ...r };
}

function ms(seconds: number): string {
  return `${(seconds * 1000).toFixed(seconds < 0.01 ? 3 : 1)} ms`;
}
