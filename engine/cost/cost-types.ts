/** The cost of one operation, and what the per-kind rules compute before it is turned into time. */

/**
 * Estimated cost of one operation.
 *
 * `flops` are floating-point-operation equivalents: a matrix multiply counts
 * 2 per multiply-add, an element-wise or aggregate operator counts its
 * per-cell weight from SystemDS's codegen cost model (`+` 1, `/` 22,
 * `exp` 18, Kahan `sum` 4, ...), times the cells it touches.
 */
export interface OperationCost {
  flops: number;
  /** Bytes read, from memory and (for `read`) from disk. */
  bytesRead: number;
  /** The part of `bytesRead` read from disk (non-zero only for `read`). */
  diskBytesRead: number;
  bytesWritten: number;
  /** Memory held while the operation runs: its inputs, its output and known temporaries. */
  peakMemoryBytes: number;
  /** Estimated time on the machine (see time.ts for the formula). */
  seconds: number;
}

/**
 * A cost, or why there is none: some size is unknown, the sizes are
 * inconsistent, or the operation is opaque (a builtin or user function call).
 */
export type CostEstimate = { known: true; cost: OperationCost } | { known: false; reason: string };

/** What a per-kind rule computes; `operationCost` turns it into an `OperationCost`. */
export interface Work {
  flops: number;
  /** Bytes read from memory. */
  bytesRead: number;
  diskBytesRead: number;
  bytesWritten: number;
  /** Temporary buffers beyond inputs and output (e.g. a sparse accumulator row). */
  temporaryBytes: number;
  /** The kernel walks a sparse structure: compute time uses the sparse throughput. */
  sparseKernel: boolean;
  /** Overrides inputs + output + temporaries (e.g. `read` holds only its output; `nrow` nothing). */
  peakMemoryBytes?: number;
}

/** A rule's result: the work, or why it cannot be estimated. */
export type WorkResult = { ok: true; work: Work } | { ok: false; reason: string };
