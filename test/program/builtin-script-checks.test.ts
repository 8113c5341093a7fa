// The checks of calls of DML-bodied builtins: with a SystemDS installation
// (a fixture written by the test) a call is checked against the script's
// own function, chosen as SystemDS chooses it; a broken script is one error
// at the call; without an installation, one notice per document and no
// "unknown function".
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, test } from "node:test";
import type { Diagnostic } from "../../engine/syntax/ast";
import { parse } from "../../engine/syntax/parse";
import { checkDiagnostics } from "../../engine/program/semantic-diagnostics";
import { fileSourceReader } from "../../engine/program/source-reader";
import type { SystemdsInstallation } from "../../engine/program/systemds-installation";
import { fixtureInstallation } from "./builtin-script-fixture";
import { at } from "../checked-access";

const installation = fixtureInstallation();

function check(lines: string[], with_: SystemdsInstallation | null = installation): Diagnostic[] {
  const folder = mkdtempSync(path.join(tmpdir(), "dml-driver-"));
  const script = path.join(folder, "driver.dml");
  return checkDiagnostics(parse(lines.join("\n")), { readFile: fileSourceReader(script, folder, with_ ?? undefined) });
}

/** `line:col severity code: message`, 1-based, hints left out. */
function brief(found: Diagnostic[]): string[] {
  return found.filter((d) => d.severity !== "hint").map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.severity} ${d.code}: ${d.message}`);
}

const DATA = "M = rand(rows=4, cols=3, seed=1)";

describe("calls of builtin scripts, with an installation", () => {
  test("a correct call of each kind has no problem: defaults, multi-return, nested, sourced nn, a name only the installation ships", () => {
    const found = check([DATA, "Y = twice(M)", "Y2 = twice(X=M, f=3)", "[A, B] = pair(X=M)", "Z = nested(M)", "L = layered(M)", "s = onlyThere(M)", "U = usesHelper(M)", "y = twice(2.5)"]);
    assert.deepEqual(brief(found), []);
  });

  test("the script's parameters and returns replace the builtin table (lm of this installation has icpt, not reg)", () => {
    const found = check([DATA, "y = rand(rows=4, cols=1)", "B = lm(X=M, y=y, reg=0.1)", "[B1, B2] = lm(X=M, y=y)", "C = lm(X=M)"]);
    assert.deepEqual(brief(found), [
      "3:18 error unknown-argument: function 'lm' has no parameter 'reg'",
      "4:12 error output-count: function 'lm' returns 1 value, but 2 targets are assigned",
      "5:5 error missing-argument: function 'lm' is missing the argument 'y'",
    ]);
  });

  test("multi-assignment counts come from the script's returns", () => {
    const found = check([DATA, "[A, B, C] = pair(X=M)", "[P, Q] = twice(M)"]);
    assert.deepEqual(brief(found), [
      "2:13 error output-count: function 'pair' returns 2 values, but 3 targets are assigned",
      "3:10 error output-count: function 'twice' returns 1 value, but 2 targets are assigned",
    ]);
  });

  test("m_ or s_ by the first argument: a literal scalar takes s_twice (parameter x), a matrix m_twice (parameter X)", () => {
    assert.deepEqual(brief(check(["y = twice(x=2.5)"])), []);
    assert.match(brief(check(["y = twice(X=2.5)"])).join("\n"), /function 'twice' has no parameter 'X'; did you mean 'x'\?/);
    assert.match(brief(check(["Y = twice(x=matrix(1, rows=2, cols=2))"])).join("\n"), /function 'twice' has no parameter 'x'; did you mean 'X'\?/);
    // a variable of unknown type: the call fits one of the script's functions
    assert.deepEqual(brief(check([DATA, "Y = twice(X=M, f=2)", "v = 3", "w = twice(x=v)"])), []);
  });

  test("a broken script is one error at the call that names the file", () => {
    const found = brief(check([DATA, "Y = broken(M)", "Z = misnamed(M)", "W = broken(X=M)"]));
    assert.equal(found.length, 3);
    assert.match(at(found, 0), /^2:5 error builtin-script: builtin script .*broken\.dml:3:1 has a syntax error/);
    assert.match(at(found, 1), /^3:5 error builtin-script: builtin script .*misnamed\.dml defines no function m_misnamed or s_misnamed/);
    assert.match(at(found, 2), /^4:5 error builtin-script: .*broken\.dml/);
  });

  test("private helpers of the builtin scripts the program loads resolve by plain name; other names stay unknown", () => {
    assert.deepEqual(brief(check([DATA, "[A, B] = pair(X=M)", "Z = pairHelper(A)"])), []);
    assert.match(brief(check([DATA, "Z = pairHelper(M)"])).join("\n"), /unknown function 'pairHelper'/);
    assert.match(brief(check([DATA, "Z = onlyThre(M)"])).join("\n"), /unknown function 'onlyThre'; did you mean 'onlyThere'\?/);
  });

  test("a user function hides a builtin script of the same name", () => {
    const found = check(["pair = function(Matrix[Double] X) return (Matrix[Double] Z) { Z = X }", DATA, "[A, B] = pair(X=M)"]);
    assert.deepEqual(brief(found), ["3:10 error output-count: function 'pair' returns 1 value, but 2 targets are assigned"]);
  });

  test("a builtin of the table the installation does not ship is a warning naming the installation", () => {
    const found = brief(check([DATA, "[C, Y] = kmeans(X=M, k=2)"]));
    assert.equal(found.length, 1);
    assert.match(at(found, 0), /^2:10 warning systemds-installation: 'kmeans' is a DML-bodied builtin, but SystemDS \(source-tree .*, from test\) ships no scripts\/builtin\/kmeans\.dml$/);
  });
});

describe("calls of DML-bodied builtins without an installation", () => {
  test("one notice per document, at the first call, saying how to point DML Lens at SystemDS; no unknown-function error", () => {
    const found = check([DATA, "y = rand(rows=4, cols=1)", "B = lm(X=M, y=y)", "[C, Y] = kmeans(X=M, k=2)", "B2 = lmCG(X=M, y=y)", "P = sliceLine(M)"], null);
    const notices = found.filter((d) => d.code === "systemds-installation");
    assert.equal(notices.length, 1);
    const notice = at(notices, 0);
    assert.equal(notice.severity, "information");
    assert.deepEqual(notice.range.start, { line: 2, character: 4 });
    assert.match(notice.message, /'lm' is a DML-bodied builtin/);
    for (const where of ["dmlLens.systemds.home", "--systemds PATH", "SYSTEMDS_ROOT"]) assert.ok(notice.message.includes(where), where);
    assert.equal(found.filter((d) => d.code === "unknown-function").length, 0);
    assert.equal(found.filter((d) => d.severity === "error").length, 0);
  });

  test("sigmoid(X), computed as an operator of its own, needs no script and gets no notice", () => {
    assert.deepEqual(brief(check([DATA, "S = sigmoid(M)", "s = sigmoid(0.5)"], null)), []);
  });

  test("names only an installation ships are unknown without one", () => {
    assert.match(brief(check([DATA, "s = onlyThere(M)"], null)).join("\n"), /error unknown-function: unknown function 'onlyThere'/);
  });
});
