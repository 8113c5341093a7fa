// esbuild options shared by the bundles of test code (scripts/run-tests.mjs
// for test/**/*.test.ts, scripts/fuzz.mjs for test/fuzz/*.harness.ts): one
// CommonJS file per entry for node 20 (chevrotain and fast-check are
// ESM-only, this package is CommonJS), inline source maps, glpk.js loaded
// from node_modules at run time (it finds its WebAssembly beside itself), and
// typescript too (the architecture test's parser: 9 MB not worth bundling).
export const testBundleOptions = {
  outExtension: { ".js": ".cjs" },
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  sourcemap: "inline",
  logLevel: "warning",
  external: ["glpk.js", "typescript"],
};
