// `dml bench lsp`'s documents against the server's bounds (cli/bench-lsp.ts).
// The robustness document stays within the lines the server checks while
// you type (server/src/document-bounds.ts), so its syntax diagnostics are
// measured, but has more statements than the server analyzes
// (server/src/document-diagnostics.ts): the run must not wait for hints or
// semantic diagnostics there. It did, and timed out after 60 s on every
// semantic edit. The 2,000-line document is analyzed: its semantic
// diagnostics are measured.
import assert from "node:assert/strict";
import path from "node:path";
import { describe, it } from "node:test";
import type { PublishDiagnosticsParams } from "vscode-languageserver-protocol";
import { ROBUSTNESS_LINES, unanalyzedBecause } from "../../cli/bench-lsp";
import { generateParseBenchScript } from "../../cli/bench-parse";
import { parse } from "../../engine/syntax/parse";
import { MAX_CHECKED_LINES } from "../../server/src/document-bounds";
import { documentCheck } from "../../server/src/document-diagnostics";
import { repoRoot } from "../repo-root";

const examples = path.join(repoRoot, "examples");

/** What the server publishes for the document's first version (messages and codes; documentCheck is what it runs). */
function published(text: string): PublishDiagnosticsParams {
  const checked = documentCheck("untitled:bench.dml", text, parse(text, { keepComments: true }));
  return { uri: "untitled:bench.dml", version: 1, diagnostics: checked.diagnostics.map((d) => ({ range: d.range, message: d.message, ...(d.code !== undefined ? { code: d.code } : {}) })) };
}

describe("bench lsp documents", () => {
  it("the robustness document is within the checked lines but past the analyzed statements: the run says so", () => {
    const text = generateParseBenchScript(examples, ROBUSTNESS_LINES);
    const lines = text.split("\n").length;
    assert.ok(lines >= ROBUSTNESS_LINES && lines <= MAX_CHECKED_LINES, `${lines} lines`);
    assert.match(unanalyzedBecause(published(text)) ?? "", /more than 2,000 statements, the most the editor analyzes per document/);
  });

  it("the 2,000-line document is analyzed: its semantic diagnostics are measured", () => {
    const text = generateParseBenchScript(examples, 2000);
    const diagnostics = published(text);
    assert.equal(unanalyzedBecause(diagnostics), undefined);
    assert.ok(diagnostics.diagnostics.length > 0, "the analysis reports problems of the generated document");
  });

  it("a document past the checked lines is unanalyzed too", () => {
    const zero = { line: 0, character: 0 };
    const tooLarge = { severity: 3 as const, message: "this document has 10,001 lines, ...", range: { start: zero, end: zero }, code: "document-too-large" };
    assert.equal(unanalyzedBecause({ uri: "untitled:x.dml", diagnostics: [tooLarge] }), "this document has 10,001 lines, ...");
    assert.equal(unanalyzedBecause({ uri: "untitled:x.dml", diagnostics: [{ ...tooLarge, code: "cheaper-rewrite" }] }), undefined);
  });
});
