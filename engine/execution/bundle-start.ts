/**
 * Starting one of our bundles in a process or thread (the command line, the
 * language server, its optimizer's thread): the V8 flags first, then the
 * bundle, compiled with V8's code
 * cache (engine/files/code-cache.ts), which is written when the process
 * exits.
 *
 * The flags are set before the bundle is compiled, and none is set after:
 * V8 takes a cache file only in a process with the flags it was made with.
 * That is the JIT flags (applyJitFlags; the bundles set them again, to the
 * same values) and the relaxed-SIMD flag the WebAssembly kernels may need
 * (settleRelaxedSimdFlag).
 */
import { codeCacheDir, requireWithCodeCache } from "../files";
import { applyJitFlags } from "../runtime/codegen";
import { settleRelaxedSimdFlag } from "../runtime/wasm";

export interface BundleStartOptions {
  env?: NodeJS.ProcessEnv;
  /**
   * Also write the cache this long after the start (a worker thread ended
   * by `terminate()`, as the server ends its optimizer's, sees no exit
   * event); the timer does not keep the thread alive.
   */
  saveAfterMs?: number;
}

/** Loads the CommonJS bundle `file` as `require` does, after the flags, with the code cache; returns its exports. */
export function startBundle(file: string, options: BundleStartOptions = {}): unknown {
  const env = options.env ?? process.env;
  const flags = applyJitFlags(env);
  settleRelaxedSimdFlag();
  const bundle = requireWithCodeCache(file, codeCacheDir(env), flags.join(" "));
  process.once("exit", () => bundle.save());
  if (options.saveAfterMs !== undefined) setTimeout(() => bundle.save(), options.saveAfterMs).unref();
  return bundle.exports;
}
