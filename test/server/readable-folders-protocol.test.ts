/**
 * Analysis reads only inside the readable folders (the workspace folders
 * and dmlLens.analysis.readableFolders): a read() of a file outside them,
 * by an absolute path, `..` or a symbolic link, is not opened and a warning
 * at the read() argument says how to allow it; the size-assumptions file
 * must be a .json file inside them, and no file's content is quoted.
 */
import { strict as assert } from "node:assert";
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { test } from "node:test";
import { DidChangeConfigurationNotification, DidOpenTextDocumentNotification, HoverRequest, type PublishDiagnosticsParams } from "vscode-languageserver-protocol/node";
import { startLspSession } from "../../cli/lsp-session";
import { guardedFileSystem, ReadableFolders } from "../../server/src/readable-folders";
import { nodeFileSystem } from "../../engine/files";

function layout() {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "dml-readable-")));
  const ws = path.join(root, "ws");
  const outside = path.join(root, "outside");
  mkdirSync(path.join(ws, "data"), { recursive: true });
  mkdirSync(outside);
  const mtd = (rows: number, cols: number) => JSON.stringify({ data_type: "matrix", value_type: "double", rows, cols, nnz: rows * cols, format: "csv" });
  writeFileSync(path.join(outside, "X.csv"), "1,2,3\n");
  writeFileSync(path.join(outside, "X.csv.mtd"), mtd(7, 3));
  writeFileSync(path.join(outside, "sizes.json"), '{ SECRET_TOKEN: 1 }');
  writeFileSync(path.join(ws, "data", "Y.csv"), "1\n");
  writeFileSync(path.join(ws, "data", "Y.csv.mtd"), mtd(5, 2));
  symlinkSync(outside, path.join(ws, "link"));
  return { root, ws, outside };
}

test("the guard answers 'not there' outside the readable folders and notes the path, whatever the spelling", () => {
  const { ws, outside } = layout();
  const refused = new Set<string>();
  const fs = guardedFileSystem(nodeFileSystem, new ReadableFolders([ws]), refused);
  assert.equal(fs.readFile(path.join(ws, "data", "Y.csv")), "1\n");
  assert.equal(fs.readFile(path.join(ws, "..", "outside", "X.csv")), undefined);
  assert.equal(fs.exists(path.join(ws, "link", "X.csv")), false);
  assert.equal(fs.readHead!(path.join(outside, "X.csv.mtd"), 10), undefined);
  assert.equal(fs.size!("/etc/passwd"), undefined);
  assert.deepEqual([...refused].sort(), [path.join(outside, "X.csv"), path.join(ws, "link", "X.csv"), "/etc/passwd"].sort());
  assert.equal(new ReadableFolders([ws]).allows(path.join(ws + "-sibling", "a")), false, "a sibling whose name starts like the folder is outside");
});

test("read() outside the workspace is refused at its argument, until readableFolders allows it", { timeout: 60_000 }, async () => {
  const { ws, outside } = layout();
  const file = path.join(ws, "a.dml");
  const uri = pathToFileURL(file).href;
  const text = [`A = read("../outside/X.csv")`, `B = read("link/X.csv")`, `C = read("${outside}/X.csv")`, `D = read("data/Y.csv")`, `print(sum(A) + sum(B) + sum(C) + sum(D))`, ""].join("\n");
  writeFileSync(file, text);
  const session = await startLspSession({ rootUri: pathToFileURL(ws).href });
  const { connection } = session;
  try {
    await connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: "dml", version: 1, text } });
    const first = await session.diagnosticsWhere((p) => p.uri === uri && p.version === 1);
    const refusals = first.diagnostics.filter((d) => d.code === "outside-readable-folders");
    assert.deepEqual(refusals.map((d) => [d.range.start.line, d.range.start.character]), [[0, 9], [1, 9], [2, 9]]);
    assert.equal(String(refusals[0]!.message), `analysis does not read '${path.join(outside, "X.csv")}': it is outside the folders analysis may read while you type (the workspace folders and dmlLens.analysis.readableFolders); add its folder to dmlLens.analysis.readableFolders in your user settings to allow it`);
    assert.match(String(refusals[1]!.message), new RegExp(`'${path.join(ws, "link", "X.csv")}'`));
    assert.ok(!first.diagnostics.some((d) => d.range.start.line === 3), "data/Y.csv inside the workspace is read");
    const hoverD = JSON.stringify(await connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 3, character: 0 } }));
    assert.match(hoverD, /5×2|5 × 2/);

    await connection.sendNotification(DidChangeConfigurationNotification.type, { settings: { dmlLens: { analysis: { readableFolders: [outside] } } } });
    const allowed = await session.nextDiagnostics((p) => p.uri === uri);
    assert.deepEqual(allowed.diagnostics.filter((d) => d.code === "outside-readable-folders"), []);
    const hoverA = JSON.stringify(await connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 0, character: 0 } }));
    assert.match(hoverA, /7×3|7 × 3/);
  } finally {
    await session.stop();
  }
});

