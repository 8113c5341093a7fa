// `dml run` finds data named relative to the working directory when it is not next to the script.
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { test } from "node:test";
import { repoRoot } from "../repo-root";

test("read paths resolve against the script's folder, then the working directory", () => {
  const r = spawnSync(
    process.execPath,
    [path.join(repoRoot, "bin", "dml.js"), "run", "examples/linreg_cg.dml", "X=examples/data/iris_X.csv", "Y=examples/data/iris_y.csv"],
    { cwd: repoRoot, encoding: "utf8" },
  );
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^iterations \d+, R\^2 0\.9299960156/m);
});
