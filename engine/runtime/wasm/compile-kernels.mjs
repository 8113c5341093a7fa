// Compiles the AssemblyScript kernels in ./assembly/ to dist/dml-kernels.wasm
// with SIMD128 and shared (importable) memory, for scripts/build.mjs. The
// compiler is the `assemblyscript` npm package (pure JS + binaryen.js), so
// `npm ci` is the whole toolchain. Skips the compile when the .wasm is newer
// than every source. The .wasm is generated, never committed: the loader
// (locate-wasm.ts) finds it next to the bundle (dist/) or in the package's
// dist/ (test bundles in out/test/, sources run with tsx).
import { existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const sourceDir = path.join(here, "assembly");

/** The file name the loader looks for. */
export const KERNELS_WASM_FILE = "dml-kernels.wasm";

/** asc flags: no GC runtime (JS manages the memory), imported shared memory up to 4 GiB. */
const ascFlags = [
  "-O3",
  "--noAssert",
  "--runtime", "stub",
  "--importMemory",
  "--noExportMemory",
  "--sharedMemory",
  "--initialMemory", "1",
  "--maximumMemory", "65536",
  "--enable", "simd",
  "--enable", "threads",
];

/**
 * Compiles when needed; returns the output path and whether it compiled.
 * @param {{ outDir: string, force?: boolean }} options
 * @returns {Promise<{ outFile: string, compiled: boolean }>}
 */
export async function compileKernels({ outDir, force = false }) {
  const outFile = path.join(outDir, KERNELS_WASM_FILE);
  const sources = readdirSync(sourceDir).filter((f) => f.endsWith(".ts")).map((f) => path.join(sourceDir, f));
  const newest = Math.max(...sources.map((f) => statSync(f).mtimeMs), statSync(fileURLToPath(import.meta.url)).mtimeMs);
  if (!force && existsSync(outFile) && statSync(outFile).mtimeMs >= newest) return { outFile, compiled: false };
  mkdirSync(outDir, { recursive: true });
  const { default: asc } = await import("assemblyscript/asc");
  let output = "";
  const sink = { write: (chunk) => { output += String(chunk); return true; } };
  const { error } = await asc.main([path.join(sourceDir, "index.ts"), "-o", outFile, ...ascFlags], { stdout: sink, stderr: sink });
  if (error) throw new Error(`asc: ${error.message}\n${output}`);
  return { outFile, compiled: true };
}
