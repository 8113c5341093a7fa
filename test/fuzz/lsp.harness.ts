/**
 * Fuzz harness `lsp`: the real language server (dist/server.js over stdio,
 * driven by cli/lsp-session.ts) under edit storms (lsp-storms.ts), several
 * storms at once on their own documents, many storms per server process and
 * a fresh process per batch. Properties:
 * - the server never dies, and ends with code 0 after shutdown and exit;
 * - every request is answered (a result, or a cancelled / invalid-params /
 *   invalid-request error where that is the documented answer; never an
 *   internal error, neither as an answer nor in the server's log) within
 *   REQUEST_BOUND_MS;
 * - the server's memory (resident set) stays within RSS_BOUND_MB;
 * - after each storm the document's diagnostics equal those of a fresh open
 *   of its final text (the optimizer's hints left out when it runs: they
 *   arrive whenever the worker is done).
 * A storm whose diagnostics differ is shrunk (operations dropped one at a
 * time while the difference stays, on a fresh server) before it is reported.
 */
import { readFileSync } from "node:fs";
import {
  CancellationTokenSource,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ResponseError,
  type Diagnostic,
  type PublishDiagnosticsParams,
} from "vscode-languageserver-protocol/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { startLspSession, type LspSession } from "../../cli/lsp-session";
import { packageRoot } from "../../cli/package-root";
import type { FuzzFailure, FuzzHarness, FuzzMeasure, FuzzRunOptions } from "./harness";
import { describeStorm, drawStorm, exampleScripts, MALFORMED_BODIES, oneMegabyte, type Operation, type Storm, type Where } from "./lsp-storms";

/**
 * The slowest answer allowed, ms: the server's main thread is held up at most
 * by one parse of a document within the checked bounds (10,000 lines) and
 * one analysis of at most 2,000 statements, about 1 s on an idle machine;
 * the bound leaves room for a machine loaded several times over (a run at
 * load 11 on 2 cores saw 5.2 s with a 5,000-statement bound).
 */
export const REQUEST_BOUND_MS = 10_000;
/** The most resident memory the server may use, MB. */
export const RSS_BOUND_MB = 1_500;
/** Storms per server process, and storms run at once (each on its own document). */
const STORMS_PER_BATCH = 25;
const STORMS_AT_ONCE = 5;
/** Diagnostics have settled when none arrived for this long, ms (longer than the server's longest analysis pause, 200 ms). */
const QUIET_MS = 300;
const SETTLE_LIMIT_MS = 60_000;
/** Re-runs a diagnostics difference may use to shrink. */
const SHRINK_RUNS = 12;

const REQUEST_CANCELLED = -32800;
const INVALID_PARAMS = -32602;
const INVALID_REQUEST = -32600;

interface Measures {
  requests: number;
  slowestMs: number;
  /** The slowest request: its method and storm, for the progress log. */
  slowestWhat: string;
  maxRssMb: number;
  edits: number;
  servers: number;
  /** Storms whose final diagnostics (compared with a fresh open's) were not empty. */
  nonEmptyCompared: number;
}

/** One server with a record of the last diagnostics of each document and when they came. */
class Server {
  readonly last = new Map<string, { params: PublishDiagnosticsParams; at: number }>();
  private constructor(readonly session: LspSession) {
    session.connection.onNotification("textDocument/publishDiagnostics", (p: PublishDiagnosticsParams) => {
      this.last.set(p.uri, { params: p, at: performance.now() });
    });
  }

  static async start(optimizer: boolean): Promise<Server> {
    const session = await startLspSession({
      initializationOptions: { optimizer: { enabled: optimizer, analysisDelayMs: 0, syntaxWindowMs: 0, debounceMs: 0, budgetMs: 2_000 } },
    });
    return new Server(session);
  }

  get alive(): boolean {
    return this.session.child.exitCode === null && this.session.child.signalCode === null;
  }

  rssMb(): number {
    try {
      const status = readFileSync(`/proc/${this.session.child.pid}/status`, "utf8");
      return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
    } catch {
      return 0;
    }
  }

