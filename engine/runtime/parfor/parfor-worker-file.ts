/**
 * Where the bundled parfor worker is: `npm run build` writes
 * dist/parfor-worker.js (scripts/build.mjs). This code runs bundled in
 * dist/, bundled into tests in out/test/..., or as source, so it looks next
 * to itself first, then in a dist/ folder of each parent;
 * $DML_LENS_PARFOR_WORKER names another file.
 */
import { existsSync } from "node:fs";
import path from "node:path";

const PARFOR_WORKER_FILE = "parfor-worker.js";

export function locateParforWorker(): string | undefined {
  const fromEnv = process.env["DML_LENS_PARFOR_WORKER"];
  if (fromEnv) return existsSync(fromEnv) ? path.resolve(fromEnv) : undefined;
  const candidates = [path.join(__dirname, PARFOR_WORKER_FILE)];
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    candidates.push(path.join(dir, "dist", PARFOR_WORKER_FILE));
    if (path.dirname(dir) === dir) break;
  }
  return candidates.find((p) => existsSync(p));
}
