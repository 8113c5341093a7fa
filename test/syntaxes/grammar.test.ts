// The TextMate grammar (syntaxes/dml.tmLanguage.json) as VS Code runs it:
// vscode-textmate with the Oniguruma regex engine (WebAssembly) tokenizes
// DML lines, and each token of interest gets the scope a theme colors.
import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import path from "node:path";
import { before, test } from "node:test";
import * as oniguruma from "vscode-oniguruma";
import { INITIAL, parseRawGrammar, Registry, type IGrammar, type StateStack } from "vscode-textmate";
import { repoRoot } from "../repo-root";

let grammar: IGrammar;

before(async () => {
  const wasm = readFileSync(path.join(repoRoot, "node_modules", "vscode-oniguruma", "release", "onig.wasm"));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new Registry({
    onigLib: Promise.resolve({ createOnigScanner: (s) => new oniguruma.OnigScanner(s), createOnigString: (s) => new oniguruma.OnigString(s) }),
    loadGrammar: async (scope) => (scope === "source.dml" ? parseRawGrammar(readFileSync(path.join(repoRoot, "syntaxes", "dml.tmLanguage.json"), "utf8"), "dml.tmLanguage.json") : null),
  });
  grammar = (await registry.loadGrammar("source.dml"))!;
});

/** Each token's text with its innermost scope, line by line (state carried, as in the editor). */
function tokens(text: string): [string, string][] {
  let state: StateStack = INITIAL;
  const out: [string, string][] = [];
  for (const line of text.split("\n")) {
    const result = grammar.tokenizeLine(line, state);
    for (const t of result.tokens) {
      const piece = line.slice(t.startIndex, t.endIndex);
      if (piece.trim() !== "") out.push([piece.trim(), t.scopes[t.scopes.length - 1]!]);
    }
    state = result.ruleStack;
  }
  return out;
}

const scopeOf = (text: string, piece: string) => tokens(text).find(([p]) => p === piece)?.[1];

test("operators: %*% is matrix multiplication, %% and %/% arithmetic, <- and = assignment", () => {
  const line = "C <- A %*% B + A %% 2 - A %/% 3";
  assert.equal(scopeOf(line, "%*%"), "keyword.operator.matrix-multiplication.dml");
  assert.equal(scopeOf(line, "%%"), "keyword.operator.arithmetic.dml");
  assert.equal(scopeOf(line, "%/%"), "keyword.operator.arithmetic.dml");
  assert.equal(scopeOf(line, "<-"), "keyword.operator.assignment.dml");
});

test("cells, comments and block comments over lines", () => {
  const text = "# %% load the data\nx = 1 # trailing\n/* a block\n   over lines */ y = 2";
  const all = tokens(text);
  assert.deepEqual(all.slice(0, 3), [
    ["#", "punctuation.definition.comment.dml"],
    ["%%", "markup.heading.cell.dml"],
    ["load the data", "entity.name.section.cell.dml"],
  ]);
  assert.ok(all.some(([p, s]) => p === "trailing" && s.startsWith("comment.line")));
  assert.ok(all.some(([p, s]) => p.includes("over lines") && s === "comment.block.dml"), JSON.stringify(all));
  assert.equal(all.find(([p]) => p === "y")?.[1].startsWith("comment"), false);
});

test("keywords, builtins, user and namespaced calls, $params, named arguments", () => {
  const text = 'source("nn.dml") as nn\nfor (i in 1:n) {\n  Y = nn::forward(X, W)\n  s = sum(rowSums(Y))\n  Z = rand(rows=$N, cols=10, sparsity=0.01)\n}';
  const all = tokens(text);
  const scope = (piece: string) => all.find(([p]) => p === piece)?.[1] ?? "";
  assert.match(scope("source"), /^keyword\./);
  assert.match(scope("for"), /^keyword\.control/);
  assert.match(scope("in"), /^keyword/);
  assert.match(scope("sum"), /^support\.function/);
  assert.match(scope("rowSums"), /^support\.function/);
  assert.match(scope("forward"), /^entity\.name\.function/);
  assert.equal(scopeOf("  Y = nn::forward(X, W)", "nn"), "entity.name.namespace.dml");
  assert.equal(scopeOf("  Y = nn::forward(X, W)", "::"), "punctuation.separator.namespace.dml");
  assert.equal(scope("N"), "variable.other.constant.parameter.dml", "$N is a command-line parameter");
  assert.equal(scope("$"), "punctuation.definition.variable.dml");
  assert.equal(scope("rows"), "variable.parameter.named-argument.dml");
});

test("numbers and strings with escapes", () => {
  const all = tokens('x = 1.5e-3 + 42\nprint("a \\"quoted\\" word\\n")');
  const scope = (piece: string) => all.find(([p]) => p === piece)?.[1] ?? "";
  assert.match(scope("1.5e-3"), /^constant\.numeric/);
  assert.match(scope("42"), /^constant\.numeric/);
  assert.ok(all.some(([p, s]) => p === '\\"' && s.startsWith("constant.character.escape")), JSON.stringify(all));
  assert.ok(all.some(([p, s]) => p.includes("quoted") && s.startsWith("string.quoted.double")));
});