  /**
   * The diagnostics of `uri` at `version` once no more came for QUIET_MS
   * and a round trip to the server (answered after any work it was doing,
   * messages are handled in order) brought none either; undefined if none
   * settled within the limit.
   */
  async settled(uri: string, version: number): Promise<Diagnostic[] | undefined> {
    const until = performance.now() + SETTLE_LIMIT_MS;
    while (performance.now() < until && this.alive) {
      const last = this.last.get(uri);
      if (last && last.params.version === version && performance.now() - last.at >= QUIET_MS) {
        await this.session.connection.sendRequest("textDocument/foldingRange", { textDocument: { uri: "untitled:round-trip.dml" } });
        if (this.last.get(uri) === last) return last.params.diagnostics;
        continue;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return undefined;
  }

  /** Writes a framed message body as is (only while no other message is being written). */
  writeRaw(body: string): void {
    this.session.child.stdin.write(`Content-Length: ${Buffer.byteLength(body, "utf8")}\r\n\r\n${body}`);
  }
}

/** What happened in one storm: its problems and the final text. */
interface StormOutcome {
  problems: string[];
  finalText: string;
}

function position(document: TextDocument, where: Where): unknown {
  switch (where.kind) {
    case "inside":
      return document.positionAt(Math.floor(where.share * document.getText().length));
    case "far":
      return { line: document.lineCount + 1_000_000, character: 1_000_000 };
    case "null":
      return null;
    case "negative":
      return { line: -1, character: -3 };
    case "fraction":
      return { line: 0.5, character: 1 };
  }
}

function requestParams(op: Extract<Operation, { kind: "request" }>, uri: string, document: TextDocument): unknown {
  const at = position(document, op.where);
  const textDocument = { uri };
  switch (op.method) {
    case "textDocument/documentSymbol":
    case "textDocument/semanticTokens/full":
    case "textDocument/foldingRange":
    case "textDocument/codeLens":
    case "dmlLens/runParameters":
      return { textDocument };
    case "textDocument/codeAction":
      return { textDocument, range: { start: at, end: at }, context: { diagnostics: [] } };
    case "textDocument/inlayHint":
      return { textDocument, range: { start: { line: 0, character: 0 }, end: at } };
    case "textDocument/rename":
      return { textDocument, position: at, newName: op.newName };
    case "textDocument/references":
      return { textDocument, position: at, context: { includeDeclaration: true } };
    case "dmlLens/estimate":
      return { textDocument, startLine: 0, endLine: typeof at === "object" && at !== null && "line" in at ? (at as { line: number }).line : 3 };
    default:
      return { textDocument, position: at };
  }
}

/** Whether `error` is an answer the request may get: cancelled, or refused params/request where the params were bad or the rename is refused. */
function acceptedError(error: unknown, op: Extract<Operation, { kind: "request" }> | undefined): boolean {
  if (!(error instanceof ResponseError)) return false;
  if (error.code === REQUEST_CANCELLED) return true;
  const badPosition = op !== undefined && op.where.kind !== "inside" && op.where.kind !== "far";
  if (error.code === INVALID_PARAMS) return badPosition || op?.method === "textDocument/rename";
  if (error.code === INVALID_REQUEST) return op?.method === "textDocument/prepareRename";
  return false;
}

/**
 * Runs one storm on `server` for document `uri` and checks its final
 * diagnostics against a fresh open of the final text (`fresh` is that
 * document's URI). Malformed messages are queued in `raw` for the batch to
 * send between storms.
 */
async function runStorm(server: Server, storm: Storm, uri: string, fresh: string, examples: readonly string[], measures: Measures, raw: string[], compareHints: boolean): Promise<StormOutcome> {
  const { connection } = server.session;
  const problems: string[] = [];
  let version = 1;
  let document = TextDocument.create(uri, "dml", version, storm.initial);
  const pending: Promise<void>[] = [];
  const timed = (method: string, params: unknown, op: Extract<Operation, { kind: "request" }> | undefined, token?: CancellationTokenSource) => {
    const started = performance.now();
    measures.requests++;
    pending.push(
      (token ? connection.sendRequest(method, params, token.token) : connection.sendRequest(method, params)).then(
        () => undefined,
        (error: unknown) => {
          if (!acceptedError(error, op)) problems.push(`${method} ${JSON.stringify(params).slice(0, 200)} failed: ${error instanceof ResponseError ? `${error.code} ${error.message}` : String(error)}`);
        },
      ).finally(() => {
        const ms = performance.now() - started;
        if (ms > measures.slowestMs) {
          measures.slowestMs = Math.round(ms);
          measures.slowestWhat = `${method} in ${uri} (${document.lineCount} lines)`;
        }
        if (ms > REQUEST_BOUND_MS) problems.push(`${method} took ${Math.round(ms)} ms (bound ${REQUEST_BOUND_MS} ms)`);
      }),
    );
  };
  const change = async (changes: ({ text: string } | { range: { start: { line: number; character: number }; end: { line: number; character: number } }; text: string })[]) => {
    version++;
    measures.edits++;
    document = TextDocument.update(document, changes, version);
    await connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: changes });
  };
  await connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: "dml", version, text: storm.initial } });
  for (const op of storm.operations) {
    switch (op.kind) {
      case "edit": {
        const length = document.getText().length;
        const start = Math.floor(op.at * length);
        const end = Math.min(length, start + Math.floor(op.length * length));
        const range = { start: document.positionAt(start), end: op.pastEnd ? { line: document.lineCount + 5, character: 7 } : document.positionAt(end) };
        await change([{ range, text: op.text }]);
        break;
      }
      case "replaceAll":
        await change([{ text: op.text }]);
        break;
      case "deleteAll":
        await change([{ range: { start: { line: 0, character: 0 }, end: { line: document.lineCount, character: 0 } }, text: "" }]);
        break;
      case "bigPaste": {
        const at = document.positionAt(Math.floor(op.at * document.getText().length));
        await change([{ range: { start: at, end: at }, text: oneMegabyte(examples) }]);
        break;
      }
      case "closeReopen":
        await connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
        if (op.pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, op.pauseMs));
        version++;
        document = TextDocument.create(uri, "dml", version, document.getText());
        await connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: "dml", version, text: document.getText() } });
        break;
      case "request":
        timed(op.method, requestParams(op, op.unopened ? `untitled:never-opened-${op.method}.dml` : uri, document), op);
        break;
      case "cancelFlood":
        for (let i = 0; i < op.count; i++) {
          const source = new CancellationTokenSource();
          timed("textDocument/hover", { textDocument: { uri }, position: document.positionAt(i * 13) }, undefined, source);
          source.cancel();
        }
        break;
      case "malformed":
        raw.push(MALFORMED_BODIES[op.which]!);
        break;
    }
  }
  await Promise.all(pending);
  const finalText = document.getText();
  const stormed = await server.settled(uri, version);
  await connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: fresh, languageId: "dml", version: 1, text: finalText } });
  const opened = await server.settled(fresh, 1);
  if (stormed === undefined || opened === undefined) problems.push(`no settled diagnostics within ${SETTLE_LIMIT_MS} ms (${stormed === undefined ? "storm" : "fresh open"}${server.alive ? "" : "; the server died"})`);
  else {
    const a = normalize(stormed, compareHints);
    const b = normalize(opened, compareHints);
    if (a.length > 0) measures.nonEmptyCompared++;
    if (a.join("\n") !== b.join("\n")) problems.push(`diagnostics after the storm differ from a fresh open of the final text:\n  storm: ${a.join("\n         ")}\n  fresh: ${b.join("\n         ")}`);
  }
  await connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  await connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri: fresh } });
  return { problems, finalText };
}

