/**
 * One wedged document never stops the others: the optimizer worker is made
 * to hang on one block (test hook DML_LENS_TEST_OPTIMIZER_HANG_ON); the
 * watchdog stops and restarts it, that block gets a warning, other
 * documents still get their hints, requests are answered meanwhile, and
 * after the bad document is closed an edit elsewhere is optimized again.
 */
import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { DidChangeTextDocumentNotification, DidCloseTextDocumentNotification, DidOpenTextDocumentNotification, HoverRequest } from "vscode-languageserver-protocol/node";
import { startLspSession } from "../../cli/lsp-session";
import { repoRoot } from "../repo-root";

test("a hanging optimizer block is stopped by the watchdog; the rest of the workspace stays served", { timeout: 90_000 }, async () => {
  const budgetMs = 1_000; // watchdog: 2 x 1 s + 5 s
  const session = await startLspSession({ env: { DML_LENS_TEST_OPTIMIZER_HANG_ON: "hang_here" }, initializationOptions: { optimizer: { debounceMs: 0, budgetMs } } });
  const { connection } = session;
  try {
    const bad = "untitled:bad.dml";
    const good = "untitled:good.dml";
    const goodText = readFileSync(path.join(repoRoot, "examples", "sum_product.dml"), "utf8");
    await connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: bad, languageId: "dml", version: 1, text: "A = rand(rows=50, cols=50)\nhang_here = sum(A %*% A)\nprint(hang_here)\n" } });
    await connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: good, languageId: "dml", version: 1, text: goodText } });
    const started = performance.now();
    const hover = await connection.sendRequest(HoverRequest.type, { textDocument: { uri: good }, position: { line: 5, character: 0 } });
    assert.ok(hover !== null, "hover answered while the worker hangs");
    assert.ok(performance.now() - started < 5_000, `hover took ${performance.now() - started} ms`);
    const stopped = await session.diagnosticsWhere((p) => p.uri === bad && p.diagnostics.some((d) => d.code === "optimizer-stopped"), 30_000);
    const warning = stopped.diagnostics.find((d) => d.code === "optimizer-stopped")!;
    assert.match(String(warning.message), /no rewrites for this block: the optimizer did not answer within 7000 ms \(safety net\): it was stopped and restarted/);
    const hinted = await session.diagnosticsWhere((p) => p.uri === good && p.version === 1 && p.diagnostics.filter((d) => d.code === "cheaper-rewrite").length >= 5, 60_000);
    assert.ok(hinted);
    await connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri: bad } });
    const edited = goodText.replace("l2 = sum((X + U %*% t(V))^2)", "l2 = sum((X + U %*% t(V))^2) + 1");
    await connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri: good, version: 2 }, contentChanges: [{ text: edited }] });
    await session.diagnosticsWhere((p) => p.uri === good && p.version === 2 && p.diagnostics.filter((d) => d.code === "cheaper-rewrite").length >= 5, 60_000);
    assert.ok(session.child.exitCode === null, "the server is still running");
  } finally {
    await session.stop();
  }
});
