/**
 * Small made-up source trees for the architecture test: one that keeps every
 * rule of ARCHITECTURE.md, and per rule a copy with one import added that
 * breaks it, so the test shows each rule can fail (and names the file).
 */
import type { SourceFile } from "./import-scan";

/** A tree that keeps every rule: stages import earlier stages through their index.ts. */
export const CLEAN_TREE: readonly SourceFile[] = [
  { path: "engine/syntax/index.ts", text: `export { parse } from "./parser";\nexport type { Ast } from "./ast";\n` },
  { path: "engine/syntax/ast.ts", text: `export interface Ast { kind: string }\n` },
  { path: "engine/syntax/parser.ts", text: `import type { Ast } from "./ast";\nexport function parse(text: string): Ast { return { kind: text }; }\n` },
  { path: "engine/egraph/index.ts", text: `export { EGraph } from "./egraph";\n` },
  { path: "engine/egraph/egraph.ts", text: `import { strict } from "node:assert";\nexport class EGraph { size = 0; check() { strict(this.size >= 0); } }\n` },
  { path: "engine/program/index.ts", text: `export { blocks } from "./blocks";\n` },
  { path: "engine/program/blocks.ts", text: `import { parse } from "../syntax";\nexport const blocks = (text: string) => [parse(text)];\n` },
  { path: "engine/files/index.ts", text: `export type { FileSystem } from "./file-system";\nexport { nodeFileSystem } from "./node-file-system";\n` },
  { path: "engine/files/file-system.ts", text: `export interface FileSystem { read(path: string): string }\n` },
  { path: "engine/files/node-file-system.ts", text: `import { readFileSync } from "node:fs";\nimport type { FileSystem } from "./file-system";\nexport const nodeFileSystem: FileSystem = { read: (path) => readFileSync(path, "utf8") };\n` },
  { path: "engine/metadata/index.ts", text: `export { readMtd } from "./mtd";\n` },
  { path: "engine/metadata/mtd.ts", text: `import { nodeFileSystem } from "../files";\nexport const readMtd = (path: string) => nodeFileSystem.read(path);\n` },
  { path: "engine/analysis/index.ts", text: `import { blocks } from "../program";\nexport const analyze = (text: string) => blocks(text);\n` },
  { path: "cli/bench-estimators.ts", text: `import { estimate } from "../engine/stats/estimate";\nexport const bench = () => estimate;\n` },
  { path: "engine/stats/estimate.ts", text: `export const estimate = 1;\n` },
  { path: "engine/suggest/index.ts", text: `import { EGraph } from "../egraph";\nimport { blocks } from "../program";\nexport const suggest = (text: string) => [new EGraph(), blocks(text)];\n` },
  { path: "server/src/systemds-home.ts", text: `export const INSTALLATION_NOTIFICATION = "dmlLens/installation";\n` },
  { path: "server/src/hover.ts", text: `export interface HoverView { text: string }\n` },
  {
    path: "server/src/server.ts",
    text: `import { createConnection } from "vscode-languageserver/node";\nimport { suggest } from "../../engine/suggest";\nexport const start = () => [createConnection(), suggest("")];\n`,
  },
  {
    path: "protocol/messages.ts",
    text: `import { RequestType } from "vscode-languageserver-protocol";\nimport type { HoverView } from "../server/src/hover";\nexport const HoverRequest = new RequestType<string, HoverView, void>("hover");\n`,
  },
  {
    path: "client/src/extension.ts",
    text: `import * as vscode from "vscode";\nimport type { HoverView } from "../../server/src/hover";\nimport { INSTALLATION_NOTIFICATION } from "../../server/src/systemds-home";\nexport const views: HoverView[] = [];\nexport const name = [vscode, INSTALLATION_NOTIFICATION];\n`,
  },
];

/** The clean tree with `file`'s text extended by `line`, or `file` added with it. */
export function breakTree(file: string, line: string): SourceFile[] {
  const tree = CLEAN_TREE.map((source) => (source.path === file ? { path: source.path, text: `${line}\n${source.text}` } : source));
  return tree.some((source) => source.path === file) ? tree : [...tree, { path: file, text: `${line}\n` }];
}

/** Per rule (as named in RULES): a tree that breaks it once, and the file:line its message must name. */
export const BROKEN_TREES: Readonly<Record<string, { tree: SourceFile[]; names: string }>> = {
  "the engine imports no editor, LSP, server, client or cli module": {
    tree: breakTree("engine/program/blocks.ts", `import { TextDocument } from "vscode-languageserver-textdocument";`),
    names: `engine/program/blocks.ts:1 imports "vscode-languageserver-textdocument"`,
  },
  "a stage imports only earlier stages": {
    tree: breakTree("engine/program/blocks.ts", `import type { suggest } from "../suggest";`),
    names: `engine/program/blocks.ts:1 imports "../suggest" (engine/suggest/index.ts)`,
  },
  "the client imports server modules only for types": {
    tree: breakTree("client/src/extension.ts", `import { start } from "../../server/src/server";`),
    names: `client/src/extension.ts:1 imports "../../server/src/server" (server/src/server.ts)`,
  },
  "server modules shared with the client import no LSP package": {
    tree: breakTree("server/src/systemds-home.ts", `import { createConnection } from "vscode-languageserver/node";`),
    names: `server/src/systemds-home.ts:1 imports "vscode-languageserver/node"`,
  },
  "no deep imports around a folder's index.ts": {
    tree: breakTree("engine/suggest/index.ts", `import { parse } from "../syntax/parser";`),
    names: `engine/suggest/index.ts:1 imports "../syntax/parser" (engine/syntax/parser.ts)`,
  },
  "the protocol imports only types beyond the LSP protocol package": {
    tree: breakTree("protocol/messages.ts", `import { suggest } from "../engine/suggest";`),
    names: `protocol/messages.ts:1 imports "../engine/suggest" (engine/suggest/index.ts)`,
  },
  "the e-graph imports nothing from the rest of the engine": {
    tree: breakTree("engine/egraph/egraph.ts", `import type { Ast } from "../syntax";`),
    names: `engine/egraph/egraph.ts:1 imports "../syntax" (engine/syntax/index.ts)`,
  },
  "engine code does IO only through FileSystem": {
    tree: breakTree("engine/program/blocks.ts", `import { readFileSync } from "node:fs";`),
    names: `engine/program/blocks.ts:1 imports "node:fs"`,
  },
  "the server and the cli import the analysis through engine/analysis": {
    tree: breakTree("server/src/hover.ts", `import type { NodeStats } from "../../engine/stats/node-stats";`).concat([
      { path: "engine/stats/node-stats.ts", text: `export interface NodeStats { rows: number }\n` },
    ]),
    names: `server/src/hover.ts:1 imports "../../engine/stats/node-stats" (engine/stats/node-stats.ts)`,
  },
  "no value-import cycles between folders": {
    tree: breakTree("engine/metadata/mtd.ts", `import { shape } from "../stats/shape";`).concat([
      { path: "engine/stats/shape.ts", text: `import { readMtd } from "../metadata";\nexport const shape = readMtd;\n` },
    ]),
    names: `engine/metadata/mtd.ts:1 imports "../stats/shape" (engine/stats/shape.ts)`,
  },
};
