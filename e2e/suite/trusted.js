// The extension in real VS Code, workspace trusted: activation on a .dml
// file, the server's diagnostics, a hover with dims and cost, the cheaper
// rewrite applied through the quick fix, its derivation ("Explain this
// rewrite") in a read-only view, and Run Cell's printed values and
// variable summary.
"use strict";
const assert = require("node:assert/strict");
const vscode = require("vscode");
const { suite, waitFor, waitForTab, open, hoverText } = require("./harness");

const lineOf = (document, prefix) => document.getText().split("\n").findIndex((l) => l.startsWith(prefix));

exports.run = suite("trusted workspace", [
  [
    "activates on a .dml file",
    async () => {
      const document = await open("sum_product.dml");
      assert.equal(document.languageId, "dml");
      const extension = vscode.extensions.getExtension("dml-lens.dml-lens");
      assert.ok(extension, "the extension is installed");
      await waitFor("activation", () => extension.isActive);
      assert.equal(vscode.workspace.isTrusted, true);
    },
  ],
  [
    "diagnostics from the language server",
    async () => {
      const document = await open("problems.dml");
      const diagnostics = await waitFor("diagnostics", () => {
        const found = vscode.languages.getDiagnostics(document.uri);
        return found.length >= 2 ? found : undefined;
      });
      const messages = diagnostics.map((d) => `${d.range.start.line}:${d.range.start.character} ${d.message}`).sort();
      assert.deepEqual(messages, ["0:4 'x' is not defined: it is never assigned", "1:4 the inner dimensions of %*% do not match: 3 x 2 %*% 3 x 2"]);
      assert.ok(diagnostics.every((d) => d.severity === vscode.DiagnosticSeverity.Error));
    },
  ],
  [
    "hover shows dims, nnz and cost",
    async () => {
      const document = await open("sum_product.dml");
      const line = lineOf(document, "G =");
      const character = document.lineAt(line).text.indexOf("Uk %*% t(Vk)") + 3;
      const text = await waitFor("a hover", async () => (await hoverText(document, new vscode.Position(line, character))) || undefined);
      assert.match(text, /matrix 10,000 × 5,000/);
      assert.match(text, /estimated cost of this expression: [\d.]+ [kMG]?FLOP, .*~[\d.]+ (s|ms)/);
    },
  ],
  [
    "the quick fix applies the cheaper rewrite",
    async () => {
      const document = await open("sum_product.dml");
      const line = lineOf(document, "G =");
      await waitFor("the optimizer's hint on G", () => vscode.languages.getDiagnostics(document.uri).some((d) => d.range.start.line === line && String(d.code) === "cheaper-rewrite"), 120000);
      const actions = await vscode.commands.executeCommand("vscode.executeCodeActionProvider", document.uri, new vscode.Range(line, 0, line, 0));
      const fix = actions.find((a) => a.title.startsWith("Apply cheaper rewrite"));
      assert.ok(fix, `no cheaper-rewrite action among ${actions.map((a) => a.title).join("; ")}`);
      assert.match(fix.title, /^Apply cheaper rewrite: [\d.]+ s → [\d.]+ ms \(\d+× less\): Uk %\*% \(t\(Vk\) %\*% Vk\) - X %\*% Vk \(result 10,000 × 20, sparsity 1\.00\)$/);
      assert.ok(await vscode.workspace.applyEdit(fix.edit));
      assert.equal(document.lineAt(line).text, "G = Uk %*% (t(Vk) %*% Vk) - X %*% Vk");
      await vscode.commands.executeCommand("workbench.action.files.revert");
    },
  ],
  [
    "Explain this rewrite opens the derivation, read-only, beside the script",
    async () => {
      const document = await open("sum_product.dml");
      const line = lineOf(document, "G =");
      await waitFor("the optimizer's hint on G", () => vscode.languages.getDiagnostics(document.uri).some((d) => d.range.start.line === line && String(d.code) === "cheaper-rewrite"), 120000);
      const actions = await vscode.commands.executeCommand("vscode.executeCodeActionProvider", document.uri, new vscode.Range(line, 0, line, 0));
      const explain = actions.find((a) => a.title.startsWith("Explain this rewrite"));
      assert.ok(explain && explain.command, `no Explain this rewrite action among ${actions.map((a) => a.title).join("; ")}`);
      const shown = await vscode.commands.executeCommand(explain.command.command, ...explain.command.arguments);
      assert.ok(shown.uri.startsWith("dml-derivation:"), shown.uri);
      assert.deepEqual(shown.text.trimEnd().split("\n").slice(-2), [
        "    (Uk %*% t(Vk) - X) %*% Vk = Uk %*% t(Vk) %*% Vk + -X %*% Vk  [sum-of-add: sum distributes over +]",
        "    Uk %*% t(Vk) %*% Vk + -X %*% Vk = Uk %*% (t(Vk) %*% Vk) - X %*% Vk  [add-negated: a + (-b) = a - b]",
      ]);
      await waitForTab(`sum_product.dml line ${line + 1}.txt`);
      const view = vscode.workspace.textDocuments.find((d) => d.uri.toString() === shown.uri);
      assert.ok(view && view.getText() === shown.text, "the view shows the derivation");
    },
  ],
  [
    "DML: Show Optimized Plan shows the block before and after, with costs",
    async () => {
      const document = await open("sum_product.dml");
      const line = lineOf(document, "G =");
      const plan = await vscode.commands.executeCommand("dmlLens.showPlan", document.uri.toString(), { line, character: 0 });
      assert.ok(plan && plan.before.length > 10, "the block's DAG");
      assert.ok(plan.before.every((n) => n.cost === null || n.cost >= 0));
      const g = plan.after.find((s) => s.target === "G");
      assert.equal(g.rewritten, "Uk %*% (t(Vk) %*% Vk) - X %*% Vk");
      assert.ok(g.costAfter < g.costBefore / 100);
      // The fusion planner's plan as written fuses l1 and l2 (what the block's hand-written wsloss identities used to show).
      const fused = plan.fusion.asWritten.operators.map((op) => op.text).join("; ");
      assert.ok(fused.includes("sum((X - U %*% t(V))^2)") && fused.includes("sum((X + U %*% t(V))^2)"), fused);
      await waitForTab("DML Plan");
    },
  ],
  [
    "Run Cell runs one cell in the script's session: the second cell sees the first's variables",
    async () => {
      const document = await open("cells.dml");
      const first = await vscode.commands.executeCommand("dmlLens.runCell", document.uri.toString(), 1);
      assert.equal(first.status, "ran", JSON.stringify(first));
      assert.deepEqual(first.reply.output, []);
      const outcome = await vscode.commands.executeCommand("dmlLens.runCell", document.uri.toString(), 2);
      assert.equal(outcome.status, "ran", JSON.stringify(outcome));
      assert.equal(outcome.reply.ok, true, outcome.reply.errors.join("\n"));
      assert.deepEqual(outcome.reply.output, ["rows: 3, sum: 12.0"]);
      const summary = outcome.reply.variables.map((v) => (v.kind === "matrix" ? `${v.name} ${v.rows}x${v.cols} nnz ${v.nnz}` : `${v.name} ${v.valueType} ${v.value}`));
      assert.deepEqual(summary, ["X 3x2 nnz 4", "w 2x1 nnz 2", "y 3x1 nnz 3", "s double 12.0"]);
      assert.deepEqual(outcome.reply.variables.find((v) => v.name === "X").corner, [[1, 2], [0, 4], [5, 0]]);
    },
  ],
  [
    "Run Cell uses the $params of the workspace's dml-lens.json",
    async () => {
      const document = await open("params.dml");
      const outcome = await vscode.commands.executeCommand("dmlLens.runCell", document.uri.toString(), 1);
      assert.equal(outcome.reply.ok, true, outcome.reply.errors.join("\n"));
      assert.deepEqual(outcome.reply.output, ["hello 42"]);
    },
  ],
  [
    "the results view opens beside the editor after a run",
    async () => {
      await waitForTab("DML Results");
    },
  ],
  [
    "Interrupt stops a runaway loop within a second and keeps the session",
    async () => {
      const document = await open("loop.dml");
      const setup = await vscode.commands.executeCommand("dmlLens.runCell", document.uri.toString(), 1);
      assert.equal(setup.reply.ok, true);
      const running = vscode.commands.executeCommand("dmlLens.runCell", document.uri.toString(), 2);
      await new Promise((r) => setTimeout(r, 700));
      const asked = Date.now();
      await vscode.commands.executeCommand("dmlLens.interrupt");
      const outcome = await running;
      const stoppedAfter = Date.now() - asked;
      assert.equal(outcome.reply.interrupted, true, JSON.stringify(outcome.reply.errors));
      console.log(`  interrupt latency: ${stoppedAfter} ms`);
      assert.ok(stoppedAfter < 1000, `stopped ${stoppedAfter} ms after Interrupt`);
      assert.ok(outcome.reply.variables.some((v) => v.name === "i" && Number(v.value) > 0), "the loop ran");
      const after = await vscode.commands.executeCommand("dmlLens.runCell", document.uri.toString(), 3);
      assert.deepEqual(after.reply.output, ["still here: 4.0"]);
    },
  ],
  [
    "a runtime error becomes a diagnostic at the failing line",
    async () => {
      const document = await open("loop.dml");
      const outcome = await vscode.commands.executeCommand("dmlLens.runCell", document.uri.toString(), 4);
      assert.equal(outcome.reply.ok, false);
      const line = document.getText().split("\n").findIndex((l) => l.startsWith("stop("));
      const diagnostics = await waitFor("the runtime diagnostic", () => {
        const found = vscode.languages.getDiagnostics(document.uri).filter((d) => d.source === "dml runtime");
        return found.length > 0 ? found : undefined;
      });
      assert.equal(diagnostics[0].range.start.line, line);
      assert.match(diagnostics[0].message, /runtime error: .*bad input/);
    },
  ],
]);
