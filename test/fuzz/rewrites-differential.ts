/**
 * One differential check of the optimizer: a script is checked (0 errors,
 * else the generator is wrong), optimized by the product's optimizer
 * (optimizeBlock, as `dml explain` and the language server run it) with one
 * extraction strategy, every suggestion is applied as the quick fix applies
 * it (suggestionEdits), and the original and the rewritten script are run by
 * the product's runtime (a Session); every statement target must hold equal
 * values within the tolerance below.
 *
 * Scripts whose original results hold Inf or NaN are counted, not compared
 * (see prepareScript). The optimizer runs with its own runtime verification off and no minimum
 * saving, so every cheaper plan it finds is a suggestion and an unsound one
 * shows up here instead of being dropped quietly.
 *
 * Fusion (issue 15) does not exist yet: there is no fused plan to evaluate.
 */
import type { Extractor } from "../../engine/suggest/statement-plan";
import { createSession } from "../../engine/runtime/interpreter";
import type { Value } from "../../engine/runtime/interpreter/values";
import { checkAndAnalyze } from "../../engine/analysis/check-document";
import { parse } from "../../engine/syntax/parse";
import { applyEdits, type TextEdit } from "../../engine/syntax/ranges";
import { optimizeBlock, suggestionEdits, type Suggestion } from "../../engine/suggest";

/** Two cells agree when |a - b| <= ABSOLUTE + RELATIVE * max(1, largest |cell| of either result); NaN equals NaN, and infinities must match. */
export const TOLERANCE = { relative: 1e-9, absolute: 1e-9 } as const;

/** Work bounds of the optimizer per block (counts, as in `dml explain --node-limit`); its time safety net is reported when it fires. */
export const SATURATION = { nodeLimit: 600, iterationLimit: 8, liftingIterationLimit: 8, timeLimitMs: 10_000 } as const;

export type Outcome =
  | { kind: "equal"; suggestions: number }
  | { kind: "unsound"; rewritten: string; problem: string }
  | { kind: "skipped"; reason: string };

