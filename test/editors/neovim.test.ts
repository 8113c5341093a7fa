/**
 * A second, independent LSP client: headless Neovim (Debian's `neovim`,
 * installed by .ci/run) starts the server over stdio on sum_product.dml,
 * receives the optimizer's hints, shows a hover with a cost, and applies
 * the cheaper-rewrite code action to the buffer.
 */
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { repoRoot } from "../repo-root";

const hasNeovim = spawnSync("nvim", ["--version"]).status === 0;

test("Neovim gets the hints and a hover with a cost, and applies the cheaper rewrite", { skip: !hasNeovim && !process.env.DML_LENS_CI ? "nvim is not installed (.ci/run installs it)" : false }, () => {
  assert.ok(hasNeovim, "nvim is missing: .ci/run should have installed Debian's neovim");
  const dir = mkdtempSync(path.join(tmpdir(), "dml-nvim-"));
  try {
    const file = path.join(dir, "sum_product.dml");
    copyFileSync(path.join(repoRoot, "examples", "sum_product.dml"), file);
    const lines = readFileSync(file, "utf8").split("\n");
    const l1 = lines.findIndex((l) => l.startsWith("l1 ="));
    const g = lines.findIndex((l) => l.startsWith("G ="));
    const result = spawnSync("nvim", ["--headless", "--clean", "-u", "NONE", "-c", `luafile ${path.join(repoRoot, "test", "editors", "nvim-probe.lua")}`], {
      cwd: dir,
      encoding: "utf8",
      timeout: 120_000,
      env: {
        ...process.env,
        DML_SERVER: path.join(repoRoot, "dist", "server.js"),
        DML_FILE: file,
        DML_HOVER_LINE: String(l1),
        DML_HOVER_CHAR: String(lines[l1]!.indexOf("U %*% t(V)") + 2),
        DML_FIX_LINE: String(g),
      },
    });
    const output = `${result.stdout}${result.stderr}`;
    assert.match(output, /^HINTS true [5-9]$/m, output);
    assert.match(output, new RegExp(`^DIAG ${l1} materializes a 400 MB intermediate; a cheaper equivalent exists`, "m"), output);
    assert.match(output, /^HOVER \*\*U %\*% t\(V\)\*\*: matrix 10,000 × 5,000.*estimated cost of this expression: .*~[\d.]+ ms/m, output);
    assert.match(output, /^ACTION Apply cheaper rewrite: [\d.]+ s → [\d.]+ ms/m, output);
    assert.match(output, /^LINE G = Uk %\*% \(t\(Vk\) %\*% Vk\) - X %\*% Vk$/m, output);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
