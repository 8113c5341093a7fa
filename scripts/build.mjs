// Bundles the extension client, the language server and the command line
// with esbuild: CommonJS for node 20, with source maps, into dist/.
// Usage: node scripts/build.mjs [--watch] [--minify]
import * as esbuild from "esbuild";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { copyFileSync, mkdirSync } from "node:fs";
import { compileKernels } from "../engine/runtime/wasm/compile-kernels.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const watch = process.argv.includes("--watch");
const minify = process.argv.includes("--minify");

/** @type {import("esbuild").BuildOptions} */
const common = {
  absWorkingDir: root,
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  sourcemap: true,
  minify,
  // glpk.js finds its WebAssembly next to its own module (import.meta.url): loaded from node_modules at run time.
  external: ["glpk.js"],
  logLevel: "warning",
};

/**
 * Marks every module of the repository free of side effects, so that a bundle
 * keeps only what its entry uses: the start bundles (dist/startup.js,
 * dist/server-startup.js, dist/optimizer-worker-startup.js) are loaded
 * without V8's code cache, so they must
 * stay small, and the modules they would otherwise keep for their top-level
 * statements are in the bundle they load anyway.
 * @type {import("esbuild").Plugin}
 */
const withoutSideEffects = {
  name: "without-side-effects",
  setup(build) {
    build.onResolve({ filter: /^\.\.?\// }, async (args) => {
      if (args.pluginData === "resolved") return undefined;
      const result = await build.resolve(args.path, { resolveDir: args.resolveDir, kind: args.kind, pluginData: "resolved" });
      return result.errors.length > 0 ? undefined : { path: result.path, sideEffects: false };
    });
  },
};

/** @type {import("esbuild").BuildOptions[]} */
const targets = [
  // The VS Code side: `vscode` is provided by the editor at run time.
  { entryPoints: ["client/src/extension.ts"], outfile: "dist/client.js", external: ["vscode", "glpk.js"] },
  // The runtime's worker thread, started by the client for Run Cell (a session per script).
  { entryPoints: ["client/src/runtime-worker.ts"], outfile: "dist/runtime-worker.js" },
  // The language server, started by the client over IPC (or `dml lsp --stdio`).
  { entryPoints: ["server/src/server.ts"], outfile: "dist/server.js" },
  // The server loaded with V8's code cache (server/src/startup.ts): what the client starts.
  { entryPoints: ["server/src/startup.ts"], outfile: "dist/server-startup.js", plugins: [withoutSideEffects] },
  // The optimizer's worker thread, started by the server.
  { entryPoints: ["server/src/optimizer-worker.ts"], outfile: "dist/optimizer-worker.js" },
  // The worker's bundle loaded with V8's code cache (server/src/optimizer-worker-startup.ts): what the server starts.
  { entryPoints: ["server/src/optimizer-worker-startup.ts"], outfile: "dist/optimizer-worker-startup.js", plugins: [withoutSideEffects] },
  // The parfor worker threads, started by the runtime (engine/runtime/parfor).
  { entryPoints: ["engine/execution/parfor-worker.ts"], outfile: "dist/parfor-worker.js" },
  // The command line behind bin/dml, and the start that loads it with V8's code cache (cli/startup.ts).
  { entryPoints: ["cli/main.ts"], outfile: "dist/cli.js" },
  { entryPoints: ["cli/startup.ts"], outfile: "dist/startup.js", plugins: [withoutSideEffects] },
];

const started = Date.now();
// The runtime's WebAssembly SIMD kernels (AssemblyScript) to dist/dml-kernels*.wasm, loaded at run time.
try {
  const wasm = await compileKernels({ outDir: path.join(root, "dist") });
  if (wasm.compiled) console.log(`asc: built ${wasm.outFiles.map((f) => path.relative(root, f)).join(", ")}`);
} catch (e) {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
}
if (watch) {
  for (const t of targets) {
    const ctx = await esbuild.context({ ...common, ...t });
    await ctx.watch();
  }
  console.log("esbuild: watching client, server, optimizer worker and cli for changes");
} else {
  try {
    await Promise.all(targets.map((t) => esbuild.build({ ...common, ...t })));
  } catch {
    // esbuild has already printed the errors.
    process.exit(1);
  }
  console.log(`esbuild: built ${targets.map((t) => t.outfile).join(", ")} in ${Date.now() - started} ms`);
}
// GLPK (ILP extraction) next to the bundles, so the packaged extension finds it without node_modules.
const glpkDir = path.join(root, "dist", "glpk");
mkdirSync(glpkDir, { recursive: true });
copyFileSync(path.join(root, "node_modules", "glpk.js", "dist", "glpk.js"), path.join(glpkDir, "glpk.mjs"));
copyFileSync(path.join(root, "node_modules", "glpk.js", "dist", "glpk.wasm"), path.join(glpkDir, "glpk.wasm"));
