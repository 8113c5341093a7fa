// What the language server publishes for a document (server/src/document-diagnostics.ts):
// syntax plus semantic diagnostics, sourced files read next to a saved document.
import { strict as assert } from "node:assert";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { after, describe, test } from "node:test";
import { parse } from "../../engine/syntax/parse";
import { documentDiagnostics } from "../../server/src/document-diagnostics";

const dir = mkdtempSync(path.join(tmpdir(), "dml-document-diagnostics-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const codes = (uri: string, text: string) => documentDiagnostics(uri, text, parse(text, { keepComments: true })).map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.code}`);

describe("document diagnostics", () => {
  test("semantic diagnostics of an unsaved document", () => {
    assert.deepEqual(codes("untitled:Untitled-1", "y = x + 1\n"), ["1:5 unassigned-variable"]);
  });

  test("only syntax diagnostics while the document has a syntax error", () => {
    const found = documentDiagnostics("untitled:Untitled-1", "y = x +\nz = colSum(1)\n", parse("y = x +\nz = colSum(1)\n", { keepComments: true }));
    assert.ok(found.length >= 1);
    assert.ok(found.every((d) => d.code !== "unassigned-variable" && d.code !== "unknown-function"));
  });

  test("a saved document reads the files it sources from its folder", () => {
    writeFileSync(path.join(dir, "lib.dml"), "helper = function(double a) return (double b) {\n  b = a\n}\n");
    const uri = pathToFileURL(path.join(dir, "main.dml")).href;
    assert.deepEqual(codes(uri, 'source("lib.dml") as lib\nx = lib::helper(1)\ny = lib::helpr(1)\n'), ["3:5 unknown-function"]);
  });
});
