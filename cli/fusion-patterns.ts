/**
 * SystemDS's fusion test patterns as DML fixtures (test/fixtures/fusion-patterns):
 * each file is a small script after one of SystemDS's codegen tests, with
 * header comments naming the fused operator SystemDS generates for it:
 *
 *   # expect: row            an operator of this template (any of several:
 *                            `# expect: cell magg`) must be in the plan;
 *   # expect-not: outer      no operator of this template may be in it.
 *
 * A pattern matches when the fusion plans of all the script's blocks meet
 * both. `dml bench fusion` reports how many match; the fixture test also
 * keeps the list of the ones that do not yet.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { TemplateType } from "../engine/fusion";

export const FUSION_PATTERN_DIR = path.join("test", "fixtures", "fusion-patterns");

const TEMPLATES: readonly TemplateType[] = ["cell", "row", "magg", "outer"];

export interface FusionPattern {
  /** File name without `.dml`. */
  name: string;
  file: string;
  text: string;
  /** Templates of which at least one operator must be planned (empty: no such requirement). */
  expect: TemplateType[];
  /** Templates of which no operator may be planned. */
  expectNot: TemplateType[];
  /** The template the pattern is about (its first `expect`, else its first `expect-not`), for per-template counts. */
  template: TemplateType;
}

/** Reads every `.dml` fixture of `dir`, sorted by name; a file without a valid header is an error naming it. */
export function readFusionPatterns(dir: string): FusionPattern[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".dml"))
    .sort()
    .map((f) => parseFusionPattern(path.join(dir, f), readFileSync(path.join(dir, f), "utf8")));
}

export function parseFusionPattern(file: string, text: string): FusionPattern {
  const expect = headerTemplates(file, text, "expect");
  const expectNot = headerTemplates(file, text, "expect-not");
  const template = expect[0] ?? expectNot[0];
  if (template === undefined) throw new Error(`${file}: no '# expect:' or '# expect-not:' line`);
  return { name: path.basename(file, ".dml"), file, text, expect, expectNot, template };
}

function headerTemplates(file: string, text: string, key: string): TemplateType[] {
  const found: TemplateType[] = [];
  for (const line of text.split("\n")) {
    const match = /^#\s*([a-z-]+):\s*(.*)$/.exec(line.trim());
    if (!match || match[1] !== key) continue;
    for (const word of match[2]!.trim().split(/\s+/)) {
      if (!TEMPLATES.includes(word as TemplateType)) throw new Error(`${file}: '${word}' is not a template (${TEMPLATES.join(", ")})`);
      found.push(word as TemplateType);
    }
  }
  return found;
}

/** Whether the templates of the planned operators (over all blocks) are what SystemDS generates for the pattern. */
export function patternMatches(pattern: FusionPattern, planned: readonly TemplateType[]): boolean {
  const has = new Set(planned);
  if (pattern.expect.length > 0 && !pattern.expect.some((t) => has.has(t))) return false;
  return !pattern.expectNot.some((t) => has.has(t));
}

export interface PatternCoverage {
  matched: number;
  total: number;
  byTemplate: Record<TemplateType, { matched: number; total: number }>;
}

export function patternCoverage(results: readonly { pattern: FusionPattern; matched: boolean }[]): PatternCoverage {
  const byTemplate = Object.fromEntries(TEMPLATES.map((t) => [t, { matched: 0, total: 0 }])) as Record<TemplateType, { matched: number; total: number }>;
  for (const { pattern, matched } of results) {
    byTemplate[pattern.template].total++;
    if (matched) byTemplate[pattern.template].matched++;
  }
  return { matched: results.filter((r) => r.matched).length, total: results.length, byTemplate };
}

/** "N of M patterns get the operator SystemDS generates (cell a/b, row c/d, magg e/f, outer g/h)". */
export function formatCoverage(coverage: PatternCoverage): string {
  const parts = TEMPLATES.map((t) => `${t} ${coverage.byTemplate[t].matched}/${coverage.byTemplate[t].total}`);
  return `${coverage.matched} of ${coverage.total} patterns get the operator SystemDS generates (${parts.join(", ")})`;
}
