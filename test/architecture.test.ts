/**
 * The invariants of ARCHITECTURE.md, checked on the imports of the sources
 * (read with TypeScript's parser, test/architecture/import-scan.ts): the
 * engine imports no editor or LSP module, stages import only earlier
 * stages, the client imports server modules only for types, no deep imports
 * around a folder's index.ts, the e-graph stands alone, engine IO goes
 * through FileSystem, no new value-import cycles between folders. Each rule
 * is also run on a made-up tree that breaks it, so a rule that can no longer
 * fail is caught too.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { repoRoot } from "./repo-root";
import { readSourceTree, scanImports, type SourceFile } from "./architecture/import-scan";
import { folderCycles, KNOWN_FOLDER_CYCLES, RULES, type ImportTree } from "./architecture/layering-rules";
import { BROKEN_TREES, CLEAN_TREE } from "./architecture/broken-trees";

const treeOf = (files: readonly SourceFile[]): ImportTree => ({ files, imports: scanImports(files) });
const repository = treeOf(readSourceTree(repoRoot, ["engine", "protocol", "server/src", "client/src", "cli"]));

test("the scan reads the repository's sources and their imports", () => {
  assert.ok(repository.files.length > 300, `only ${repository.files.length} files read`);
  assert.ok(repository.files.some((file) => file.path === "engine/egraph/egraph.ts"));
  const parserImports = repository.imports.filter((found) => found.file === "engine/syntax/parser.ts");
  assert.ok(parserImports.some((found) => found.specifier === "chevrotain" && found.target === undefined));
  const unresolved = repository.imports.filter((found) => found.specifier.startsWith(".") && found.target === undefined);
  assert.deepEqual(unresolved, [], "relative imports the scan could not resolve to a file");
});

for (const [rule, check] of Object.entries(RULES)) {
  test(`repository: ${rule}`, () => {
    const violations = check(repository);
    assert.equal(violations.length, 0, `${violations.length} violations:\n${violations.join("\n")}`);
  });
}

test("repository: every known folder cycle still exists (remove the ones that are gone from KNOWN_FOLDER_CYCLES)", () => {
  const cycles = folderCycles(repository);
  for (const known of KNOWN_FOLDER_CYCLES) {
    assert.ok(
      cycles.some((cycle) => cycle.folders.join() === [...known].sort().join()),
      `the cycle between ${known.join(", ")} is gone or smaller; today's cycles: ${cycles.map((cycle) => cycle.folders.join(", ")).join(" | ")}`,
    );
  }
});

test("a clean made-up tree keeps every rule", () => {
  const tree = treeOf(CLEAN_TREE);
  for (const [rule, check] of Object.entries(RULES)) assert.deepEqual(check(tree), [], rule);
});

for (const [rule, broken] of Object.entries(BROKEN_TREES)) {
  test(`a tree that breaks it fails: ${rule}`, () => {
    const violations = RULES[rule]!(treeOf(broken.tree));
    assert.equal(violations.length, 1, violations.join("\n"));
    assert.ok(violations[0]!.includes(broken.names), `the message should name ${broken.names}: ${violations[0]}`);
  });
}

test("every rule has a tree that breaks it", () => {
  assert.deepEqual(Object.keys(BROKEN_TREES).sort(), Object.keys(RULES).sort());
});

test("the scan tells type-only imports from value imports", () => {
  const imports = scanImports([
    {
      path: "a.ts",
      text: [
        `import type { A } from "./b";`,
        `import { type B, type C } from "./b";`,
        `import { type D, e } from "./b";`,
        `import "./b";`,
        `export type { F } from "./b";`,
        `export { g } from "./b";`,
        `type H = import("./b").H;`,
        `const i = await import("./b");`,
        `const j = require("./b");`,
      ].join("\n"),
    },
    { path: "b.ts", text: "" },
  ]);
  assert.deepEqual(
    imports.map((found) => [found.line, found.typeOnly, found.target]),
    [
      [1, true, "b.ts"],
      [2, true, "b.ts"],
      [3, false, "b.ts"],
      [4, false, "b.ts"],
      [5, true, "b.ts"],
      [6, false, "b.ts"],
      [7, true, "b.ts"],
      [8, false, "b.ts"],
      [9, false, "b.ts"],
    ],
  );
});
