/**
 * Loading the kernel module: feature detection (WebAssembly SIMD128 and shared
 * memory), compiling the .wasm, instantiating it on a shared memory, and a
 * short warm-up so V8 tiers the hot functions up to optimized code before the
 * first large call (a long first call would otherwise run in baseline code).
 */
import { readFileSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { webAssembly, type WasmMemory, type WasmModule } from "./wasm-api";
import { MAX_PAGES } from "./wasm-heap";

/** The functions the module exports (AssemblyScript sources in ./assembly). Addresses are byte offsets. */
export interface KernelExports {
  gemmTile(): number;
  gemmChunkRows(): number;
  gemmKc(): number;
  gemmScratchBytes(): number;
  gemmPackB(b: number, k: number, n: number, dst: number, p0: number, p1: number): void;
  gemmRows(a: number, bPacked: number, c: number, k: number, n: number, r0: number, r1: number, scratch: number): void;
  gemmShared(a: number, bPacked: number, c: number, m: number, k: number, n: number, counter: number, scratch: number): void;
  gemvRows(a: number, x: number, y: number, n: number, r0: number, r1: number): void;
  ewBinary(op: number, a: number, b: number, out: number, i0: number, i1: number): void;
  sumProduct3(x: number, y: number, z: number, i0: number, i1: number): number;
  spmvRows(rowPtr: number, colIdx: number, values: number, x: number, y: number, r0: number, r1: number): void;
  spmmRows(rowPtr: number, colIdx: number, values: number, b: number, c: number, n: number, r0: number, r1: number): void;
  mmchainRows(x: number, n: number, rows: number, v: number, w: number, u: number, mode: number, acc: number): void;
}

/** (module (func (result v128) v128.const 0)): valid only where SIMD128 is. */
const SIMD_PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b, // type: () -> v128
  0x03, 0x02, 0x01, 0x00, // one function of type 0
  0x0a, 0x16, 0x01, 0x14, 0x00, 0xfd, 0x0c, // code: v128.const
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0x0b, // end
]);

/** Why the WebAssembly kernels cannot run here, or undefined when they can. */
export function wasmUnsupportedReason(): string | undefined {
  const wasm = webAssembly();
  if (!wasm) return "WebAssembly is not available";
  if (!wasm.validate(SIMD_PROBE)) return "WebAssembly SIMD128 is not supported";
  if (typeof SharedArrayBuffer !== "function") return "SharedArrayBuffer is not available";
  try {
    new wasm.Memory({ initial: 1, maximum: 1, shared: true });
  } catch {
    return "shared WebAssembly memory is not supported";
  }
  return undefined;
}

/** Which build: SIMD128 only, or with relaxed SIMD's fused multiply-add in GEMM. */
export type KernelVariant = "simd128" | "relaxed-simd";

export interface LoadedKernelModule {
  readonly module: WasmModule;
  readonly memory: WasmMemory;
  readonly exports: KernelExports;
  readonly variant: KernelVariant;
}

/**
 * Whether `bytes` (the relaxed build) compiles here. Node 22+ and VS Code's
 * Electron ship relaxed SIMD; node 20 has it behind
 * --experimental-wasm-relaxed-simd, which is switched on here unless
 * $DML_LENS_WASM_RELAXED=0 (it only adds instructions that a module must
 * ask for, so other modules are not affected).
 */
export function relaxedSimdUsable(bytes: Uint8Array): boolean {
  const wasm = webAssembly();
  if (!wasm || process.env["DML_LENS_WASM_RELAXED"] === "0") return false;
  if (wasm.validate(bytes)) return true;
  try {
    setFlagsFromString("--experimental-wasm-relaxed-simd");
  } catch {
    return false;
  }
  return wasm.validate(bytes);
}

/** Compiles the .wasm at `file` and instantiates it on a new shared memory. Throws with the reason. */
export function loadKernelModule(file: string, variant: KernelVariant = "simd128", bytes: Uint8Array = readFileSync(file)): LoadedKernelModule {
  const wasm = webAssembly();
  if (!wasm) throw new Error("WebAssembly is not available");
  const module = new wasm.Module(bytes);
  const memory = new wasm.Memory({ initial: 16, maximum: MAX_PAGES, shared: true });
  const instance = new wasm.Instance(module, { env: { memory } });
  const exports = instance.exports as unknown as KernelExports;
  for (const name of ["gemmRows", "gemmShared", "gemvRows", "ewBinary", "sumProduct3", "spmvRows", "spmmRows", "mmchainRows"] as const) {
    if (typeof exports[name] !== "function") throw new Error(`${file} does not export ${name}: rebuild with npm run build`);
  }
  return { module, memory, exports, variant };
}
