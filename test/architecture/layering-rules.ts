/**
 * The import rules of ARCHITECTURE.md ("Invariants"), each a function from
 * a tree's imports to its violations: one message per offending import,
 * naming the file, the line and what it imports. test/architecture.test.ts
 * runs them over the repository (no violations allowed) and over made-up
 * trees that break each rule (each must be caught).
 *
 * Product code is engine/, protocol/, server/src, client/src and cli/; tests may import
 * any module's internals (a unit test of one file), so they are exempt from
 * the deep-import, stage and cycle rules.
 */
import { posix } from "node:path";
import { describeImport, type SourceFile, type SourceImport } from "./import-scan";

/** The stages in dependency order: a stage imports only stages of earlier groups (never its own group's others). */
export const STAGES: readonly (readonly string[])[] = [
  ["engine/files"],
  ["engine/syntax"],
  ["engine/program"],
  ["engine/metadata"],
  ["engine/stats"],
  ["engine/analysis"],
  ["engine/cost"],
  ["engine/egraph"],
  ["engine/rewrite"],
  ["engine/extract"],
  ["engine/fusion"],
  ["engine/runtime"],
  ["engine/redundancy"],
  ["engine/suggest"],
  ["engine/execution"],
  ["protocol"],
  ["cli", "server/src"],
  ["client/src"],
];

/** Packages of the editor and the language server protocol, which the engine never imports. */
const EDITOR_PACKAGE = /^(vscode|vscode-languageserver[a-z-]*|vscode-languageclient|vscode-jsonrpc)(\/|$)/;
/** The package the shared message types are built from. */
const PROTOCOL_PACKAGE = /^(vscode-languageserver-protocol|vscode-jsonrpc)(\/|$)/;
/** Packages that touch the disk or start processes directly. */
const DISK_PACKAGE = /^(node:)?(fs|fs\/promises|child_process)$/;

/**
 * Server modules the client may import values from: settings shared by the
 * server's analysis and the client's runs. Each imports no language-server
 * package (checked: sharedServerModulesStayEditorFree).
 */
export const SERVER_MODULES_SHARED_WITH_CLIENT: readonly string[] = ["server/src/systemds-home.ts", "server/src/systemds-setting.ts"];

/**
 * Engine files that touch the disk (or start a process) themselves instead
 * of through the FileSystem interface (engine/files/file-system.ts): the
 * FileSystem on the real disk, and what cannot go through it. A new file on
 * this list is a design decision: say why next to it.
 */
export const ENGINE_FILES_WITH_DIRECT_IO: readonly string[] = [
  "engine/files/node-file-system.ts", // the FileSystem on the real disk
  "engine/files/code-cache.ts", // V8's compiled code of our own bundles, kept between processes (a cache, not user files)
  "engine/program/python-site-packages.ts", // starts python3 to ask where its packages are (a process, not a file)
  "engine/extract/ilp.ts", // locates glpk.js's WebAssembly beside the bundle or in node_modules, for glpk.js to load itself
  "engine/runtime/parfor/parfor-worker-file.ts", // locates the parfor worker's bundle, which node's Worker loads by path
  "engine/runtime/wasm/index.ts", // the kernels' WebAssembly, loaded synchronously when the module loads (the bundle's own file)
  "engine/runtime/wasm/locate-wasm.ts", // locates that WebAssembly beside the bundle
  "engine/runtime/wasm/wasm-module.ts", // reads that WebAssembly's bytes
];

/**
 * Value-import cycles between folders that exist today, each the set of
 * folders in one cycle. A cycle that is not within one of these sets fails;
 * a set that no longer is a cycle should be removed (the test says so).
 */
export const KNOWN_FOLDER_CYCLES: readonly (readonly string[])[] = [
  ["engine/stats", "engine/stats/estimators"],
  ["engine/fusion", "engine/fusion/select", "engine/fusion/templates"],
  ["engine/runtime", "engine/runtime/codegen", "engine/runtime/fused", "engine/runtime/interpreter", "engine/runtime/kernels", "engine/runtime/wasm"],
];

export interface ImportTree {
  files: readonly SourceFile[];
  imports: readonly SourceImport[];
}

const isProduct = (path: string): boolean => /^(engine|cli|protocol|server\/src|client\/src)\//.test(path);
const inFolder = (path: string, folder: string): boolean => path.startsWith(`${folder}/`);

/** The stage a file belongs to (its group's index in STAGES and its folder), if any. */
export function stageOf(path: string): { rank: number; folder: string } | undefined {
  for (let rank = 0; rank < STAGES.length; rank++) {
    const folder = STAGES[rank]!.find((candidate) => inFolder(path, candidate));
    if (folder) return { rank, folder };
  }
  return undefined;
}

