/**
 * A DmlLanguageServer in the test's own process, no process spawned: its
 * connection and the test's client (cli/lsp-session.ts) talk over a pair of
 * in-memory streams; its clock is a FakeClock the test advances, its
 * optimizer a HeldOptimizer the test releases, and python3 is never asked.
 */
import { PassThrough } from "node:stream";
import { FoldingRangeRequest, NotificationType, createProtocolConnection, ShutdownRequest, StreamMessageReader, StreamMessageWriter } from "vscode-languageserver-protocol/node";
import { createConnection, ProposedFeatures } from "vscode-languageserver/node";
import { openLspClient, type ClientOptions, type LspClient } from "../../cli/lsp-session";
import { CONNECTION_OPTIONS } from "../../server/src/connection-options";
import { DmlLanguageServer } from "../../server/src/dml-language-server";
import { InstallationNotification, OptimizerStateNotification } from "../../protocol/custom-methods";
import { FakeClock } from "./fake-clock";
import { HeldOptimizer } from "./held-optimizer";

export interface InProcessServer {
  client: LspClient;
  clock: FakeClock;
  optimizer: HeldOptimizer;
  /** Every notification of `type` (one of SERVER_NOTIFICATIONS) the server sent so far. */
  notifications<P>(type: NotificationType<P>): P[];
  /** Resolves once the server has handled every message sent before and the client has received every message the server sent before its answer. */
  barrier(): Promise<void>;
  /** Advances the clock by `ms`, runs the tasks deferred behind the received messages, then waits for the barrier. */
  settle(ms: number): Promise<void>;
  stop(): Promise<void>;
}

/** The server's own notifications to the client, kept for notifications(). */
const SERVER_NOTIFICATIONS: readonly NotificationType<unknown>[] = [OptimizerStateNotification, InstallationNotification];

/** A URI no test opens: requests about it are answered without touching any document. */
const BARRIER_URI = "untitled:in-process-barrier.dml";

export async function startInProcessServer(options: ClientOptions = {}): Promise<InProcessServer> {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  const serverConnection = createConnection(ProposedFeatures.all, new StreamMessageReader(toServer), new StreamMessageWriter(toClient), CONNECTION_OPTIONS);
  const clock = new FakeClock();
  const optimizer = new HeldOptimizer();
  const server = new DmlLanguageServer({ connection: serverConnection, clock, optimizerRunner: optimizer.runner, pythonSitePackages: () => Promise.resolve(undefined) });
  server.listen();
  const clientConnection = createProtocolConnection(new StreamMessageReader(toClient), new StreamMessageWriter(toServer));
  const received = new Map<string, unknown[]>();
  for (const { method } of SERVER_NOTIFICATIONS) {
    clientConnection.onNotification(method, (params: unknown) => {
      received.set(method, [...(received.get(method) ?? []), params]);
    });
  }
  // No `exit`: the library's exit handler ends the process it runs in.
  const stop = async () => {
    await clientConnection.sendRequest(ShutdownRequest.type);
    clientConnection.dispose();
    serverConnection.dispose();
    toServer.end();
    toClient.end();
  };
  const client = await openLspClient(clientConnection, { ...options, processId: null }, stop);
  const barrier = async () => {
    await clientConnection.sendRequest(FoldingRangeRequest.type, { textDocument: { uri: BARRIER_URI } });
  };
  return {
    client,
    clock,
    optimizer,
    notifications: <P>(type: NotificationType<P>) => (received.get(type.method) ?? []) as P[],
    barrier,
    settle: async (ms) => {
      clock.advance(ms);
      clock.runDeferred();
      await barrier();
    },
    stop,
  };
}
