// The V8 settings of our processes (engine/runtime/codegen/jit-flags.ts):
// each flag is one this node's V8 knows (node refuses to start with an
// unknown one), applyJitFlags sets them unless $DML_LENS_JIT_DEFAULTS=1,
// and both of our entry points (the command line and the language server)
// apply them before their work starts.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { applyJitFlags, JIT_FLAGS } from "../../engine/runtime/codegen";
import { repoRoot } from "../repo-root";

describe("JIT flags", () => {
  it("are flags this node accepts", () => {
    assert.ok(JIT_FLAGS.length > 0);
    for (const flag of JIT_FLAGS) {
      const child = spawnSync(process.execPath, [flag, "-e", "process.stdout.write('ok')"], { encoding: "utf8" });
      assert.equal(child.status, 0, `${flag}: ${child.stderr}`);
      assert.equal(child.stdout, "ok");
    }
    const unknown = spawnSync(process.execPath, ["--no-such-v8-flag-here", "-e", "0"], { encoding: "utf8" });
    assert.notEqual(unknown.status, 0, "node refuses an unknown flag, so the check above can fail");
  });

  it("are set unless DML_LENS_JIT_DEFAULTS=1", () => {
    const set: string[] = [];
    assert.deepEqual(applyJitFlags({}, (f) => set.push(f)), JIT_FLAGS);
    assert.deepEqual(set, JIT_FLAGS);
    const kept: string[] = [];
    assert.deepEqual(applyJitFlags({ DML_LENS_JIT_DEFAULTS: "1" }, (f) => kept.push(f)), []);
    assert.deepEqual(kept, []);
  });

  it("are applied first by the command line and by the language server", () => {
    const main = readFileSync(path.join(repoRoot, "cli/main.ts"), "utf8");
    assert.match(main, /export async function main\([^)]*\)[^{]*\{\s*applyJitFlags\(\);/);
    const server = readFileSync(path.join(repoRoot, "server/src/server.ts"), "utf8");
    assert.match(server, /^applyJitFlags\(\);\nconst connection = createConnection/m);
  });
});
