/**
 * Where DML Lens keeps what it caches on this machine (the cost model's
 * machine and observed-time files, V8's code cache of our bundles):
 * `$XDG_CACHE_HOME/dml-lens` when XDG_CACHE_HOME is an absolute path, else
 * `~/.cache/dml-lens`.
 */
import os from "node:os";
import path from "node:path";

export function dmlLensCacheDir(env: Readonly<Record<string, string | undefined>> = process.env, homeDir: string = os.homedir()): string {
  const xdg = env["XDG_CACHE_HOME"];
  const cacheRoot = xdg !== undefined && path.isAbsolute(xdg) ? xdg : path.join(homeDir, ".cache");
  return path.join(cacheRoot, "dml-lens");
}