/** The engine imports no editor or LSP package and nothing from server/, client/ or cli/. */
export function engineImportsNoEditorModule(tree: ImportTree): string[] {
  return tree.imports
    .filter((found) => inFolder(found.file, "engine"))
    .filter((found) => EDITOR_PACKAGE.test(found.specifier) || (found.target !== undefined && /^(server|client|cli)\//.test(found.target)))
    .map((found) => `${describeImport(found)}: the engine imports no editor, LSP, server, client or cli module`);
}

/** A stage imports (values or types) only stages listed before its group in STAGES. */
export function stagesImportOnlyEarlierStages(tree: ImportTree): string[] {
  const violations: string[] = [];
  for (const found of tree.imports) {
    if (!isProduct(found.file) || found.target === undefined) continue;
    const from = stageOf(found.file);
    const to = stageOf(found.target);
    if (!from || !to || from.folder === to.folder || to.rank < from.rank) continue;
    // The protocol names the types of the server's answers (checked by protocolImportsOnlyTypes); it loads none of their code.
    if (from.folder === "protocol" && found.typeOnly) continue;
    violations.push(`${describeImport(found)}: ${from.folder} may import only earlier stages, and ${to.folder} is ${to.rank === from.rank ? "beside" : "after"} it`);
  }
  return violations;
}

/** The client imports server modules for their types only, except the modules shared with it. */
export function clientImportsServerTypesOnly(tree: ImportTree): string[] {
  return tree.imports
    .filter((found) => inFolder(found.file, "client") && found.target !== undefined && inFolder(found.target, "server"))
    .filter((found) => !found.typeOnly && !SERVER_MODULES_SHARED_WITH_CLIENT.includes(found.target!))
    .map((found) => `${describeImport(found)}: the client imports server modules only with \`import type\` (values only from ${SERVER_MODULES_SHARED_WITH_CLIENT.join(", ")})`);
}

/** The modules the client may import values from stay free of editor and LSP packages, directly or through their own imports. */
export function sharedServerModulesStayEditorFree(tree: ImportTree): string[] {
  const violations: string[] = [];
  for (const shared of SERVER_MODULES_SHARED_WITH_CLIENT) {
    for (const file of valueClosure(tree, shared)) {
      for (const found of tree.imports) {
        if (found.file === file && !found.typeOnly && EDITOR_PACKAGE.test(found.specifier))
          violations.push(`${describeImport(found)}: reached from ${shared}, which the client imports, so the client bundle would load it`);
      }
    }
  }
  return violations;
}

/** The folders that have an index.ts: their API boundary. */
export function indexedFolders(files: readonly SourceFile[]): string[] {
  return files.filter((file) => isProduct(file.path) && posix.basename(file.path) === "index.ts").map((file) => posix.dirname(file.path));
}

/**
 * No deep imports: product code outside a folder that has an index.ts
 * imports the folder's files only through that index.ts ("../syntax", not
 * "../syntax/parser"). Files inside the folder (and its subfolders) import
 * each other directly.
 */
export function noDeepImports(tree: ImportTree): string[] {
  const folders = indexedFolders(tree.files);
  const violations: string[] = [];
  for (const found of tree.imports) {
    if (!isProduct(found.file) || found.target === undefined) continue;
    for (const folder of folders) {
      if (inFolder(found.target, folder) && found.target !== `${folder}/index.ts` && !inFolder(found.file, folder))
        violations.push(`${describeImport(found)}: import "${folder}" through its index.ts (export what is missing there)`);
    }
  }
  return violations;
}

/** The messages shared by server and client: their values come from the LSP protocol package only, all else is `import type`. */
export function protocolImportsOnlyTypes(tree: ImportTree): string[] {
  return tree.imports
    .filter((found) => inFolder(found.file, "protocol") && !found.typeOnly && !PROTOCOL_PACKAGE.test(found.specifier))
    .map((found) => `${describeImport(found)}: protocol/ imports values only from vscode-languageserver-protocol (types with \`import type\`), so the client bundle loads no server or engine code`);
}

/** The e-graph is generic: engine/egraph imports nothing outside itself but node's modules. */
export function egraphStandsAlone(tree: ImportTree): string[] {
  return tree.imports
    .filter((found) => inFolder(found.file, "engine/egraph"))
    .filter((found) => (found.target === undefined ? !found.specifier.startsWith("node:") : !inFolder(found.target, "engine/egraph")))
    .map((found) => `${describeImport(found)}: the e-graph knows nothing of matrices or the rest of the engine`);
}

/**
 * The cli's benchmarks of engine/stats's primitives (the sparsity estimators
 * on synthetic and real structures, the seeded generator they share): they
 * measure the primitives themselves, so they import them directly.
 */
const STATS_BENCHMARK = /^cli\/(bench|calibrate)-[a-z-]+\.ts$/;

/**
 * The server and the cli analyze documents through engine/analysis (which
 * re-exports the facts they show: node stats, block sizes, the estimators'
 * names); they import no engine/stats module, types included, except the
 * cli's benchmarks of the stats primitives (STATS_BENCHMARK).
 */
export function editorsAnalyzeThroughAnalysis(tree: ImportTree): string[] {
  return tree.imports
    .filter((found) => (inFolder(found.file, "server/src") || (inFolder(found.file, "cli") && !STATS_BENCHMARK.test(found.file))) && found.target !== undefined && inFolder(found.target, "engine/stats"))
    .map((found) => `${describeImport(found)}: the server and the cli import the analysis and its facts from engine/analysis, not engine/stats`);
}

/** Engine files read the disk only through FileSystem; ENGINE_FILES_WITH_DIRECT_IO are today's exceptions. */
export function engineIoThroughFileSystem(tree: ImportTree): string[] {
  return tree.imports
    .filter((found) => inFolder(found.file, "engine") && DISK_PACKAGE.test(found.specifier) && !found.typeOnly)
    .filter((found) => !ENGINE_FILES_WITH_DIRECT_IO.includes(found.file))
    .map((found) => `${describeImport(found)}: engine code reads files through the FileSystem interface (engine/files)`);
}

/** The folder a product file belongs to for the cycle rule: its innermost folder with an index.ts, else its stage. */
export function folderOf(path: string, indexed: readonly string[]): string | undefined {
  const containing = indexed.filter((folder) => inFolder(path, folder)).sort((a, b) => b.length - a.length)[0];
  return containing ?? stageOf(path)?.folder;
}

/** The value-import cycles between folders (strongly connected components of more than one folder), with an import of each edge. */
export function folderCycles(tree: ImportTree): { folders: string[]; imports: SourceImport[] }[] {
  const indexed = indexedFolders(tree.files);
  const edges = new Map<string, Map<string, SourceImport>>();
  for (const found of tree.imports) {
    if (found.typeOnly || !isProduct(found.file) || found.target === undefined) continue;
    const from = folderOf(found.file, indexed);
    const to = folderOf(found.target, indexed);
    if (!from || !to || from === to) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    if (!edges.get(from)!.has(to)) edges.get(from)!.set(to, found);
  }
  return stronglyConnected(edges).map((folders) => ({
    folders: folders.sort(),
    imports: folders.flatMap((from) => [...(edges.get(from) ?? new Map<string, SourceImport>())].filter(([to]) => folders.includes(to)).map(([, found]) => found)),
  }));
}

/** No value-import cycle between folders, beyond the KNOWN_FOLDER_CYCLES of today. */
export function noNewFolderCycles(tree: ImportTree): string[] {
  return folderCycles(tree)
    .filter((cycle) => !KNOWN_FOLDER_CYCLES.some((known) => cycle.folders.every((folder) => known.includes(folder))))
    .map((cycle) => `value imports make a cycle between ${cycle.folders.join(", ")}: ${cycle.imports.map(describeImport).join("; ")}`);
}

/** The files `start` loads at run time, itself included (value imports within the tree). */
function valueClosure(tree: ImportTree, start: string): Set<string> {
  const seen = new Set<string>([start]);
  const pending = [start];
  while (pending.length > 0) {
    const file = pending.pop()!;
    for (const found of tree.imports) {
      if (found.file === file && !found.typeOnly && found.target !== undefined && !seen.has(found.target)) {
        seen.add(found.target);
        pending.push(found.target);
      }
    }
  }
  return seen;
}

/** Tarjan's strongly connected components with more than one node. */
function stronglyConnected(edges: ReadonlyMap<string, ReadonlyMap<string, unknown>>): string[][] {
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string): void => {
    order.set(node, order.size);
    low.set(node, order.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node)?.keys() ?? []) {
      if (!order.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, order.get(next)!));
      }
    }
    if (low.get(node) === order.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) components.push(component);
    }
  };
  for (const node of [...edges.keys()].sort()) if (!order.has(node)) visit(node);
  return components;
}

/** Every rule, by the name the test reports. */
export const RULES: Readonly<Record<string, (tree: ImportTree) => string[]>> = {
  "the engine imports no editor, LSP, server, client or cli module": engineImportsNoEditorModule,
  "a stage imports only earlier stages": stagesImportOnlyEarlierStages,
  "the client imports server modules only for types": clientImportsServerTypesOnly,
  "server modules shared with the client import no LSP package": sharedServerModulesStayEditorFree,
  "no deep imports around a folder's index.ts": noDeepImports,
  "the protocol imports only types beyond the LSP protocol package": protocolImportsOnlyTypes,
  "the e-graph imports nothing from the rest of the engine": egraphStandsAlone,
  "engine code does IO only through FileSystem": engineIoThroughFileSystem,
  "the server and the cli import the analysis through engine/analysis": editorsAnalyzeThroughAnalysis,
  "no value-import cycles between folders": noNewFolderCycles,
};
