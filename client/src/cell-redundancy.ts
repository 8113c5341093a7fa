/**
 * Run Cell with ReMac's redundancy elimination, as `dml run --cell N` runs
 * it: under the rewritten and fused plans, the chosen options that lie in
 * the text being run (a cell, a selection, the file) become shared
 * temporaries and hoisted statements of a copy of that text (never the
 * document), after the runtime checked the copy
 * (engine/execution/redundancy-run.ts). The search sees the script from its
 * first line to the text's last (the cells above give the sizes), with the
 * run's `$name` values and the `dmlLens.redundancy.expectedIterations`
 * setting. A text that no longer matches the script it came with, a script
 * with errors, or the as-written plan runs as written.
 */
import { redundancyRun, type PlanMode, type RedundancyRun } from "../../engine/execution";
import type { SystemdsInstallation } from "../../engine/program";
import { analyzeText } from "../../engine/analysis";
import { isolateCell } from "../../engine/syntax";
import type { RunRequest } from "./runtime-protocol";

export function cellRedundancyRun(request: RunRequest, text: string, plan: PlanMode, installation: SystemdsInstallation | undefined): RedundancyRun {
  const asWritten = redundancyRun(text, "as-written", undefined);
  if (plan === "as-written" || request.script === undefined) return asWritten;
  const lines = text.split("\n");
  const scriptLines = request.script.split("\n");
  const first = lines.findIndex((line) => line.trim() !== "");
  let last = lines.length - 1;
  while (last >= 0 && (lines[last] ?? "").trim() === "") last--;
  if (first < 0) return asWritten;
  for (let i = first; i <= last; i++) if (lines[i] !== "" && lines[i] !== scriptLines[i]) return asWritten;
  const analysedText = isolateCell(request.script, { startLine: 0, endLine: last });
  const analysis = analyzeText(analysedText, {
    scriptPath: request.scriptPath,
    parameters: new Map(Object.entries(request.params)),
    ...(request.workspaceRoot ? { workspaceRoot: request.workspaceRoot } : {}),
    ...(installation ? { installation } : {}),
  });
  const errors = [...analysis.parsed.diagnostics, ...analysis.diagnostics].some((d) => d.severity === "error");
  if (errors) return asWritten;
  const settings = request.expectedIterations !== undefined ? { expectedIterations: request.expectedIterations } : {};
  return redundancyRun(text, plan, analysis, { analysedText, settings, within: { startLine: first, endLine: last } });
}
