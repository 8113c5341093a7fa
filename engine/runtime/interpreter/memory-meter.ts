/**
 * The runtime's memory budget: the bytes the values a run holds take
 * (dense and CSR matrices by their arrays' real sizes, frames by their
 * columns), and the check that refuses an allocation that would take the
 * total past the budget, with a message naming the operation, the bytes it
 * needs, the bytes held and the budget.
 *
 * Who holds what: each block evaluator (evaluate-dag.ts) counts the values
 * of its live nodes and the variables its block started with; while it
 * waits for a user function it hands its count to the meter (`suspend`),
 * so the callee's checks see the callers' values too.
 */
import type { FrameData } from "../io";
import { type Matrix, isDense } from "../matrix";
import type { Value } from "./values";

/** Bytes of a CSR matrix's arrays for `nnz` non-zeros: row pointers (int32), column indices (int32), values (float64). */
export function csrBytes(rows: number, nnz: number): number {
  return 4 * (rows + 1) + 12 * nnz;
}

/** Bytes of a dense rows x cols matrix (float64 cells). */
export function denseBytes(rows: number, cols: number): number {
  return 8 * rows * cols;
}

/** The bytes a matrix's arrays take. */
export function matrixBytes(m: Matrix): number {
  if (isDense(m)) return m.data.byteLength;
  return m.rowPtr.byteLength + m.colIdx.byteLength + m.values.byteLength;
}

/** The bytes a frame's columns take (strings at 2 bytes a character plus a pointer each). */
function frameBytes(frame: FrameData): number {
  let bytes = 0;
  for (const column of frame.columns) {
    if (column.type !== "string") {
      bytes += column.values.byteLength;
      continue;
    }
    for (const s of column.values) bytes += 8 + (s === null ? 0 : 2 * s.length);
  }
  return bytes;
}

/** The large objects of a value (matrices and frames, also inside lists), each once. */
function heldObjects(value: Value, into: Map<object, number>): void {
  if (value.kind === "matrix") {
    if (!into.has(value.matrix)) into.set(value.matrix, matrixBytes(value.matrix));
  } else if (value.kind === "frame") {
    if (!into.has(value.frame)) into.set(value.frame, frameBytes(value.frame));
  } else if (value.kind === "list") {
    for (const item of value.items) heldObjects(item, into);
  }
}

/** `1.5 GiB`, `12.0 MiB`, `300 bytes`. */
function bytesText(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}

export class MemoryMeter {
  /** Bytes held by evaluators that wait for a function call to return. */
  private suspended = 0;

  constructor(readonly budget: number) {}

  /** Adds an evaluator's held bytes while it waits for a call; `resume` takes them back. */
  suspend(bytes: number): void {
    this.suspended += bytes;
  }

  resume(bytes: number): void {
    this.suspended -= bytes;
  }

  /**
   * Undefined when `needed` more bytes fit beside `held` (plus the waiting
   * callers'), else why not: "needs 2.0 GiB (... held), above the memory budget of ...".
   */
  refusal(needed: number, held: number): string | undefined {
    const total = needed + held + this.suspended;
    if (Number.isFinite(total) && total <= this.budget) return undefined;
    const others = held + this.suspended;
    const heldText = others > 0 ? ` while the script holds ${bytesText(others)}` : "";
    const neededText = Number.isFinite(needed) ? bytesText(needed) : "an unbounded amount";
    return `needs ${neededText}${heldText}, above the memory budget of ${bytesText(this.budget)}`;
  }
}

/** The objects a set of holders (nodes, variables) keep alive, each counted once, with their total bytes. */
export class Holdings {
  private readonly counts = new Map<object, { bytes: number; holders: number }>();
  /** Total bytes of the objects held. */
  bytes = 0;

  /** Adds one holder of each object of `value`. */
  hold(value: Value): void {
    const objects = new Map<object, number>();
    heldObjects(value, objects);
    for (const [object, bytes] of objects) {
      const entry = this.counts.get(object);
      if (entry) entry.holders++;
      else {
        this.counts.set(object, { bytes, holders: 1 });
        this.bytes += bytes;
      }
    }
  }

  /** Removes one holder of each object of `value`; objects without holders stop counting. */
  drop(value: Value): void {
    const objects = new Map<object, number>();
    heldObjects(value, objects);
    for (const object of objects.keys()) {
      const entry = this.counts.get(object);
      if (!entry) continue;
      if (--entry.holders > 0) continue;
      this.counts.delete(object);
      this.bytes -= entry.bytes;
    }
  }

  /** The bytes of the objects of `value` that are not held yet. */
  newBytes(value: Value): number {
    const objects = new Map<object, number>();
    heldObjects(value, objects);
    let bytes = 0;
    for (const [object, b] of objects) if (!this.counts.has(object)) bytes += b;
    return bytes;
  }
}
