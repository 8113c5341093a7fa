/**
 * The WebAssembly kernels on a resident X (resident-memory.ts), X read in
 * place:
 * - SystemDS's matrix-multiply chain `t(X) %*% (X %*% v)` (XtXv),
 *   `t(X) %*% (w * (X %*% v))` (XtwXv) and `t(X) %*% ((X %*% v) - w)`
 *   (XtXvy) in one pass over X (mmchainRows, assembly/mmchain.ts);
 * - the product `X %*% v` with a column v (gemvRows, assembly/dense.ts),
 *   y written to X's tail a span of rows at a time and copied out.
 *
 * The rows are cut into chunks by the call's size alone (the same on every
 * machine); each chunk sums into its own slot of X's scratch tail, in
 * blocks of BLOCK rows whose w values the running thread has copied into
 * its own slot of the tail; the calling thread and the resident pool's
 * workers claim chunks, and the chunks' sums are added in chunk order, so
 * the result is the same on any number of threads. Returns undefined when
 * the call cannot run here (X not resident, its tail too small for the
 * width, the kernels unavailable, or X's tail in use): the caller then
 * computes it another way.
 */
import os from "node:os";
import { ResidentWorkerPool, type ResidentChunkFunction } from "./resident-pool";
import { RESIDENT_PRIMING_SOURCE, residentChunkPrimer } from "./resident-chunk-priming";
import { residentExports, residentMemoryOf, type ResidentMemory } from "./resident-memory";
import type { WasmModule } from "./wasm-api";

/** The chain's s_i (assembly/mmchain.ts): X_i·v, w_i X_i·v, X_i·v − w_i, w_i, w_i u_i. */
export type MmchainMode = "XtXv" | "XtwXv" | "XtXvy" | "Xtw" | "Xtwu";
const MODE_CODES: Record<MmchainMode, number> = { XtXv: 0, XtwXv: 1, XtXvy: 2, Xtw: 3, Xtwu: 4 };
/** Whether the mode reads v (X_i·v), and u. */
const READS_V: ReadonlySet<MmchainMode> = new Set(["XtXv", "XtwXv", "XtXvy"]);

/** Rows per kernel call within a chunk. */
const BLOCK = 256;
/** A call below this much work (rows x cols) runs as one chunk. */
const CHUNKED_MIN_WORK = 1 << 18;
/** Work per chunk of a larger call, and the most chunks. */
const CHUNK_WORK = 1 << 17;
const MAX_CHUNKS = 64;

/** What a chunk needs (numbers and shared arrays only: it is posted to the workers). */
interface ResidentTask {
  /** 0: mmchain, 1: gemv. */
  readonly kernel: number;
  /** Byte address of X's first row, its columns, the mode's code. */
  readonly x: number;
  readonly cols: number;
  readonly mode: number;
  /** Byte addresses of v, the first chunk's sums (then one slot of accStride bytes per chunk) and the first thread's slot (then one of slotBytes per thread). */
  readonly v: number;
  readonly accBase: number;
  readonly accStride: number;
  readonly wBase: number;
  /** Rows whose w (and u; gemv: y) values a thread's slot holds at once (a multiple of block), and the slot's bytes. */
  readonly span: number;
  readonly slotBytes: number;
  /** Rows per kernel call. */
  readonly block: number;
  /** w (modes 1 to 4), shared when workers read it; gemv: y, written. */
  readonly w: Float64Array | undefined;
  /** u (mode 4), shared when workers read it. */
  readonly u: Float64Array | undefined;
  /** Chunk c covers rows [bounds[c], bounds[c + 1]). */
  readonly bounds: readonly number[];
}

/**
 * The chunk function, as text: the workers compile it, and so does the
 * calling thread (one source for both). Thread `p` (0: the calling thread,
 * worker i: i + 1) copies w (and u) into its own slot a span of rows at a
 * time (one memory copy each; a loop over the values, run per block, took
 * a fifth of a 1e6 x 10 MMChain), then runs the kernel on the span's blocks
 * of BLOCK rows from the chunk's first row: the same kernel calls, so the
 * same sums, whatever the span.
 */
