/**
 * Issue 19's done-means through the language server (the LSP client over
 * the built server's stdio): on linreg_gd.dml with its data described in
 * dml-lens.json, hoisting `t(A) %*% A` and `t(A) %*% b` is offered as code
 * actions, each applied as the client applies a workspace edit (the second
 * on the text the first left, after the server analyzed it), and the script
 * with both hoisted prints the same loss as the original within 1e-9.
 */
import { strict as assert } from "node:assert";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { pathToFileURL } from "node:url";
import { CodeActionRequest, DidChangeTextDocumentNotification, DidOpenTextDocumentNotification, type CodeAction, type TextEdit } from "vscode-languageserver-protocol/node";
import { createSession } from "../../engine/runtime/interpreter";
import { applyEdits } from "../../engine/syntax/ranges";
import { type LspSession, startLspSession } from "../../cli/lsp-session";
import { repoRoot } from "../repo-root";

const folder = mkdtempSync(path.join(os.tmpdir(), "dml-redundancy-lsp-"));
const file = path.join(folder, "linreg_gd.dml");
const uri = pathToFileURL(file).href;
const original = readFileSync(path.join(repoRoot, "examples", "linreg_gd.dml"), "utf8");
const params = { A: "data/iris_X.csv", b: "data/iris_y.csv" };

let session: LspSession;

/** The code actions at the line holding `needle`, asked again until `accept` takes them (the checks run after the analysis). */
async function actionsWhen(text: string, version: number, needle: string, accept: (titles: string[]) => boolean): Promise<CodeAction[]> {
  const line = text.split("\n").findIndex((l) => l.includes(needle));
  const deadline = Date.now() + 60_000;
  for (;;) {
    const actions = ((await session.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: { start: { line, character: 0 }, end: { line, character: 0 } },
      context: { diagnostics: [] },
    })) ?? []) as CodeAction[];
    if (accept(actions.map((a) => a.title))) return actions;
    if (Date.now() > deadline) throw new Error(`version ${version}: no such code actions at line ${line + 1}: ${actions.map((a) => a.title).join(" | ")}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function printedLoss(text: string): number {
  const printed: string[] = [];
  const result = createSession({ scriptPath: file, params, print: (l) => printed.push(l) }).runScript(text);
  assert.deepEqual(result.errors, []);
  return Number(printed.find((l) => l.startsWith("loss "))!.slice(5));
}

describe("redundancy code actions through the language server", () => {
  before(async () => {
    mkdirSync(path.join(folder, "data"));
    for (const f of ["iris_X.csv", "iris_X.csv.mtd", "iris_y.csv", "iris_y.csv.mtd"]) copyFileSync(path.join(repoRoot, "examples", "data", f), path.join(folder, "data", f));
    writeFileSync(path.join(folder, "dml-lens.json"), JSON.stringify({ params }));
    writeFileSync(file, original);
    session = await startLspSession({ rootUri: pathToFileURL(folder).href, initializationOptions: { optimizer: { debounceMs: 50 } } });
    await session.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: "dml", version: 1, text: original } });
  });

  after(() => session.stop());

  test("hoisting t(A) %*% A and t(A) %*% b, offered and applied one after the other, keeps the loss within 1e-9", async () => {
    const hoist = (expression: string) => (title: string) => title.startsWith(`Hoist \`${expression}\` out of the loop (saves ≈ `) && title.endsWith("per iteration, in the chosen plan)");
    const first = await actionsWhen(original, 1, "g = t(A)", (titles) => titles.some(hoist("t(A) %*% A")) && titles.some(hoist("t(A) %*% b")));
    const AtA = first.find((a) => hoist("t(A) %*% A")(a.title))!;
    const edits1 = AtA.edit!.changes![uri]! as TextEdit[];
    assert.ok(edits1.length >= 3, "an insertion and the replacements");
    const step1 = applyEdits(original, edits1);
    assert.match(step1, /^AtA = t\(A\) %\*% A\nwhile \(i < maxi\) \{$/m);
    await session.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version: 2 }, contentChanges: [{ text: step1 }] });

    const second = await actionsWhen(step1, 2, "g = AtA", (titles) => titles.some(hoist("t(A) %*% b")));
    assert.ok(!second.some((a) => hoist("t(A) %*% A")(a.title)), "t(A) %*% A is hoisted already");
    const Atb = second.find((a) => hoist("t(A) %*% b")(a.title))!;
    const step2 = applyEdits(step1, Atb.edit!.changes![uri]! as TextEdit[]);
    assert.match(step2, /^AtA = t\(A\) %\*% A\nAtb = t\(A\) %\*% b\nwhile \(i < maxi\) \{\n {2}g = AtA %\*% x - Atb\n {2}alpha = as\.scalar\(t\(g\) %\*% g\) \/ as\.scalar\(\(?t\(g\) %\*% AtA\)? %\*% g\)$/m);

    const loss = printedLoss(original);
    for (const edited of [step1, step2]) {
      const after = printedLoss(edited);
      assert.ok(Math.abs(after - loss) <= 1e-9 * Math.abs(loss), `${after} vs ${loss}`);
    }
  });
});
