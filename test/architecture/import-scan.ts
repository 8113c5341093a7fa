/**
 * The imports of a tree of TypeScript sources, read with TypeScript's own
 * parser (not by pattern matching, so comments, strings and line breaks
 * inside an import cannot fool it): `import` and `export ... from`
 * declarations, `import()` and `require()` calls, and `import("...")` types.
 * Each import says whether it is type-only (erased when the code is
 * compiled: `import type`, `export type`, an import whose every name is
 * marked `type`, an `import("...")` type) and, for a relative specifier,
 * which file of the tree it names (`x`, `x.ts` or `x/index.ts`).
 *
 * The tree is a list of files with their text, so the architecture test
 * runs the same rules over the repository (readSourceTree) and over small
 * made-up trees that break them.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, posix } from "node:path";
import ts from "typescript";

export interface SourceFile {
  /** Relative to the tree's root, with forward slashes ("engine/syntax/parser.ts"). */
  path: string;
  text: string;
}

export interface SourceImport {
  /** The importing file, relative to the root. */
  file: string;
  /** 1-based line of the import. */
  line: number;
  /** As written: "../syntax", "node:fs", "vscode". */
  specifier: string;
  /** The file of the tree a relative specifier names; undefined for a package or a file the tree lacks. */
  target: string | undefined;
  typeOnly: boolean;
}

/** `file:line` and the specifier, for failure messages. */
export function describeImport(found: SourceImport): string {
  const target = found.target && found.target !== found.specifier ? ` (${found.target})` : "";
  return `${found.file}:${found.line} imports "${found.specifier}"${target}`;
}

/** The .ts files (not .d.ts) below `folders` of `root`, skipping node_modules. */
export function readSourceTree(root: string, folders: readonly string[]): SourceFile[] {
  const files: SourceFile[] = [];
  const visit = (relative: string): void => {
    const absolute = join(root, relative);
    if (statSync(absolute).isDirectory()) {
      for (const name of readdirSync(absolute).sort()) if (name !== "node_modules" && !name.startsWith(".")) visit(posix.join(relative, name));
    } else if (relative.endsWith(".ts") && !relative.endsWith(".d.ts")) {
      files.push({ path: relative, text: readFileSync(absolute, "utf8") });
    }
  };
  for (const folder of folders) if (existsSync(join(root, folder))) visit(folder);
  return files;
}

/** Every import of every file in `files`. */
export function scanImports(files: readonly SourceFile[]): SourceImport[] {
  const paths = new Set(files.map((file) => file.path));
  return files.flatMap((file) => importsOf(file, paths));
}

function importsOf(file: SourceFile, paths: ReadonlySet<string>): SourceImport[] {
  const source = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: SourceImport[] = [];
  const add = (node: ts.Node, specifier: string, typeOnly: boolean): void => {
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    found.push({ file: file.path, line, specifier, target: resolveSpecifier(file.path, specifier, paths), typeOnly });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node, node.moduleSpecifier.text, importIsTypeOnly(node));
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node, node.moduleSpecifier.text, exportIsTypeOnly(node));
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) {
      add(node, node.moduleReference.expression.text, node.isTypeOnly);
    } else if (ts.isCallExpression(node) && isImportOrRequire(node) && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) {
      add(node, node.arguments[0].text, false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node, node.argument.literal.text, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function isImportOrRequire(call: ts.CallExpression): boolean {
  return call.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(call.expression) && call.expression.text === "require");
}

/** `import type ...`, or named imports that are all marked `type` (compiled away entirely). */
function importIsTypeOnly(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false; // `import "x"`: runs x
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  return bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((element) => element.isTypeOnly);
}

function exportIsTypeOnly(node: ts.ExportDeclaration): boolean {
  if (node.isTypeOnly) return true;
  const clause = node.exportClause;
  return clause !== undefined && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((element) => element.isTypeOnly);
}

/** The tree's file a relative specifier names: `x.ts`, `x/index.ts` or `x` itself; undefined for packages. */
export function resolveSpecifier(from: string, specifier: string, paths: ReadonlySet<string>): string | undefined {
  if (!specifier.startsWith("./") && !specifier.startsWith("../") && specifier !== "." && specifier !== "..") return undefined;
  const base = posix.normalize(posix.join(posix.dirname(from), specifier.replace(/\.js$/, "")));
  return [`${base}.ts`, `${base}/index.ts`, base].find((candidate) => paths.has(candidate));
}
