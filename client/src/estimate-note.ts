/**
 * Why a run's time and its estimate differ, for the results view: when the
 * run took several times longer (or shorter) than estimated, compares the
 * sizes the run measured with the ones the estimate assumed, variable by
 * variable, and names the largest miss; names the variables whose sizes
 * the estimate did not know (their operations are left out of it); and
 * when the sizes were right, says so and names the operations the
 * estimate spent most of its time on, where the rest of the difference is.
 */
import { formatCount, formatDims, formatFactor, formatSeconds } from "../../engine/cost";
import type { RunEstimate } from "../../server/src/run-estimate";
import type { VariablePreview } from "../../engine/runtime/interpreter";
import type { RunReply } from "./runtime-protocol";

export type RunEstimateReply = RunEstimate;

/** A run this many times off its estimate (either way) gets a note... */
export const OFF_BY_FACTOR = 3;
/** ...when the two also differ by at least this much (seconds): a few milliseconds are noise. */
export const OFF_BY_SECONDS = 0.05;

export interface EstimateNote {
  /** `the run took 65× longer than estimated` */
  summary: string;
  /** One reason per line, the most telling first. */
  reasons: string[];
}

/** How far apart two counts are, as a factor ≥ 1 (0 against n counts as n against 1). */
function apart(a: number, b: number): number {
  return Math.max(a, b) / Math.max(1, Math.min(a, b));
}

interface SizeMiss {
  name: string;
  factor: number;
  text: string;
}

/** The largest difference between an estimated and a measured size, per variable the run measured. */
function sizeMisses(estimate: RunEstimate, measured: readonly VariablePreview[]): { misses: SizeMiss[]; matched: number; unknown: string[] } {
  const byName = new Map(measured.filter((v) => v.kind === "matrix").map((v) => [v.name, v]));
  const misses: SizeMiss[] = [];
  const unknown: string[] = [];
  let matched = 0;
  for (const e of estimate.variables ?? []) {
    const m = byName.get(e.name);
    if (!m || m.rows === undefined || m.cols === undefined || m.nnz === undefined) continue;
    if (e.rows === null || e.cols === null || e.nnz === null) {
      unknown.push(e.name);
      continue;
    }
    const cells = apart(e.rows * e.cols, m.rows * m.cols);
    const nnz = apart(e.nnz, m.nnz);
    const factor = Math.max(cells, nnz);
    if (factor < 1.1) {
      matched++;
      continue;
    }
    const what = cells >= nnz ? "cells" : "non-zeros";
    misses.push({
      name: e.name,
      factor,
      text: `${e.name}: estimated ${formatDims(e.rows, e.cols)}, nnz ${formatCount(e.nnz)}; the run measured ${formatDims(m.rows, m.cols)}, nnz ${formatCount(m.nnz)} (${formatFactor(factor)} ${(cells >= nnz ? m.rows * m.cols > e.rows * e.cols : m.nnz > e.nnz) ? "more" : "fewer"} ${what})`,
    });
  }
  misses.sort((a, b) => b.factor - a.factor);
  return { misses, matched, unknown };
}

/**
 * The statement the run spent most time on, against its estimate: `most of
 * the time went to line 6, \`X = rand(…)\`: 700 ms of the run's 809 ms, estimated 930 µs`.
 */
function slowestStatement(statements: NonNullable<RunReply["statements"]>, totalMs: number, estimate: RunEstimate): string | undefined {
  if (statements.length === 0) return undefined;
  const total = Math.max(totalMs, statements.reduce((sum, s) => sum + s.ms, 0));
  const top = statements.reduce((a, b) => (b.ms > a.ms ? b : a));
  const guessed = (estimate.lines ?? []).filter((l) => l.line >= top.startLine && l.line <= top.endLine).reduce((sum, l) => sum + l.seconds, 0);
  const where = top.startLine === top.endLine ? `line ${top.startLine + 1}` : `lines ${top.startLine + 1}-${top.endLine + 1}`;
  const share = ` of the run's ${formatSeconds(total / 1000)}`;
  const off = guessed > 0 ? ` (${formatFactor(apart(top.ms * 1e3, guessed * 1e6))} ${top.ms / 1000 > guessed ? "more" : "less"})` : "";
  return `most of the time went to ${where}, \`${top.statement}\`: ${formatSeconds(top.ms / 1000)}${share}, estimated ${guessed > 0 ? formatSeconds(guessed) : "nothing (no costed operation)"}${off}`;
}

/** The note, or undefined when the run and the estimate agree closely enough (or the run did not finish). */
export function estimateNote(reply: Pick<RunReply, "ok" | "ms" | "statements"> & { variables: readonly VariablePreview[] }, estimate: RunEstimate): EstimateNote | undefined {
  if (!reply.ok) return undefined;
  const ran = reply.ms / 1000;
  const guessed = estimate.seconds;
  const factor = apart(ran * 1e6, guessed * 1e6);
  if (factor < OFF_BY_FACTOR || Math.abs(ran - guessed) < OFF_BY_SECONDS) return undefined;
  const summary = ran > guessed ? `the run took ${formatFactor(factor)} longer than estimated` : `the run took ${formatFactor(factor)} less time than estimated`;
  const reasons: string[] = [];
  const slowest = slowestStatement(reply.statements ?? [], reply.ms, estimate);
  if (slowest) reasons.push(slowest);
  const unknownOps = estimate.unknownOperations ?? [];
  const { misses, matched, unknown } = sizeMisses(estimate, reply.variables);
  if (estimate.unknown > 0) {
    const inputs = [...new Set([...(estimate.unknownVariables ?? unknownOps.flatMap((op) => op.unknownInputs)), ...unknown])];
    const where = unknownOps
      .slice(0, 3)
      .map((op) => `\`${op.text}\` (line ${op.line + 1})`)
      .join(", ");
    reasons.push(
      `${estimate.unknown} operation${estimate.unknown === 1 ? " is" : "s are"} left out of the estimate: ${inputs.length === 1 ? `the size of ${inputs[0]} was unknown` : inputs.length > 1 ? `the sizes of ${inputs.join(", ")} were unknown` : "their sizes were unknown"}${where ? `; e.g. ${where}` : ""}`,
    );
  } else if (unknown.length > 0) {
    reasons.push(`the estimate did not know the size${unknown.length > 1 ? "s" : ""} of ${unknown.join(", ")}`);
  }
  if (misses.length > 0) {
    reasons.push(`sizes were off, most for ${misses[0]!.text}`);
    for (const miss of misses.slice(1, 3)) reasons.push(`also ${miss.text}`);
  } else if (matched > 0) {
    reasons.push(`the estimated sizes matched the run (${matched} matri${matched === 1 ? "x" : "ces"} within 10 %): the difference is in how fast the operations ran, not in how large they were`);
  }
  const largest = estimate.largest ?? [];
  if (largest.length > 0) {
    reasons.push(`the estimate's largest operations: ${largest.map((op) => `\`${op.text}\` (line ${op.line + 1}) ${formatSeconds(op.seconds)}`).join(", ")}`);
  }
  return { summary, reasons };
}
