/**
 * `dml bench parse`: full reparse of a realistic script of about 1,000 lines,
 * made by concatenating the shipped examples (examples/*.dml), the variables
 * of each repeated copy renamed so that the script reads like one long
 * program rather than the same text over and over.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parse, type Diagnostic } from "../engine/syntax";
import type { BenchRow } from "./bench-report";
import { timeRuns } from "./bench-report";
import { err } from "./output";
import { packageRoot } from "./package-root";

const parseBenchTargetLines = 1000;

/** Builds the benchmark script: examples in name order, cycled until `targetLines` lines. */
export function generateParseBenchScript(examplesDir: string, targetLines = parseBenchTargetLines): string {
  const files = readdirSync(examplesDir)
    .filter((f) => f.endsWith(".dml"))
    .sort();
  if (files.length === 0) throw new Error(`no .dml files in ${examplesDir}`);
  const sources = files.map((f) => ({ name: f, text: readFileSync(path.join(examplesDir, f), "utf8") }));

  const parts: string[] = [];
  let lines = 0;
  for (let copy = 1; lines < targetLines; copy++) {
    for (const { name, text } of sources) {
      if (lines >= targetLines) break;
      const body = copy === 1 ? text : renameVariables(text, `_${copy}`);
      const part = `# ---- ${name} (copy ${copy})\n${body.endsWith("\n") ? body : body + "\n"}`;
      parts.push(part);
      lines += countLines(part);
    }
  }
  return parts.join("");
}

/** Appends `suffix` to every name the script assigns (`x = ...`, `[a, b] = ...`, `for (i in ...)`). */
export function renameVariables(text: string, suffix: string): string {
  const names = new Set<string>();
  for (const m of text.matchAll(/^[ \t]*([A-Za-z][A-Za-z0-9_]*)[ \t]*(?:\[[^\]\n]*\])?[ \t]*(?:=|<-|\+=)(?!=)/gm)) names.add(m[1]!);
  for (const m of text.matchAll(/^[ \t]*\[([^\]\n]*)\][ \t]*(?:=|<-)(?!=)/gm)) {
    for (const n of m[1]!.split(",")) names.add(n.trim());
  }
  for (const m of text.matchAll(/\b(?:par)?for[ \t]*\([ \t]*([A-Za-z][A-Za-z0-9_]*)[ \t]+in\b/g)) names.add(m[1]!);
  if (names.size === 0) return text;
  const pattern = new RegExp(`(?<![$.\\w])(${[...names].map(escapeRegExp).join("|")})(?![\\w.])`, "g");
  return text
    .split("\n")
    .map((line) => {
      // Leave comments alone, but keep `# %%` cell markers as they are.
      const hash = line.indexOf("#");
      const code = hash >= 0 ? line.slice(0, hash) : line;
      const rest = hash >= 0 ? line.slice(hash) : "";
      return code.replace(pattern, `$1${suffix}`) + rest;
    })
    .join("\n");
}

export function runParseBench(): BenchRow[] {
  const script = generateParseBenchScript(path.join(packageRoot(), "examples"));
  const lines = countLines(script);
  const errors = parse(script).diagnostics.filter((d: Diagnostic) => d.severity === "error");
  if (errors.length > 0) {
    const first = errors[0]!;
    err(
      `dml bench parse: warning: the generated script has ${errors.length} syntax error(s), first at ` +
        `${first.range.start.line + 1}:${first.range.start.character + 1}: ${first.message}`,
    );
  }
  const timing = timeRuns(() => parse(script), { warmup: 10, minRuns: 30, minTotalMs: 1000, maxRuns: 500 });
  return [
    {
      suite: "parse",
      case: `examples-concat-${lines}-lines`,
      ours_ms: timing.medianMs,
      baseline: "none",
      baseline_ms: null,
      ratio: null,
      p90_ms: timing.p90Ms,
      runs: timing.runs,
      lines,
      lines_per_second: Math.round(lines / (timing.medianMs / 1000)),
    },
  ];
}

function countLines(text: string): number {
  if (text.length === 0) return 0;
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
