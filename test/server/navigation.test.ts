/** Go to definition, references and rename: variables per scope, functions across the document. */
import { strict as assert } from "node:assert";
import { test } from "node:test";
import { parse } from "../../engine/syntax/parse";
import { definition, references, rename, RenameError } from "../../server/src/navigation";

const text = [
  "X = rand(rows=10, cols=3)", //                      0
  "f = function(matrix[double] X) return (double s) {", // 1
  "  s = sum(X)", //                                      2
  "}", //                                                 3
  "for (i in 1:3) {", //                                  4
  "  X = X * 2", //                                       5
  "}", //                                                 6
  "y = f(X)", //                                          7
  "z = f(X) + i", //                                      8
].join("\n");
const program = parse(text).program;
const pos = (line: number, needle: string, k = 0) => {
  let character = -1;
  for (let i = 0; i <= k; i++) character = text.split("\n")[line]!.indexOf(needle, character + 1);
  return { line, character };
};
const lines = (ranges: { start: { line: number; character: number } }[]) => ranges.map((r) => `${r.start.line}:${r.start.character}`);

test("definition: the nearest assignment before, in the same scope; a call goes to the function", () => {
  assert.deepEqual(definition(program, pos(7, "X"))?.range.start, { line: 5, character: 2 });
  assert.deepEqual(definition(program, pos(5, "X", 1))?.range.start, { line: 0, character: 0 });
  assert.deepEqual(definition(program, pos(2, "X"))?.range.start, pos(1, "X"), "inside f, X is the parameter");
  assert.deepEqual(definition(program, pos(8, "f"))?.range.start, { line: 1, character: 0 });
  assert.deepEqual(definition(program, pos(8, "i"))?.range.start, pos(4, "i"));
  assert.equal(definition(program, pos(7, "=")), undefined);
});

test("definition of ns::f: the function in the source()d file", () => {
  const lib = parse("helper = function(double a) return (double b) { b = a }\nsq = function(matrix[double] A) return (matrix[double] B) {\n  B = A^2\n}\n").program;
  const main = parse('source("lib/algebra.dml") as alg\nY = alg::sq(rand(rows=2, cols=2))\nZ = nope::sq(Y)\n').program;
  const asked: string[] = [];
  const sourced = (sourcePath: string) => (asked.push(sourcePath), sourcePath === "lib/algebra.dml" ? { file: "/w/lib/algebra.dml", program: lib } : undefined);
  const found = definition(main, { line: 1, character: 9 }, sourced);
  assert.deepEqual(found, { file: "/w/lib/algebra.dml", range: { start: { line: 1, character: 0 }, end: { line: 1, character: 2 } } });
  assert.deepEqual(asked, ["lib/algebra.dml"]);
  assert.equal(definition(main, { line: 2, character: 6 }, sourced), undefined, "no source() binds nope");
});

test("references: the top-level X everywhere outside f; f's X only inside f; f's calls", () => {
  assert.deepEqual(lines(references(program, pos(0, "X"))), ["0:0", "5:2", "5:6", "7:6", "8:6"]);
  assert.deepEqual(lines(references(program, pos(2, "X"))), [`1:${pos(1, "X").character}`, `2:10`]);
  assert.deepEqual(lines(references(program, pos(7, "f"))), ["1:0", "7:4", "8:4"]);
});

test("rename changes every reference, and refuses a bad name", () => {
  const edits = rename(program, pos(0, "X"), "data");
  assert.equal(edits.length, 5);
  assert.ok(edits.every((e) => e.newText === "data"));
  assert.throws(() => rename(program, pos(0, "X"), "1x"), RenameError);
  assert.throws(() => rename(program, pos(0, "X"), "while"), RenameError);
});
