/**
 * The WebAssembly SIMD kernels behind the MatrixKernels interface.
 *
 * Operands: an array allocated from `heap` (allocateF64 / allocateI32) lives
 * in the kernels' memory and is used in place. Other arrays are handled by
 * kind of kernel:
 * - compute-bound kernels (gemm, spmm) copy them into heap scratch (O(n²) for
 *   O(n³) work) and copy the result out;
 * - memory-bound kernels (gemv, element-wise, sumProduct3, spmv) run the JS
 *   kernel on them directly instead: a copy would move more bytes than the
 *   kernel reads. Only the small vectors (x, y) are copied.
 *
 * Threads: work above a size threshold is split by rows (by non-zeros for
 * CSR) across the calling thread and the worker pool, synchronously.
 */
import { jsKernels } from "./js-kernels";
import {
  checkElementwise,
  checkGemm,
  checkGemv,
  checkSpmm,
  checkSpmv,
  checkSumProduct3,
  type CsrArrays,
  type ElementwiseOp,
  type MatrixKernels,
} from "./kernel-api";
import type { KernelExports, KernelVariant, LoadedKernelModule } from "./wasm-module";
import { WasmHeap } from "./wasm-heap";
import { KernelWorkerPool, type KernelTask } from "./worker-pool";

/** Below these amounts of work (multiply-adds or elements) a call stays on one thread. */
const PARALLEL_MIN = { gemm: 1 << 20, gemv: 1 << 17, elementwise: 1 << 17, sum: 1 << 17, spmv: 1 << 16, spmm: 1 << 16 };
/** Parts a long sum is cut into (whatever the thread count). */
const SUM_PARTS = 16;
const EW_OPS: Record<ElementwiseOp, number> = { "+": 0, "-": 1, "*": 2, "/": 3 };

export interface WasmKernelOptions {
  /** Most threads one call uses, the calling one included (default: all workers + 1). */
  threads?: number;
  /** Worker threads to start (default: os.availableParallelism() - 1). */
  workers?: number;
}

/** A staged operand: its address, and whether it is scratch to release. */
interface Staged {
  readonly address: number;
  readonly scratch: boolean;
}

export class WasmKernels implements MatrixKernels {
  readonly backend = "wasm-simd" as const;
  /** The build in use: SIMD128 only, or with relaxed SIMD's fused multiply-add in GEMM. */
  readonly variant: KernelVariant;
  readonly heap: WasmHeap;
  /** Most threads one call uses, the calling one included. */
  threads: number;
  private readonly k: KernelExports;
  private readonly pool: KernelWorkerPool | undefined;
  private readonly scratchPerThread: number;
  private readonly tile: number;
  /** Rows of C per work item when threads share a gemm. */
  private readonly chunkRows: number;

  constructor(loaded: LoadedKernelModule, workers: number, threads: number) {
    this.k = loaded.exports;
    this.variant = loaded.variant;
    this.heap = new WasmHeap(loaded.memory);
    this.pool = workers > 0 ? new KernelWorkerPool(loaded.module, loaded.memory, workers) : undefined;
    this.threads = Math.max(1, threads);
    this.scratchPerThread = this.k.gemmScratchBytes();
    this.tile = this.k.gemmTile();
    this.chunkRows = this.k.gemmChunkRows();
    this.warmUp();
  }

  /** Resolves when the worker threads have started (calls before that use fewer threads). */
  whenReady(): Promise<void> {
    return this.pool ? this.pool.whenReady() : Promise.resolve();
  }

  /** Threads a large call uses now. */
  get activeThreads(): number {
    return Math.min(this.threads, 1 + (this.pool?.readyCount ?? 0));
  }

  /** Stops the worker threads; later calls run on the calling thread. */
  close(): void {
    this.pool?.close();
  }

