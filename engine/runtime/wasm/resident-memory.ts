/**
 * Resident memory: large matrix data that the WebAssembly kernels read in
 * place. Each array of at least RESIDENT_MIN_LENGTH values gets a shared
 * WebAssembly memory of its own (its buffer is a SharedArrayBuffer, so the
 * rest of the runtime and its JS worker threads use it like any shared
 * array): the values at address 0, then TAIL_BYTES of scratch for a kernel
 * call's small operands (a vector, per-range sums, a block of a row-aligned
 * side input). A memory of its own, unlike the kernels' heap
 * (wasm-heap.ts), is garbage collected with the array, so the interpreter
 * needs no frees; a kernel instance is created per memory (the module has
 * no data segments, so instantiating it writes nothing).
 *
 * The runtime's matrices come here through kernel memory's allocator hook
 * (matrix/kernel-memory.ts), installed by ./index.ts: a matrix made by the
 * runtime or read from a file is resident when large, and stays so across
 * calls. Where a memory cannot be made (no WebAssembly, address space
 * used up) the array is an ordinary shared one and the kernels fall back
 * to JS.
 */
import type { WasmMemory, WasmModule } from "./wasm-api";
import { webAssembly } from "./wasm-api";
import type { KernelExports } from "./wasm-module";

/** Arrays of at least this many values (32 MiB) get a resident memory: few enough that their address-space reservations stay small. */
export const RESIDENT_MIN_LENGTH = 1 << 22;
/** Scratch bytes after the values. */
export const TAIL_BYTES = 1 << 20;
const PAGE = 65536;
/** The module's declared maximum (4 GiB). */
const MAX_PAGES = 65536;

export interface ResidentMemory {
  readonly memory: WasmMemory;
  /** The memory's buffer (the values' views are on it). */
  readonly buffer: SharedArrayBuffer;
  /** First byte of the scratch tail and its length. */
  readonly tail: number;
  readonly tailBytes: number;
  /** A number naming this memory (worker threads instantiate per call, by it). */
  readonly id: number;
  /** Whether a kernel call is using the tail now. */
  busy: boolean;
  exports?: KernelExports;
}

const residents = new WeakMap<ArrayBufferLike, ResidentMemory>();
let nextId = 1;

/**
 * Resident memories live at once are bounded in number and in bytes; past
 * a bound, large arrays are ordinary shared ones. Each memory reserves
 * gigabytes of address space and V8 works harder for every new one as they
 * add up: ALS-CG as written, which makes a 5000 x 2000 product per step,
 * ran 4x slower with every such product resident. The first large arrays
 * made (a script's inputs, read in place by the kernels) get the places.
 */
export const MAX_LIVE_RESIDENT_MEMORIES = 48;
export const MAX_LIVE_RESIDENT_BYTES = 1024 * 1024 * 1024;
let liveMemories = 0;
let liveBytes = 0;
const collected = new FinalizationRegistry<number>((bytes) => {
  liveMemories--;
  liveBytes -= bytes;
});

/** Resident memories not yet garbage collected. */
export function liveResidentMemories(): number {
  return liveMemories;
}

/** A resident Float64Array of `length` zeros, or undefined when no memory can be made for it. */
export function allocateResidentF64(length: number): Float64Array | undefined {
  const wasm = webAssembly();
  if (wasm === undefined || liveMemories >= MAX_LIVE_RESIDENT_MEMORIES) return undefined;
  const tail = align64(length * 8);
  const pages = Math.ceil((tail + TAIL_BYTES) / PAGE);
  if (pages > MAX_PAGES || liveBytes + pages * PAGE > MAX_LIVE_RESIDENT_BYTES) return undefined;
  let memory: WasmMemory;
  try {
    memory = new wasm.Memory({ initial: pages, maximum: pages, shared: true });
  } catch {
    return undefined;
  }
  const buffer = memory.buffer;
  if (!(buffer instanceof SharedArrayBuffer)) return undefined;
  residents.set(buffer, { memory, buffer, tail, tailBytes: pages * PAGE - tail, id: nextId++, busy: false });
  liveMemories++;
  liveBytes += pages * PAGE;
  collected.register(buffer, pages * PAGE);
  return new Float64Array(buffer, 0, length);
}

/** The resident memory `a` lives in, or undefined. */
export function residentMemoryOf(a: Float64Array): ResidentMemory | undefined {
  return residents.get(a.buffer);
}

/** The kernel module's exports on the resident memory (instantiated on first use). */
export function residentExports(resident: ResidentMemory, module: WasmModule): KernelExports {
  if (resident.exports === undefined) {
    const wasm = webAssembly();
    if (wasm === undefined) throw new Error("WebAssembly is not available");
    resident.exports = new wasm.Instance(module, { env: { memory: resident.memory } }).exports as unknown as KernelExports;
  }
  return resident.exports;
}

function align64(bytes: number): number {
  return Math.ceil(bytes / 64) * 64;
}
