/**
 * A finished SystemDS run as a page of the results view: its standard output
 * and error output (the last lines of each, bounded by count: the output
 * channel "DML on SystemDS" has them all), whether it succeeded, was stopped
 * or failed, its exit code in the title, and the time it took. SystemDS's
 * variables stay in its JVM, so the page lists none.
 */
import type { ResultsPage } from "./results-html";

export const CHANNEL_NAME = "DML on SystemDS";

/** Lines of output and of error output kept for the results view. */
export const RESULT_LINES = 500;

/** Keeps the last `limit` lines added; `lines()` starts with a line saying how many earlier ones are only in the output channel. */
export function lastLines(limit: number = RESULT_LINES): { add(line: string): void; lines(): string[] } {
  const kept: string[] = [];
  let start = 0;
  let dropped = 0;
  return {
    add(line) {
      kept.push(line);
      if (kept.length - start > limit) {
        start++;
        dropped++;
      }
      // The lines scrolled out are removed now and then, not one at every line.
      if (start > limit) {
        kept.splice(0, start);
        start = 0;
      }
    },
    lines: () => {
      const shown = kept.slice(start);
      return dropped > 0 ? [`(${dropped} earlier line${dropped === 1 ? " is" : "s are"} in the output channel "${CHANNEL_NAME}")`, ...shown] : shown;
    },
  };
}

export interface FinishedSystemdsRun {
  script: string;
  exitCode: number;
  stopped: boolean;
  output: string[];
  errors: string[];
  ms: number;
}

export function systemdsResultsPage(run: FinishedSystemdsRun): ResultsPage {
  const ok = run.exitCode === 0 && !run.stopped;
  return {
    title: `${run.script} on SystemDS (${run.stopped ? "stopped" : `exit code ${run.exitCode}`})`,
    reply: { id: 0, ok, interrupted: run.stopped, output: run.output, errors: run.errors, variables: [], ms: run.ms },
  };
}