  gemm(m: number, k: number, n: number, a: Float64Array, b: Float64Array, c: Float64Array): void {
    checkGemm(m, k, n, a, b, c);
    if (m === 0 || n === 0) return;
    if (k === 0) {
      c.fill(0, 0, m * n);
      return;
    }
    const sa = this.stage(a, m * k);
    const sb = this.stage(b, k * n);
    const sc = this.output(c, m * n);
    const panels = Math.ceil(n / this.tile);
    const packed = this.heap.allocate(k * panels * this.tile * 8);
    const threads = this.threadsFor(m * n * k, PARALLEL_MIN.gemm, Math.ceil(m / this.chunkRows));
    const scratch = this.heap.allocate(threads * this.scratchPerThread);
    try {
      this.parallel(splitEven(panels, Math.min(threads, panels), 1), (p0, p1) => ({
        kernel: "gemmPackB",
        args: [sb.address, k, n, packed, p0, p1],
      }));
      if (threads === 1) this.k.gemmRows(sa.address, packed, sc.address, k, n, 0, m, scratch);
      else {
        // Row blocks handed out through an atomic counter: a thread slowed by a busy core takes fewer.
        const counter = this.heap.allocate(64);
        this.heap.i32(counter, 1)[0] = 0;
        try {
          this.parallel(splitEven(threads, threads, 1), (t) => ({
            kernel: "gemmShared",
            args: [sa.address, packed, sc.address, m, k, n, counter, scratch + t * this.scratchPerThread],
          }));
        } finally {
          this.heap.release(counter);
        }
      }
      this.finishOutput(c, sc, m * n);
    } finally {
      this.heap.release(scratch);
      this.heap.release(packed);
      this.releaseAll(sa, sb, sc);
    }
  }

  gemv(m: number, n: number, a: Float64Array, x: Float64Array, y: Float64Array): void {
    checkGemv(m, n, a, x, y);
    if (m === 0) return;
    if (this.heap.addressOf(a) === undefined) return jsKernels.gemv(m, n, a, x, y);
    const sa = this.stage(a, m * n);
    const sx = this.stage(x, n);
    const sy = this.output(y, m);
    try {
      const threads = this.threadsFor(m * n, PARALLEL_MIN.gemv, m);
      this.parallel(splitEven(m, threads, 1), (r0, r1) => ({ kernel: "gemvRows", args: [sa.address, sx.address, sy.address, n, r0, r1] }));
      this.finishOutput(y, sy, m);
    } finally {
      this.releaseAll(sa, sx, sy);
    }
  }

  elementwise(op: ElementwiseOp, a: Float64Array, b: Float64Array, out: Float64Array): void {
    checkElementwise(a, b, out);
    const len = out.length;
    const pa = this.heap.addressOf(a);
    const pb = this.heap.addressOf(b);
    const po = this.heap.addressOf(out);
    if (pa === undefined || pb === undefined || po === undefined) return jsKernels.elementwise(op, a, b, out);
    const threads = this.threadsFor(len, PARALLEL_MIN.elementwise, Math.ceil(len / 8));
    this.parallel(splitEven(len, threads, 8), (i0, i1) => ({ kernel: "ewBinary", args: [EW_OPS[op], pa, pb, po, i0, i1] }));
  }

  sumProduct3(x: Float64Array, y: Float64Array, z: Float64Array): number {
    checkSumProduct3(x, y, z);
    const px = this.heap.addressOf(x);
    const py = this.heap.addressOf(y);
    const pz = this.heap.addressOf(z);
    if (px === undefined || py === undefined || pz === undefined) return jsKernels.sumProduct3(x, y, z);
    // The parts depend on the length alone and are added in order, so the sum is the same for any thread count.
    const len = x.length;
    const parts = splitEven(len, len < PARALLEL_MIN.sum ? 1 : Math.min(SUM_PARTS, Math.ceil(len / 8)), 8);
    const threads = this.threadsFor(len, PARALLEL_MIN.sum, parts.length);
    let total = 0;
    for (let first = 0; first < parts.length; first += threads) {
      const sums = this.parallel(parts.slice(first, first + threads), (i0, i1) => ({ kernel: "sumProduct3", args: [px, py, pz, i0, i1] }));
      for (const part of sums) total += part;
    }
    return total;
  }

