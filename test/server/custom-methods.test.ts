/**
 * The `dmlLens/*` messages are named only in protocol/custom-methods.ts:
 * no string literal in the server, the client, the command line or the
 * server tests spells a method (read with TypeScript's scanner, so comments
 * that mention a method do not count), and the shared module's methods are
 * distinct and all `dmlLens/`.
 */
import { strict as assert } from "node:assert";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import ts from "typescript";
import * as customMethods from "../../protocol/custom-methods";
import { repoRoot } from "../repo-root";

const FOLDERS = ["server/src", "client/src", "cli", "protocol", "test/server"];
/** The one module that names the methods, and this test (its samples and the prefix it looks for). */
const EXEMPT = ["protocol/custom-methods.ts", "test/server/custom-methods.test.ts"];

function typescriptFiles(folder: string): string[] {
  return readdirSync(path.join(repoRoot, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => path.relative(repoRoot, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"));
}

/** The string literals and templates of `text` whose text starts with `prefix`, with their lines (1-based). */
export function literalsStartingWith(text: string, prefix: string): { line: number; text: string }[] {
  const found: { line: number; text: string }[] = [];
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text);
  const lineOf = (offset: number) => text.slice(0, offset).split("\n").length;
  /** Per template substitution open: the braces opened inside it and not closed yet. */
  const substitutions: number[] = [];
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === ts.SyntaxKind.OpenBraceToken && substitutions.length > 0) substitutions[substitutions.length - 1]! += 1;
    if (kind === ts.SyntaxKind.CloseBraceToken && substitutions.length > 0) {
      if (substitutions[substitutions.length - 1] === 0) {
        kind = scanner.reScanTemplateToken(false); // the substitution ends: the template goes on
        substitutions.pop();
      } else substitutions[substitutions.length - 1]! -= 1;
    }
    if (kind === ts.SyntaxKind.TemplateHead || kind === ts.SyntaxKind.TemplateMiddle) substitutions.push(0);
    const starts = kind === ts.SyntaxKind.StringLiteral || kind === ts.SyntaxKind.NoSubstitutionTemplateLiteral || kind === ts.SyntaxKind.TemplateHead;
    if (starts && scanner.getTokenValue().startsWith(prefix)) found.push({ line: lineOf(scanner.getTokenStart()), text: scanner.getTokenValue() });
  }
  return found;
}

test("the scanner finds method names in strings and templates, not in comments", () => {
  const sample = '// "dmlLens/inComment"\n/** `dmlLens/inDoc` */\nconst a = "dmlLens/plan";\nconst b = `dmlLens/${a}`;\nconst c = \'dmlLens/x\' + `y${ {a: 1}.a }dmlLens/no`;\nconst d = { e: "dmlLens/e" };\n';
  assert.deepEqual(literalsStartingWith(sample, "dmlLens/"), [
    { line: 3, text: "dmlLens/plan" },
    { line: 4, text: "dmlLens/" },
    { line: 5, text: "dmlLens/x" },
    { line: 6, text: "dmlLens/e" },
  ]);
});

test("no bare dmlLens/* method string outside protocol/custom-methods.ts", () => {
  const files = FOLDERS.flatMap(typescriptFiles).filter((file) => !EXEMPT.includes(file));
  assert.ok(files.length > 100, `read ${files.length} files`);
  const bare = files.flatMap((file) => literalsStartingWith(readFileSync(path.join(repoRoot, file), "utf8"), "dmlLens/").map((found) => `${file}:${found.line}: "${found.text}"`));
  assert.deepEqual(bare, [], "use the typed message types of protocol/custom-methods.ts");
});

test("the shared module's methods are distinct and all dmlLens/*", () => {
  const methods = Object.values(customMethods).map((type) => (type as { method: string }).method);
  assert.deepEqual(methods.filter((method) => !/^dmlLens\/[a-zA-Z]+$/.test(method)), []);
  assert.equal(new Set(methods).size, methods.length);
  for (const known of ["dmlLens/estimate", "dmlLens/installation", "dmlLens/measuredSizes", "dmlLens/optimizerState", "dmlLens/plan", "dmlLens/runParameters"]) assert.ok(methods.includes(known), known);
});
