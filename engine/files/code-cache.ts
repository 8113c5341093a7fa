/**
 * Loading a bundle (dist/cli.js) with V8's code cache, as node 22's
 * `module.enableCompileCache()` does for modules (node 20 has no such
 * switch): the bytecode V8 compiled in an earlier process, its lazily
 * compiled functions included, is kept in a file and handed back to V8, so
 * a command does not parse and compile the 3 MB bundle again, nor each
 * function the first time it is called. Python keeps its compiled bytecode
 * the same way (.pyc).
 *
 * Measured on `dml run examples/als_cg.dml` (5,000 x 2,000 ratings, 3
 * iterations), this machine: loading the bundle 118 -> 72 ms, the run after
 * it 696-717 -> 634-659 ms.
 *
 * The file is named by a hash of the bundle's text, node's V8 version and
 * the V8 flags the process set before loading it (`flagsKey`): V8 itself
 * only checks the text's length and its flags, so a rebuilt bundle of the
 * same length must not find the old file. V8 rejects a file it cannot use
 * (another V8, other flags, a damaged file); the bundle is then compiled
 * from its text as without a cache, and the file is written again. Writing
 * never throws: a cache that cannot be written (a read-only home) is only
 * slower. Files of other builds of the same bundle are removed when a new
 * one is written.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { Script } from "node:vm";
import { threadId } from "node:worker_threads";
import { dmlLensCacheDir } from "./cache-dir";

/** $DML_LENS_CODE_CACHE: a folder for the files, or `0` / `off` for no cache. */
export const CODE_CACHE_ENV = "DML_LENS_CODE_CACHE";

/**
 * The cache grew this much over the file it was loaded from (functions this
 * command compiled that the last one did not): it is written again.
 */
const GROWTH_TO_REWRITE = 1.1;

/** Where the code cache files go: $DML_LENS_CODE_CACHE, else $XDG_CACHE_HOME/dml-lens/code-cache, else ~/.cache/dml-lens/code-cache; undefined when switched off. */
export function codeCacheDir(env: NodeJS.ProcessEnv = process.env, homeDir: string = os.homedir()): string | undefined {
  const explicit = env[CODE_CACHE_ENV];
  if (explicit === "0" || explicit === "off") return undefined;
  if (explicit !== undefined && explicit !== "") return path.resolve(explicit);
  return path.join(dmlLensCacheDir(env, homeDir), "code-cache");
}

/** How the bundle was compiled: from a cache file V8 took, one it rejected, none (first run of this build), or loaded by `require` with the cache off. */
export type CacheUse = "accepted" | "rejected" | "none" | "off";

/**
 * A script compiled here cannot run `import()` on node 20: its dynamic
 * imports need a loader callback, which node 20 offers only behind
 * --experimental-vm-modules (a function) or as an experimental symbol that
 * warns and is lost when the script comes from the cache. So the loading
 * module, compiled by node itself, leaves an `import()` of its own under
 * this symbol, and `importModule` (what bundled code calls instead of
 * `import()`) uses it when it is there.
 */
const IMPORT_HOOK = Symbol.for("dml-lens.importModule");
/** The global object, as the holder of that `import()`. */
const hookHolder = globalThis as { [IMPORT_HOOK]?: (specifier: string) => Promise<unknown> };

/** `import(specifier)`, from a bundle loaded by node or by requireWithCodeCache alike. */
export function importModule(specifier: string): Promise<unknown> {
  const outside = hookHolder[IMPORT_HOOK];
  return outside ? outside(specifier) : import(specifier);
}

export interface CachedBundle {
  /** The bundle's `module.exports`. */
  exports: unknown;
  cache: CacheUse;
  /** The cache file (undefined when off). */
  file: string | undefined;
  /** Writes the cache when there was none, V8 rejected it, or it grew; never throws. */
  save(): "written" | "unchanged" | "off" | { failed: string };
}

/** Loads the CommonJS bundle `file` like `require` would, compiled with the code cache in `dir` (none when undefined). */
export function requireWithCodeCache(file: string, dir: string | undefined, flagsKey = ""): CachedBundle {
  if (dir === undefined) return { exports: createRequire(file)(file) as unknown, cache: "off", file: undefined, save: () => "off" };
  hookHolder[IMPORT_HOOK] ??= (specifier) => import(specifier);
  const source = readFileSync(file, "utf8");
  const cacheFile = path.join(dir, `${path.basename(file, ".js")}-${bundleKey(source, flagsKey)}.bin`);
  const cachedData = readIfPresent(cacheFile);
  const script = new Script(wrapCommonJs(source), { filename: file, ...(cachedData ? { cachedData } : {}) });
  const cache: CacheUse = cachedData === undefined ? "none" : script.cachedDataRejected ? "rejected" : "accepted";
  const exports = runCommonJs(script, file);
  return {
    exports,
    cache,
    file: cacheFile,
    save: () => {
      try {
        const data = script.createCachedData();
        if (cache === "accepted" && data.length < cachedData!.length * GROWTH_TO_REWRITE) return "unchanged";
        writeAtomically(cacheFile, data);
        removeOtherBuilds(cacheFile, path.basename(file, ".js"));
        return "written";
      } catch (error) {
        return { failed: error instanceof Error ? error.message : String(error) };
      }
    },
  };
}

function bundleKey(source: string, flagsKey: string): string {
  return createHash("sha256").update(source).update("\0").update(process.versions.v8).update("\0").update(process.arch).update("\0").update(flagsKey).digest("hex").slice(0, 20);
}

function readIfPresent(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** The module wrapper node compiles a CommonJS file in. */
function wrapCommonJs(source: string): string {
  return `(function (exports, require, module, __filename, __dirname) { ${source}\n});`;
}

function runCommonJs(script: Script, file: string): unknown {
  const wrapper = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: { exports: unknown }, filename: string, dirname: string) => void;
  const module = { exports: {} as unknown };
  wrapper.call(module.exports, module.exports, createRequire(file), module, file, path.dirname(file));
  return module.exports;
}

function writeAtomically(file: string, data: Buffer): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${threadId}.tmp`;
  writeFileSync(temporary, data);
  renameSync(temporary, file);
}

/** Removes the cache files of the bundle's other builds (`name-<key>.bin`) beside `kept`. */
function removeOtherBuilds(kept: string, name: string): void {
  for (const entry of readdirSync(path.dirname(kept))) {
    const other = path.join(path.dirname(kept), entry);
    if (other !== kept && entry.startsWith(`${name}-`) && entry.endsWith(".bin")) rmSync(other, { force: true });
  }
}
