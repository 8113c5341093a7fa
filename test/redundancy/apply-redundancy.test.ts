// Applying redundancy options to script text: the assignment goes on its own
// line before the statement, indented like it and with its line ending; the
// occurrences are replaced; everything else stays byte-identical; names are
// fresh; options that overlap an applied one, or that would change what the
// expression computes, are refused with the reason.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import fc from "fast-check";
import { applyRedundancy } from "../../engine/redundancy/apply-redundancy";
import { applyEdits } from "../../engine/syntax/ranges";
import { parse } from "../../engine/syntax";
import { repoRoot } from "../repo-root";
import { gdOptions, option } from "./edit-options";

const gd = readFileSync(path.join(repoRoot, "examples", "linreg_gd.dml"), "utf8");

describe("applyRedundancy", () => {
  it("hoists t(A) %*% A and t(A) %*% b out of linreg_gd's loop", () => {
    const { AtA, Atb } = gdOptions(gd);
    const result = applyRedundancy(gd, [AtA, Atb]);
    assert.deepEqual(result.refused, []);
    assert.deepEqual(result.applied.map((a) => a.assignment), ["AtA = t(A) %*% A", "Atb = t(A) %*% b"]);
    const expected = gd
      .replace("i = 0\nwhile", "i = 0\nAtA = t(A) %*% A\nAtb = t(A) %*% b\nwhile")
      .replace("g = t(A) %*% A %*% x - t(A) %*% b", "g = AtA %*% x - Atb")
      .replace("t(g) %*% t(A) %*% A %*% g", "t(g) %*% AtA %*% g");
    assert.equal(result.text, expected);
    // The edits are what a workspace edit applies: one insertion (both lines) and three replacements.
    assert.equal(result.edits.length, 4);
    assert.equal(applyEdits(gd, result.edits), result.text);
  });

  it("indents the assignment like the statement it precedes (spaces and tabs)", () => {
    const text = "X = rand(rows=5, cols=5)\nfor (k in 1:3) {\n    Y = X %*% X\n\tif (k > 1) {\n\t\tZ = X %*% X + 1\n\t\tprint(sum(X %*% X))\n\t}\n}\n";
    const cse = option(text, { kind: "cse", expression: "X %*% X", name: "XX", before: ["Z = X %*% X"], occurrences: [["X %*% X", 1, "{name}"], ["X %*% X", 2, "{name}"]] });
    const result = applyRedundancy(text, [cse]);
    assert.deepEqual(result.refused, []);
    assert.equal(result.text, "X = rand(rows=5, cols=5)\nfor (k in 1:3) {\n    Y = X %*% X\n\tif (k > 1) {\n\t\tXX = X %*% X\n\t\tZ = XX + 1\n\t\tprint(sum(XX))\n\t}\n}\n");
    const hoisted = option(text, { kind: "lse", expression: "X %*% X", name: "XX", before: ["for (k"], occurrences: [["X %*% X", 0, "{name}"]] });
    assert.equal(applyRedundancy(text, [hoisted]).text, "X = rand(rows=5, cols=5)\nXX = X %*% X\nfor (k in 1:3) {\n    Y = XX\n\tif (k > 1) {\n\t\tZ = X %*% X + 1\n\t\tprint(sum(X %*% X))\n\t}\n}\n");
  });

  it("keeps CRLF line endings and every other byte", () => {
    const crlf = gd.replaceAll("\n", "\r\n");
    const { AtA, Atb } = gdOptions(crlf);
    const result = applyRedundancy(crlf, [AtA, Atb]);
    assert.deepEqual(result.refused, []);
    const lf = applyRedundancy(gd, Object.values(gdOptions(gd)));
    assert.equal(result.text, lf.text.replaceAll("\n", "\r\n"));
    assert.ok(!/[^\r]\n/.test(result.text), "a bare LF in a CRLF script");
    // A file mixing endings: the inserted line takes the ending of the line it precedes.
    const mixed = "A = rand(rows=3, cols=3)\r\nB = t(A) %*% A\nC = t(A) %*% A\r\n";
    const cse = option(mixed, { kind: "cse", expression: "t(A) %*% A", name: "AtA", before: ["B = "], occurrences: [["t(A) %*% A", 0, "{name}"], ["t(A) %*% A", 1, "{name}"]] });
    assert.equal(applyRedundancy(mixed, [cse]).text, "A = rand(rows=3, cols=3)\r\nAtA = t(A) %*% A\nB = AtA\nC = AtA\r\n");
  });

  it("picks a fresh name when the option's collides with a variable, a function, a later use or a comment", () => {
    const text = [
      "AtA_2 = function(matrix[double] M) return (matrix[double] R) { R = M }",
      "A = rand(rows=4, cols=3)",
      "i = 0",
      "while (i < 3) {",
      "  y = t(A) %*% A",
      "  i = i + 1",
      "}",
      "AtA = y  # AtA_3 is mentioned here",
      "",
    ].join("\n");
    const lse = option(text, { kind: "lse", expression: "t(A) %*% A", name: "AtA", before: ["while"], occurrences: [["t(A) %*% A", 0, "{name}"]] });
    const result = applyRedundancy(text, [lse]);
    assert.deepEqual(result.applied.map((a) => a.name), ["AtA_4"]);
    assert.match(result.text, /^AtA_4 = t\(A\) %\*% A\nwhile/m);
    assert.match(result.text, /^ {2}y = AtA_4$/m);
    // A builtin's name is not used either, and two options asking for one name get two.
    const t2 = option(text, { kind: "lse", expression: "t(A)", name: "t", before: ["while"], occurrences: [["t(A)", 0, "{name}"]] });
    assert.equal(applyRedundancy(text, [t2]).applied[0]!.name, "t_2");
    const same = "A = rand(rows=4, cols=4)\nx = sum(A %*% A) + sum(A %*% A)\ny = sum(t(A) %*% A) + sum(t(A) %*% A)\n";
    const first = option(same, { kind: "cse", expression: "A %*% A", name: "P", before: ["x = "], occurrences: [["A %*% A", 0, "{name}"], ["A %*% A", 1, "{name}"]] });
    const second = option(same, { kind: "cse", expression: "t(A) %*% A", name: "P", before: ["y = "], occurrences: [["t(A) %*% A", 0, "{name}"], ["t(A) %*% A", 1, "{name}"]] });
    const both = applyRedundancy(same, [first, second]);
    assert.deepEqual(both.applied.map((a) => a.name), ["P", "P_2"]);
    assert.equal(both.text, "A = rand(rows=4, cols=4)\nP = A %*% A\nx = sum(P) + sum(P)\nP_2 = t(A) %*% A\ny = sum(P_2) + sum(P_2)\n");
  });

  it("refuses an option overlapping one applied before it, whichever comes first", () => {
    const dfp = readFileSync(path.join(repoRoot, "examples", "linreg_dfp.dml"), "utf8");
    const chain = "t(d) %*% t(A) %*% A %*% d)";
    const lse = option(dfp, {
      kind: "lse",
      expression: "t(A) %*% A",
      name: "AtA",
      before: ["while (i < maxi"],
      occurrences: [[chain.slice(0, -1), 0, "t(d) %*% {name} %*% d"]],
    });
    const cse = option(dfp, {
      kind: "cse",
      expression: "A %*% d",
      name: "Ad",
      before: ["alpha = "],
      occurrences: [[chain.slice(0, -1), 0, "t({name}) %*% {name}"]],
    });
    const lseFirst = applyRedundancy(dfp, [lse, cse]);
    assert.deepEqual(lseFirst.applied.map((a) => a.id), [lse.id]);
    assert.equal(lseFirst.refused.length, 1);
    assert.equal(lseFirst.refused[0]!.reason, `its occurrence at line 20, column 46 lies in the occurrence at line 20, column 46 of ${lse.id}, applied before it, whose replacement \`t(d) %*% AtA %*% d\` does not compute \`A %*% d\``);
    const cseFirst = applyRedundancy(dfp, [cse, lse]);
    assert.deepEqual(cseFirst.applied.map((a) => a.id), [cse.id]);
    assert.match(cseFirst.text, /alpha = -as\.scalar\(t\(d\) %\*% g\) \/ as\.scalar\(t\(Ad\) %\*% Ad\)/);
    // Nested: an occurrence inside another's is refused too.
    const inner = option(dfp, { kind: "cse", expression: "A %*% d", name: "Ad", before: ["alpha = "], occurrences: [["A %*% d", 0, "{name}"]] });
    assert.match(applyRedundancy(dfp, [cse, inner]).refused[0]!.reason, /whose replacement `t\(Ad\) %\*% Ad` does not compute `A %\*% d`$/);
    // A partial overlap is refused whatever the replacements say.
    const partial = option(dfp, { kind: "cse", expression: "t(A) %*% A %*% d", name: "AtAd", before: ["alpha = "], occurrences: [["t(A) %*% A %*% d) + (d", 0, "{name}"]] });
    assert.ok(partial.occurrences[0]!.range.start.line === 21);
    const partner = option(dfp, { kind: "cse", expression: "d %*% t(d)", name: "ddt", before: ["alpha = "], occurrences: [["d) + (d %*% t(d))", 0, "{name}"]] });
    assert.match(applyRedundancy(dfp, [partial, partner]).refused[0]!.reason, /overlaps the occurrence at line 22, column \d+ of .*, applied before it, without lying within it$/);
  });

  it("composes an option whose occurrence lies in an applied one's replacement (DFP's gradient)", () => {
    const text = "A = rand(rows=6, cols=3)\nb = rand(rows=6, cols=1)\nx = rand(rows=3, cols=1)\ni = 0\nwhile (i < 3) {\n  g = t(A) %*% (A %*% x - b)\n  x = x - 0.1 * g\n  i = i + 1\n}\n";
    const AtA = option(text, { kind: "lse", expression: "t(A) %*% A", name: "AtA", before: ["while"], occurrences: [["t(A) %*% (A %*% x - b)", 0, "({name} %*% x - t(A) %*% b)"]] });
    const Atb = option(text, { kind: "lse", expression: "t(A) %*% b", name: "Atb", before: ["while"], occurrences: [["t(A) %*% (A %*% x - b)", 0, "(t(A) %*% A %*% x - {name})"]] });
    const both = applyRedundancy(text, [AtA, Atb]);
    assert.deepEqual(both.refused, []);
    assert.match(both.text, /^AtA = t\(A\) %\*% A\nAtb = t\(A\) %\*% b\nwhile/m);
    assert.match(both.text, /^ {2}g = \(AtA %\*% x - Atb\)$/m);
    const reversed = applyRedundancy(text, [Atb, AtA]);
    assert.match(reversed.text, /^ {2}g = \(AtA %\*% x - Atb\)$/m);
    assert.equal(applyEdits(text, both.edits), both.text);
  });

  it("refuses a hoist whose input the loop assigns, and a reuse whose input changes in between", () => {
    const loopVariant = option(gd, { kind: "lse", expression: "A %*% x", name: "Ax", before: ["while (i < maxi)"], occurrences: [["A %*% x", 0, "{name}"]] });
    const refused = applyRedundancy(gd, [loopVariant]).refused;
    assert.equal(refused.length, 1);
    assert.match(refused[0]!.reason, /^x is assigned at line 16, column 3, inside the loop at line 13, column 1 that it would be hoisted out of$/);
    const text = "A = rand(rows=3, cols=3)\nd = rand(rows=3, cols=1)\ny = A %*% d\nd = d + 1\nz = A %*% d\n";
    const cse = option(text, { kind: "cse", expression: "A %*% d", name: "Ad", before: ["y = "], occurrences: [["A %*% d", 0, "{name}"], ["A %*% d", 1, "{name}"]] });
    assert.match(applyRedundancy(text, [cse]).refused[0]!.reason, /^d is assigned at line 4, column 1, between the new assignment \(line 3, column 1\) and the occurrence at line 5, column 5$/);
    // A for loop's own variable counts.
    const forText = "A = rand(rows=3, cols=3)\nfor (k in 1:3) {\n  y = A * k\n}\n";
    const byK = option(forText, { kind: "lse", expression: "A * k", name: "Ak", before: ["for (k"], occurrences: [["A * k", 0, "{name}"]] });
    assert.match(applyRedundancy(forText, [byK]).refused[0]!.reason, /^k is assigned at line 2, column 6, inside the loop/);
  });

  it("refuses misplaced options and edits that do not parse", () => {
    const text = "A = rand(rows=3, cols=3); y = A %*% A\nz = A %*% A\nif (sum(A) > 0) {\n  w = A %*% A\n}\nv = A %*% A\n";
    const inline = option(text, { kind: "cse", expression: "A %*% A", name: "AA", before: ["y = "], occurrences: [["A %*% A", 0, "{name}"]] });
    assert.match(applyRedundancy(text, [inline]).refused[0]!.reason, /does not begin its line/);
    const early = option(text, { kind: "cse", expression: "A %*% A", name: "AA", before: ["v = "], occurrences: [["A %*% A", 1, "{name}"], ["A %*% A", 3, "{name}"]] });
    assert.match(applyRedundancy(text, [early]).refused[0]!.reason, /comes before the insertion point/);
    const intoBranch = option(text, { kind: "cse", expression: "A %*% A", name: "AA", before: ["w = "], occurrences: [["A %*% A", 2, "{name}"], ["A %*% A", 3, "{name}"]] });
    assert.match(applyRedundancy(text, [intoBranch]).refused[0]!.reason, /is not in the statement list the assignment goes into/);
    const broken = option(text, { kind: "cse", expression: "A %*% A", name: "AA", before: ["z = "], occurrences: [["A %*% A", 1, "{name} %*%"]] });
    assert.match(applyRedundancy(text, [broken]).refused[0]!.reason, /^the edited script does not parse: its line 4: expected an expression but found 'if'$/);
    const notExpression = option(text, { kind: "cse", expression: "A %*%", name: "AA", before: ["z = "], occurrences: [["A %*% A", 1, "{name}"]] });
    assert.match(applyRedundancy(text, [notExpression]).refused[0]!.reason, /is not one DML expression/);
  });

  it("applies any order of a set of options consistently (property)", () => {
    const dfp = readFileSync(path.join(repoRoot, "examples", "linreg_dfp.dml"), "utf8");
    const pool = [
      option(dfp, { kind: "lse", expression: "t(A) %*% A", name: "AtA", before: ["while (i < maxi"], occurrences: [["t(d) %*% t(A) %*% A %*% d", 0, "t(d) %*% {name} %*% d"]] }),
      option(dfp, { kind: "cse", expression: "A %*% d", name: "Ad", before: ["alpha = "], occurrences: [["t(d) %*% t(A) %*% A %*% d", 0, "t({name}) %*% {name}"]] }),
      option(dfp, { kind: "cse", expression: "A %*% x - b", name: "r", before: ["g = t(A) %*% (A %*% x - b)"], occurrences: [["A %*% x - b", 0, "{name}"]] }),
      option(dfp, { kind: "cse", expression: "d %*% t(d)", name: "dd", before: ["H = H - "], occurrences: [["d %*% t(d)", 0, "{name}"]] }),
      option(dfp, { kind: "cse", expression: "H %*% t(A)", name: "HAt", before: ["H = H - "], occurrences: [["H %*% t(A)", 0, "{name}"]] }),
    ];
    fc.assert(
      fc.property(fc.shuffledSubarray(pool), (options) => {
        const result = applyRedundancy(dfp, options);
        assert.deepEqual([...result.applied.map((a) => a.id), ...result.refused.map((r) => r.id)].sort(), options.map((o) => o.id).sort());
        assert.equal(applyEdits(dfp, result.edits), result.text);
        assert.deepEqual(parse(result.text).diagnostics.filter((d) => d.severity === "error"), []);
        assert.equal(result.text.split("\n").length, dfp.split("\n").length + result.applied.length);
        // Only the first of the two overlapping options (the first two of the pool) is ever applied.
        const ids = new Set(result.applied.map((a) => a.id));
        assert.ok(!(ids.has(pool[0]!.id) && ids.has(pool[1]!.id)));
        // Every option that overlaps no other is applied.
        for (const o of options.filter((o) => o !== pool[0] && o !== pool[1])) assert.ok(ids.has(o.id), `${o.id} refused: ${JSON.stringify(result.refused)}`);
      }),
      { numRuns: 60 },
    );
  });
});
