// Running calls of DML-bodied builtins from a SystemDS installation (a
// fixture written by the test, test/program/builtin-script-fixture.ts):
// m_/s_ by the first argument, defaults, casts, multi-return, nested
// builtins, the installation's nn library, private helpers, errors inside a
// script naming it, a user function hiding a builtin, no installation, and
// Run Cell through a session.
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { createSession, type SessionOptions } from "../../engine/runtime/interpreter";
import type { SystemdsInstallation } from "../../engine/program/systemds-installation";
import { fixtureInstallation } from "../program/builtin-script-fixture";
import { at } from "../checked-access";

const installation = fixtureInstallation();
const folder = mkdtempSync(path.join(os.tmpdir(), "dml-builtin-run-"));

function run(lines: string[], with_: SystemdsInstallation | null = installation, options: SessionOptions = {}) {
  const printed: string[] = [];
  const session = createSession({ scriptPath: path.join(folder, "driver.dml"), workspaceRoot: folder, ...(with_ ? { installation: with_ } : {}), print: (line) => printed.push(line), ...options });
  const result = session.runScript(lines.join("\n"));
  return { printed, errors: result.errors, ok: result.ok, session };
}

function printed(lines: string[]): string[] {
  const r = run(lines);
  assert.deepEqual(r.errors, []);
  return r.printed;
}

const DATA = "M = matrix(seq(1, 6), rows=3, cols=2)";

describe("running builtin scripts of an installation", () => {
  it("chooses m_ for a matrix and s_ for a scalar first argument, with defaults", () => {
    assert.deepEqual(printed([DATA, "Y = twice(M)", "print(toString(Y))", "print(twice(3))", "Z = twice(X=M, f=0.5)", "print(sum(Z))"]), [
      "2.000 4.000\n6.000 8.000\n10.000 12.000\n",
      "6.0",
      "10.5",
    ]);
  });

  it("casts scalar arguments to the declared types (an int to Double, Integer k from a double)", () => {
    assert.deepEqual(printed(["y = twice(2)", "print(y)", DATA, "[A, B] = pair(X=M, k=2.0)", "print(as.scalar(A[1, 1]))"]), ["4.0", "3.0"]);
  });

  it("binds every result of a multi-return builtin", () => {
    const out = printed([DATA, "[A, B] = pair(X=M)", "print(toString(A))", "print(toString(B))"]);
    // M = [1 2; 3 4; 5 6]: A = M + 3; B = t(M) %*% M
    assert.deepEqual(out, ["4.000 5.000\n6.000 7.000\n8.000 9.000\n", "35.000 44.000\n44.000 56.000\n"]);
  });

  it("runs a builtin that calls another builtin, and one that sources the installation's nn library", () => {
    assert.deepEqual(printed([DATA, "print(sum(nested(M)))", "print(sum(layered(M)))"]), [String(3 * 21 + 6) + ".0", "42.0"]);
  });

  it("a builtin script calls a private helper of another script by plain name (the script is loaded with it)", () => {
    // usesHelper: G = pairHelper(X) before pair is called; Y = G - B + sum(A), where B = G and A = X + 1
    assert.deepEqual(printed([DATA, "print(toString(usesHelper(M)))"]), ["27.000 27.000\n27.000 27.000\n"]);
  });

  it("the program also reaches the helpers of the scripts it loaded, and each script is read once per run", () => {
    const r = run([DATA, "[A, B] = pair(X=M)", "G = pairHelper(M)", "print(sum(G - B))", "for (i in 1:3) { [A, B] = pair(X=M, k=i) }", "print(sum(A))"]);
    assert.deepEqual(r.errors, []);
    assert.deepEqual(r.printed, ["0.0", String(21 + 6 * 3) + ".0"]);
  });

  it("a name only the installation ships runs; a user function hides a builtin script", () => {
    assert.deepEqual(printed([DATA, "print(onlyThere(M))"]), ["21.0"]);
    assert.deepEqual(printed(["pair = function(Matrix[Double] X) return (Matrix[Double] A, Matrix[Double] B) { A = X; B = X }", DATA, "[A, B] = pair(M)", "print(sum(A + B))"]), ["42.0"]);
  });

  it("an error inside a builtin script names the script's file and line", () => {
    const r = run([DATA, "Y = failing(M)"]);
    assert.equal(r.ok, false);
    assert.match(at(r.errors, 0), /scripts\/builtin\/failing\.dml:3:\d+: error: the inner dimensions of %\*% do not match: 3 x 2 %\*% 3 x 2 \(in builtin failing, called at driver\.dml:2:5\)$/);
    // through a builtin that calls it: the call of the user's program is named once
    const nested = run([DATA, "Y = callsFailing(M)"], fixtureInstallation({ "builtin/callsFailing.dml": "m_callsFailing = function(Matrix[Double] X) return (Matrix[Double] Y) {\n  Y = failing(X) + 1\n}\n" }));
    assert.match(at(nested.errors, 0), /failing\.dml:3:\d+: error: .* \(in builtin callsFailing, called at driver\.dml:2:5\)$/);
  });

  it("a broken script or a missing function fails at the call, naming the file", () => {
    const broken = run([DATA, "Y = broken(M)"]);
    assert.match(at(broken.errors, 0), /driver\.dml:2:5: error: builtin script .*broken\.dml:3:1 has a syntax error/);
    const misnamed = run([DATA, "Y = misnamed(M)"]);
    assert.match(at(misnamed.errors, 0), /driver\.dml:2:5: error: builtin script .*misnamed\.dml defines no function m_misnamed or s_misnamed/);
  });

  it("a builtin of the table the installation does not ship says so", () => {
    const r = run([DATA, "[C, Y] = kmeans(X=M, k=2)"]);
    assert.match(at(r.errors, 0), /driver\.dml:2:10: error: 'kmeans' is a DML-bodied builtin, but SystemDS \(source-tree .*\) ships no scripts\/builtin\/kmeans\.dml/);
  });

  it("ns::f falls back to a DML-bodied builtin when the file sourced as ns has no f", () => {
    const r = run(['source("nn/layers/double.dml") as d', DATA, "Y = d::twice(M)", "print(sum(Y) + sum(d::forward(M)))"]);
    assert.deepEqual(r.errors, []);
    assert.deepEqual(r.printed, ["84.0"]);
  });
});

