// Rewrites deep imports (ARCHITECTURE.md, "no deep imports around a
// folder's index.ts") to go through the folder's index.ts: in product code
// (engine/, server/src, client/src, cli/), an import from outside a folder
// that has an index.ts of one of the folder's other files becomes an import
// of the folder itself, and the index.ts gains an export of each name it
// lacked. Imports of one folder are merged into one declaration. Uses
// TypeScript's checker, so a name the index already exports for another
// symbol is reported instead of rerouted. Run after merging branches that
// add deep imports:
//   node scripts/route-imports-through-index.mjs        (rewrites files)
//   node scripts/route-imports-through-index.mjs --dry  (only lists them)
// then `npx tsc -p . --noEmit` and the architecture test.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dry = process.argv.includes("--dry");
const rel = (file) => path.relative(root, file).split(path.sep).join("/");
const isProduct = (file) => /^(engine|cli|server\/src|client\/src)\//.test(rel(file));
const inFolder = (file, folder) => file.startsWith(folder + path.sep);

const config = ts.getParsedCommandLineOfConfigFile(path.join(root, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
const program = ts.createProgram(config.fileNames, config.options);
const checker = program.getTypeChecker();
const sources = program.getSourceFiles().filter((source) => !source.isDeclarationFile && isProduct(source.fileName));
const indexedFolders = sources.filter((source) => path.basename(source.fileName) === "index.ts").map((source) => path.dirname(source.fileName));

function resolve(from, specifier) {
  if (!specifier.startsWith(".")) return undefined;
  const base = path.resolve(path.dirname(from), specifier);
  return [`${base}.ts`, path.join(base, "index.ts"), base].find((candidate) => program.getSourceFile(candidate));
}

/** The outermost folder with an index.ts that `target` lies in and `from` does not (and target is not its index). */
function boundaryBetween(from, target) {
  const crossed = indexedFolders.filter((folder) => inFolder(target, folder) && !inFolder(from, folder) && target !== path.join(folder, "index.ts"));
  return crossed.sort((a, b) => a.length - b.length)[0];
}

function specifierFrom(fromFile, targetPath) {
  let specifier = path.relative(path.dirname(fromFile), targetPath).split(path.sep).join("/").replace(/\.ts$/, "").replace(/(^|\/)index$/, "$1").replace(/\/$/, "");
  if (specifier === "") specifier = ".";
  if (!specifier.startsWith(".")) specifier = `./${specifier}`;
  return specifier;
}

const original = (symbol) => (symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol);
/** Exports each index.ts gains: folder -> name -> { symbol, target file }. */
const added = new Map();
const problems = [];

/** Makes `folder`'s index.ts export `name` (the symbol declared in `target`); false when the name is taken by another symbol. */
function ensureExported(folder, name, symbol, target) {
  const indexFile = path.join(folder, "index.ts");
  const indexSymbol = checker.getSymbolAtLocation(program.getSourceFile(indexFile));
  const existing = indexSymbol ? checker.getExportsOfModule(indexSymbol).find((candidate) => candidate.name === name) : undefined;
  if (existing) return original(existing) === symbol;
  const planned = added.get(folder)?.get(name);
  if (planned) return planned.symbol === symbol;
  const inner = boundaryBetween(indexFile, target);
  if (inner && !ensureExported(inner, name, symbol, target)) return false;
  if (!added.has(folder)) added.set(folder, new Map());
  added.get(folder).set(name, { symbol, from: specifierFrom(indexFile, inner ?? target) });
  return true;
}

const edits = new Map(); // file -> [{ start, end, text }]
const addEdit = (file, edit) => (edits.has(file) ? edits.get(file) : edits.set(file, []).get(file)).push(edit);
let rerouted = 0;

for (const source of sources) {
  const file = source.fileName;
  const groups = new Map(); // boundary folder -> { declarations, elements }
  for (const statement of source.statements) {
    if (!(ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) || !statement.moduleSpecifier || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const target = resolve(file, statement.moduleSpecifier.text);
    if (!target) continue;
    const folder = boundaryBetween(file, target) ?? (target.endsWith(`${path.sep}index.ts`) && ts.isImportDeclaration(statement) && !inFolder(file, path.dirname(target)) ? path.dirname(target) : undefined);
    if (!folder) continue;
    const deep = target !== path.join(folder, "index.ts");
    const where = `${rel(file)}:${source.getLineAndCharacterOfPosition(statement.getStart()).line + 1}`;
    if (ts.isExportDeclaration(statement)) {
      if (!deep) continue;
      const names = statement.exportClause && ts.isNamedExports(statement.exportClause) ? statement.exportClause.elements : undefined;
      if (!names) { problems.push(`${where}: export * from a deep path, left as it is`); continue; }
      const ok = names.every((element) => {
        const symbol = original(checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(target))).find((s) => s.name === (element.propertyName ?? element.name).text));
        return symbol && ensureExported(folder, (element.propertyName ?? element.name).text, symbol, target);
      });
      if (!ok) { problems.push(`${where}: a name is exported by ${rel(folder)}/index.ts for another symbol, left as it is`); continue; }
      addEdit(file, { start: statement.moduleSpecifier.getStart(), end: statement.moduleSpecifier.getEnd(), text: JSON.stringify(specifierFrom(file, folder)) });
      rerouted++;
      continue;
    }
    const clause = statement.importClause;
    if (!clause || clause.name || !clause.namedBindings || !ts.isNamedImports(clause.namedBindings)) {
      if (deep) problems.push(`${where}: a default, namespace or side-effect import, left as it is`);
      continue;
    }
    const elements = clause.namedBindings.elements.map((element) => ({
      imported: (element.propertyName ?? element.name).text,
      local: element.name.text,
      typeOnly: clause.isTypeOnly || element.isTypeOnly,
      symbol: original(checker.getSymbolAtLocation(element.name)),
    }));
    if (deep && !elements.every((element) => element.symbol && ensureExported(folder, element.imported, element.symbol, target))) {
      problems.push(`${where}: ${elements.map((e) => e.imported).join(", ")}: a name is exported by ${rel(folder)}/index.ts for another symbol, left as it is`);
      continue;
    }
    if (!groups.has(folder)) groups.set(folder, { declarations: [], elements: [], deep: false });
    const group = groups.get(folder);
    group.declarations.push(statement);
    group.elements.push(...elements);
    group.deep ||= deep;
  }
  for (const [folder, group] of groups) {
    if (!group.deep) continue;
    rerouted += group.declarations.length;
    const seen = new Set();
    const elements = group.elements.filter((element) => {
      const key = `${element.imported} ${element.local}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    const allTypes = elements.every((element) => element.typeOnly);
    const named = elements.map((element) => {
      const alias = element.imported === element.local ? element.imported : `${element.imported} as ${element.local}`;
      return !allTypes && element.typeOnly ? `type ${alias}` : alias;
    });
    const text = `import ${allTypes ? "type " : ""}{ ${named.join(", ")} } from ${JSON.stringify(specifierFrom(file, folder))};`;
    const [first, ...rest] = group.declarations;
    addEdit(file, { start: first.getStart(), end: first.getEnd(), text });
    for (const declaration of rest) {
      const end = source.text[declaration.getEnd()] === "\n" ? declaration.getEnd() + 1 : declaration.getEnd();
      addEdit(file, { start: declaration.getStart(), end, text: "" });
    }
  }
}

// The index files' new exports: added to an existing `export {...} from` of the same file and kind, else a new line.
for (const [folder, names] of added) {
  const indexFile = path.join(folder, "index.ts");
  const source = program.getSourceFile(indexFile);
  const byFrom = new Map();
  for (const [name, { symbol, from }] of names) {
    const isType = !(symbol.flags & ts.SymbolFlags.Value);
    const key = `${isType ? "type" : "value"} ${from}`;
    if (!byFrom.has(key)) byFrom.set(key, { isType, from, names: [] });
    byFrom.get(key).names.push(name);
  }
  const appended = [];
  for (const { isType, from, names: list } of byFrom.values()) {
    const existing = source.statements.find(
      (s) => ts.isExportDeclaration(s) && s.moduleSpecifier && ts.isStringLiteral(s.moduleSpecifier) && s.moduleSpecifier.text === from && s.isTypeOnly === isType && s.exportClause && ts.isNamedExports(s.exportClause),
    );
    if (existing) {
      const last = existing.exportClause.elements.at(-1);
      addEdit(indexFile, { start: last.getEnd(), end: last.getEnd(), text: `, ${list.join(", ")}` });
    } else {
      appended.push(`export ${isType ? "type " : ""}{ ${list.sort().join(", ")} } from ${JSON.stringify(from)};`);
    }
  }
  if (appended.length > 0) {
    const end = source.text.length;
    const afterCode = source.statements.length > 0 && !ts.isExportDeclaration(source.statements.at(-1));
    addEdit(indexFile, { start: end, end, text: `${source.text.endsWith("\n") ? "" : "\n"}${afterCode ? "\n" : ""}${appended.sort().join("\n")}\n` });
  }
}

for (const [file, list] of edits) {
  let text = readFileSync(file, "utf8");
  for (const edit of list.sort((a, b) => b.start - a.start)) text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
  if (!dry) writeFileSync(file, text);
}
console.log(`${rerouted} import declarations ${dry ? "to reroute" : "rerouted"} in ${[...edits.keys()].length} files; ${added.size} index.ts files ${dry ? "would gain" : "gained"} ${[...added.values()].reduce((n, m) => n + m.size, 0)} exports`);
for (const problem of problems) console.log(`not rerouted: ${problem}`);
process.exitCode = problems.length > 0 ? 1 : 0;
