/** `dml run --timings`: per block, the plan that ran and its estimated vs measured time. */
import type { BlockTiming } from "../engine/execution";

export function timingLines(file: string, timings: readonly BlockTiming[]): string[] {
  return timings.map((t) => {
    const where = `${file}:${t.range.start.line + 1}`;
    const ratio = t.estimatedSeconds > 0 ? t.measuredSeconds / t.estimatedSeconds : NaN;
    const plan = [`${t.rewrites} rewritten`, `${t.fusedOperators} fused`, ...(t.unfused.length > 0 ? [`${t.unfused.length} unfused`] : [])].join(", ");
    return `${where}: ${t.runs} run${t.runs === 1 ? "" : "s"}, estimated ${ms(t.estimatedSeconds)}, measured ${ms(t.measuredSeconds)}${Number.isFinite(ratio) ? ` (${ratio.toFixed(1)}x)` : ""}; ${t.mode}: ${plan}; compiled ${t.compilations}x in ${t.compileMs.toFixed(1)} ms`;
  });
}

export function timingJson(t: BlockTiming): object {
  return { line: t.range.start.line + 1, ...t };
}

function ms(seconds: number): string {
  return `${(seconds * 1000).toFixed(seconds < 0.01 ? 3 : 1)} ms`;
}