  spmv(a: CsrArrays, x: Float64Array, y: Float64Array): void {
    checkSpmv(a, x, y);
    if (a.rows === 0) return;
    if (!this.csrResident(a)) return jsKernels.spmv(a, x, y);
    const sx = this.stage(x, a.cols);
    const sy = this.output(y, a.rows);
    try {
      const nnz = a.rowPtr[a.rows]!;
      const threads = this.threadsFor(nnz + a.rows, PARALLEL_MIN.spmv, a.rows);
      const [rp, ci, va] = this.csrAddresses(a);
      this.parallel(splitByNnz(a.rowPtr, a.rows, threads), (r0, r1) => ({ kernel: "spmvRows", args: [rp, ci, va, sx.address, sy.address, r0, r1] }));
      this.finishOutput(y, sy, a.rows);
    } finally {
      this.releaseAll(sx, sy);
    }
  }

  spmm(a: CsrArrays, n: number, b: Float64Array, c: Float64Array): void {
    checkSpmm(a, n, b, c);
    if (a.rows === 0 || n === 0) return;
    const nnz = a.rowPtr[a.rows]!;
    const rp = this.stageI32(a.rowPtr, a.rows + 1);
    const ci = this.stageI32(a.colIdx, nnz);
    const va = this.stage(a.values, nnz);
    const sb = this.stage(b, a.cols * n);
    const sc = this.output(c, a.rows * n);
    try {
      const threads = this.threadsFor((nnz + a.rows) * n, PARALLEL_MIN.spmm, a.rows);
      this.parallel(splitByNnz(a.rowPtr, a.rows, threads), (r0, r1) => ({
        kernel: "spmmRows",
        args: [rp.address, ci.address, va.address, sb.address, sc.address, n, r0, r1],
      }));
      this.finishOutput(c, sc, a.rows * n);
    } finally {
      this.releaseAll(rp, ci, va, sb, sc);
    }
  }

  /** Runs one task per range, tasks[0] on this thread; returns the tasks' results. */
  private parallel(ranges: readonly (readonly [number, number])[], task: (from: number, to: number, index: number) => KernelTask): number[] {
    const tasks = ranges.map(([from, to], i) => task(from, to, i));
    if (tasks.length === 0) return [];
    if (tasks.length === 1 || !this.pool) return tasks.map((t) => this.runHere(t));
    return this.pool.run(tasks, (t) => this.runHere(t));
  }

  private runHere(task: KernelTask): number {
    const result = (this.k[task.kernel] as (...args: number[]) => unknown)(...task.args);
    return typeof result === "number" ? result : 0;
  }

  /** Threads for `work` units: one below `min`, never more than `maxParts` nor the ready ones. */
  private threadsFor(work: number, min: number, maxParts: number): number {
    if (work < min) return 1;
    return Math.max(1, Math.min(this.activeThreads, maxParts));
  }

  private stage(view: Float64Array, length: number): Staged {
    const address = this.heap.addressOf(view);
    if (address !== undefined) return { address, scratch: false };
    const scratch = this.heap.allocate(length * 8);
    this.heap.f64(scratch, length).set(view.subarray(0, length));
    return { address: scratch, scratch: true };
  }

  private stageI32(view: Int32Array, length: number): Staged {
    const address = this.heap.addressOf(view);
    if (address !== undefined) return { address, scratch: false };
    const scratch = this.heap.allocate(length * 4);
    this.heap.i32(scratch, length).set(view.subarray(0, length));
    return { address: scratch, scratch: true };
  }

