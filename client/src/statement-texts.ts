/**
 * A cell split into its top-level statements, so each can be timed (the
 * runtime worker times them from its operation profile, statement-times.ts;
 * a test runs them one by one): per statement, the cell's text with everything else blanked
 * before it (newlines kept, so positions in errors stay the script's) and
 * nothing after it. Only for cells the split cannot change: no syntax
 * errors and no function definitions (a call may come before its
 * definition in the same cell).
 */
import { parse, positionOffsets } from "../../engine/syntax";

export interface StatementText {
  /** 0-based lines of the statement. */
  startLine: number;
  endLine: number;
  /** The cell's text with all but this statement blanked. */
  text: string;
  /** The statement itself, on one line, cut at 40 characters. */
  statement: string;
}

/** At most this many statements are timed (beyond, the cell gets no statement times). */
export const MAX_TIMED_STATEMENTS = 200;

export function statementTexts(text: string): StatementText[] | undefined {
  const parsed = parse(text);
  if (parsed.diagnostics.some((d) => d.severity === "error")) return undefined;
  const body = parsed.program.body;
  if (body.length === 0 || body.length > MAX_TIMED_STATEMENTS || body.some((s) => s.kind === "function")) return undefined;
  const offset = positionOffsets(text);
  const blank = (part: string) => part.replace(/[^\n]/g, " ");
  return body.map((statement) => {
    const from = offset(statement.range.start);
    const to = offset(statement.range.end);
    const written = text.slice(from, to).replace(/\s+/g, " ").replace(/[\s;]+$/, "").trim();
    return {
      startLine: statement.range.start.line,
      endLine: statement.range.end.line,
      // (What follows the statement is left off: positions depend only on what precedes it.)
      text: blank(text.slice(0, from)) + text.slice(from, to),
      statement: written.length > 40 ? `${written.slice(0, 39)}…` : written,
    };
  });
}
