/**
 * Where the built kernel modules are: `npm run build` writes dist/dml-kernels.wasm
 * and dist/dml-kernels-relaxed.wasm (engine/runtime/wasm/compile-kernels.mjs). This code runs bundled in dist/,
 * bundled into tests in out/test/..., or as source (tsx), so it looks next to
 * itself first, then in a dist/ folder of each parent. $DML_LENS_KERNELS_WASM
 * names another SIMD128 build (and then no relaxed build is used).
 */
import { existsSync } from "node:fs";
import path from "node:path";

export const KERNELS_WASM_FILE = "dml-kernels.wasm";
export const KERNELS_RELAXED_WASM_FILE = "dml-kernels-relaxed.wasm";

/** The paths tried for a build, in order. */
export function kernelWasmCandidates(file: string = KERNELS_WASM_FILE): string[] {
  const candidates: string[] = [];
  const fromEnv = process.env["DML_LENS_KERNELS_WASM"];
  if (fromEnv) return [path.resolve(fromEnv)];
  candidates.push(path.join(__dirname, file));
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    candidates.push(path.join(dir, "dist", file));
    if (path.dirname(dir) === dir) break;
  }
  return candidates;
}

/** The first existing candidate for a build, or undefined. */
export function locateKernelWasm(file: string = KERNELS_WASM_FILE): string | undefined {
  return kernelWasmCandidates(file).find((p) => existsSync(p));
}
