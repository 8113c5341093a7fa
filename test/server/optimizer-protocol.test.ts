/**
 * The optimizer through the language server, driven by the LSP client
 * library (vscode-languageserver-protocol over the child's stdio): opening
 * sum_product.dml publishes a "cheaper equivalent" hint per rewritable
 * statement, hover shows dims, nnz, cost and the alternative, and the quick
 * fix's workspace edit, applied, gives the rewritten script; an edit that
 * changes the text never shows results of the old version.
 */
import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { pathToFileURL } from "node:url";
import {
  CodeActionRequest,
  CompletionRequest,
  DefinitionRequest,
  DocumentSymbolRequest,
  ReferencesRequest,
  RenameRequest,
  SemanticTokensRequest,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  HoverRequest,
  type CodeAction,
  type Diagnostic,
  type Hover,
  type MarkupContent,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
  type TextEdit,
} from "vscode-languageserver-protocol/node";
import { applyEdits } from "../../engine/syntax/ranges";
import { type LspSession, startLspSession } from "../../cli/lsp-session";
import { MeasuredSizesNotification, PlanRequest } from "../../protocol/custom-methods";
import { repoRoot } from "../repo-root";

const file = path.join(repoRoot, "examples", "sum_product.dml");
const uri = pathToFileURL(file).href;
const text = readFileSync(file, "utf8");

let session: LspSession;
let connection: ProtocolConnection;
const diagnosticsWhere = (accept: (p: PublishDiagnosticsParams) => boolean, ms?: number) => session.diagnosticsWhere(accept, ms);

const hints = (p: PublishDiagnosticsParams) => p.diagnostics.filter((d) => d.code === "cheaper-rewrite");
const lineOf = (needle: string) => text.split("\n").findIndex((l) => l.startsWith(needle));

