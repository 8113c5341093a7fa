// Run Cell with a SystemDS installation (client/src/run-sessions.ts): the
// request's `systemdsHome` (the setting dmlLens.systemds.home) is where the
// session finds `source("nn/...")`; a changed setting gives a new session that
// keeps the variables, as a changed plan does.
import { strict as assert } from "node:assert";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { strToU8, zipSync } from "fflate";
import { RunSessions } from "../../client/src/run-sessions";

/** Scripts written for this test: an nn-style layer, doubled in the tree and tripled in the jar, so the output says which ran. */
function installations(): { tree: string; jar: string } {
  const tree = mkdtempSync(path.join(os.tmpdir(), "dml-sds-tree-"));
  mkdirSync(path.join(tree, "scripts/builtin"), { recursive: true });
  mkdirSync(path.join(tree, "scripts/nn/layers"), { recursive: true });
  writeFileSync(path.join(tree, "scripts/builtin/double.dml"), "m_double = function(Matrix[Double] X) return (Matrix[Double] Y) { Y = 2 * X }\n");
  writeFileSync(path.join(tree, "scripts/nn/layers/scale.dml"), "forward = function(Matrix[Double] X) return (Matrix[Double] Y) { Y = X + X }\n");
  const jar = path.join(mkdtempSync(path.join(os.tmpdir(), "dml-sds-jar-")), "systemds-3.2.0.jar");
  writeFileSync(
    jar,
    zipSync({
      "scripts/builtin/double.dml": strToU8("m_double = function(Matrix[Double] X) return (Matrix[Double] Y) { Y = 2 * X }\n"),
      "scripts/nn/layers/scale.dml": strToU8("forward = function(Matrix[Double] X) return (Matrix[Double] Y) { Y = 3 * X }\n"),
    }),
  );
  return { tree, jar };
}

test("a run sources nn/... from the request's installation; a changed installation keeps the session's variables", () => {
  const { tree, jar } = installations();
  const sessions = new RunSessions({ shouldInterrupt: () => false, machineFile: path.join(mkdtempSync(path.join(os.tmpdir(), "dml-machine-")), "machine.json"), recordObservations: false });
  const scriptPath = path.join(mkdtempSync(path.join(os.tmpdir(), "dml-script-")), "driver.dml");
  const cell = 'source("nn/layers/scale.dml") as scale\nY = scale::forward(matrix(2, rows=1, cols=1))\nprint(as.scalar(Y))\n';
  const first = sessions.run({ id: 1, scriptPath, texts: [cell], params: {}, systemdsHome: tree });
  assert.equal(first.ok, true, first.errors.join("\n"));
  assert.deepEqual(first.output, ["4.0"]);
  const second = sessions.run({ id: 2, scriptPath, texts: ['print(as.scalar(Y) + 1)\n' + cell], params: {}, systemdsHome: jar });
  assert.equal(second.ok, true, second.errors.join("\n"));
  assert.deepEqual(second.output, ["5.0", "6.0"]);
  const missing = sessions.run({ id: 3, scriptPath, texts: [cell], params: {}, systemdsHome: path.join(tree, "no-such-folder") });
  assert.equal(missing.ok, false);
  assert.match(missing.errors.join("\n"), /cannot read source file 'nn\/layers\/scale\.dml'/);
});
