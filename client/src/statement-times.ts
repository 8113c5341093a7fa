/**
 * The time of each top-level statement of a run, for the results view's
 * "most of the time went to line N": the measured seconds of the operations
 * written in the statement's lines (the run's operation profile, engine/
 * execution/operation-profiler.ts; a loop's body counts for the loop).
 * The cell runs whole, so its blocks are the script's and the optimizer and
 * the fusion planner see them whole; only texts statement-texts.ts can
 * split (no syntax error, no function definition) get statement times.
 */
import type { BlockOperations } from "../../engine/execution";
import type { RunReply } from "./runtime-protocol";
import { statementTexts } from "./statement-texts";

export function statementTimes(texts: readonly string[], profile: readonly BlockOperations[]): RunReply["statements"] {
  const statements = texts.map((text) => statementTexts(text));
  if (statements.some((s) => s === undefined)) return undefined;
  const operations = profile.flatMap((b) => b.operations);
  return statements.flatMap((pieces) =>
    pieces!.map((p) => ({
      startLine: p.startLine,
      endLine: p.endLine,
      statement: p.statement,
      ms: 1000 * operations.filter((op) => op.line >= p.startLine && op.line <= p.endLine).reduce((sum, op) => sum + op.measuredSeconds, 0),
    })),
  );
}
