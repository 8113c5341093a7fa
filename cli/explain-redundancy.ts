/**
 * The redundancy part of `dml explain` (engine/redundancy, ReMac): the CSE
 * and LSE options the search found, each with its expression, occurrences
 * (source text and what replaces it) and estimated saving, then the
 * chosen, conservative and aggressive plans with their estimated costs,
 * the grouped sums found across blocks by regrouping common factors (each
 * costed alone; not yet in the plans), and which sparsity estimate the costs rest on (`nnz: MNC` where sketches
 * of local data estimated a product, `nnz: uniform` otherwise).
 * `--json` gets the report as the engine gives it (README: explain's
 * `redundancy` field, with the search's milliseconds; the text leaves the
 * time out so it is the same on any machine, and says nothing when no
 * option was found). Nothing is searched when the script has errors.
 */
import path from "node:path";
import { formatSeconds } from "../engine/cost";
import { allOptions, findRedundancy, NAME_PLACEHOLDER, type RedundancyOption, type RedundancyReport, type RedundancySettings } from "../engine/redundancy";
import type { ProgramAnalysis } from "../engine/analysis";
import { textInRange } from "../engine/syntax";

export interface RedundancyExplain {
  json: RedundancyReport | null;
  /** Lines to append to the text report (with a leading blank line), or "" when nothing was searched. */
  text: string;
}

export function explainRedundancy(analysis: ProgramAnalysis | undefined, text: string, file: string, settings: RedundancySettings = {}): RedundancyExplain {
  if (!analysis) return { json: null, text: "" };
  const report = findRedundancy(analysis, text, settings);
  // The text lists what was found; a script without options prints nothing more.
  return { json: report, text: report.options.length + report.groupedSums.length === 0 ? "" : `\n\n${redundancyLines(report, text, file).join("\n")}` };
}

function counted(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

export function redundancyLines(report: RedundancyReport, text: string, file: string): string[] {
  const cse = report.options.filter((o) => o.kind === "cse").length;
  const lse = report.options.length - cse;
  const lines = [
    `== redundancy (ReMac) in ${path.basename(file)}: ${counted(report.options.length, "option")} found (${cse} CSE, ${lse} LSE) over ${counted(report.chains, "chain")}, ${counted(report.windows, "window")}${report.truncated ? " (a search bound stopped it: not every window was tried)" : ""}`,
  ];
  if (report.sketched.length > 0) lines.push(`  nnz estimates: MNC sketches of ${report.sketched.join(", ")} (their data or structure is known) in the products they enter; uniform elsewhere`);
  if (report.unsized.length > 0) lines.push(`  not costed: sizes unknown for ${report.unsized.join(", ")} (declare them in dml-lens.json "inputs", a .mtd file or # @size)`);
  for (const o of report.options) lines.push(...optionLines(o, text));
  if (report.groupedSums.length > 0) {
    lines.push(`grouped sums across blocks (products regrouped by common factors; ${counted(report.groupedSums.length, "option")}, each costed alone):`);
    for (const o of report.groupedSums) lines.push(...optionLines(o, text));
    const choice = report.groupedChoice;
    const taken = report.groupedSums.filter((o) => choice.chosen.includes(o.id));
    const replaced = report.options.filter((o) => choice.replaces.includes(o.id)).map((o) => o.name);
    lines.push(
      `  with the chosen plan: ${taken.length === 0 ? "none (none lowers its estimate)" : `${taken.map((o) => o.name).join(", ")}${replaced.length > 0 ? ` in place of ${replaced.join(", ")}` : ""}, estimate ${formatSeconds(choice.cost)} (reported only: the plan run does not include grouped sums yet)`}`,
    );
  }
  const byId = new Map(allOptions(report).map((o) => [o.id, o]));
  lines.push(`plans (estimated per run of the script; as written ${formatSeconds(report.originalCost)}; loops without known bounds run ${report.settings.expectedIterations} times, the expectedIterations setting or --iterations):`);
  for (const plan of [report.plans.chosen, report.plans.conservative, report.plans.aggressive]) {
    const names = plan.options.map((id) => {
      const o = byId.get(id)!;
      return `${o.kind} ${o.name} = ${o.expression}`;
    });
    const cost = `${formatSeconds(plan.cost)}${plan.complete ? "" : " (without the options that could not be costed)"}`;
    lines.push(`  ${plan.strategy}: ${cost}${names.length > 0 ? ` with ${names.join("; ")}` : ", no option"}`);
  }
  return lines;
}

function optionLines(o: RedundancyOption, text: string): string[] {
  const where =
    o.kind === "lse"
      ? `hoisted before the loop at line ${o.insertBefore.start.line + 1}${o.iterations ? `, ${iterationText(o.iterations)}` : ""}`
      : `computed before line ${o.insertBefore.start.line + 1}`;
  const saving = o.costed ? `saves ${o.saving >= 0 ? formatSeconds(o.saving) : `-${formatSeconds(-o.saving)} (costs more)`}, one evaluation ${formatSeconds(o.evaluationCost)}, nnz: ${o.estimator === "mnc" ? "MNC" : "uniform"}` : "not costed";
  const uses = o.groupedUses !== undefined ? `used by ${counted(o.groupedUses, "group")} of products in ${counted(o.occurrences.length, "expression")}` : counted(o.occurrences.length, "occurrence");
  const head = `  ${o.kind} ${o.name} = ${o.expression}  (${o.explicit ? "explicit" : "implicit"}, ${uses}, ${where}): ${saving}`;
  const occurrences = o.occurrences.map((occ) => `    line ${occ.range.start.line + 1}: ${oneLine(textInRange(text, occ.range))} -> ${occ.replacement.split(NAME_PLACEHOLDER).join(o.name)}`);
  return [head, ...occurrences];
}

function iterationText(iterations: NonNullable<RedundancyOption["iterations"]>): string {
  if (iterations.source === "bounds") return `${iterations.count} iterations from its bounds`;
  return `${iterations.count} iterations (setting${iterations.bound !== undefined ? `; at most ${iterations.bound} by its counter` : ""})`;
}

function oneLine(s: string): string {
  return s.replace(/\s*\n\s*/g, " ");
}
