/**
 * The one LSP client of the tests and benchmarks, driven by the LSP client
 * library: keeps every published diagnostics notification and every log
 * message, and waits for diagnostics that match a condition.
 *
 * startLspSession runs the language server (dist/server.js, or `dml lsp`)
 * as a child process over stdio: what `dml bench lsp` and the protocol
 * tests talk to. openLspClient drives a server over any connection, e.g.
 * one in the same process over in-memory streams
 * (test/server/in-process-server.ts).
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import {
  createProtocolConnection,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  LogMessageNotification,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type InitializeParams,
  type InitializeResult,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
} from "vscode-languageserver-protocol/node";
import { packageRoot } from "./package-root";

/** A client that has initialized a server. */
export interface LspClient {
  connection: ProtocolConnection;
  init: InitializeResult;
  /** Every diagnostics notification so far, in arrival order. */
  published: PublishDiagnosticsParams[];
  /** Every `window/logMessage` text so far. */
  logs: string[];
  /** The first diagnostics `accept` takes, already received or still to come (rejects after `ms`). */
  diagnosticsWhere(accept: (p: PublishDiagnosticsParams) => boolean, ms?: number): Promise<PublishDiagnosticsParams>;
  /** The first diagnostics `accept` takes among those published from now on. */
  nextDiagnostics(accept: (p: PublishDiagnosticsParams) => boolean, ms?: number): Promise<PublishDiagnosticsParams>;
  stop(): Promise<void>;
}

/** A client of a server in a child process. */
export interface LspSession extends LspClient {
  /** The server process (its pid for memory measures; its stdin for raw bytes such as malformed messages). */
  child: ChildProcessWithoutNullStreams;
  /** The server's exit code (a signal's name when killed), once it exits. */
  exited: Promise<number | string>;
  /** Everything the server wrote on stderr. */
  stderr(): string;
}

/** What the client says at initialize. */
export type ClientOptions = Partial<Pick<InitializeParams, "rootUri" | "workspaceFolders" | "initializationOptions" | "processId">>;

export type SessionOptions = ClientOptions & {
  /** Extra environment variables of the server process. */
  env?: Record<string, string>;
  /** node's arguments that start the server; default `dist/server.js --stdio`. */
  args?: string[];
};

export async function startLspSession(options: SessionOptions = {}): Promise<LspSession> {
  const server = path.join(packageRoot(), "dist", "server.js");
  if (!existsSync(server)) throw new Error("dist/server.js is missing: run `npm run build` first");
  const child = spawn(process.execPath, options.args ?? [server, "--stdio"], { cwd: packageRoot(), stdio: "pipe", env: { ...process.env, ...options.env } });
  const exited = new Promise<number | string>((resolve) => child.on("exit", (code, signal) => resolve(code ?? signal ?? "unknown")));
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    if (stderr.length < 1_000_000) stderr += chunk.toString();
  });
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const ended = await Promise.race([
        (async () => {
          await connection.sendRequest(ShutdownRequest.type);
          await connection.sendNotification(ExitNotification.type);
          return true;
        })().catch(() => false),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000).unref()),
      ]);
      if (ended) await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 2_000).unref())]);
    }
    connection.dispose();
    child.kill();
  };
  const client = await openLspClient(connection, { processId: process.pid, ...options }, stop);
  return { ...client, child, exited, stderr: () => stderr };
}

/**
 * Listens on `connection` (created, not yet listening), initializes the
 * server behind it and keeps what it publishes; `stop` ends the session.
 */
export async function openLspClient(connection: ProtocolConnection, options: ClientOptions, stop: () => Promise<void>): Promise<LspClient> {
  const published: PublishDiagnosticsParams[] = [];
  const logs: string[] = [];
  const listeners = new Set<(p: PublishDiagnosticsParams) => void>();
  connection.onNotification(PublishDiagnosticsNotification.type, (p) => {
    published.push(p);
    for (const listener of [...listeners]) listener(p);
  });
  connection.onNotification(LogMessageNotification.type, (p) => {
    logs.push(p.message);
  });
  connection.listen();
  const wait = (accept: (p: PublishDiagnosticsParams) => boolean, ms: number) =>
    new Promise<PublishDiagnosticsParams>((resolve, reject) => {
      const listener = (p: PublishDiagnosticsParams) => {
        if (!accept(p)) return;
        clearTimeout(timer);
        listeners.delete(listener);
        resolve(p);
      };
      const timer = setTimeout(() => {
        listeners.delete(listener);
        reject(new Error(`timed out after ${ms} ms waiting for diagnostics`));
      }, ms);
      listeners.add(listener);
    });
  const init = await connection.sendRequest(InitializeRequest.type, {
    processId: options.processId ?? null,
    rootUri: options.rootUri ?? null,
    capabilities: {},
    ...(options.workspaceFolders ? { workspaceFolders: options.workspaceFolders } : {}),
    ...(options.initializationOptions !== undefined ? { initializationOptions: options.initializationOptions } : {}),
  });
  await connection.sendNotification(InitializedNotification.type, {});
  return {
    connection,
    init,
    published,
    logs,
    diagnosticsWhere: (accept, ms = 30_000) => {
      const earlier = published.find(accept);
      return earlier ? Promise.resolve(earlier) : wait(accept, ms);
    },
    nextDiagnostics: (accept, ms = 30_000) => wait(accept, ms),
    stop,
  };
}
