/**
 * The setting `dmlLens.systemds.home` through the protocol: the server finds
 * the installation it names, tells the client (`dmlLens/installation`), checks
 * `source("nn/...")` against the installation's scripts, and looks again and
 * re-checks the open documents when the setting changes (to a path that is no
 * installation, to a jar).
 */
import { strict as assert } from "node:assert";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { pathToFileURL } from "node:url";
import { DidChangeConfigurationNotification, DidOpenTextDocumentNotification, type PublishDiagnosticsParams } from "vscode-languageserver-protocol/node";
import { strToU8, zipSync } from "fflate";
import { type LspSession, startLspSession } from "../../cli/lsp-session";
import { installationStatus, resolveSetting, settingPath } from "../../server/src/systemds-setting";
import { InstallationNotification, type InstallationStatus } from "../../protocol/custom-methods";

/** Scripts written for this test: one nn-style layer with one function. */
const LAYER = { "scripts/builtin/double.dml": "m_double = function(Matrix[Double] X) return (Matrix[Double] Y) { Y = 2 * X }\n", "scripts/nn/layers/twice.dml": "forward = function(Matrix[Double] X) return (Matrix[Double] Y) { Y = X + X }\n" };
const DRIVER = 'source("nn/layers/twice.dml") as twice\nX = matrix(1, rows=2, cols=2)\nY = twice::forward(X)\nZ = twice::backward(X)\n';

const workspace = mkdtempSync(path.join(tmpdir(), "dml-ws-"));
const tree = path.join(workspace, "systemds");
const jar = path.join(mkdtempSync(path.join(tmpdir(), "dml-jar-")), "systemds-3.2.0.jar");
const driverUri = pathToFileURL(path.join(workspace, "driver.dml")).href;
let session: LspSession;
const statuses: InstallationStatus[] = [];

const unknownBackward = (p: PublishDiagnosticsParams) => p.diagnostics.some((d) => String(d.message).includes("'backward' is not defined in 'nn/layers/twice.dml'"));

function nextStatus(accept: (s: InstallationStatus) => boolean, ms = 20_000): Promise<InstallationStatus> {
  return new Promise((resolve, reject) => {
    const started = statuses.length;
    const timer = setInterval(() => {
      const found = statuses.slice(started).find(accept);
      if (found) {
        clearInterval(timer);
        resolve(found);
      } else if ((ms -= 20) <= 0) {
        clearInterval(timer);
        reject(new Error(`no dmlLens/installation notification as expected; got ${JSON.stringify(statuses)}`));
      }
    }, 20);
  });
}

function configure(home: unknown): Promise<void> {
  return session.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: { dmlLens: { systemds: { home } } } });
}

describe("the setting dmlLens.systemds.home", () => {
  before(async () => {
    for (const [name, text] of Object.entries(LAYER)) {
      mkdirSync(path.dirname(path.join(tree, name)), { recursive: true });
      writeFileSync(path.join(tree, name), text);
    }
    writeFileSync(jar, zipSync(Object.fromEntries(Object.entries(LAYER).map(([n, t]) => [n, strToU8(t)]))));
    writeFileSync(path.join(workspace, "driver.dml"), DRIVER);
    session = await startLspSession({
      workspaceFolders: [{ uri: pathToFileURL(workspace).href, name: "ws" }],
      // relative to the workspace folder; SYSTEMDS_ROOT empty so the machine's does not count
      initializationOptions: { systemds: { home: "systemds" } },
      env: { SYSTEMDS_ROOT: "" },
    });
    session.connection.onNotification(InstallationNotification, (status) => {
      statuses.push(status);
    });
    await session.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: driverUri, languageId: "dml", version: 1, text: DRIVER } });
  });

  after(async () => {
    await session.stop();
  });

  test("source(\"nn/...\") is checked against the named installation's scripts", async () => {
    const published = await session.diagnosticsWhere((p) => p.uri === driverUri && unknownBackward(p));
    assert.equal(published.diagnostics.filter((d) => d.severity === 1).length, 1);
  });

  test("a path that is no installation: the status says none and why, the document is checked again without it", async () => {
    const status = nextStatus((s) => !s.found);
    const republished = session.nextDiagnostics((p) => p.uri === driverUri && !unknownBackward(p));
    await configure("/no/such/systemds");
    const none = await status;
    assert.equal(none.text, "SystemDS: none");
    assert.match(none.tooltip, /^no SystemDS installation \(set SYSTEMDS_ROOT or dmlLens\.systemds\.home\)/);
    assert.match(none.tooltip, /setting dmlLens\.systemds\.home names \/no\/such\/systemds, which does not exist/);
    await republished;
    assert.ok(session.logs.some((l) => l.includes("SystemDS installation: setting dmlLens.systemds.home names /no/such/systemds")));
  });

  test("a jar: the status names its version, the document is checked against the scripts inside it", async () => {
    const status = nextStatus((s) => s.found);
    const republished = session.nextDiagnostics((p) => p.uri === driverUri && unknownBackward(p));
    await configure(jar);
    const found = await status;
    assert.equal(found.text, "SystemDS 3.2.0");
    assert.equal(found.tooltip, `SystemDS 3.2.0 (jar ${jar}, from setting dmlLens.systemds.home)`);
    await republished;
  });
});

describe("the setting's value", () => {
  test("relative to the first workspace folder; ~ and absolute paths as they are; a non-string is a problem", () => {
    assert.deepEqual(settingPath("sds", "/ws"), { path: "/ws/sds" });
    assert.deepEqual(settingPath("/opt/sds", "/ws"), { path: "/opt/sds" });
    assert.deepEqual(settingPath("~/sds", "/ws"), { path: "~/sds" });
    assert.deepEqual(settingPath("  ", "/ws"), {});
    assert.deepEqual(settingPath(42, "/ws"), { problem: "dmlLens.systemds.home must be a path (a string), not 42" });
    const found = resolveSetting(42, "/ws", () => []);
    assert.equal(found.problems[0], "dmlLens.systemds.home must be a path (a string), not 42");
    assert.equal(installationStatus({ problems: [] }).text, "SystemDS: none");
  });
});
