// The DAG types of calls of builtin scripts: with the installation's source
// files, a call's results take the types the script's function declares
// (m_ or s_ by the first argument's type); without them, unknown.
import assert from "node:assert/strict";
import { tmpdir } from "node:os";
import { describe, test } from "node:test";
import { parse } from "../../engine/syntax/parse";
import { buildProgramDags } from "../../engine/program/dag-program";
import { SourceFiles } from "../../engine/program/source-reader";
import type { DagType } from "../../engine/program/dag-types";
import { fixtureInstallation } from "./builtin-script-fixture";
import { at } from "../checked-access";

const installation = fixtureInstallation();

/** The type of each variable the program's last basic block leaves, as `name: dataType/valueType`. */
function outputTypes(lines: string[], withInstallation = true): Record<string, string> {
  const program = parse(lines.join("\n")).program;
  const files = new SourceFiles([tmpdir()], undefined, undefined, installation);
  const dags = buildProgramDags(program, withInstallation ? { builtinScripts: files } : {});
  const types: Record<string, string> = {};
  for (const info of dags.blocks) {
    for (const [name, id] of info.dag.outputs) {
      const t: DagType = at(info.dag.nodes, id).type;
      types[name] = `${t.dataType}/${t.valueType}`;
    }
  }
  return types;
}

describe("types of builtin script calls", () => {
  test("multi-return results take the declared types; m_ or s_ by the first argument", () => {
    const types = outputTypes(["M = rand(rows=3, cols=2)", "[A, B] = pair(X=M)", "s = onlyThere(M)", "y = twice(2.5)", "Y = twice(M)"]);
    assert.deepEqual(
      { A: types.A, B: types.B, s: types.s, y: types.y, Y: types.Y },
      { A: "matrix/double", B: "matrix/double", s: "scalar/double", y: "scalar/double", Y: "matrix/double" },
    );
  });

  test("without an installation, or hidden by a user function, the script says nothing", () => {
    assert.equal(outputTypes(["M = rand(rows=3, cols=2)", "[A, B] = pair(X=M)"], false).A, "unknown/unknown");
    const hidden = outputTypes(["pair = function(Matrix[Double] X) return (Double a, Double b) { a = 1; b = 2 }", "M = rand(rows=3, cols=2)", "[A, B] = pair(X=M)"]);
    assert.equal(hidden.A, "scalar/double");
  });
});
