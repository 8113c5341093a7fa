// Runs the fuzz harnesses (test/fuzz/*.harness.ts, contract in
// test/fuzz/harness.ts) for longer than CI does and prints what they found.
//
// Usage: npm run fuzz -- [--seed S] [--minutes M] [--cases N] [--only a,b] [--report]
//   --seed S      seed of every random choice (default: drawn, and printed so a run can be repeated)
//   --minutes M   time budget of the whole run, split evenly over the harnesses;
//                 without it each harness runs its `reportCases` (the issue's target counts)
//   --cases N     cases per harness (overrides reportCases; with --minutes, an upper bound)
//   --only a,b    run only the named harnesses
//   --report      also write out/fuzz/report.md and out/fuzz/report.json
// Exit status: 0 when no harness found a failure or broke a bound, 1 otherwise.
import { build } from "esbuild";
import { testBundleOptions } from "./test-bundle-options.mjs";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);

function parseArguments(argv) {
  const options = { seed: undefined, minutes: undefined, cases: undefined, only: undefined, report: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.includes("=") ? arg.split(/=(.*)/s) : [arg, undefined];
    const value = () => inline ?? argv[++i];
    if (flag === "--seed") options.seed = Number(value());
    else if (flag === "--minutes") options.minutes = Number(value());
    else if (flag === "--cases") options.cases = Number(value());
    else if (flag === "--only") options.only = String(value()).split(",").filter(Boolean);
    else if (flag === "--report") options.report = true;
    else {
      console.error(`fuzz: unknown argument '${arg}' (see the usage at the top of scripts/fuzz.mjs)`);
      process.exit(2);
    }
  }
  for (const key of ["seed", "minutes", "cases"]) {
    const v = options[key];
    if (v !== undefined && !(Number.isFinite(v) && v >= 0)) {
      console.error(`fuzz: --${key} needs a non-negative number`);
      process.exit(2);
    }
  }
  return options;
}

const options = parseArguments(process.argv.slice(2));
const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);

const fuzzDir = path.join(root, "test", "fuzz");
const harnessFiles = readdirSync(fuzzDir).filter((f) => f.endsWith(".harness.ts")).sort();
const outdir = path.join(root, "out", "fuzz");
await build({
  entryPoints: harnessFiles.map((f) => path.join(fuzzDir, f)),
  outdir,
  ...testBundleOptions,
});

const harnesses = harnessFiles
  .map((f) => require(path.join(outdir, f.replace(/\.ts$/, ".cjs"))).harness)
  .filter((h) => h && (options.only === undefined || options.only.includes(h.name)));
if (options.only !== undefined) {
  const missing = options.only.filter((n) => !harnesses.some((h) => h.name === n));
  if (missing.length > 0) {
    console.error(`fuzz: no harness named ${missing.join(", ")}`);
    process.exit(2);
  }
}

console.log(`fuzz: seed ${seed}, ${harnesses.length} harnesses${options.minutes !== undefined ? `, ${options.minutes} min` : ""}`);
const perHarnessMs = options.minutes !== undefined ? (options.minutes * 60_000) / Math.max(1, harnesses.length) : undefined;
const rows = [];
let broken = false;
for (const harness of harnesses) {
  const started = Date.now();
  const cases = options.cases ?? (perHarnessMs !== undefined ? Number.MAX_SAFE_INTEGER : harness.reportCases);
  const deadlineMs = perHarnessMs !== undefined ? started + perHarnessMs : Number.POSITIVE_INFINITY;
  console.log(`\n== ${harness.name}: ${harness.title}`);
  let result;
  try {
    result = await harness.run({ seed, cases, deadlineMs, log: (line) => console.log(`   ${line}`) });
  } catch (error) {
    result = {
      cases: 0,
      failures: [{ input: "(harness)", problem: `the harness itself failed: ${error?.stack ?? error}` }],
      measures: [],
      stoppedByDeadline: false,
    };
  }
  const seconds = (Date.now() - started) / 1000;
  const over = result.measures.filter((m) => m.bound !== undefined && m.value > m.bound);
  if (result.failures.length > 0 || over.length > 0) broken = true;
  rows.push({ harness: harness.name, title: harness.title, seconds, ...result });
  console.log(`   ${result.cases} cases, ${result.failures.length} failures, ${seconds.toFixed(1)} s${result.stoppedByDeadline ? " (stopped by the time budget)" : ""}`);
  for (const m of result.measures) {
    const bound = m.bound !== undefined ? ` (bound ${m.bound} ${m.unit})${m.value > m.bound ? "  EXCEEDED" : ""}` : "";
    console.log(`   ${m.name}: ${m.value} ${m.unit}${bound}`);
  }
  for (const f of result.failures.slice(0, 5)) console.log(`   FAILURE: ${f.problem}\n   --- input ---\n${f.input}\n   -------------`);
  if (result.failures.length > 5) console.log(`   (${result.failures.length - 5} more failures)`);
}

if (options.report) {
  mkdirSync(outdir, { recursive: true });
  writeFileSync(path.join(outdir, "report.json"), JSON.stringify({ seed, minutes: options.minutes, harnesses: rows }, null, 2));
  const lines = [`# Fuzz report`, ``, `Seed ${seed}${options.minutes !== undefined ? `, ${options.minutes} minutes` : ""}.`, ``];
  lines.push(`| harness | cases | failures | seconds | measures |`, `|---|---:|---:|---:|---|`);
  for (const r of rows) {
    const measures = r.measures
      .map((m) => `${m.name} ${m.value} ${m.unit}${m.bound !== undefined ? ` (≤ ${m.bound})` : ""}`)
      .join("; ");
    lines.push(`| ${r.harness} | ${r.cases} | ${r.failures.length} | ${r.seconds.toFixed(1)} | ${measures} |`);
  }
  for (const r of rows.filter((r) => r.failures.length > 0)) {
    lines.push(``, `## ${r.harness}: failures`);
    for (const f of r.failures) lines.push(``, `- ${f.problem}`, "", "```", f.input, "```");
  }
  writeFileSync(path.join(outdir, "report.md"), lines.join("\n") + "\n");
  console.log(`\nfuzz: report in ${path.relative(root, path.join(outdir, "report.md"))} and report.json`);
}
console.log(`\nfuzz: ${broken ? "FAILURES FOUND" : "no failures"} (seed ${seed})`);
process.exit(broken ? 1 : 0);
