// `dml bench lsp`'s robustness document (cli/bench-lsp.ts): with the lines
// its semantic edits insert, it stays within the lines the server checks
// while you type (server/src/document-bounds.ts). A 10,000-line document
// went past them, the server then reported only its length, and the run
// waited for semantic diagnostics until it timed out.
import assert from "node:assert/strict";
import path from "node:path";
import { describe, it } from "node:test";
import { ROBUSTNESS_LINES, SEMANTIC_EDITS } from "../../cli/bench-lsp";
import { generateParseBenchScript } from "../../cli/bench-parse";
import { MAX_CHECKED_LINES } from "../../server/src/document-bounds";
import { repoRoot } from "../repo-root";

describe("bench lsp documents", () => {
  it("the robustness document and its inserted lines stay within the checked lines", () => {
    const lines = generateParseBenchScript(path.join(repoRoot, "examples"), ROBUSTNESS_LINES).split("\n").length;
    assert.ok(lines >= ROBUSTNESS_LINES, `${lines} lines`);
    assert.ok(lines + SEMANTIC_EDITS <= MAX_CHECKED_LINES, `${lines} + ${SEMANTIC_EDITS} lines, the server checks ${MAX_CHECKED_LINES}`);
  });
});