  /** Where a kernel writes `view`: in place if resident, else scratch copied out by finishOutput. */
  private output(view: Float64Array, length: number): Staged {
    const address = this.heap.addressOf(view);
    if (address !== undefined) return { address, scratch: false };
    return { address: this.heap.allocate(length * 8), scratch: true };
  }

  private finishOutput(view: Float64Array, staged: Staged, length: number): void {
    if (staged.scratch) view.set(this.heap.f64(staged.address, length));
  }

  private releaseAll(...staged: Staged[]): void {
    for (const s of staged) if (s.scratch) this.heap.release(s.address);
  }

  private csrResident(a: CsrArrays): boolean {
    return this.heap.addressOf(a.rowPtr) !== undefined && this.heap.addressOf(a.colIdx) !== undefined && this.heap.addressOf(a.values) !== undefined;
  }

  private csrAddresses(a: CsrArrays): [number, number, number] {
    return [this.heap.addressOf(a.rowPtr)!, this.heap.addressOf(a.colIdx)!, this.heap.addressOf(a.values)!];
  }

  /** Runs every kernel on small inputs so V8 has optimized code for them before real work. */
  private warmUp(): void {
    const saved = this.threads;
    this.threads = 1;
    const a = this.heap.allocateF64(64 * 64);
    const b = this.heap.allocateF64(64 * 64);
    const c = this.heap.allocateF64(64 * 64);
    const rowPtr = this.heap.allocateI32(65);
    const colIdx = this.heap.allocateI32(64 * 8);
    for (let i = 0; i < a.length; i++) {
      a[i] = (i % 7) / 7;
      b[i] = (i % 5) / 5;
    }
    for (let r = 0; r <= 64; r++) rowPtr[r] = r * 8;
    for (let p = 0; p < colIdx.length; p++) colIdx[p] = (p * 7) % 64;
    const csr: CsrArrays = { rows: 64, cols: 64, rowPtr, colIdx, values: a.subarray(0, 64 * 8) };
    try {
      for (let round = 0; round < 30; round++) {
        this.gemm(64, 64, 64, a, b, c);
        this.gemv(64, 64, a, b, c);
        this.elementwise("*", a, b, c);
        this.sumProduct3(a, b, c);
        this.spmv(csr, b, c);
        this.spmm(csr, 20, b, c);
      }
    } finally {
      for (const v of [a, b, c, rowPtr, colIdx]) this.heap.releaseArray(v);
      this.threads = saved;
    }
  }
}

/** [from, to) ranges splitting 0..total into `parts` near-equal pieces, cut at multiples of `align`. */
export function splitEven(total: number, parts: number, align: number): [number, number][] {
  const units = Math.ceil(total / align);
  const count = Math.max(1, Math.min(parts, units));
  const ranges: [number, number][] = [];
  let from = 0;
  for (let t = 0; t < count; t++) {
    const to = t === count - 1 ? total : Math.min(total, Math.round((units * (t + 1)) / count) * align);
    if (to > from) ranges.push([from, to]);
    from = to;
  }
  return ranges;
}

/** Row ranges of a CSR matrix with near-equal numbers of non-zeros (plus rows, for empty ones). */
export function splitByNnz(rowPtr: Int32Array, rows: number, parts: number): [number, number][] {
  if (parts <= 1 || rows <= 1) return [[0, rows]];
  const base = rowPtr[0]!;
  const total = rowPtr[rows]! - base + rows;
  const ranges: [number, number][] = [];
  let from = 0;
  for (let t = 1; t <= parts; t++) {
    let to = rows;
    if (t < parts) {
      const target = (total * t) / parts;
      // First row r with rowPtr[r] - base + r >= target.
      let lo = from;
      let hi = rows;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (rowPtr[mid]! - base + mid < target) lo = mid + 1;
        else hi = mid;
      }
      to = lo;
    }
    if (to > from) ranges.push([from, to]);
    from = to;
  }
  return ranges;
}
