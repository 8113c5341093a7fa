/**
 * The server's settings through the protocol (didChangeConfiguration, as
 * VS Code sends `dmlLens.optimizer`): the size-assumptions file of the
 * workspace folder and the one named in the settings, problems of a
 * malformed one published on that file, the sparsity estimate, the cost
 * unit of hints and quick fixes, ILP extraction, invalid values ignored
 * with a log message; go to definition into a `source()`d file; and
 * `$/cancelRequest` for requests still queued.
 */
import { strict as assert } from "node:assert";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { pathToFileURL } from "node:url";
import {
  CancellationTokenSource,
  CodeActionRequest,
  DefinitionRequest,
  DidChangeConfigurationNotification,
  DidOpenTextDocumentNotification,
  HoverRequest,
  LSPErrorCodes,
  ResponseError,
  type CodeAction,
  type Hover,
  type Location,
  type MarkupContent,
  type PublishDiagnosticsParams,
} from "vscode-languageserver-protocol/node";
import { type LspSession, startLspSession } from "../../cli/lsp-session";
import { repoRoot } from "../repo-root";

const folder = mkdtempSync(path.join(tmpdir(), "dml-lens-settings-"));
const sumProduct = readFileSync(path.join(repoRoot, "examples", "sum_product.dml"), "utf8");
const sumProductUri = pathToFileURL(path.join(folder, "sum_product.dml")).href;
const readerUri = pathToFileURL(path.join(folder, "reader.dml")).href;
const readerText = 'X = read("data/X.csv")\nwhile (FALSE) {}\nY = t(X) %*% X\n';

let session: LspSession;

const hints = (p: PublishDiagnosticsParams) => p.diagnostics.filter((d) => d.code === "cheaper-rewrite");
const lineOf = (needle: string) => sumProduct.split("\n").findIndex((l) => l.startsWith(needle));

async function hover(uri: string, line: number, character: number): Promise<string> {
  const result = (await session.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line, character } })) as Hover | null;
  return result ? (result.contents as MarkupContent).value : "";
}

async function quickFixTitles(uri: string, line: number): Promise<string[]> {
  const actions = (await session.connection.sendRequest(CodeActionRequest.type, {
    textDocument: { uri },
    range: { start: { line, character: 0 }, end: { line, character: 0 } },
    context: { diagnostics: [] },
  })) as CodeAction[];
  return actions.map((a) => a.title);
}

function configure(optimizer: Record<string, unknown>): Promise<void> {
  return session.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: { dmlLens: { optimizer } } });
}

