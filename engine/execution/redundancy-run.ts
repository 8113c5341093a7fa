/**
 * What a run executes with ReMac's redundancy elimination: under the
 * `rewritten` and `fused` plans, the options the cost-based choice picked
 * (engine/redundancy) become shared temporaries and hoisted statements of a
 * rewritten copy of the script (never the user's file), which the compiled
 * plans then run; `as-written` runs the text as written. The copy is checked
 * by the runtime first (engine/suggest/verify-script-edit.ts, bounded by
 * counts): if it does not agree with the original, the script runs as
 * written and the reason is kept. Error locations of the copy map back to the
 * user's lines (edited-positions.ts); a location inside an inserted
 * assignment names it.
 */
import type { Position, TextEdit } from "../syntax";
import type { ProgramAnalysis } from "../analysis";
import { allOptions, applyRedundancy, type AppliedOption, originalPositions, type OriginalPlace, findRedundancy, type RedundancyOption, type RedundancyReport, type RedundancySettings } from "../redundancy";
import { type DroppedOption, verifyScriptEdit, type ScriptVerifyOptions } from "../suggest";
import type { PlanMode } from "./plan-mode";
import type { BlockReport } from "./block-report";
import { operationLine } from "./operation-timing";

export interface RedundancyRun {
  /** The text the session runs. */
  text: string;
  /** The edits of the user's text that give `text` (none when it runs as written). */
  edits: TextEdit[];
  /** The chosen options the copy applies (with the names their temporaries got). */
  applied: AppliedOption[];
  /** Chosen options it does not apply, with why. */
  dropped: DroppedOption[];
  /** A position of `text` in the user's script, and the inserted text it lies in, if any. */
  userPosition(p: Position): OriginalPlace;
}

export interface RedundancyRunOptions {
  /** The text `analysis` is of, when it is not `text` (cells 1..N of it, the rest blanked, positions kept): the search and the check use it. */
  analysedText?: string;
  /** The search's report (default: engine/redundancy's findRedundancy of the analysis with `settings`). */
  report?: RedundancyReport;
  /** The search's settings (the expected iterations of loops whose bounds do not say). */
  settings?: RedundancySettings;
  /** Only chosen options whose insertion point and occurrences lie within these lines (0-based, inclusive) apply: a cell's, when `text` is one cell of `analysedText`. */
  within?: { startLine: number; endLine: number };
  verify?: ScriptVerifyOptions;
}

/** The text to run under `mode`: the chosen options applied and verified, or the text as written. */
export function redundancyRun(text: string, mode: PlanMode, analysis: ProgramAnalysis | undefined, options: RedundancyRunOptions = {}): RedundancyRun {
  const asWritten = (dropped: DroppedOption[] = []): RedundancyRun => ({ text, edits: [], applied: [], dropped, userPosition: (p) => ({ position: p }) });
  if (mode === "as-written" || analysis === undefined) return asWritten();
  const analysedText = options.analysedText ?? text;
  const report = options.report ?? findRedundancy(analysis, analysedText, options.settings);
  const byId = new Map(allOptions(report).map((o) => [o.id, o]));
  const inside = (o: RedundancyOption) => options.within === undefined || [o.insertBefore, ...o.occurrences.map((x) => x.range)].every((r) => r.start.line >= options.within!.startLine && r.end.line <= options.within!.endLine);
  const chosen = report.plans.chosen.options.flatMap((id) => byId.get(id) ?? []).filter(inside);
  if (chosen.length === 0) return asWritten();
  const application = applyRedundancy(text, chosen);
  const dropped = application.refused.map((r) => ({ id: r.id, reason: `cannot apply it: ${r.reason}` }));
  if (application.applied.length === 0) return asWritten(dropped);
  const verdict = verifyScriptEdit(analysedText, application.edits, analysis, options.verify);
  if (!verdict.verified) return asWritten([...dropped, ...application.applied.map((a) => ({ id: a.id, reason: `the runtime check of the rewritten copy failed: ${verdict.reason}` }))]);
  return { text: application.text, edits: application.edits, applied: application.applied, dropped, userPosition: originalPositions(text, application.edits) };
}

/**
 * `file:line:col: ...` lines of a run of the copy with the user's line and
 * column; an error inside an inserted assignment says so.
 */
export function userErrorLine(line: string, file: string, run: RedundancyRun): string {
  if (run.applied.length === 0 || !line.startsWith(`${file}:`)) return line;
  const match = /^(\d+):(\d+)(: .*)$/s.exec(line.slice(file.length + 1));
  if (!match) return line;
  const place = run.userPosition({ line: Number(match[1]) - 1, character: Number(match[2]) - 1 });
  const note = place.inserted && place.written !== undefined ? ` (in \`${place.written}\`, which the run computes once before line ${place.position.line + 1})` : "";
  return `${file}:${place.position.line + 1}:${place.position.character + 1}${match[3]}${note}`;
}

/** A 0-based line of the run's text as the user's line. */
export function userLine(line: number, run: RedundancyRun): number {
  return run.userPosition({ line, character: 0 }).position.line;
}

/** Block reports of a run of the copy with the user's lines (blocks and their operations). */
export function userBlockReports(reports: readonly BlockReport[], run: RedundancyRun): BlockReport[] {
  if (run.applied.length === 0) return [...reports];
  return reports.map((r) => {
    const operations = r.operations.map((op) => ({ ...op, line: userLine(op.line, run) }));
    const { worst: _worst, ...rest } = r;
    return { ...rest, startLine: userLine(r.startLine, run), endLine: userLine(r.endLine, run), operations, ...(operations[0] ? { worst: operationLine(operations[0]) } : {}) };
  });
}