describe("eval(name, ...)", () => {
  it("calls a user function or a builtin script by name, with positional arguments or a list of them; the result is a matrix", () => {
    const out = printed([
      "f = function(Matrix[Double] X, Double s) return (Double r) { r = sum(X) * s }",
      DATA,
      "a = eval(\"f\", M, 2)",
      "b = eval(\"twice\", list(X=M, f=3))",
      "c = eval(\"onlyThere\", list(M))",
      "print(toString(a))",
      "print(sum(b))",
      "print(as.scalar(c))",
    ]);
    assert.deepEqual(out, ["42.000\n", "63.0", "21.0"]);
  });

  it("an unknown name or ns::f is an error at the eval", () => {
    assert.match(at(run([DATA, "x = eval(\"nothere\", M)"]).errors, 0), /driver\.dml:2:5: error: eval: unknown function 'nothere'/);
    assert.match(at(run([DATA, "x = eval(\"a::b\", M)"]).errors, 0), /driver\.dml:2:5: error: eval of 'a::b', a function outside the default namespace, is not supported by SystemDS/);
  });
});

describe("running DML-bodied builtins without an installation", () => {
  it("fails with the message that says how to point DML Lens at SystemDS", () => {
    const r = run([DATA, "y = matrix(1, rows=3, cols=1)", "B = lm(X=M, y=y)"], null);
    assert.equal(r.ok, false);
    assert.match(at(r.errors, 0), /driver\.dml:3:5: error: 'lm' is a DML-bodied builtin: its body is SystemDS's script scripts\/builtin\/lm\.dml, and no SystemDS installation is configured/);
    for (const where of ["dmlLens.systemds.home", "--systemds PATH", "SYSTEMDS_ROOT"]) assert.ok(at(r.errors, 0).includes(where), where);
  });

  it("a native builtin the runtime lacks keeps its own message; an unknown name is unknown", () => {
    assert.match(at(run(["x = lineage(1)"], null).errors, 0), /builtin lineage is not supported by the embedded runtime yet/);
    assert.match(at(run([DATA, "x = twice(M)"], null).errors, 0), /unknown function 'twice'/);
  });
});

describe("Run Cell with an installation", () => {
  it("cells of one session call builtin scripts; their results stay for later cells", () => {
    const printedLines: string[] = [];
    const session = createSession({ scriptPath: path.join(folder, "cells.dml"), workspaceRoot: folder, installation, print: (line) => printedLines.push(line) });
    const script = ["# %% data", DATA, "# %% model", "[A, B] = pair(X=M)", "s = onlyThere(B)", "# %% use", "print(s + sum(A))"].join("\n");
    assert.deepEqual(session.runCellsThrough(script, 2).errors, []);
    assert.deepEqual(
      session.variables().filter((v) => v.name === "A" || v.name === "B").map((v) => `${v.name} ${v.rows}x${v.cols}`),
      ["A 3x2", "B 2x2"],
    );
    assert.deepEqual(session.runCell("print(s + sum(A))").errors, []);
    assert.deepEqual(printedLines, [String(35 + 44 + 44 + 56 + 21 + 18) + ".0"]);
  });
});