const OPTIMIZER_CODES = new Set(["cheaper-rewrite", "optimizer-stopped"]);

function normalize(diagnostics: readonly Diagnostic[], withHints: boolean): string[] {
  return diagnostics
    .filter((d) => withHints || !OPTIMIZER_CODES.has(String(d.code)))
    .map((d) => `${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character} ${d.severity} ${d.code ?? ""} ${d.message}`)
    .sort();
}

/** The internal errors the server logged (guarded handlers log them instead of answering with them). */
function internalErrors(server: Server): string[] {
  return server.session.logs.filter((l) => /internal error/i.test(l));
}

async function stopServer(server: Server, problems: string[]): Promise<void> {
  if (!server.alive) {
    problems.push(`the server died (exit ${await server.session.exited}); stderr: ${server.session.stderr().slice(-2000)}`);
    await server.session.stop().catch(() => undefined);
    return;
  }
  await server.session.stop();
  const code = await server.session.exited;
  if (code !== 0) problems.push(`after shutdown and exit the server ended with ${code}, not 0`);
}

/** Runs one storm alone on a fresh server: its problems (for shrinking). */
async function rerun(storm: Storm, examples: readonly string[], compareHints: boolean): Promise<string[]> {
  const server = await Server.start(compareHints);
  const measures: Measures = { requests: 0, slowestMs: 0, slowestWhat: "", maxRssMb: 0, edits: 0, servers: 1, nonEmptyCompared: 0 };
  const raw: string[] = [];
  const outcome = await runStorm(server, storm, "untitled:shrink.dml", "untitled:shrink-fresh.dml", examples, measures, raw, compareHints);
  await stopServer(server, outcome.problems);
  return outcome.problems;
}

