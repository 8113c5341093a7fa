/**
 * The runtime's hot kernels (GEMM, GEMV, element-wise, fused sum(x*y*z), CSR
 * SpMV and SpMM) as WebAssembly SIMD128 compiled from AssemblyScript
 * (./assembly, built by `npm run build` to dist/dml-kernels.wasm, and
 * dist/dml-kernels-relaxed.wasm whose GEMM uses relaxed SIMD's fused
 * multiply-add, preferred where it compiles), split across worker threads for
 * large inputs, with a pure-JS fallback.
 *
 * `matrixKernels()` is the entry point: the WebAssembly kernels when they load
 * here, else the JS ones. The API is synchronous (workers are driven with
 * Atomics.wait on the calling thread). $DML_LENS_KERNELS=js forces the JS
 * kernels; $DML_LENS_KERNEL_THREADS=N caps the threads per call;
 * $DML_LENS_WASM_RELAXED=0 keeps to the SIMD128 build (see relaxedSimdUsable).
 */
import { readFileSync } from "node:fs";
import os from "node:os";
import { jsKernels } from "./js-kernels";
import type { MatrixKernels } from "./kernel-api";
import { KERNELS_RELAXED_WASM_FILE, locateKernelWasm, kernelWasmCandidates } from "./locate-wasm";
import { WasmKernels } from "./wasm-kernels";
import { loadKernelModule, relaxedSimdUsable, wasmUnsupportedReason, type KernelVariant, type LoadedKernelModule } from "./wasm-module";
import type { WasmModule } from "./wasm-api";
import { installLargeArrayAllocator } from "../matrix";
import { allocateResidentF64, RESIDENT_MIN_LENGTH, residentMemoryOf } from "./resident-memory";
import { residentGemv, residentMmchain, residentThreads, mmchainStats, startResidentPool, type MmchainMode } from "./resident-kernels";

export { residentMemoryOf, RESIDENT_MIN_LENGTH, mmchainStats, type MmchainMode };

export type { CsrArrays, ElementwiseOp, MatrixKernels } from "./kernel-api";
export { jsKernels } from "./js-kernels";
export { WasmKernels, type WasmKernelOptions } from "./wasm-kernels";
export { WasmHeap } from "./wasm-heap";
export { KERNELS_RELAXED_WASM_FILE, KERNELS_WASM_FILE, kernelWasmCandidates, locateKernelWasm } from "./locate-wasm";
export { loadKernelModule, type KernelVariant } from "./wasm-module";

export type WasmKernelStatus =
  | { available: true; file: string; variant: KernelVariant; threads: number }
  | { available: false; reason: string };

let loaded: { kernels: WasmKernels; file: string; module: WasmModule } | { reason: string } | undefined;

// Large matrix data lives in resident memories, which the WebAssembly kernels read in place; the first one starts their worker threads.
installLargeArrayAllocator({ minLength: RESIDENT_MIN_LENGTH, allocate: allocateResident });

function allocateResident(length: number): Float64Array | undefined {
  const module = wasmModule();
  if (module === undefined) return undefined;
  const array = allocateResidentF64(length);
  if (array !== undefined) startResidentPool(module);
  return array;
}

/** The compiled kernel module when the WebAssembly kernels run here (not with $DML_LENS_KERNELS=js), else undefined. */
export function wasmModule(): WasmModule | undefined {
  if (process.env["DML_LENS_KERNELS"] === "js") return undefined;
  load();
  return loaded && "kernels" in loaded ? loaded.module : undefined;
}

/**
 * SystemDS's MMChain t(X) %*% s(X %*% v, w, u) (residentMmchain) with the
 * WebAssembly kernel on X in place, over the kernel threads: a new array of
 * X's cols values, or undefined when X is not resident or the kernels do
 * not run here. v, w and u are read where the mode reads them.
 */
export function mmchain(x: Float64Array, rows: number, cols: number, v: Float64Array, w: Float64Array | undefined, mode: MmchainMode, u?: Float64Array): Float64Array | undefined {
  const module = wasmModule();
  return module === undefined ? undefined : residentMmchain(module, x, rows, cols, v, w, mode, residentThreads(), u);
}

/** The shared WebAssembly kernels (loaded on first call), or undefined where they cannot run; see `wasmKernelStatus`. */
export function wasmKernels(): WasmKernels | undefined {
  load();
  return loaded && "kernels" in loaded ? loaded.kernels : undefined;
}

/**
 * y = X %*% v (v a column) with the WebAssembly GEMV on X in place, over the
 * kernel threads: false (y untouched) when X is not resident or the kernels
 * do not run here.
 */
