// The built language server over real LSP messages (stdio): both as
// `node dist/server.js --stdio` and as `dml lsp --stdio`.
import { strict as assert } from "node:assert";
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { repoRoot } from "../repo-root";

const root = repoRoot;

interface Message {
  id?: number;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: unknown;
}

/** A minimal LSP client: Content-Length framing, requests by id, notifications by method. */
class LspProcess {
  private buffer = Buffer.alloc(0);
  private nextId = 1;
  private pending = new Map<number, (m: Message) => void>();
  private waiters: { method: string; accept: (m: Message) => boolean; resolve: (m: Message) => void }[] = [];
  private seen: Message[] = [];

  constructor(private child: ChildProcessWithoutNullStreams) {
    child.stdout.on("data", (chunk: Buffer) => this.receive(chunk));
  }

  private receive(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const headerEnd = this.buffer.indexOf("\r\n\r\n");
      if (headerEnd < 0) return;
      const length = Number(/Content-Length: (\d+)/i.exec(this.buffer.subarray(0, headerEnd).toString())?.[1]);
      if (this.buffer.length < headerEnd + 4 + length) return;
      const message = JSON.parse(this.buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString()) as Message;
      this.buffer = this.buffer.subarray(headerEnd + 4 + length);
      this.dispatch(message);
    }
  }

  private dispatch(message: Message): void {
    if (message.id !== undefined && message.method === undefined) {
      this.pending.get(message.id)?.(message);
      this.pending.delete(message.id);
      return;
    }
    const waiter = this.waiters.find((w) => w.method === message.method && w.accept(message));
    if (waiter) {
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve(message);
    } else {
      this.seen.push(message);
    }
  }

  private send(message: object): void {
    const body = JSON.stringify({ jsonrpc: "2.0", ...message });
    this.child.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  }

  request(method: string, params: unknown): Promise<Message> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.send({ id, method, params });
    });
  }

  notify(method: string, params: unknown): void {
    this.send({ method, params });
  }

  notification(method: string, accept: (m: Message) => boolean = () => true): Promise<Message> {
    const earlier = this.seen.find((m) => m.method === method && accept(m));
    if (earlier) {
      this.seen.splice(this.seen.indexOf(earlier), 1);
      return Promise.resolve(earlier);
    }
    return new Promise((resolve) => this.waiters.push({ method, accept, resolve }));
  }

  async shutdown(): Promise<number | null> {
    const exited = new Promise<number | null>((resolve) => this.child.on("exit", (code) => resolve(code)));
    await this.request("shutdown", null);
    this.notify("exit", null);
    return exited;
  }
}

function withTimeout<T>(promise: Promise<T>, what: string, ms = 10_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
    }),
  ]);
}

const launches: [string, string[]][] = [
  ["dist/server.js --stdio", [path.join(root, "dist", "server.js"), "--stdio"]],
  ["dml lsp --stdio", [path.join(root, "bin", "dml.js"), "lsp", "--stdio"]],
];

for (const [name, args] of launches) {
  describe(`language server: ${name}`, () => {
    test("initialize, diagnostics on open and change, outline, folding, shutdown", async () => {
      assert.ok(existsSync(path.join(root, "dist", "server.js")), "dist/server.js is missing: run `npm run build` first");
      const child = spawn(process.execPath, args, { cwd: root, stdio: "pipe" });
      const lsp = new LspProcess(child);
      try {
        const init = await withTimeout(lsp.request("initialize", { processId: process.pid, rootUri: null, capabilities: {} }), "initialize");
        const capabilities = (init.result as { capabilities: Record<string, unknown> }).capabilities;
        assert.equal(capabilities.documentSymbolProvider, true);
        assert.equal(capabilities.foldingRangeProvider, true);
        lsp.notify("initialized", {});

        const uri = "file:///tmp/protocol-test.dml";
        const good = "# %% one\nx = 1\ny = x + 2\n# %% two\nf = function(int a) return (int b) {\n  b = a\n}\n";
        lsp.notify("textDocument/didOpen", { textDocument: { uri, languageId: "dml", version: 1, text: good } });
        const first = await withTimeout(lsp.notification("textDocument/publishDiagnostics"), "diagnostics on open");
        const firstParams = first.params as { uri: string; diagnostics: { severity: number }[] };
        assert.equal(firstParams.uri, uri);
        assert.deepEqual(firstParams.diagnostics.filter((d) => d.severity === 1), []);

        const symbols = await withTimeout(lsp.request("textDocument/documentSymbol", { textDocument: { uri } }), "documentSymbol");
        assert.deepEqual(
          (symbols.result as { name: string; children?: { name: string }[] }[]).map((s) => [s.name, (s.children ?? []).map((c) => c.name)]),
          [
            ["cell 1: one", ["x", "y"]],
            ["cell 2: two", ["f"]],
          ],
        );

        const folding = await withTimeout(lsp.request("textDocument/foldingRange", { textDocument: { uri } }), "foldingRange");
        const regions = (folding.result as { startLine: number; endLine: number; kind?: string }[]).filter((r) => r.kind === "region");
        assert.deepEqual(regions.map((r) => [r.startLine, r.endLine]), [[0, 2], [3, 6]]);

        lsp.notify("textDocument/didChange", {
          textDocument: { uri, version: 2 },
          contentChanges: [{ text: "x = (1 +\n" }],
        });
        const second = await withTimeout(
          lsp.notification("textDocument/publishDiagnostics", (m) => (m.params as { version?: number }).version === 2),
          "diagnostics on change",
        );
        const errors = (second.params as { diagnostics: { severity: number; range: unknown }[] }).diagnostics.filter((d) => d.severity === 1);
        assert.ok(errors.length >= 1, "a syntax error is reported");

        assert.equal(await withTimeout(lsp.shutdown(), "exit"), 0);
      } finally {
        child.kill();
      }
    });
  });
}
