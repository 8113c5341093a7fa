/** Rename never changes what a program computes: it refuses names that capture, shadow or clash, and bad names. */
import { strict as assert } from "node:assert";
import { test } from "node:test";
import { parse } from "../../engine/syntax/parse";
import { prepareRename, rename, RenameError } from "../../server/src/navigation";

const text = [
  "x = 1", //                                                     0
  "y = 5", //                                                     1
  "x = x + 2", //                                                 2
  "g = function(double a, double b) return (double c) {", //      3
  "  t = a * 2", //                                               4
  "  c = t + b", //                                               5
  "}", //                                                         6
  "h = function(double a) return (double r) { r = a }", //        7
  "z = g(a=x, b=y) + h(1)", //                                    8
  "M = rand(rows=2, cols=2)", //                                  9
  "s = sum(M) + z", //                                            10
  "print(s)", //                                                  11
].join("\n");
const program = parse(text).program;
const at = (line: number, character: number) => ({ line, character });

function refusal(position: { line: number; character: number }, newName: string): string {
  try {
    rename(program, position, newName);
  } catch (error) {
    assert.ok(error instanceof RenameError, String(error));
    return error.message;
  }
  assert.fail(`renaming to '${newName}' was accepted`);
}

test("renaming x to a variable of the same scope is refused, naming it and its line", () => {
  assert.equal(refusal(at(0, 0), "y"), "cannot rename 'x' to 'y': 'y' is already assigned in the same scope on line 2; the renamed program would compute something else");
  assert.match(refusal(at(2, 4), "z"), /'z' is already assigned in the same scope on line 9/);
  assert.match(refusal(at(0, 0), "M"), /'M' .* on line 10/);
});

test("a variable cannot take the name of a function, nor a parameter the name of another variable of its function", () => {
  assert.match(refusal(at(0, 0), "g"), /'g' is the function defined on line 4/);
  assert.match(refusal(at(4, 6), "b"), /cannot rename 'a' to 'b': 'b' is already assigned in the same scope on line 4/);
  assert.match(refusal(at(4, 2), "c"), /'c' is already assigned in the same scope on line 4/);
  assert.match(refusal(at(4, 2), "a"), /'a' .* line 4/);
});

test("a variable in a function may take a name used only at the top level (scopes are separate)", () => {
  const edits = rename(program, at(4, 2), "x");
  assert.deepEqual(edits.map((e) => `${e.range.start.line}:${e.range.start.character}`), ["4:2", "5:6"]);
});

test("a parameter's named arguments are renamed with it", () => {
  const edits = rename(program, at(4, 6), "alpha");
  assert.deepEqual(edits.map((e) => `${e.range.start.line}:${e.range.start.character}`).sort(), ["3:20", "4:6", "8:6"].sort());
  const renamed = applyEdits(text, edits);
  assert.match(renamed.split("\n")[8]!, /^z = g\(alpha=x, b=y\)/);
});

test("a function cannot take the name of another function, a builtin, or a variable where it is called", () => {
  assert.match(refusal(at(8, 4), "h"), /'h' is the function defined on line 8/);
  assert.match(refusal(at(8, 4), "sum"), /'sum' is a builtin function/);
  assert.match(refusal(at(8, 4), "M"), /'M' is a variable where 'g' is called on line 10/);
  assert.equal(rename(program, at(8, 4), "gg").length, 2);
});

test("builtins and unknown functions cannot be renamed; prepareRename says so before the user types a name", () => {
  assert.match(refusal(at(10, 4), "total"), /'sum' is a builtin function: only variables and the document's own functions can be renamed/);
  assert.throws(() => prepareRename(program, at(10, 4)), /'sum' is a builtin function/);
  assert.deepEqual(prepareRename(program, at(2, 4)), { range: { start: at(2, 4), end: at(2, 5) }, placeholder: "x" });
  assert.equal(prepareRename(program, at(2, 2)), undefined, "the = sign is no name");
});

test("invalid identifiers, keywords and builtin constants are refused", () => {
  assert.match(refusal(at(0, 0), "1x"), /not a valid DML name \(a letter or _/);
  assert.match(refusal(at(0, 0), "while"), /a keyword/);
  assert.match(refusal(at(0, 0), "TRUE"), /a keyword/);
  assert.match(refusal(at(0, 0), "parfor"), /a keyword/);
  assert.match(refusal(at(0, 0), "NaN"), /a builtin constant/);
  assert.match(refusal(at(0, 0), "pi"), /a builtin constant/);
  assert.match(refusal(at(0, 0), "a.b"), /not a valid DML name/);
});

test("an accepted rename keeps the program's meaning: x to fresh renames all four uses", () => {
  const edits = rename(program, at(0, 0), "fresh");
  assert.equal(applyEdits(text, edits).split("\n").slice(0, 3).join("|"), "fresh = 1|y = 5|fresh = fresh + 2");
  assert.equal(edits.length, 4);
  assert.match(applyEdits(text, edits).split("\n")[8]!, /g\(a=fresh, b=y\)/);
});

function applyEdits(source: string, edits: { range: { start: { line: number; character: number }; end: { line: number; character: number } }; newText: string }[]): string {
  const lines = source.split("\n");
  const sorted = [...edits].sort((a, b) => b.range.start.line - a.range.start.line || b.range.start.character - a.range.start.character);
  for (const e of sorted) {
    const line = lines[e.range.start.line]!;
    lines[e.range.start.line] = line.slice(0, e.range.start.character) + e.newText + line.slice(e.range.end.character);
  }
  return lines.join("\n");
}