export function gemvResident(x: Float64Array, rows: number, cols: number, v: Float64Array, y: Float64Array): boolean {
  const module = wasmModule();
  return module !== undefined && residentGemv(module, x, rows, cols, v, y, residentThreads());
}

/** Whether the WebAssembly kernels run here, and why not. */
export function wasmKernelStatus(): WasmKernelStatus {
  load();
  if (loaded && "kernels" in loaded) return { available: true, file: loaded.file, variant: loaded.kernels.variant, threads: loaded.kernels.threads };
  return { available: false, reason: loaded && "reason" in loaded ? loaded.reason : "not loaded" };
}

/** The kernels the runtime uses: WebAssembly SIMD when available (and not disabled by $DML_LENS_KERNELS=js), else JS. */
export function matrixKernels(): MatrixKernels {
  if (process.env["DML_LENS_KERNELS"] === "js") return jsKernels;
  return wasmKernels() ?? jsKernels;
}

function load(): void {
  if (loaded !== undefined) return;
  const unsupported = wasmUnsupportedReason();
  if (unsupported !== undefined) {
    loaded = { reason: unsupported };
    return;
  }
  const file = locateKernelWasm();
  if (file === undefined) {
    loaded = { reason: `${kernelWasmCandidates()[0]} not found (run npm run build)` };
    return;
  }
  try {
    const cores = Math.max(1, typeof os.availableParallelism === "function" ? os.availableParallelism() : os.cpus().length);
    const cap = Number(process.env["DML_LENS_KERNEL_THREADS"]);
    const threads = Number.isInteger(cap) && cap >= 1 ? Math.min(cap, cores) : cores;
    const module = loadPreferredModule(file);
    loaded = { kernels: new WasmKernels(module.loaded, threads - 1, threads), file: module.file, module: module.loaded.module };
  } catch (e) {
    loaded = { reason: `could not load ${file}: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/** The relaxed-SIMD build where it compiles (and no other file was named), else the SIMD128 one. */
function loadPreferredModule(simdFile: string): { loaded: LoadedKernelModule; file: string } {
  const relaxed = usableRelaxedBuild();
  if (relaxed !== undefined) return { loaded: loadKernelModule(relaxed.file, "relaxed-simd", relaxed.bytes), file: relaxed.file };
  return { loaded: loadKernelModule(simdFile, "simd128"), file: simdFile };
}

/** The relaxed-SIMD build and its bytes when it is used here (and no other file was named). */
function usableRelaxedBuild(): { file: string; bytes: Uint8Array } | undefined {
  const file = process.env["DML_LENS_KERNELS_WASM"] ? undefined : locateKernelWasm(KERNELS_RELAXED_WASM_FILE);
  if (file === undefined) return undefined;
  const bytes = readFileSync(file);
  return relaxedSimdUsable(bytes) ? { file, bytes } : undefined;
}

/**
 * Decides now whether the relaxed-SIMD build is used, which sets V8's
 * relaxed-SIMD flag on node 20 (relaxedSimdUsable) instead of when the
 * kernels first load: a process that loads its bundle with V8's code cache
 * (cli/code-cache.ts) calls this first, since V8 takes a cache only with the
 * flags it was made with.
 */
export function settleRelaxedSimdFlag(): void {
  usableRelaxedBuild();
}

/**
 * A Float64Array of zeros for matrix data: from the WebAssembly kernel heap
 * when those kernels run here (so they use it in place, no copy), else a
 * plain array. The runtime's buffer pool should take its buffers from here
 * and give them back with `releaseKernelArray` (heap memory is not garbage
 * collected; plain arrays are, and releasing them does nothing).
 */
export function allocateKernelF64(length: number): Float64Array {
  const w = process.env["DML_LENS_KERNELS"] === "js" ? undefined : wasmKernels();
  return w ? w.heap.allocateF64(length) : new Float64Array(length);
}

/** An Int32Array of zeros (CSR rowPtr / colIdx), like `allocateKernelF64`. */
export function allocateKernelI32(length: number): Int32Array {
  const w = process.env["DML_LENS_KERNELS"] === "js" ? undefined : wasmKernels();
  return w ? w.heap.allocateI32(length) : new Int32Array(length);
}

/** Gives back an array from `allocateKernelF64` / `allocateKernelI32`; the array must not be used after. */
export function releaseKernelArray(array: Float64Array | Int32Array): void {
  const w = loaded && "kernels" in loaded ? loaded.kernels : undefined;
  w?.heap.releaseArray(array);
}
