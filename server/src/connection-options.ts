/**
 * How the server's connection treats its messages (server.ts, and the
 * in-process tests' connection): a request still queued when the client
 * cancels it (e.g. hovers sent while a long analysis ran) is answered as
 * cancelled without being computed.
 */
import { LSPErrorCodes, type ConnectionOptions, type RequestMessage } from "vscode-languageserver/node";

export const CONNECTION_OPTIONS: ConnectionOptions = {
  connectionStrategy: {
    cancelUndispatched: (message) => ({ jsonrpc: "2.0", id: (message as RequestMessage).id, error: { code: LSPErrorCodes.RequestCancelled, message: "cancelled before it started" } }),
  },
};
