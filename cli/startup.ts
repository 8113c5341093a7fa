/**
 * The `dml` command's start (bin/dml requires the bundle of this file,
 * dist/startup.js): sets the V8 flags the command runs with, then loads the
 * command line's bundle (dist/cli.js) with V8's code cache (code-cache.ts),
 * and writes the cache when the process exits.
 *
 * The flags are set before the bundle is compiled, and none is set after:
 * V8 takes a cache file only in a process with the flags it was made with.
 * That is the JIT flags (applyJitFlags; `main` sets them again, to the same
 * values) and the relaxed-SIMD flag the WebAssembly kernels may need
 * (settleRelaxedSimdFlag).
 */
import path from "node:path";
import { applyJitFlags } from "../engine/runtime/codegen";
import { settleRelaxedSimdFlag } from "../engine/runtime/wasm";
import { codeCacheDir, requireWithCodeCache } from "./code-cache";

/** The command line's exports (dist/cli.js, cli/main.ts). */
export interface CommandLine {
  main(args: string[]): Promise<number>;
}

/** Loads dist/cli.js (beside this bundle) with the code cache, and saves the cache on exit. */
export function loadCommandLine(cliFile: string = path.join(__dirname, "cli.js")): CommandLine {
  const flags = applyJitFlags();
  settleRelaxedSimdFlag();
  const bundle = requireWithCodeCache(cliFile, codeCacheDir(), flags.join(" "));
  process.once("exit", () => bundle.save());
  return bundle.exports as CommandLine;
}
