// ESLint (flat config) with typescript-eslint's type information: promises
// that nobody awaits, and the layering of ARCHITECTURE.md ("Invariants") as
// import restrictions, so an editor shows a broken layer while you type.
// test/architecture.test.ts checks the full set of rules (stage order, deep
// imports, cycles) on every test run; this is the fast, local part.
// Run: `npm run lint` (CI runs it too).
import tseslint from "typescript-eslint";

/** Packages of the editor and the language server protocol. */
const EDITOR_PACKAGES = ["vscode", "vscode-languageserver", "vscode-languageserver/*", "vscode-languageserver-*", "vscode-languageclient", "vscode-languageclient/*", "vscode-jsonrpc", "vscode-jsonrpc/*"];

/** `no-restricted-imports` with the given patterns, type-only imports included unless `allowTypeImports`. */
const restrictImports = (patterns) => ["error", { patterns }];

export default tseslint.config(
  { ignores: ["dist/**", "out/**", "node_modules/**", "e2e/**", "**/*.js", "**/*.mjs", "**/*.cjs", "engine/runtime/wasm/assembly/**"] },
  {
    files: ["**/*.ts"],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { "@typescript-eslint": tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      "@typescript-eslint/no-floating-promises": [
        "error",
        // node:test's test() and describe() return promises that the runner itself awaits.
        { allowForKnownSafeCalls: [{ from: "package", package: "node:test", name: ["test", "describe", "it", "suite", "before", "after", "beforeEach", "afterEach"] }] },
      ],
    },
  },
  {
    files: ["engine/**/*.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": restrictImports([
        { group: EDITOR_PACKAGES, message: "The engine imports no LSP or VS Code module (ARCHITECTURE.md, Invariants)." },
        { regex: "^(\\.\\./)+(server|client|cli)(/|$)", message: "The engine imports nothing from server/, client/ or cli/ (ARCHITECTURE.md, Invariants)." },
      ]),
    },
  },
  {
    files: ["engine/runtime/**/*.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": restrictImports([
        { group: EDITOR_PACKAGES, message: "The engine imports no LSP or VS Code module (ARCHITECTURE.md, Invariants)." },
        { regex: "^(\\.\\./)+(server|client|cli)(/|$)", message: "The engine imports nothing from server/, client/ or cli/ (ARCHITECTURE.md, Invariants)." },
        { regex: "^(\\.\\./)+(suggest|execution|redundancy)(/|$)", message: "The runtime imports neither suggest, execution nor redundancy: they plug in through BlockRunner (ARCHITECTURE.md, Invariants)." },
      ]),
    },
  },
  {
    files: ["engine/egraph/**/*.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": restrictImports([
        { regex: "^\\.\\./", message: "The e-graph knows nothing of matrices: engine/egraph imports nothing outside its folder (ARCHITECTURE.md, Invariants)." },
        { regex: "^(?!node:)[^.]", message: "The e-graph imports no package besides node's modules (ARCHITECTURE.md, Invariants)." },
      ]),
    },
  },
  {
    files: ["server/src/**/*.ts", "cli/**/*.ts"],
    ignores: ["cli/bench-*.ts", "cli/calibrate-*.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": restrictImports([
        { regex: "^(\\.\\./)+engine/stats(/|$)", message: "The server and the cli import the analysis and its facts from engine/analysis, not engine/stats; only the cli's benchmarks of the stats primitives import them (ARCHITECTURE.md, Invariants)." },
      ]),
    },
  },
  {
    files: ["client/src/**/*.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": restrictImports([
        {
          regex: "^(\\.\\./)+server/src/(?!(systemds-home|systemds-setting)$)",
          allowTypeImports: true,
          message: "The client imports server modules only with `import type`, except the settings modules shared with it (ARCHITECTURE.md, Invariants).",
        },
      ]),
    },
  },
);
