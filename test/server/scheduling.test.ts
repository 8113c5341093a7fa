/**
 * The server's scheduling, in-process (test/server/in-process-server.ts: no
 * process spawned): a fake clock the test advances and an optimizer the test
 * releases show that a burst of edits costs one analysis and one
 * optimization, that an edit during an optimization keeps its result from
 * being published, and that an analysis due for a version that a newer one
 * replaced publishes nothing.
 */
import { strict as assert } from "node:assert";
import { afterEach, beforeEach, describe, test } from "node:test";
import { DidChangeTextDocumentNotification, DidCloseTextDocumentNotification, DidOpenTextDocumentNotification, type PublishDiagnosticsParams } from "vscode-languageserver-protocol/node";
import { OptimizerStateNotification } from "../../protocol/custom-methods";
import { startInProcessServer, type InProcessServer } from "./in-process-server";

const uri = "untitled:scheduling.dml";
/** One block whose multiplication chain the optimizer reorders (X %*% (X %*% v)). */
const script = "X = rand(rows=2000, cols=2000)\nv = rand(rows=2000, cols=1)\ny = X %*% X %*% v\nprint(sum(y))\n";
/** `w` is never assigned: only the full analysis says so, not the syntax check. */
const withUndefined = script.replace("print(sum(y))", "print(sum(y) + w)");
const UNDEFINED_W = "'w' is not defined: it is never assigned";

const ANALYSIS_DELAY_MS = 50;
const SYNTAX_WINDOW_MS = 15;
const DEBOUNCE_MS = 250;

let server: InProcessServer;

const publishedFor = () => server.client.published.filter((p) => p.uri === uri);
const versions = () => publishedFor().map((p) => p.version);
const messages = (p: PublishDiagnosticsParams | undefined) => (p?.diagnostics ?? []).map((d) => d.message);
const hints = (p: PublishDiagnosticsParams | undefined) => (p?.diagnostics ?? []).filter((d) => d.code === "cheaper-rewrite");

async function open(text: string): Promise<void> {
  await server.client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: "dml", version: 1, text } });
  await server.barrier();
}

async function change(version: number, text: string): Promise<void> {
  await server.client.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ text }] });
  await server.barrier();
}