/** Checks the script; the analysis when it has no error (else why not: a generator bug). */
export function checkedAnalysis(script: string) {
  const parsed = parse(script, { keepComments: true });
  const { diagnostics, analysis } = checkAndAnalyze(script, {}, parsed);
  const errors = diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0 || !analysis) return { error: errors.map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.message}`).join("; ") || "no analysis" };
  return { analysis };
}

/** The values of the named variables after running the script, or the runtime's error. */
export function runScript(script: string, names: readonly string[]): Map<string, Value> | string {
  const session = createSession({ print: () => {} });
  const result = session.runCell(script);
  if (!result.ok) return result.errors.join("; ") || "the run failed";
  const values = new Map<string, Value>();
  for (const name of names) {
    const value = session.env.get(name);
    if (value === undefined) return `no value for ${name}`;
    values.set(name, value);
  }
  return values;
}

type Analysis = NonNullable<ReturnType<typeof checkedAnalysis>["analysis"]>;

/** The optimizer's suggestions for every block of the analysed script, with one extractor. */
export function optimizeScript(script: string, analysis: Analysis, extract: Extractor): { suggestions: Suggestion[]; stopReasons: string[]; safetyNet?: string } {
  const suggestions: Suggestion[] = [];
  const stopReasons: string[] = [];
  let safetyNet: string | undefined;
  for (const info of analysis.dags.blocks) {
    const sizes = analysis.sizes.blocks.get(info.block);
    if (!sizes) continue;
    const result = optimizeBlock(
      { block: info.block, dag: info.dag, stats: sizes.nodes, sourceText: script },
      { verify: false, minSaving: 0, minSavingMs: 0, extract, saturation: { ...SATURATION } },
    );
    suggestions.push(...result.suggestions);
    stopReasons.push(result.stopReason);
    if (result.safetyNet) safetyNet = `${result.safetyNet.what} stopped after ${Math.round(result.safetyNet.ms)} ms (limit ${result.safetyNet.limitMs} ms)`;
  }
  return { suggestions, stopReasons, ...(safetyNet ? { safetyNet } : {}) };
}

/** The script with all the suggestions applied (as the editor's "apply all" would). */
export function applySuggestions(script: string, suggestions: readonly Suggestion[]): string {
  const edits: TextEdit[] = suggestions.flatMap((s) => suggestionEdits(s, script));
  return applyEdits(script, edits);
}

/** Why two values differ beyond TOLERANCE, or undefined when they agree. */
export function valueMismatch(a: Value, b: Value): string | undefined {
  if (a.kind === "scalar" && b.kind === "scalar") {
    if (typeof a.value === "string" || typeof b.value === "string") return a.value === b.value ? undefined : `${a.value} vs ${b.value}`;
    const [x, y] = [Number(a.value), Number(b.value)];
    return close(x, y, Math.max(1, Math.abs(x), Math.abs(y))) ? undefined : `${x} vs ${y}`;
  }
  if (a.kind === "matrix" && b.kind === "matrix") {
    const [m, n] = [a.matrix, b.matrix];
    if (m.rows !== n.rows || m.cols !== n.cols) return `shapes differ: ${m.rows} x ${m.cols} vs ${n.rows} x ${n.cols}`;
    let scale = 1;
    for (let i = 0; i < m.rows; i++) for (let j = 0; j < m.cols; j++) scale = Math.max(scale, finiteAbs(m.get(i, j)), finiteAbs(n.get(i, j)));
    for (let i = 0; i < m.rows; i++) {
      for (let j = 0; j < m.cols; j++) if (!close(m.get(i, j), n.get(i, j), scale)) return `cell (${i + 1}, ${j + 1}): ${m.get(i, j)} vs ${n.get(i, j)}`;
    }
    return undefined;
  }
  return `a ${a.kind} vs a ${b.kind}`;
}

function finiteAbs(x: number): number {
  return Number.isFinite(x) ? Math.abs(x) : 0;
}

function close(x: number, y: number, scale: number): boolean {
  if (x === y) return true;
  if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) && Number.isNaN(y);
  return Math.abs(x - y) <= TOLERANCE.absolute + TOLERANCE.relative * scale;
}

/** A script checked and run once, ready to be optimized with each extractor. */
export interface PreparedScript {
  script: string;
  targets: readonly string[];
  analysis: Analysis;
  before: Map<string, Value>;
}

/**
 * Checks and runs the script: the prepared script, or why it cannot be used
 * (a checker error or a failing run is a generator bug). A script whose
 * results hold Inf or NaN (e.g. colMins over 0 rows) is outside what the
 * rewrites promise: the algebra they use (0 * x = 0, reassociating a
 * product) holds for finite numbers only, so such cases are counted apart.
 */
export function prepareScript(script: string, targets: readonly string[]): PreparedScript | { kind: "skipped"; reason: string } {
  const checked = checkedAnalysis(script);
  if (checked.error !== undefined) return { kind: "skipped", reason: `the checker reports: ${checked.error}` };
  const before = runScript(script, targets);
  if (typeof before === "string") return { kind: "skipped", reason: `the original fails: ${before}` };
  for (const [name, value] of before) if (!isFinite(value)) return { kind: "skipped", reason: `${NON_FINITE}: ${name}` };
  return { script, targets, analysis: checked.analysis, before };
}

export const NON_FINITE = "the original computes Inf or NaN";

function isFinite(value: Value): boolean {
  if (value.kind === "scalar") return typeof value.value !== "number" || Number.isFinite(value.value);
  if (value.kind !== "matrix") return true;
  const m = value.matrix;
  for (let i = 0; i < m.rows; i++) for (let j = 0; j < m.cols; j++) if (!Number.isFinite(m.get(i, j))) return false;
  return true;
}

/** Optimizes the script with `extract`, applies every suggestion, and compares the targets' values before and after. */
export function differentialCheck(prepared: PreparedScript, extract: Extractor): Outcome {
  const { script, targets, analysis, before } = prepared;
  const optimized = optimizeScript(script, analysis, extract);
  if (optimized.suggestions.length === 0) return { kind: "skipped", reason: optimized.safetyNet ? `no suggestion (${optimized.safetyNet})` : "no suggestion" };
  const rewritten = applySuggestions(script, optimized.suggestions);
  const after = runScript(rewritten, targets);
  if (typeof after === "string") return { kind: "unsound", rewritten, problem: `the rewritten script fails: ${after}` };
  for (const name of targets) {
    const mismatch = valueMismatch(before.get(name)!, after.get(name)!);
    if (mismatch !== undefined) return { kind: "unsound", rewritten, problem: `${name} differs: ${mismatch}` };
  }
  return { kind: "equal", suggestions: optimized.suggestions.length };
}
