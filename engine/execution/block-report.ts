/**
 * What a run reports per block, for the results view and `dml run
 * --timings` / `--json`: the block's timing (block-timing.ts: runs, plan,
 * compilations) with, when the run was profiled (operation-profiler.ts),
 * the estimate of this machine (each operation's cost-model seconds with
 * this machine's constants and the observed corrections) and the
 * operations farthest from their estimates, the worst one first.
 * Plain data, so it crosses the worker boundary as it is.
 */
import type { BlockTiming } from "./block-timing";
import type { BlockOperations } from "./operation-profiler";
import { miss, operationLine, type OperationTiming } from "./operation-timing";

/** Operations listed per block (the farthest from their estimates). */
export const OPERATIONS_LISTED = 5;

/** A block's timing (its range as lines) with what profiling adds. */
export interface BlockReport extends Omit<BlockTiming, "range"> {
  /** 0-based first and last line of the block. */
  startLine: number;
  endLine: number;
  /** The estimate shown: this machine's (profiled runs), else the plan's. */
  estimatedSeconds: number;
  /** The plan's own estimate (the planner's default constants: the same on every machine). */
  planSeconds: number;
  /** The operations farthest from their estimates, farthest first (profiled runs). */
  operations: OperationTiming[];
  /** How many operations were profiled. */
  operationCount: number;
  /** `line 12: t(X) %*% y: estimated 200 µs, measured 13.0 ms (65× slower)`: the first of `operations`. */
  worst?: string;
}

export function blockReports(timings: readonly BlockTiming[], profile: readonly BlockOperations[] = []): BlockReport[] {
  const operationsAt = new Map<string, OperationTiming[]>();
  for (const block of profile) {
    const key = rangeKey(block.range);
    operationsAt.set(key, [...(operationsAt.get(key) ?? []), ...block.operations]);
  }
  return timings.map((t) => {
    const operations = operationsAt.get(rangeKey(t.range)) ?? [];
    const ranked = [...operations].sort((a, b) => miss(b) - miss(a));
    const { range, ...timing } = t;
    return {
      startLine: range.start.line,
      endLine: range.end.line,
      ...timing,
      estimatedSeconds: operations.length > 0 ? operations.reduce((sum, op) => sum + op.estimatedSeconds, 0) : t.estimatedSeconds,
      planSeconds: t.estimatedSeconds,
      unfused: [...t.unfused],
      operations: ranked.slice(0, OPERATIONS_LISTED),
      operationCount: operations.length,
      ...(ranked[0] ? { worst: operationLine(ranked[0]) } : {}),
    };
  });
}

/** measured / estimated of a block (NaN without an estimate). */
export function blockRatio(report: Pick<BlockReport, "estimatedSeconds" | "measuredSeconds">): number {
  return report.estimatedSeconds > 0 ? report.measuredSeconds / report.estimatedSeconds : NaN;
}

function rangeKey(range: BlockTiming["range"]): string {
  return `${range.start.line}:${range.start.character}-${range.end.line}:${range.end.character}`;
}
