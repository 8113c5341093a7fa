/**
 * Language-server hygiene over real LSP messages (dist/server.js): requests
 * after shutdown, exit codes, bad and out-of-range positions, unopened
 * documents, measured sizes of documents never opened.
 */
import { strict as assert } from "node:assert";
import { test } from "node:test";
import {
  CompletionRequest,
  DefinitionRequest,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DocumentSymbolRequest,
  ExitNotification,
  HoverRequest,
  InlayHintRequest,
  RenameRequest,
  ResponseError,
  SemanticTokensRequest,
  ShutdownRequest,
} from "vscode-languageserver-protocol/node";
import { startLspSession } from "../../cli/lsp-session";
import { MeasuredSizesNotification, PlanRequest } from "../../protocol/custom-methods";

const INVALID_REQUEST = -32600;
const INVALID_PARAMS = -32602;

async function errorOf(promise: Promise<unknown>): Promise<ResponseError<unknown>> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ResponseError, String(error));
    return error;
  }
  assert.fail("the request was answered without an error");
}

test("after shutdown every request gets InvalidRequest, and exit ends the server with code 0", async () => {
  const session = await startLspSession();
  const { connection } = session;
  const uri = "untitled:a.dml";
  await connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: "dml", version: 1, text: "X = 1\nprint(X)\n" } });
  await connection.sendRequest(ShutdownRequest.type);
  const error = await errorOf(connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 0, character: 0 } }));
  assert.equal(error.code, INVALID_REQUEST);
  assert.match(error.message, /hover: the server is shutting down/);
  assert.equal((await errorOf(connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } }))).code, INVALID_REQUEST);
  await connection.sendNotification(ExitNotification.type);
  assert.equal(await session.exited, 0);
  connection.dispose();
});

test("exit without shutdown ends the server with code 1", async () => {
  const session = await startLspSession();
  await session.connection.sendNotification(ExitNotification.type);
  assert.equal(await session.exited, 1);
  session.connection.dispose();
});

test("null and malformed positions get InvalidParams; out-of-range positions and unopened documents get empty answers; none is an internal error", async () => {
  const session = await startLspSession();
  const { connection } = session;
  try {
    const uri = "untitled:b.dml";
    const text = "X = rand(rows=3, cols=2)\nY = t(X) %*% X\nprint(sum(Y))\n";
    await connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: "dml", version: 1, text } });
    for (const position of [null, { line: -1, character: 0 }, { line: 0.5, character: 0 }, { line: "0", character: 0 }, {}]) {
      const hover = await errorOf(connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position } as never));
      assert.equal(hover.code, INVALID_PARAMS, JSON.stringify(position));
      assert.match(hover.message, /^hover: position must be \{line, character\} with whole numbers from 0/);
      assert.equal((await errorOf(connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position } as never))).code, INVALID_PARAMS);
    }
    assert.equal((await errorOf(connection.sendRequest(HoverRequest.type, { textDocument: null, position: { line: 0, character: 0 } } as never))).code, INVALID_PARAMS);
    assert.equal((await errorOf(connection.sendRequest(InlayHintRequest.type, { textDocument: { uri }, range: null } as never))).code, INVALID_PARAMS);
    const far = { line: 1_000_000, character: 1_000_000 };
    assert.equal(await connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: far }), null);
    assert.equal(await connection.sendRequest(DefinitionRequest.type, { textDocument: { uri }, position: far }), null);
    assert.equal(await connection.sendRequest(RenameRequest.type, { textDocument: { uri }, position: far, newName: "Z" }), null);
    assert.deepEqual(await connection.sendRequest(InlayHintRequest.type, { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: far } }), [{ position: { line: 0, character: 1 }, label: ": 3×2", kind: 1, paddingLeft: false }, { position: { line: 1, character: 1 }, label: ": 2×2", kind: 1, paddingLeft: false }]);
    const unopened = "untitled:never-opened.dml";
    assert.equal(await connection.sendRequest(HoverRequest.type, { textDocument: { uri: unopened }, position: { line: 0, character: 0 } }), null);
    assert.deepEqual(await connection.sendRequest(CompletionRequest.type, { textDocument: { uri: unopened }, position: { line: 0, character: 0 } }), []);
    assert.deepEqual(await connection.sendRequest(SemanticTokensRequest.type, { textDocument: { uri: unopened } }), { data: [] });
    assert.deepEqual(await connection.sendRequest(PlanRequest, { textDocument: { uri: unopened }, position: { line: 0, character: 0 } }), null);
    assert.deepEqual(session.logs.filter((l) => /internal error/i.test(l)), []);
  } finally {
    await session.stop();
  }
});

test("measured sizes of a document are dropped when it closes: reopened, it shows estimates again", async () => {
  const session = await startLspSession();
  const { connection } = session;
  try {
    const uri = "untitled:m.dml";
    const text = "X = read($F)\nprint(sum(X))\n";
    const hoverX = async () => JSON.stringify(await connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 0, character: 0 } }));
    // Malformed entries on purpose (a negative size, null): sent untyped.
    await connection.sendNotification(MeasuredSizesNotification.method, { textDocument: { uri }, variables: [{ name: "X", rows: 7, cols: 3, nnz: 21 }, { name: "bad", rows: -1, cols: 2, nnz: 0 }, null] });
    await connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: "dml", version: 1, text } });
    assert.match(await hoverX(), /7 × 3|7×3/);
    await connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
    await connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: "dml", version: 2, text } });
    assert.doesNotMatch(await hoverX(), /7 × 3|7×3/);
  } finally {
    await session.stop();
  }
});
