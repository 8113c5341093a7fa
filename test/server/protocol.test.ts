// The built language server over real LSP messages (stdio): both as
// `node dist/server.js --stdio` and as `dml lsp --stdio`, through the one
// LSP client of the tests (cli/lsp-session.ts).
import { strict as assert } from "node:assert";
import path from "node:path";
import { describe, test } from "node:test";
import {
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DocumentSymbolRequest,
  FoldingRangeRequest,
  type DocumentSymbol,
} from "vscode-languageserver-protocol/node";
import { startLspSession } from "../../cli/lsp-session";
import { repoRoot } from "../repo-root";

const launches: [string, string[]][] = [
  ["dist/server.js --stdio", [path.join(repoRoot, "dist", "server.js"), "--stdio"]],
  ["dml lsp --stdio", [path.join(repoRoot, "bin", "dml.js"), "lsp", "--stdio"]],
];

for (const [name, args] of launches) {
  describe(`language server: ${name}`, () => {
    test("initialize, diagnostics on open and change, outline, folding, shutdown", async () => {
      const session = await startLspSession({ args });
      const { connection } = session;
      try {
        assert.equal(session.init.capabilities.documentSymbolProvider, true);
        assert.equal(session.init.capabilities.foldingRangeProvider, true);

        const uri = "file:///tmp/protocol-test.dml";
        const good = "# %% one\nx = 1\ny = x + 2\n# %% two\nf = function(int a) return (int b) {\n  b = a\n}\n";
        await connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: "dml", version: 1, text: good } });
        const first = await session.diagnosticsWhere((p) => p.uri === uri, 10_000);
        assert.deepEqual(first.diagnostics.filter((d) => d.severity === 1), []);

        const symbols = (await connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } })) as DocumentSymbol[];
        assert.deepEqual(
          symbols.map((s) => [s.name, (s.children ?? []).map((c) => c.name)]),
          [
            ["cell 1: one", ["x", "y"]],
            ["cell 2: two", ["f"]],
          ],
        );

        const folding = (await connection.sendRequest(FoldingRangeRequest.type, { textDocument: { uri } })) ?? [];
        const regions = folding.filter((r) => r.kind === "region");
        assert.deepEqual(regions.map((r) => [r.startLine, r.endLine]), [[0, 2], [3, 6]]);

        await connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version: 2 }, contentChanges: [{ text: "x = (1 +\n" }] });
        const second = await session.diagnosticsWhere((p) => p.uri === uri && p.version === 2, 10_000);
        assert.ok(second.diagnostics.filter((d) => d.severity === 1).length >= 1, "a syntax error is reported");
      } finally {
        await session.stop();
      }
      assert.equal(await session.exited, 0, "the server exits with 0 after shutdown and exit");
    });
  });
}
