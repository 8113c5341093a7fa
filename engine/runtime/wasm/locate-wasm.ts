/**
 * Where the built kernel module is: `npm run build` writes dist/dml-kernels.wasm
 * (engine/runtime/wasm/compile-kernels.mjs). This code runs bundled in dist/,
 * bundled into tests in out/test/..., or as source (tsx), so it looks next to
 * itself first, then in a dist/ folder of each parent. $DML_LENS_KERNELS_WASM
 * names another file.
 */
import { existsSync } from "node:fs";
import path from "node:path";

export const KERNELS_WASM_FILE = "dml-kernels.wasm";

/** The paths tried, in order. */
export function kernelWasmCandidates(): string[] {
  const candidates: string[] = [];
  const fromEnv = process.env["DML_LENS_KERNELS_WASM"];
  if (fromEnv) candidates.push(path.resolve(fromEnv));
  candidates.push(path.join(__dirname, KERNELS_WASM_FILE));
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    candidates.push(path.join(dir, "dist", KERNELS_WASM_FILE));
    if (path.dirname(dir) === dir) break;
  }
  return candidates;
}

/** The first existing candidate, or undefined. */
export function locateKernelWasm(): string | undefined {
  return kernelWasmCandidates().find((p) => existsSync(p));
}
