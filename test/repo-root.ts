/** The repository root, found from the working directory (tests may run bundled elsewhere). */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

function findRoot(): string {
  for (let dir = process.cwd(); ; dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, "utf8")).name === "dml-lens") return dir;
    if (dirname(dir) === dir) throw new Error("run the tests inside the dml-lens repository");
  }
}

export const repoRoot = findRoot();