const CHUNK_SOURCE = `function runResidentChunk(k, buffer, t, c, p) {
  const r0 = t.bounds[c], r1 = t.bounds[c + 1];
  const rowBytes = t.cols * 8;
  const wSlot = t.wBase + p * t.slotBytes;
  const uSlot = wSlot + t.span * 8;
  if (t.kernel === 1) {
    const y = new Float64Array(buffer, wSlot, t.span);
    for (let s = r0; s < r1; s += t.span) {
      const m = Math.min(t.span, r1 - s);
      for (let r = s; r < s + m; r += t.block) k.gemvRows(t.x + r * rowBytes, t.v, wSlot + (r - s) * 8, t.cols, 0, Math.min(t.block, s + m - r));
      t.w.set(m === t.span ? y : y.subarray(0, m), s);
    }
    return;
  }
  const acc = t.accBase + c * t.accStride;
  new Float64Array(buffer, acc, t.cols).fill(0);
  const w = t.w === undefined ? undefined : new Float64Array(buffer, wSlot, t.span);
  const u = t.u === undefined ? undefined : new Float64Array(buffer, uSlot, t.span);
  for (let s = r0; s < r1; s += t.span) {
    const m = Math.min(t.span, r1 - s);
    if (w !== undefined) w.set(t.w.subarray(s, s + m));
    if (u !== undefined) u.set(t.u.subarray(s, s + m));
    for (let r = s; r < s + m; r += t.block) k.mmchainRows(t.x + r * rowBytes, t.cols, Math.min(t.block, s + m - r), t.v, wSlot + (r - s) * 8, uSlot + (r - s) * 8, t.mode, acc);
  }
}`;

const runChunk = new Function(`"use strict"; return (${CHUNK_SOURCE});`)() as ResidentChunkFunction<ResidentTask>;

let pool: { module: WasmModule; pool: ResidentWorkerPool<ResidentTask> | undefined } | undefined;

/** MMChain calls so far, chunks of every call, and chunks run by worker threads (tests: whether the threads took part). */
export const mmchainStats = { calls: 0, chunks: 0, chunksRunByWorkers: (): number => pool?.pool?.chunksRunByWorkers ?? 0 };

/**
 * t(X) %*% s(X %*% v, w, u) for dense row-major X (rows x cols, resident),
 * v (cols values; unused for Xtw and Xtwu), w and u (rows values; where
 * the mode reads them): a new array of cols values, or undefined when the
 * call cannot run here. `module` is the kernel module; `threads` the most
 * threads to use (the calling one included).
 */
export function residentMmchain(
  module: WasmModule,
  x: Float64Array,
  rows: number,
  cols: number,
  v: Float64Array,
  w: Float64Array | undefined,
  mode: MmchainMode,
  threads: number,
  u?: Float64Array,
): Float64Array | undefined {
  const readsW = mode !== "XtXv";
  const readsU = mode === "Xtwu";
  if ((readsW && (w === undefined || w.length < rows)) || (readsU && (u === undefined || u.length < rows))) return undefined;
  const vOrNone = READS_V.has(mode) ? v : new Float64Array(cols);
  const acc = residentCall(module, x, rows, cols, vOrNone, threads, (layout, shared) => ({
    kernel: 0,
    mode: MODE_CODES[mode],
    w: readsW && w !== undefined ? (shared ? sharedCopy(w) : w) : undefined,
    u: readsU && u !== undefined ? (shared ? sharedCopy(u) : u) : undefined,
    ...layout,
  }));
  if (acc === undefined) return undefined;
  mmchainStats.calls++;
  // The chunks' sums, added in chunk order.
  const { resident, layout } = acc;
  const result = new Float64Array(cols);
  for (let c = 0; c < layout.bounds.length - 1; c++) {
    const partial = new Float64Array(resident.buffer, layout.accBase + c * layout.accStride, cols);
    for (let j = 0; j < cols; j++) result[j]! += partial[j]!;
  }
  return result;
}

/**
 * y = X %*% v for dense row-major X (rows x cols, resident) and v (cols
 * values) into y (rows values; shared for the workers to write, else the
 * call stays on this thread): true when done, false when the call cannot
 * run here.
 */
export function residentGemv(module: WasmModule, x: Float64Array, rows: number, cols: number, v: Float64Array, y: Float64Array, threads: number): boolean {
  if (y.length < rows) return false;
  const ySharable = y.buffer instanceof SharedArrayBuffer;
  const done = residentCall(module, x, rows, cols, v, ySharable ? threads : 1, (layout) => ({ kernel: 1, mode: 0, w: y, u: undefined, ...layout }));
  return done !== undefined;
}

type Layout = Omit<ResidentTask, "kernel" | "mode" | "w" | "u">;

/**
 * Runs a call's chunks on X's resident memory (v copied to its tail, the
 * chunks' slots after it); `task` completes the layout into the task
 * (`shared`: whether workers take part). Undefined when the call cannot run here.
 */