describe("optimizer in the language server", () => {
  before(async () => {
    // A budget the node limit ends first: the hints do not depend on this machine's speed.
    session = await startLspSession({ rootUri: pathToFileURL(repoRoot).href, initializationOptions: { optimizer: { debounceMs: 50, budgetMs: 10_000 } } });
    connection = session.connection;
    assert.equal(session.init.capabilities.hoverProvider, true);
    assert.ok(session.init.capabilities.codeActionProvider);
    await connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: "dml", version: 1, text } });
  });

  after(() => session.stop());

  test("a hint on each statement with a cheaper verified rewrite", async () => {
    const withHints = await diagnosticsWhere((p) => p.version === 1 && hints(p).length >= 5);
    const lines = hints(withHints).map((d: Diagnostic) => d.range.start.line);
    for (const target of ["l1 =", "l2 =", "G =", "s1 =", "Q ="]) assert.ok(lines.includes(lineOf(target)), `no hint on ${target}`);
    const l1 = hints(withHints).find((d) => d.range.start.line === lineOf("l1 ="))!;
    // Before: the statement as written, costed with its fused operators.
    assert.match(l1.message as string, /materializes a 400 MB intermediate; a cheaper equivalent exists: [\d.]+ ms → [\d.]+ ms \(\d+× less\)/);
  });

  test("hover: dims, nnz and cost of an expression, and the cheaper alternative", async () => {
    await diagnosticsWhere((p) => p.version === 1 && hints(p).length >= 5);
    const line = lineOf("l1 =");
    const character = text.split("\n")[line]!.indexOf("U %*% t(V)") + 2;
    const hover = (await connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line, character } })) as Hover;
    const value = (hover.contents as MarkupContent).value;
    assert.match(value, /\*\*U %\*% t\(V\)\*\*: matrix 10,000 × 5,000, nnz ≈ 50,000,000 \(uniform estimate\), sparsity 1\.00/);
    assert.match(value, /estimated cost of this expression: [\d.]+ MFLOP, .* ~[\d.]+ ms/);
    assert.match(value, /\*\*Cheaper equivalent\*\* of the statement assigning \w+ \(verified\): `.*t\(U\) %\*% X %\*% V.*`|with `tmp\d = t\(U\) %\*% X %\*% V`/);
    // On `-`: the fused operator that computes X - U %*% t(V), and the block's cost with and without fusion.
    const minus = (await connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line, character: text.split("\n")[line]!.indexOf(" - ") + 1 } })) as Hover;
    const fused = (minus.contents as MarkupContent).value;
    // (One operator for l1, or one multi-aggregate for l1 and l2.)
    assert.match(fused, /\*\*Fused operator\*\*: `sum\(\(X - U %\*% t\(V\)\)\^2\)(; [^`]*)?` runs? as one (Cell|Outer|MAgg) operator \(full aggregate, [^)]+\) {2}\ninputs: X, /);
    assert.match(fused, /\n`X - U %\*% t\(V\)`(, | and )`\(X - U %\*% t\(V\)\)\^2`[^\n]* are not materialized {2}\n/);
    assert.match(fused, /\n\nblock: [\d.]+ [µm]?s fused, [\d.]+ [µm]?s unfused {2}\nblock with the cheaper rewrites applied: [\d.]+ [µm]?s fused, [\d.]+ [µm]?s unfused/);
    const variable = (await connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: lineOf("X ="), character: 0 } })) as Hover;
    assert.match((variable.contents as MarkupContent).value, /\*\*X\*\*: matrix 10,000 × 5,000, nnz ≈ 50,000 \((uniform estimate|MNC sketch)\), sparsity 0\.00100/);
  });

  test("completion: named arguments of rand, then variables with dims", async () => {
    await diagnosticsWhere((p) => p.version === 1 && hints(p).length >= 5);
    const line = lineOf("U =");
    const character = text.split("\n")[line]!.indexOf("seed=");
    const result = await connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line, character } });
    const items = (Array.isArray(result) ? result : result!.items).map((i) => i.label);
    assert.ok(items.includes("sparsity="), items.slice(0, 10).join(" "));
    assert.ok(!items.includes("rows="), "rows is already given");
    const atEnd = await connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line: text.split("\n").length - 1, character: 0 } });
    const x = (Array.isArray(atEnd) ? atEnd : atEnd!.items).find((i) => i.label === "X");
    assert.equal(x?.detail, "10000 x 5000, nnz ~50000");
  });

  test("definition and references of a variable", async () => {
    const line = lineOf("G =");
    const character = text.split("\n")[line]!.indexOf("Vk");
    const target = await connection.sendRequest(DefinitionRequest.type, { textDocument: { uri }, position: { line, character } });
    assert.deepEqual(target, { uri, range: { start: { line: lineOf("Vk ="), character: 0 }, end: { line: lineOf("Vk ="), character: 2 } } });
    const refs = await connection.sendRequest(ReferencesRequest.type, { textDocument: { uri }, position: { line, character }, context: { includeDeclaration: true } });
    assert.equal(refs?.length, 3, "Vk = ..., and twice in G");
  });

  test("the plan view: the block's DAG with costs before, each rewritten plan after", async () => {
    await diagnosticsWhere((p) => p.version === 1 && hints(p).length >= 5);
    const view = (await connection.sendRequest(PlanRequest, { textDocument: { uri }, position: { line: lineOf("G ="), character: 0 } })) as {
      before: { op: string; rows: number | null; cols: number | null; cost: number | null }[];
      after: { target: string; costAfter: number; plan: { op: string; children: number[]; cost: number; rows: number | null }[] }[];
    };
    const outer = view.before.find((n) => n.op === "matmul" && n.rows === 10000 && n.cols === 5000)!;
    assert.ok(outer.cost! > 0.01, `U %*% t(V) costs ${outer.cost}`);
    const g = view.after.find((a) => a.target === "G")!;
    assert.equal(g.plan[0]!.op, "-");
    assert.equal(g.plan[0]!.rows, 10000);
    const total = g.plan.reduce((sum, n) => sum + n.cost, 0);
    // The cost after counts the rewritten plan's fused operators: at most its operations' costs one by one.
    assert.ok(g.costAfter > 0 && g.costAfter <= total * (1 + 1e-9), `${g.costAfter} vs ${total}`);
  });

  test("sizes measured by the runtime replace estimates in hover", async () => {
    const other = pathToFileURL(path.join(repoRoot, "examples", "measured.dml")).href;
    const source = 'X = read("no-such-file.csv")\nG = t(X) %*% X\n';
    await connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: other, languageId: "dml", version: 1, text: source } });
    await diagnosticsWhere((p) => p.uri === other);
    const hoverG = async () => ((await connection.sendRequest(HoverRequest.type, { textDocument: { uri: other }, position: { line: 1, character: 0 } })) as Hover | null)?.contents as MarkupContent | undefined;
    assert.match((await hoverG())?.value ?? "", /\*\*G\*\*: matrix \? × \?/);
    await connection.sendNotification(MeasuredSizesNotification, { textDocument: { uri: other }, variables: [{ name: "X", rows: 500, cols: 40, nnz: 1200 }] });
    await diagnosticsWhere((p) => p.uri === other && session.published.filter((q) => q.uri === other).length >= 2);
    assert.match((await hoverG())?.value ?? "", /\*\*G\*\*: matrix 40 × 40/);
  });

  test("rename, outline and semantic tokens", async () => {
    const line = lineOf("Xd =");
    const rename = await connection.sendRequest(RenameRequest.type, { textDocument: { uri }, position: { line, character: 0 }, newName: "Xdense" });
    const edits = rename!.changes![uri]!;
    assert.deepEqual(edits.map((e) => e.range.start.line), [line, lineOf("Q ="), lineOf("Q =")]);
    assert.ok(edits.every((e) => e.newText === "Xdense"));
    const symbols = (await connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } })) as { name: string; children?: { name: string }[] }[];
    assert.equal(symbols[0]!.name, "cell 1: inputs");
    const nested = symbols.flatMap((s) => s.children ?? []);
    for (const name of ["X", "l1", "G", "Q"]) assert.ok(nested.some((s) => s.name === name), `no symbol ${name}`);
    const tokens = await connection.sendRequest(SemanticTokensRequest.type, { textDocument: { uri } });
    assert.ok(tokens && tokens.data.length % 5 === 0 && tokens.data.length > 5 * 50, `${tokens?.data.length} integers`);
  });

  test("the quick fix's edit, applied, is the rewritten statement", async () => {
    await diagnosticsWhere((p) => p.version === 1 && hints(p).length >= 5);
    const line = lineOf("G =");
    const range = { start: { line, character: 0 }, end: { line, character: 5 } };
    const actions = (await connection.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range, context: { diagnostics: [] } })) as CodeAction[];
    assert.equal(actions.length, 1);
    assert.match(actions[0]!.title, /^Apply cheaper rewrite: [\d.]+ s → [\d.]+ ms \(\d+× less\): Uk %\*% \(t\(Vk\) %\*% Vk\) - X %\*% Vk \(result 10,000 × 20, sparsity 1\.00\)$/);
    const edits = actions[0]!.edit!.changes![uri] as TextEdit[];
    const edited = applyEdits(text, edits).split("\n");
    assert.equal(edited[line], "G = Uk %*% (t(Vk) %*% Vk) - X %*% Vk");
  });

  test("after an edit, hints come for the new version only, and the edited statement's hint is gone", async () => {
    await diagnosticsWhere((p) => p.version === 1 && hints(p).length >= 5);
    const line = lineOf("s1 =");
    const lineText = text.split("\n")[line]!;
    await connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version: 2 },
      contentChanges: [{ range: { start: { line, character: 0 }, end: { line, character: lineText.length } }, text: "s1 = sum(colSums(W) %*% rowSums(H))" }],
    });
    const next = await diagnosticsWhere((p) => p.version === 2 && hints(p).length >= 4);
    assert.ok(hints(next).every((d) => d.range.start.line !== line), "a hint for the old text of s1");
    assert.ok(session.published.filter((p) => p.version === 2).every((p) => hints(p).every((d) => d.range.start.line !== line)));
  });

  test("a hover right after an edit does not swallow the full analysis of that version", async () => {
    const other = pathToFileURL(path.join(repoRoot, "examples", "hover-after-edit.dml")).href;
    await connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: other, languageId: "dml", version: 1, text: "x = 1\ny = x + 1\n" } });
    await diagnosticsWhere((p) => p.uri === other && p.version === 1);
    await connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: other, version: 2 },
      contentChanges: [{ range: { start: { line: 1, character: 4 }, end: { line: 1, character: 5 } }, text: "z" }],
    });
    await connection.sendRequest(HoverRequest.type, { textDocument: { uri: other }, position: { line: 0, character: 0 } });
    const full = await diagnosticsWhere((p) => p.uri === other && p.version === 2 && p.diagnostics.some((d) => d.code === "unassigned-variable"), 10_000);
    assert.equal(full.diagnostics.find((d) => d.code === "unassigned-variable")?.range.start.line, 1);
  });
});
