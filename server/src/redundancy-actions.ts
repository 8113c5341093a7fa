/**
 * ReMac's redundancy options as code actions: "Hoist `t(A) %*% A` out of the
 * loop (saves ≈ X per iteration)" and "Reuse `A %*% d` (computed 3 times)",
 * each a multi-line workspace edit (engine/redundancy/apply-redundancy.ts:
 * the assignment inserted with a fresh name and the statement's indentation,
 * the occurrences replaced). Offered only for options the cost-based choice
 * picked or that save time on their own (the title says which), on the
 * lines of their occurrences, loop or insertion point, and only once the
 * runtime verified them (engine/suggest/verify-redundancy.ts).
 *
 * The search and the checks run off the request path: after a version's
 * analysis, one task per option on the event loop (setImmediate), so
 * requests are answered between them; a newer version or a closed document
 * stops the work. Results are kept per document version; what is checked is
 * bounded by MAX_VERIFIED_OPTIONS and the checks' own counts. Options that
 * fail their check are logged with the reason.
 */
import { CodeActionKind, type CodeAction } from "vscode-languageserver/node";
import { formatSeconds } from "../../engine/cost";
import { allOptions, findRedundancy, type RedundancyOption, type RedundancyReport, type RedundancySettings } from "../../engine/redundancy";
import type { Range, TextEdit } from "../../engine/syntax";
import type { ProgramAnalysis } from "../../engine/analysis";
import { MAX_VERIFIED_OPTIONS, verifyRedundancyOptions, type VerifiedOption } from "../../engine/suggest";

export interface RedundancyFix {
  title: string;
  optionId: string;
  /** The option is in the cost-based choice's plan (else it saves on its own but the choice left it out). */
  chosen: boolean;
  edits: TextEdit[];
}

/** The options worth offering, chosen ones first, then by saving: those the choice picked and those that save. */
export function offeredOptions(report: RedundancyReport): RedundancyOption[] {
  const chosen = new Set(report.plans.chosen.options);
  const worth = allOptions(report).filter((o) => chosen.has(o.id) || (o.costed && o.saving > 0));
  return worth.sort((a, b) => Number(chosen.has(b.id)) - Number(chosen.has(a.id)) || b.saving - a.saving);
}

/** The title of a verified option's code action. */
export function fixTitle(option: RedundancyOption, chosen: boolean): string {
  const plan = chosen ? "in the chosen plan" : "not in the chosen plan";
  if (option.kind === "lse") {
    const iterations = option.iterations?.count ?? 1;
    const saving = option.costed ? `saves ≈ ${formatSeconds(option.saving / Math.max(1, iterations))} per iteration, ` : "";
    return `Hoist \`${option.expression}\` out of the loop (${saving}${plan})`;
  }
  const computed = option.occurrences.reduce((n, o) => n + o.replacement.split("{name}").length - 1, 0);
  const saving = option.costed ? `saves ≈ ${formatSeconds(option.saving)}, ` : "";
  return `Reuse \`${option.expression}\` (computed ${computed} times; ${saving}${plan})`;
}

/** The option is offered at `range`: it touches a line of an occurrence, of the insertion point or of the loop's first line. */
export function offeredAt(option: RedundancyOption, range: Range): boolean {
  const lines = [option.insertBefore.start.line, ...(option.loop ? [option.loop.start.line] : []), ...option.occurrences.flatMap((o) => [o.range.start.line, o.range.end.line])];
  const spans = option.occurrences.map((o) => [o.range.start.line, o.range.end.line] as const);
  const touches = (line: number) => line >= range.start.line && line <= range.end.line;
  return lines.some(touches) || spans.some(([from, to]) => from <= range.end.line && range.start.line <= to);
}

interface DocumentWork {
  version: number;
  /** The settings the search used (a change of them starts the work again). */
  settings: string;
  report?: RedundancyReport;
  verified: VerifiedOption[];
  chosen: Set<string>;
  done: boolean;
}

export class RedundancyActions {
  private readonly work = new Map<string, DocumentWork>();

  constructor(
    private readonly log: (message: string) => void,
    private readonly later: (task: () => void) => void = (task) => setImmediate(task),
  ) {}

  /** Starts the search and checks for a version's analysis (replacing the document's older work, or that of other settings). */
  prepare(uri: string, version: number, text: string, analysis: ProgramAnalysis | undefined, settings: RedundancySettings = {}): void {
    const known = this.work.get(uri);
    const key = JSON.stringify(settings);
    if (known && known.version === version && known.settings === key) return;
    const work: DocumentWork = { version, settings: key, verified: [], chosen: new Set(), done: analysis === undefined };
    this.work.set(uri, work);
    if (analysis === undefined) return;
    const current = () => this.work.get(uri) === work;
    this.later(() => {
      if (!current()) return;
      let report: RedundancyReport;
      try {
        report = findRedundancy(analysis, text, settings);
      } catch (error) {
        this.log(`redundancy: the search failed: ${error instanceof Error ? error.message : String(error)}`);
        work.done = true;
        return;
      }
      work.report = report;
      work.chosen = new Set(report.plans.chosen.options);
      const queue = offeredOptions(report);
      for (const skipped of queue.slice(MAX_VERIFIED_OPTIONS)) this.log(`redundancy: ${skipped.id} not offered: only the first ${MAX_VERIFIED_OPTIONS} options are checked`);
      const next = (k: number): void => {
        if (!current()) return;
        const option = queue[k];
        if (option === undefined || k >= MAX_VERIFIED_OPTIONS) {
          work.done = true;
          return;
        }
        try {
          const verdicts = verifyRedundancyOptions(text, analysis, [option]);
          work.verified.push(...verdicts.verified);
          for (const dropped of verdicts.dropped) this.log(`redundancy: ${dropped.id} not offered: ${dropped.reason}`);
        } catch (error) {
          this.log(`redundancy: checking ${option.id} failed: ${error instanceof Error ? error.message : String(error)}`);
        }
        this.later(() => next(k + 1));
      };
      this.later(() => next(0));
    });
  }

  /** The verified options of this version offered at `range`, chosen ones first. */
  fixes(uri: string, version: number, range: Range): RedundancyFix[] {
    const work = this.work.get(uri);
    if (!work || work.version !== version) return [];
    return work.verified
      .filter((v) => offeredAt(v.option, range))
      .map((v) => ({ title: fixTitle(v.option, work.chosen.has(v.option.id)), optionId: v.option.id, chosen: work.chosen.has(v.option.id), edits: v.edits }));
  }

  /** The fixes at `range` as LSP code actions (quick fixes with a workspace edit of the document). */
  codeActions(uri: string, version: number, range: Range): CodeAction[] {
    return this.fixes(uri, version, range).map((fix) => ({ title: fix.title, kind: CodeActionKind.QuickFix, edit: { changes: { [uri]: fix.edits } } }));
  }

  /** Whether the version's search and checks have finished. */
  finished(uri: string, version: number): boolean {
    const work = this.work.get(uri);
    return work !== undefined && work.version === version && work.done;
  }

  forget(uri: string): void {
    this.work.delete(uri);
  }
}
