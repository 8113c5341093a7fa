/**
 * Values as they cross to and from a parfor worker thread: plain objects
 * (structured clone keeps no classes). A matrix's arrays travel as they are:
 * those in shared kernel memory (large ones, see matrix/kernel-memory.ts)
 * are shared with the worker, not copied; the others are copied. Values are
 * never changed in place by the runtime, so sharing is safe.
 */
import type { FrameData } from "../io";
import { CsrMatrix, DenseMatrix } from "../matrix";
import type { ScalarValue, Value } from "../interpreter";

export type WireValue =
  | ScalarValue
  | { kind: "dense"; rows: number; cols: number; data: Float64Array }
  | { kind: "sparse"; rows: number; cols: number; rowPtr: Int32Array; colIdx: Int32Array; values: Float64Array }
  | { kind: "frame"; frame: FrameData }
  | { kind: "list"; items: WireValue[]; names?: (string | undefined)[] };

export function toWire(v: Value): WireValue {
  switch (v.kind) {
    case "scalar":
      return v;
    case "matrix": {
      const m = v.matrix;
      if (m.format === "dense") return { kind: "dense", rows: m.rows, cols: m.cols, data: m.data };
      return { kind: "sparse", rows: m.rows, cols: m.cols, rowPtr: m.rowPtr, colIdx: m.colIdx, values: m.values };
    }
    case "frame":
      return { kind: "frame", frame: v.frame };
    case "list":
      return { kind: "list", items: v.items.map(toWire), ...(v.names ? { names: v.names } : {}) };
  }
}

export function fromWire(w: WireValue): Value {
  switch (w.kind) {
    case "scalar":
      return w;
    case "dense":
      return { kind: "matrix", matrix: new DenseMatrix(w.rows, w.cols, w.data) };
    case "sparse":
      return { kind: "matrix", matrix: new CsrMatrix(w.rows, w.cols, w.rowPtr, w.colIdx, w.values) };
    case "frame":
      return { kind: "frame", frame: w.frame };
    case "list":
      return { kind: "list", items: w.items.map(fromWire), ...(w.names ? { names: w.names } : {}) };
  }
}