function residentCall(
  module: WasmModule,
  x: Float64Array,
  rows: number,
  cols: number,
  v: Float64Array,
  threads: number,
  task: (layout: Layout, shared: boolean) => ResidentTask,
): { resident: ResidentMemory; layout: Layout } | undefined {
  const resident = residentMemoryOf(x);
  if (resident === undefined || resident.busy || rows === 0 || cols === 0) return undefined;
  if (x.length < rows * cols || v.length < cols) return undefined;
  const chunks = chunkCount(rows, cols);
  const accStride = align64(cols * 8);
  const vAt = resident.tail;
  const accBase = vAt + accStride;
  const wBase = accBase + chunks * accStride;
  const workers = chunks === 1 ? 0 : Math.max(0, threads - 1);
  const p = workers > 0 ? residentPool(module, workers) : undefined;
  // A slot per thread that may take a chunk (the pool's workers by index), each a span of the largest chunk's rows
  // or as many whole blocks as fit.
  const slots = p === undefined ? 1 : p.size + 1;
  const room = resident.tail + resident.tailBytes - wBase;
  const span = Math.min(Math.ceil(Math.ceil(rows / chunks) / BLOCK), Math.floor(room / (slots * BLOCK * 16))) * BLOCK;
  if (span < BLOCK) return undefined;
  resident.busy = true;
  try {
    const exports = residentExports(resident, module);
    new Float64Array(resident.buffer, vAt, cols).set(v.subarray(0, cols));
    // Smis, as the primed chunk function met them (resident-chunk-priming.ts).
    const bounds = Array.from({ length: chunks + 1 }, (_, c) => Math.floor((rows * c) / chunks) | 0);
    const used = p === undefined ? 0 : Math.min(p.readyCount, workers);
    const layout: Layout = { x: x.byteOffset, cols, v: vAt, accBase, accStride, wBase, span, slotBytes: span * 16, block: BLOCK, bounds };
    const t = task(layout, used > 0);
    if (p === undefined || used === 0) for (let c = 0; c < chunks; c++) runChunk(exports, resident.buffer, t, c, 0);
    else p.run(resident.memory, t, chunks, used, (c) => runChunk(exports, resident.buffer, t, c, 0));
    mmchainStats.chunks += chunks;
    return { resident, layout };
  } finally {
    resident.busy = false;
  }
}

/** Chunks of a call: by its size alone. */
export function chunkCount(rows: number, cols: number): number {
  const work = rows * cols;
  if (work < CHUNKED_MIN_WORK) return 1;
  return Math.max(1, Math.min(MAX_CHUNKS, Math.ceil(work / CHUNK_WORK), rows));
}

/** The threads a call may use: $DML_LENS_KERNEL_THREADS (a positive integer) capped by the cores, else the cores. */
export function residentThreads(): number {
  const cores = Math.max(1, typeof os.availableParallelism === "function" ? os.availableParallelism() : os.cpus().length);
  const cap = Number(process.env["DML_LENS_KERNEL_THREADS"]);
  return Number.isInteger(cap) && cap >= 1 ? Math.min(cap, cores) : cores;
}

/**
 * Starts the resident pool's workers in the background, when the machine
 * has more than one core: called when a resident array is made, since
 * kernels on it follow (a script reads its input, then computes on it).
 * Started at the first call instead, they would still be starting during
 * it and the next, which then run on the calling thread alone (a 1e6 x 10
 * GEMV: 7.8-8.1 ms and 5.9-6.7 ms, against 4.7-4.9 and 4.0-5.2 with the
 * workers ready). The calling thread's chunk function is primed then too
 * (resident-chunk-priming.ts), once; each worker primes its own.
 */
export function startResidentPool(module: WasmModule): void {
  if (residentThreads() > 1) residentPool(module, 1);
  if (!callerChunkPrimed) {
    callerChunkPrimed = true;
    residentChunkPrimer()?.(runChunk, module, BLOCK, 0);
  }
}

let callerChunkPrimed = false;

/** The calling thread's chunk function (tests: whether V8 optimized it). */
export function residentChunkFunction(): unknown {
  return runChunk;
}

/** Whether the resident pool of `module` has been started (tests). */
export function residentPoolStarted(module: WasmModule): boolean {
  return pool !== undefined && pool.module === module && pool.pool !== undefined;
}

/** Waits until the resident pool's workers have started (tests; calls before that use fewer threads). */
export function whenResidentPoolReady(module: WasmModule, workers: number): Promise<void> {
  return residentPool(module, workers)?.whenReady() ?? Promise.resolve();
}

function residentPool(module: WasmModule, workers: number): ResidentWorkerPool<ResidentTask> | undefined {
  if (pool === undefined || pool.module !== module) {
    pool?.pool?.close();
    let started: ResidentWorkerPool<ResidentTask> | undefined;
    try {
      started = new ResidentWorkerPool<ResidentTask>(module, CHUNK_SOURCE, Math.max(1, residentThreads() - 1), { source: RESIDENT_PRIMING_SOURCE, block: BLOCK });
    } catch {
      started = undefined;
    }
    pool = { module, pool: started };
  }
  return workers > 0 ? pool.pool : undefined;
}

function sharedCopy(a: Float64Array): Float64Array {
  if (a.buffer instanceof SharedArrayBuffer) return a;
  const copy = new Float64Array(new SharedArrayBuffer(a.byteLength));
  copy.set(a);
  return copy;
}

function align64(bytes: number): number {
  return Math.ceil(bytes / 64) * 64;
}
