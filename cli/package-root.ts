/**
 * The package root: the nearest folder above this file whose package.json is
 * dml-lens. This file runs as source (cli/), bundled (dist/) and bundled into
 * tests (out/test/...), so the depth varies.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

let cached: string | undefined;

export function packageRoot(): string {
  if (cached !== undefined) return cached;
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, "package.json");
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, "utf8")) as { name?: string }).name === "dml-lens") {
      return (cached = dir);
    }
    if (path.dirname(dir) === dir) return (cached = path.resolve(__dirname, ".."));
  }
}