describe("the server's scheduling, in-process with a fake clock", () => {
  beforeEach(async () => {
    server = await startInProcessServer({ initializationOptions: { optimizer: { analysisDelayMs: ANALYSIS_DELAY_MS, syntaxWindowMs: SYNTAX_WINDOW_MS, debounceMs: DEBOUNCE_MS } } });
  });

  afterEach(async () => {
    await server.stop();
  });

  test("a document's first version is analyzed at once; its optimization waits for the debounce", async () => {
    await open(script);
    assert.deepEqual(versions(), [], "nothing before the clock moves and the received messages are handled");
    await server.settle(0);
    assert.deepEqual(versions(), [1]);
    await server.settle(DEBOUNCE_MS - 1);
    assert.equal(server.optimizer.asked.length, 0, "not before the debounce");
    await server.settle(1);
    assert.deepEqual(server.optimizer.asked, [script], "one block, of version 1");
    assert.deepEqual(server.notifications(OptimizerStateNotification), [{ uri, state: "optimizing" }]);
    await server.optimizer.release();
    await server.barrier();
    assert.deepEqual(versions(), [1, 1], "the optimizer's hints are published");
    assert.equal(hints(publishedFor()[1]).length, 1, JSON.stringify(messages(publishedFor()[1])));
    assert.deepEqual(server.notifications(OptimizerStateNotification).at(-1), { uri, state: "idle", suggestions: 1, safetyNets: 0 });
  });

  test("a burst of edits within the pause costs one analysis and one optimization, of the last version", async () => {
    await open(script);
    await server.settle(0);
    await server.settle(100); // a quiet spell
    const texts = [2, 3, 4, 5].map((version) => (version === 5 ? withUndefined : script.replace("rows=2000, cols=1", `rows=2000, cols=${version}`)));
    for (const [k, text] of texts.entries()) {
      await change(k + 2, text);
      await server.settle(10);
    }
    // Syntax checks every SYNTAX_WINDOW_MS (of versions 3 and 5); the full analysis ANALYSIS_DELAY_MS after the last edit.
    await server.settle(ANALYSIS_DELAY_MS);
    assert.deepEqual(versions(), [1, 3, 5, 5]);
    const [, quick3, quick5, full5] = publishedFor();
    assert.ok(!messages(quick3).includes(UNDEFINED_W) && !messages(quick5).includes(UNDEFINED_W), "the syntax checks do not analyze");
    assert.ok(messages(full5).includes(UNDEFINED_W), `the full analysis of version 5: ${JSON.stringify(messages(full5))}`);
    await server.settle(DEBOUNCE_MS);
    assert.deepEqual(server.optimizer.asked, [withUndefined], "version 1's optimization was cancelled by the first edit; 2-4 were never optimized");
    await server.optimizer.release();
    await server.barrier();
    assert.deepEqual(versions(), [1, 3, 5, 5, 5]);
    assert.equal(hints(publishedFor()[4]).length, 1);
  });

  test("an edit while the optimizer runs: the old version's result is not published", async () => {
    await open(script);
    await server.settle(0);
    await server.settle(DEBOUNCE_MS);
    assert.equal(server.optimizer.waiting, 1, "version 1's block is being optimized");
    await change(2, withUndefined);
    assert.equal(await server.optimizer.release(), 1);
    await server.barrier();
    assert.deepEqual(versions(), [1], "version 1's hints are not published after version 2 came in");
    assert.deepEqual(server.notifications(OptimizerStateNotification), [{ uri, state: "optimizing" }], "and the optimizer does not report it done");
    // Version 2 gets its own analysis and optimization, and its hints.
    await server.settle(ANALYSIS_DELAY_MS);
    await server.settle(DEBOUNCE_MS);
    await server.optimizer.release();
    await server.barrier();
    const last = publishedFor().at(-1);
    assert.equal(last?.version, 2);
    assert.ok(messages(last).includes(UNDEFINED_W));
    assert.equal(hints(last).length, 1);
  });

  test("an analysis due for version n publishes nothing once version n+1 has come in", async () => {
    await open(script);
    await server.settle(0);
    await server.settle(100);
    await change(2, withUndefined);
    server.clock.advance(ANALYSIS_DELAY_MS); // version 2's syntax check runs; its analysis comes due
    assert.equal(server.clock.pendingDeferred, 1, "version 2's analysis waits behind the received messages");
    await change(3, withUndefined.replace("cols=1", "cols=3"));
    assert.equal(server.clock.runDeferred(), 1); // version 2's analysis: version 3 is current now
    await server.barrier();
    assert.deepEqual(versions(), [1, 2], "version 2: its syntax check only");
    assert.ok(!messages(publishedFor()[1]).includes(UNDEFINED_W), "version 2 was never analyzed");
    // Version 3: its syntax check, then its analysis after the pause.
    await server.settle(ANALYSIS_DELAY_MS);
    assert.deepEqual(versions(), [1, 2, 3, 3]);
    assert.ok(messages(publishedFor()[3]).includes(UNDEFINED_W), "version 3's full analysis");
  });

  test("closing a document cancels its pending analysis, syntax check and optimization", async () => {
    await open(script);
    await server.settle(0);
    await change(2, withUndefined);
    assert.equal(server.clock.pendingTimers, 2, "version 2's analysis and syntax check (the edit cancelled version 1's optimization)");
    await server.client.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
    await server.barrier();
    assert.equal(server.clock.pendingTimers, 0);
    await server.settle(10 * DEBOUNCE_MS);
    assert.deepEqual(publishedFor().map((p) => [p.version, p.diagnostics.length]), [[1, 0], [undefined, 0]], "version 1, then the close's empty diagnostics");
    assert.deepEqual(server.optimizer.asked, []);
  });
});