/** Drops operations one at a time while the storm still shows a diagnostics difference. */
async function shrink(storm: Storm, examples: readonly string[], compareHints: boolean): Promise<Storm> {
  let current = storm;
  let runs = 0;
  for (let i = current.operations.length - 1; i >= 0 && runs < SHRINK_RUNS; i--) {
    const smaller = { ...current, operations: current.operations.filter((_, k) => k !== i) };
    runs++;
    if ((await rerun(smaller, examples, compareHints)).some((p) => p.startsWith("diagnostics after the storm differ"))) current = smaller;
  }
  return current;
}

export const harness: FuzzHarness = {
  name: "lsp",
  title: "language server under edit storms, bad positions, cancel floods, malformed messages, huge documents: never dies, answers in bounds, diagnostics = a fresh open's",
  ciCases: 30,
  reportCases: 2000,
  async run(options: FuzzRunOptions) {
    const examples = exampleScripts(packageRoot());
    const failures: FuzzFailure[] = [];
    const measures: Measures = { requests: 0, slowestMs: 0, slowestWhat: "", maxRssMb: 0, edits: 0, servers: 0, nonEmptyCompared: 0 };
    let cases = 0;
    let stoppedByDeadline = false;
    let shrunk = 0;
    for (let batch = 0; cases < options.cases; batch++) {
      if (Date.now() > options.deadlineMs) {
        stoppedByDeadline = true;
        break;
      }
      const optimizer = batch % 2 === 1; // every other server also runs the optimizer
      const server = await Server.start(optimizer);
      measures.servers++;
      const batchProblems: string[] = [];
      for (let k = 0; k < STORMS_PER_BATCH && cases < options.cases && server.alive; k += STORMS_AT_ONCE) {
        const indices = Array.from({ length: Math.min(STORMS_AT_ONCE, STORMS_PER_BATCH - k, options.cases - cases) }, (_, j) => cases + j);
        const raw: string[] = [];
        const storms = indices.map((index) => drawStorm(examples, options.seed, index));
        const outcomes = await Promise.all(storms.map((storm, j) => runStorm(server, storm, `untitled:storm-${indices[j]}.dml`, `untitled:fresh-${indices[j]}.dml`, examples, measures, raw, false)));
        // Between storms no other message is being written: the malformed ones go out whole.
        for (const body of raw) server.writeRaw(body);
        measures.maxRssMb = Math.max(measures.maxRssMb, server.rssMb());
        for (let j = 0; j < storms.length; j++) {
          const problems = outcomes[j]!.problems;
          if (problems.length === 0) continue;
          let storm = storms[j]!;
          if (problems.some((p) => p.startsWith("diagnostics after the storm differ")) && shrunk < 3) {
            shrunk++;
            storm = await shrink(storm, examples, false);
          }
          failures.push({ input: describeStorm(storm), problem: `storm ${indices[j]} (seed ${options.seed}): ${problems.slice(0, 3).join("; ")}` });
        }
        cases += storms.length;
        options.log(`${cases} storms, ${failures.length} failures, slowest answer ${measures.slowestMs} ms (${measures.slowestWhat}), server RSS ${measures.maxRssMb} MB`);
      }
      batchProblems.push(...internalErrors(server).map((l) => `the server logged: ${l.slice(0, 500)}`));
      await stopServer(server, batchProblems);
      if (batchProblems.length > 0) failures.push({ input: `batch ${batch} (storms up to ${cases}, seed ${options.seed})`, problem: batchProblems.slice(0, 3).join("; ") });
    }
    const result: FuzzMeasure[] = [
      { name: "slowest response", value: measures.slowestMs, unit: "ms", bound: REQUEST_BOUND_MS },
      { name: "max server RSS", value: measures.maxRssMb, unit: "MB", bound: RSS_BOUND_MB },
      { name: "requests", value: measures.requests, unit: "requests" },
      { name: "edits", value: measures.edits, unit: "edits" },
      { name: "server processes", value: measures.servers, unit: "processes" },
      { name: "storms ending with diagnostics (compared)", value: measures.nonEmptyCompared, unit: "storms" },
    ];
    return { cases, failures, measures: result, stoppedByDeadline };
  },
};
