// A node:test reporter for `npm test` (scripts/run-tests.mjs): one line of
// dots while the tests run (`.` pass, `s` skipped, `F` failed, a line per
// test file), then a summary: files, tests, passed, failed, skipped, todo,
// cancelled and the duration. Details only for what failed: each failing
// test's full name (suites > test), its file and line, the error (message,
// expected / actual, stack), and what its file printed. The exit code stays
// node's own (1 when a test fails).
import path from "node:path";
import { inspect } from "node:util";

const root = process.cwd();
const MAX_OUTPUT_LINES = 40;
const DOTS_PER_LINE = 80;

/** `out/test/cli/check.test.cjs` → `test/cli/check.test.ts` (the file a person edits). */
export function sourceFileOf(file) {
  if (!file) return "(unknown file)";
  const relative = path.relative(root, file);
  const bundled = /^out[\\/]test[\\/](.*)\.cjs$/.exec(relative);
  return bundled ? path.join("test", `${bundled[1]}.ts`) : relative;
}

/** The error a failing test threw, without the runner's wrapper around it. */
function errorText(error) {
  if (!error) return "(no error given)";
  const thrown = error.failureType === "testCodeFailure" && error.cause !== undefined ? error.cause : error;
  const text = thrown instanceof Error ? inspect(thrown, { depth: 4, breakLength: 120 }) : String(thrown?.message ?? thrown);
  // The runner's own frames say nothing about the test.
  return text
    .split("\n")
    .filter((line) => !/^\s+at .*\(?node:(internal|async_hooks)/.test(line) && !/^\s+at (new Promise|Array\.map|async Promise\.all)/.test(line))
    .join("\n");
}

const indent = (text, by = "    ") => text.split("\n").map((line) => by + line).join("\n");

export default async function* summaryReporter(source) {
  /** Per file: the names of the tests now running, by nesting depth (from test:start). */
  const running = new Map();
  /** Per file: what it printed (for failing files only). */
  const printed = new Map();
  const files = new Set();
  const failures = [];
  const counts = {};
  let column = 0;
  const mark = (ch) => {
    column++;
    return column % DOTS_PER_LINE === 0 ? `${ch}\n` : ch;
  };

  for await (const event of source) {
    const data = event.data ?? {};
    switch (event.type) {
      case "test:start": {
        const stack = running.get(data.file) ?? [];
        stack.length = data.nesting;
        stack[data.nesting] = data.name;
        running.set(data.file, stack);
        break;
      }
      case "test:stdout":
      case "test:stderr": {
        // (Output is reported for the bundle, tests for the source file its source map names.)
        const file = sourceFileOf(data.file);
        const lines = printed.get(file) ?? [];
        lines.push(...String(data.message).replace(/\n$/, "").split("\n"));
        if (lines.length > 4 * MAX_OUTPUT_LINES) lines.splice(0, lines.length - MAX_OUTPUT_LINES);
        printed.set(file, lines);
        break;
      }
      case "test:pass":
      case "test:fail": {
        // The runner reports each file as a test of its own at depth 0, named by its path.
        const isFile = data.nesting === 0 && data.file !== undefined && sourceFileOf(data.name) === sourceFileOf(data.file);
        if (data.file) files.add(sourceFileOf(data.file));
        const isSuite = data.details?.type === "suite";
        if (event.type === "test:pass") {
          if (!isFile && !isSuite) yield mark(data.skip !== undefined || data.todo !== undefined ? "s" : ".");
          break;
        }
        // A suite or file fails because a test in it failed: that test is reported already.
        const error = data.details?.error;
        const becauseOfSubtests = (isSuite || isFile) && /^\d+ subtests? failed$/.test(String(error?.message ?? ""));
        if (becauseOfSubtests) break;
        const stack = running.get(data.file) ?? [];
        const name = isFile ? "(the file itself: it failed while loading or outside any test)" : [...stack.slice(0, data.nesting), data.name].join(" > ");
        failures.push({ name, file: sourceFileOf(data.file), line: data.line, error });
        yield mark("F");
        break;
      }
      case "test:diagnostic": {
        const match = /^(tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) ([\d.]+)$/.exec(String(data.message));
        if (match && data.nesting === 0) counts[match[1]] = Number(match[2]);
        break;
      }
      default:
        break;
    }
  }

  let report = column % DOTS_PER_LINE === 0 ? "" : "\n";
  if (failures.length > 0) {
    report += `\n${failures.length} failing test${failures.length === 1 ? "" : "s"}:\n`;
    failures.forEach((f, k) => {
      report += `\n${k + 1}) ${f.name}\n   ${f.file}${f.line !== undefined ? `:${f.line}` : ""}\n${indent(errorText(f.error))}\n`;
    });
    const failedFiles = [...new Set(failures.map((f) => f.file))].filter((file) => (printed.get(file) ?? []).length > 0);
    for (const file of failedFiles) {
      const lines = printed.get(file);
      const shown = lines.slice(-MAX_OUTPUT_LINES);
      report += `\noutput of ${file}${shown.length < lines.length ? ` (last ${shown.length} lines)` : ""}:\n${indent(shown.join("\n"))}\n`;
    }
  }
  const seconds = ((counts.duration_ms ?? 0) / 1000).toFixed(1);
  const parts = [`${files.size} files`, `${counts.tests ?? 0} tests`, `${counts.pass ?? 0} passed`, `${counts.fail ?? 0} failed`, `${counts.skipped ?? 0} skipped`];
  if (counts.todo) parts.push(`${counts.todo} todo`);
  if (counts.cancelled) parts.push(`${counts.cancelled} cancelled`);
  report += `\n${(counts.fail ?? 0) + (counts.cancelled ?? 0) > 0 ? "FAILED" : "ok"}: ${parts.join(", ")} in ${seconds} s\n`;
  yield report;
}