describe("settings through the protocol", () => {
  before(async () => {
    writeFileSync(path.join(folder, "sum_product.dml"), sumProduct);
    writeFileSync(path.join(folder, "reader.dml"), readerText);
    writeFileSync(path.join(folder, "dml-lens.json"), JSON.stringify({ inputs: { X: { rows: 100, cols: 50, nnz: 500 } } }));
    writeFileSync(path.join(folder, "large.json"), JSON.stringify({ inputs: { X: { rows: 1000000, cols: 2000, sparsity: 0.01 } } }));
    writeFileSync(path.join(folder, "broken.json"), '{"inputs": {"X": {"rows": 10, "cols": }}}');
    session = await startLspSession({
      workspaceFolders: [{ uri: pathToFileURL(folder).href, name: "ws" }],
      // A budget the node limit ends first: the hints do not depend on this machine's speed.
      initializationOptions: { optimizer: { debounceMs: 50, budgetMs: 10_000 } },
    });
    await session.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: readerUri, languageId: "dml", version: 1, text: readerText } });
    await session.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: sumProductUri, languageId: "dml", version: 1, text: sumProduct } });
  });

  after(async () => {
    await session.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  test("sizes come from the workspace folder's dml-lens.json, then from the size-assumptions file the settings name", async () => {
    await session.diagnosticsWhere((p) => p.uri === readerUri);
    assert.match(await hover(readerUri, 0, 0), /\*\*X\*\*: matrix 100 × 50, nnz 500 \(exact\)/);
    await configure({ sizeAssumptionsFile: "large.json" });
    await session.diagnosticsWhere((p) => p.uri === readerUri && p.diagnostics.length === 0 && session.published.indexOf(p) > 0);
    assert.match(await hover(readerUri, 0, 0), /\*\*X\*\*: matrix 1,000,000 × 2,000, nnz 20,000,000 \(exact\)/);
    assert.match(await hover(readerUri, 2, 0), /\*\*Y\*\*: matrix 2,000 × 2,000/);
  });

  test("a malformed size-assumptions file gets its diagnostics on its own URI, cleared when the setting changes", async () => {
    const brokenUri = pathToFileURL(path.join(folder, "broken.json")).href;
    const next = session.nextDiagnostics((p) => p.uri === brokenUri);
    await configure({ sizeAssumptionsFile: "broken.json" });
    const problems = await next;
    assert.equal(problems.diagnostics.length, 1);
    assert.match(problems.diagnostics[0]!.message as string, /malformed broken\.json/);
    assert.equal(problems.diagnostics[0]!.range.start.line, 0);
    const cleared = session.nextDiagnostics((p) => p.uri === brokenUri && p.diagnostics.length === 0);
    await configure({ sizeAssumptionsFile: "" });
    await cleared;
    assert.match(await hover(readerUri, 0, 0), /matrix 100 × 50/);
  });

  test("the sparsity estimate: worst-case shows the chain bound of rand's non-zeros, mnc the estimate", async () => {
    const line = lineOf("X = rand");
    assert.match(await hover(sumProductUri, line, 0), /nnz ≈ 50,000 \(uniform estimate\)/);
    await configure({ sparsityEstimator: "worst-case" });
    assert.match(await hover(sumProductUri, line, 0), /nnz ≈ 50,000,000 \(worst case, chain bound\), sparsity 1\.00/);
    await configure({ sparsityEstimator: "mnc" });
    assert.match(await hover(sumProductUri, line, 0), /nnz ≈ 50,000 \(/);
  });

  test("the cost unit: hints and quick-fix titles in FLOP or bytes instead of seconds", async () => {
    await session.diagnosticsWhere((p) => p.uri === sumProductUri && hints(p).length >= 5);
    const inFlops = session.nextDiagnostics((p) => p.uri === sumProductUri && hints(p).length >= 5 && hints(p).every((d) => /FLOP → /.test(d.message as string)));
    await configure({ costUnit: "flops" });
    const g = hints(await inFlops).find((d) => d.range.start.line === lineOf("G ="))!;
    assert.match(g.message as string, /a cheaper equivalent exists: 4\.05 GFLOP → [\d.]+ MFLOP \(\d+× less\)/);
    const line = lineOf("G =");
    assert.match((await quickFixTitles(sumProductUri, line))[0]!, /^Apply cheaper rewrite: 4\.05 GFLOP → [\d.]+ MFLOP \(\d+× less\): /);
    await configure({ costUnit: "bytes" });
    assert.match((await quickFixTitles(sumProductUri, line))[0]!, /^Apply cheaper rewrite: 1\.61 GB → [\d.]+ MB \(\d+× less\): /);
  });

  test("an invalid value is logged and ignored; the others of the same change apply", async () => {
    const republished = session.nextDiagnostics((p) => p.uri === sumProductUri && hints(p).some((d) => /B → /.test(d.message as string)));
    await configure({ costUnit: "watts", budgetMs: -5, inlayHints: false });
    await republished;
    // A publish still due from an earlier change (the optimizer's, a work-bounded run of a second or more
    // on a busy machine) can match before the server reads this change: wait for its log lines too.
    for (let waited = 0; waited < 10_000 && !session.logs.some((m) => m.includes("dmlLens.optimizer.budgetMs")); waited += 20) await new Promise((r) => setTimeout(r, 20));
    assert.ok(session.logs.some((m) => m.includes('dmlLens.optimizer.costUnit must be one of "time", "flops", "bytes", not "watts"; keeping "bytes"')), session.logs.join("\n"));
    assert.ok(session.logs.some((m) => m.includes("dmlLens.optimizer.budgetMs must be a positive number")));
  });

  test("ILP extraction: the verified rewrite of G is offered again after the cache is dropped", async () => {
    const line = lineOf("G =");
    const inSeconds = (q: PublishDiagnosticsParams) => hints(q).some((d) => d.range.start.line === line && /\d s → /.test(d.message as string));
    const next = session.nextDiagnostics((q) => q.uri === sumProductUri && inSeconds(q), 60_000);
    await configure({ costUnit: "time", extraction: "ilp" });
    const p = await next;
    assert.match(hints(p).find((d) => d.range.start.line === line)!.message as string, /4\.21 s → [\d.]+ ms/);
    const actions = (await session.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri: sumProductUri },
      range: { start: { line, character: 0 }, end: { line, character: 0 } },
      context: { diagnostics: [] },
    })) as CodeAction[];
    const edit = actions[0]!.edit!.changes![sumProductUri]![0]!;
    assert.match(edit.newText, /t\(Vk\) %\*% Vk/);
  });

  test("go to definition of ns::f opens the source()d file at the function", async () => {
    writeFileSync(path.join(folder, "lib.dml"), "# helpers\nscale = function(matrix[double] A, double c) return (matrix[double] B) {\n  B = A * c\n}\n");
    const mainUri = pathToFileURL(path.join(folder, "main.dml")).href;
    const main = 'source("lib.dml") as lib\nY = lib::scale(rand(rows=3, cols=3), 2)\n';
    await session.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: mainUri, languageId: "dml", version: 1, text: main } });
    const found = (await session.connection.sendRequest(DefinitionRequest.type, { textDocument: { uri: mainUri }, position: { line: 1, character: 10 } })) as Location;
    assert.equal(found.uri, pathToFileURL(path.join(folder, "lib.dml")).href);
    assert.deepEqual(found.range, { start: { line: 1, character: 0 }, end: { line: 1, character: 5 } });
  });

  test("$/cancelRequest: requests the client cancels while they are queued are answered as cancelled", async () => {
    const big = Array.from({ length: 400 }, (_, i) => `A${i} = rand(rows=${i + 10}, cols=20) %*% rand(rows=20, cols=5)\n`).join("");
    const bigUri = pathToFileURL(path.join(folder, "big.dml")).href;
    await session.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: bigUri, languageId: "dml", version: 1, text: big } });
    const outcomes = await Promise.all(
      Array.from({ length: 40 }, (_, i) => {
        const source = new CancellationTokenSource();
        const request = session.connection.sendRequest(HoverRequest.type, { textDocument: { uri: bigUri }, position: { line: i, character: 0 } }, source.token);
        source.cancel();
        return request.then(
          (hoverResult) => ({ hover: hoverResult }),
          (error: unknown) => ({ error }),
        );
      }),
    );
    const cancelled = outcomes.filter((o) => "error" in o && o.error instanceof ResponseError && o.error.code === LSPErrorCodes.RequestCancelled);
    assert.ok(cancelled.length >= 1, `none of ${outcomes.length} cancelled hovers was answered as cancelled`);
    for (const o of outcomes) if ("hover" in o && o.hover) assert.match((o.hover.contents as MarkupContent).value, /\*\*A\d+\*\*: matrix [\d,]+ × 5/);
    // The server still answers.
    assert.match(await hover(bigUri, 3, 0), /\*\*A3\*\*: matrix 13 × 5/);
  });
});