test("a size-assumptions file that is not .json, or lies outside, is not read and nothing of it is quoted", { timeout: 60_000 }, async () => {
  const { ws } = layout();
  const file = path.join(ws, "b.dml");
  const uri = pathToFileURL(file).href;
  const text = "X = rand(rows=3, cols=3)\nprint(sum(X))\n";
  writeFileSync(file, text);
  const session = await startLspSession({ rootUri: pathToFileURL(ws).href, initializationOptions: { optimizer: { sizeAssumptionsFile: "/etc/passwd" } } });
  const { connection } = session;
  const quoted = (p: PublishDiagnosticsParams) => p.diagnostics.some((d) => /root:|SECRET_TOKEN/.test(String(d.message)));
  try {
    await connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: "dml", version: 1, text } });
    const first = await session.diagnosticsWhere((p) => p.uri === uri && p.version === 1);
    assert.match(String(first.diagnostics[0]!.message), /^dmlLens\.optimizer\.sizeAssumptionsFile '\/etc\/passwd' is not a \.json file, so it is not read/);
    await connection.sendNotification(DidChangeConfigurationNotification.type, { settings: { dmlLens: { optimizer: { sizeAssumptionsFile: "../outside/sizes.json" } } } });
    const second = await session.nextDiagnostics((p) => p.uri === uri);
    assert.deepEqual(second.diagnostics.map((d) => d.code), ["outside-readable-folders"]);
    assert.match(String(second.diagnostics[0]!.message), /analysis does not read '.*\/outside\/sizes\.json'/);
    assert.deepEqual(session.published.filter((p) => p.uri !== uri).map((p) => p.uri), [], "no diagnostics on other files");
    assert.deepEqual(session.published.filter(quoted), []);
  } finally {
    await session.stop();
  }
});

test("with no workspace folder open, analysis reads beside the opened script and below, not above it", { timeout: 60_000 }, async () => {
  const { ws, outside } = layout();
  const file = path.join(ws, "single.dml");
  const uri = pathToFileURL(file).href;
  const text = [`D = read("data/Y.csv")`, `A = read("../outside/X.csv")`, `print(sum(A) + sum(D))`, ""].join("\n");
  writeFileSync(file, text);
  const session = await startLspSession({ rootUri: null });
  const { connection } = session;
  try {
    await connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: "dml", version: 1, text } });
    const first = await session.diagnosticsWhere((p) => p.uri === uri && p.version === 1);
    assert.deepEqual(first.diagnostics.filter((d) => d.code === "outside-readable-folders").map((d) => d.range.start.line), [1]);
    assert.match(String(first.diagnostics.find((d) => d.code === "outside-readable-folders")!.message), new RegExp(`'${path.join(outside, "X.csv")}'`));
    const hoverD = JSON.stringify(await connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 0, character: 0 } }));
    assert.match(hoverD, /5×2|5 × 2/);
  } finally {
    await session.stop();
  }
});
