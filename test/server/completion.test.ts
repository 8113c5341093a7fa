/** Completion: named arguments of the call around the cursor, $params, variables with dims, functions, builtins. */
import { strict as assert } from "node:assert";
import { test } from "node:test";
import { analyzeText } from "../../engine/analysis/program-analysis";
import { parse } from "../../engine/syntax/parse";
import { builtinSignatureText, completions, enclosingCall } from "../../server/src/completion";
import { lookupBuiltin } from "../../engine/program/builtins";

function at(text: string, marker = "|") {
  const offset = text.indexOf(marker);
  const clean = text.replace(marker, "");
  const before = clean.slice(0, offset).split("\n");
  const position = { line: before.length - 1, character: before[before.length - 1]!.length };
  const parsed = parse(clean, { keepComments: true });
  const analysis = parsed.diagnostics.some((d) => d.severity === "error") ? undefined : analyzeText(clean);
  return completions(clean, parsed.program, analysis, position);
}

test("inside rand(...): the named arguments not given yet, first", () => {
  const items = at("X = rand(rows=10, |");
  const args = items.filter((c) => c.kind === "argument").map((c) => c.label);
  assert.ok(args.includes("cols="));
  assert.ok(args.includes("sparsity="));
  assert.ok(!args.includes("rows="), "rows is already given");
  assert.equal(items[0]!.kind, "argument");
});

test("the call is found across lines and nested calls", () => {
  assert.deepEqual(enclosingCall("X = read($X,\n  format=\"csv\", header=nrow(Y) > 0, "), { callee: "read", named: new Set(["format", "header"]) });
  assert.equal(enclosingCall("X = sum(Y)\nZ = "), undefined);
  assert.equal(enclosingCall("X = sum(Y)\nZ = t(X) %*% colSums(")?.callee, "colSums");
});

test("after $: the script's parameters", () => {
  const items = at('X = read($X)\nY = read($Yfile)\nn = $|');
  assert.deepEqual(items.map((c) => c.label), ["$X", "$Yfile"]);
  assert.deepEqual(items.map((c) => c.insertText), ["X", "Yfile"]);
});

test("variables with their dims, user functions, builtins with signatures, keywords", () => {
  const items = at("A = rand(rows=30, cols=4)\nf = function(matrix[double] M) return (double s) {\n  s = sum(M)\n}\nb = f(A)\n|");
  const a = items.find((c) => c.label === "A" && c.kind === "variable")!;
  assert.equal(a.detail, "30 x 4, nnz ~120");
  assert.equal(items.find((c) => c.label === "f" && c.kind === "function")?.detail, "f(M)");
  assert.equal(items.filter((c) => c.label === "f").length, 1, "a function is not also a variable");
  assert.equal(items.find((c) => c.label === "rand")?.detail, builtinSignatureText(lookupBuiltin("rand")!));
  assert.match(items.find((c) => c.label === "rand")!.detail!, /^rand\(\[rows\], \[cols\], .*\) -> matrix$/);
  assert.ok(items.some((c) => c.label === "while" && c.kind === "keyword"));
  assert.ok(items.some((c) => c.label === "colSums" && c.kind === "function"));
});

test("a line that does not parse still gets completion", () => {
  const items = at("X = rand(rows=10, cols=10)\nY = X %*% |");
  assert.ok(items.some((c) => c.label === "X" && c.kind === "variable"));
});
