/**
 * Per operation of a block (a DAG node computed on its own, or a fused
 * operator), what the cost model estimated and what running it took, over
 * the runs of a session; and which operation was off the most: the one
 * whose measured time is farthest from its estimate, in seconds (a tiny
 * scalar operation 50x off its nanoseconds does not outrank a product that
 * took 13 ms instead of 0.2 ms).
 */
import { formatFactor, formatSeconds, type OperationClass } from "../cost";

export interface OperationTiming {
  /** 0-based line and character where the operation is written. */
  line: number;
  character: number;
  /** Its DML text (cut short), or `fused cell operator: sum(X * Y)`. */
  text: string;
  /** Its calibration class (none: scalar operations, function calls, reads, ...). */
  operationClass?: OperationClass;
  /** How often it ran. */
  runs: number;
  /** The cost model's seconds over all runs, with this machine's constants (no correction). */
  modelSeconds: number;
  /** The estimate the report shows: modelSeconds times the observed correction of its class. */
  estimatedSeconds: number;
  /** Measured seconds over all runs (its own computation, not that of its inputs). */
  measuredSeconds: number;
}

/** Seconds between the measured time and the estimate. */
export function miss(op: OperationTiming): number {
  return Math.abs(op.measuredSeconds - op.estimatedSeconds);
}

/** measured / estimated (Infinity when nothing was estimated). */
export function operationRatio(op: OperationTiming): number {
  return op.estimatedSeconds > 0 ? op.measuredSeconds / op.estimatedSeconds : Infinity;
}

/** `line 12: t(X) %*% y: estimated 200 µs, measured 13.0 ms (65×)`. */
export function operationLine(op: OperationTiming): string {
  const ratio = operationRatio(op);
  const factor = !Number.isFinite(ratio) ? "not estimated" : ratio >= 1 ? `${formatFactor(ratio)} slower` : `${formatFactor(1 / ratio)} faster`;
  const runs = op.runs === 1 ? "" : ` over ${op.runs} runs`;
  return `line ${op.line + 1}: ${op.text}: estimated ${formatSeconds(op.estimatedSeconds)}, measured ${formatSeconds(op.measuredSeconds)}${runs} (${factor})`;
}
