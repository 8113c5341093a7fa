import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, test } from "node:test";
import { resolveSourcePath, sourceCandidates } from "../../engine/program/source-reader";

describe("where source() files are found", () => {
  test("candidates: the script's folder, the working directory, then each folder above, each also with scripts/", () => {
    const found = sourceCandidates("/repo/src/test/t.dml", "lib/u.dml", ["/work"]);
    assert.deepEqual(found.slice(0, 6), ["/repo/src/test/lib/u.dml", "/repo/src/test/scripts/lib/u.dml", "/work/lib/u.dml", "/work/scripts/lib/u.dml", "/repo/src/lib/u.dml", "/repo/src/scripts/lib/u.dml"]);
    assert.ok(found.includes("/repo/scripts/lib/u.dml"));
    assert.deepEqual(sourceCandidates("/repo/t.dml", "/abs/u.dml", ["/work"]), ["/abs/u.dml"]);
  });

  test("SystemDS's own layout: nn/... under the repository's scripts/, tests' paths from the repository root", () => {
    const root = mkdtempSync(path.join(tmpdir(), "dml-source-"));
    mkdirSync(path.join(root, "scripts/nn/layers"), { recursive: true });
    mkdirSync(path.join(root, "scripts/builtin"), { recursive: true });
    mkdirSync(path.join(root, "src/test/scripts/functions/f"), { recursive: true });
    writeFileSync(path.join(root, "scripts/nn/layers/affine.dml"), "");
    writeFileSync(path.join(root, "src/test/scripts/functions/f/lib.dml"), "");
    const builtin = path.join(root, "scripts/builtin/b.dml");
    const test = path.join(root, "src/test/scripts/functions/f/t.dml");
    const elsewhere = mkdtempSync(path.join(tmpdir(), "dml-cwd-"));
    assert.equal(resolveSourcePath(builtin, "nn/layers/affine.dml", elsewhere), path.join(root, "scripts/nn/layers/affine.dml"));
    assert.equal(resolveSourcePath(test, "./src/test/scripts/functions/f/lib.dml", elsewhere), path.join(root, "src/test/scripts/functions/f/lib.dml"));
    assert.equal(resolveSourcePath(test, "lib.dml", elsewhere), path.join(root, "src/test/scripts/functions/f/lib.dml"));
    assert.equal(resolveSourcePath(test, "missing.dml", elsewhere), undefined);
  });
});
