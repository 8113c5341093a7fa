/**
 * What one document may cost the server: a document too large to check
 * while typing gets one diagnostic and empty answers, and never holds up
 * another document's requests (found by the lsp fuzz harness: a 50,000-line
 * document's edits held every request up for more than 10 s).
 */
import { strict as assert } from "node:assert";
import { test } from "node:test";
import { DidChangeTextDocumentNotification, DidOpenTextDocumentNotification, FoldingRangeRequest, HoverRequest, SemanticTokensRequest } from "vscode-languageserver-protocol/node";
import { startLspSession } from "../../cli/lsp-session";
import { parse } from "../../engine/syntax/parse";
import { MAX_CHECKED_LINES, tooLargeToCheck } from "../../server/src/document-bounds";
import { documentCheck } from "../../server/src/document-diagnostics";

test("too large to check: more lines or characters than the bounds, said in counts", () => {
  assert.equal(tooLargeToCheck("x = 1\n".repeat(MAX_CHECKED_LINES - 1)), undefined);
  assert.equal(tooLargeToCheck("x = 1\n".repeat(MAX_CHECKED_LINES)), "10,001 lines, more than the 10,000");
  assert.equal(tooLargeToCheck("#".repeat(1_000_001)), "1,000,001 characters, more than the 1,000,000");
});

test("a document with more statements than the analysis bound gets its syntax diagnostics and one saying so", () => {
  const text = Array.from({ length: 30 }, (_, i) => `x${i} = ${i}`).join("\n") + "\ny = undefined_name + 1\n";
  const checked = documentCheck("untitled:s.dml", text, parse(text, { keepComments: true }), { maxStatements: 20 });
  assert.deepEqual(checked.diagnostics.map((d) => d.code), ["too-many-statements"]);
  assert.match(checked.diagnostics[0]!.message, /more than 20 statements, the most the editor analyzes per document/);
  assert.equal(checked.analysis, undefined);
  const full = documentCheck("untitled:s.dml", text, parse(text, { keepComments: true }), { maxStatements: 40 });
  assert.ok(full.diagnostics.some((d) => /undefined_name/.test(d.message)), "within the bound the analysis runs");
});

test("editing a 50,000-line document never holds up another document's hover", { timeout: 60_000 }, async () => {
  const session = await startLspSession({ initializationOptions: { optimizer: { analysisDelayMs: 0, syntaxWindowMs: 0 } } });
  const { connection } = session;
  try {
    const big = "untitled:big.dml";
    const small = "untitled:small.dml";
    const bigText = Array.from({ length: 50_000 }, (_, i) => `X${i} = rand(rows=${(i % 7) + 1}, cols=3) %*% t(rand(rows=4, cols=3))`).join("\n");
    await connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: small, languageId: "dml", version: 1, text: "A = rand(rows=4, cols=2)\nprint(sum(A))\n" } });
    await connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: big, languageId: "dml", version: 1, text: bigText } });
    for (let v = 2; v <= 6; v++) {
      await connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri: big, version: v }, contentChanges: [{ range: { start: { line: v, character: 0 }, end: { line: v, character: 0 } }, text: "# edit\n" }] });
    }
    const started = performance.now();
    const hover = await connection.sendRequest(HoverRequest.type, { textDocument: { uri: small }, position: { line: 0, character: 0 } });
    const ms = performance.now() - started;
    assert.ok(hover !== null);
    assert.ok(ms < 5_000, `the small document's hover took ${Math.round(ms)} ms`);
    const published = await session.diagnosticsWhere((p) => p.uri === big && p.version === 6);
    assert.deepEqual(published.diagnostics.map((d) => d.code), ["document-too-large"]);
    assert.match(String(published.diagnostics[0]!.message), /^this document has 50,005 lines, more than the 10,000 the editor checks while you type/);
    assert.deepEqual(await connection.sendRequest(FoldingRangeRequest.type, { textDocument: { uri: big } }), []);
    assert.deepEqual(await connection.sendRequest(SemanticTokensRequest.type, { textDocument: { uri: big } }), { data: [] });
  } finally {
    await session.stop();
  }
});
