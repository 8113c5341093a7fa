// Compiles the AssemblyScript kernels in ./assembly/ to dist/dml-kernels.wasm
// (SIMD128) and dist/dml-kernels-relaxed.wasm (SIMD128 + relaxed SIMD's fused
// multiply-add in GEMM), both on shared (imported) memory, for scripts/build.mjs. The
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

/** The file names the loader looks for: SIMD128 only, and with relaxed SIMD (fused multiply-add) in GEMM. */
export const KERNELS_WASM_FILE = "dml-kernels.wasm";
export const KERNELS_RELAXED_WASM_FILE = "dml-kernels-relaxed.wasm";

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

/** The two builds: the sources read the RELAXED_SIMD constant. */
const variants = [
  { file: KERNELS_WASM_FILE, flags: ["--use", "RELAXED_SIMD=0"] },
  { file: KERNELS_RELAXED_WASM_FILE, flags: ["--enable", "relaxed-simd", "--use", "RELAXED_SIMD=1"] },
];

/**
 * Compiles both builds when needed; returns the output paths and whether it compiled.
 * @param {{ outDir: string, force?: boolean }} options
 * @returns {Promise<{ outFiles: string[], compiled: boolean }>}
 */
export async function compileKernels({ outDir, force = false }) {
  const outFiles = variants.map((v) => path.join(outDir, v.file));
  const sources = readdirSync(sourceDir).filter((f) => f.endsWith(".ts")).map((f) => path.join(sourceDir, f));
  const newest = Math.max(...sources.map((f) => statSync(f).mtimeMs), statSync(fileURLToPath(import.meta.url)).mtimeMs);
  const fresh = (f) => existsSync(f) && statSync(f).mtimeMs >= newest;
  if (!force && outFiles.every(fresh)) return { outFiles, compiled: false };
  mkdirSync(outDir, { recursive: true });
  const { default: asc } = await import("assemblyscript/asc");
  for (const [i, variant] of variants.entries()) {
    let output = "";
    const sink = { write: (chunk) => { output += String(chunk); return true; } };
    const args = [path.join(sourceDir, "index.ts"), "-o", outFiles[i], ...ascFlags, ...variant.flags];
    const { error } = await asc.main(args, { stdout: sink, stderr: sink });
    if (error) throw new Error(`asc (${variant.file}): ${error.message}\n${output}`);
  }
  return { outFiles, compiled: true };
}
