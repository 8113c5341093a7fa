import { strict as assert } from "node:assert";
import { test } from "node:test";
import { SymbolKind, type DocumentSymbol } from "vscode-languageserver/node";
import { parse } from "../../engine/syntax/parse";
import type { Identifier, Program, Range, Statement } from "../../engine/syntax/ast";
import { toLspDiagnostic } from "../../server/src/convert";
import { documentSymbols } from "../../server/src/symbols";

const at = (line: number, from: number, to: number): Range => ({
  start: { line, character: from },
  end: { line, character: to },
});
const id = (name: string, line: number): Identifier => ({ kind: "identifier", name, range: at(line, 0, name.length) });
const one = (line: number) => ({ kind: "number" as const, text: "1", value: 1, isInteger: true, range: at(line, 4, 5) });

test("outline: top-level functions and the first assignment of each plain name", () => {
  const body: Statement[] = [
    { kind: "assign", target: id("x", 0), op: "=", value: one(0), range: at(0, 0, 5) },
    {
      kind: "function",
      name: id("f", 1),
      params: [{ type: { valueType: "int", range: at(1, 13, 16) }, name: id("a", 1), range: at(1, 13, 18) }],
      returns: [{ type: { valueType: "int", range: at(1, 28, 31) }, name: id("b", 1), range: at(1, 28, 33) }],
      body: [{ kind: "assign", target: id("inner", 2), op: "=", value: one(2), range: at(2, 2, 11) }],
      range: at(1, 0, 40),
    },
    { kind: "assign", target: id("x", 3), op: "=", value: one(3), range: at(3, 0, 5) },
    {
      kind: "assign",
      target: { kind: "index", target: id("Y", 4), hasComma: true, range: at(4, 0, 6) },
      op: "=",
      value: one(4),
      range: at(4, 0, 10),
    },
    {
      kind: "multiAssign",
      targets: [id("Q", 5), id("R", 5)],
      op: "=",
      call: { kind: "call", callee: id("qr", 5), args: [], range: at(5, 9, 14) },
      range: at(5, 0, 14),
    },
    {
      kind: "while",
      condition: { kind: "boolean", value: false, range: at(6, 7, 12) },
      body: [{ kind: "assign", target: id("hidden", 6), op: "=", value: one(6), range: at(6, 15, 25) }],
      range: at(6, 0, 27),
    },
  ];
  const program: Program = { kind: "program", body, range: at(0, 0, 27) };
  const symbols = documentSymbols(program, "");
  assert.deepEqual(
    symbols.map((s) => [s.name, s.kind]),
    [
      ["x", SymbolKind.Variable],
      ["f", SymbolKind.Function],
      ["Q", SymbolKind.Variable],
      ["R", SymbolKind.Variable],
    ],
  );
  assert.equal(symbols[1]!.detail, "(a) return (b)");
  assert.deepEqual(symbols[0]!.range, at(0, 0, 5));
});

test("cells group the symbols that start in them, named by their marker's title and numbered as Run Cell counts", () => {
  const text = "n = 3\n# %% inputs\nX = rand(rows=n, cols=2)\n# %%\nf = function(matrix[double] A) return (double s) { s = sum(A) }\ny = f(X)\n";
  const symbols = documentSymbols(parse(text).program, text);
  const outline = (list: DocumentSymbol[]): unknown[] => list.map((s) => (s.children ? [s.name, s.kind, outline(s.children)] : [s.name, s.kind]));
  assert.deepEqual(outline(symbols), [
    ["n", SymbolKind.Variable],
    ["cell 2: inputs", SymbolKind.Namespace, [["X", SymbolKind.Variable]]],
    ["cell 3", SymbolKind.Namespace, [["f", SymbolKind.Function], ["y", SymbolKind.Variable]]],
  ]);
  assert.deepEqual(symbols[1]!.range, { start: { line: 1, character: 0 }, end: { line: 2, character: 24 } });
});

test("diagnostics convert to LSP severities and keep range and code", () => {
  const d = toLspDiagnostic({ severity: "warning", message: "m", range: at(1, 2, 3), code: "syntax" });
  assert.equal(d.severity, 2);
  assert.equal(d.code, "syntax");
  assert.deepEqual(d.range, at(1, 2, 3));
  assert.equal(toLspDiagnostic({ severity: "error", message: "m", range: at(0, 0, 1) }).severity, 1);
  assert.equal(toLspDiagnostic({ severity: "information", message: "m", range: at(0, 0, 1) }).severity, 3);
  assert.equal(toLspDiagnostic({ severity: "hint", message: "m", range: at(0, 0, 1) }).severity, 4);
});
