/**
 * The contract every fuzz harness keeps (test/fuzz/*.harness.ts).
 *
 * A harness draws hostile or random inputs from a seed, feeds them to one
 * part of the product (optimizer, command line, data readers, language
 * server) and checks a property that must always hold: equal results, a
 * documented exit code with a located message, bounded time and memory.
 *
 * Each harness runs twice over:
 * - in CI, from its own test/fuzz/NAME.test.ts, with `ciCases` cases and a
 *   fixed seed (the whole suite stays within a few minutes);
 * - from `npm run fuzz -- --seed S --minutes M --report` (scripts/fuzz.mjs),
 *   with `reportCases` cases (the issue's targets) or until a time budget,
 *   printing the numbers a closing note quotes.
 *
 * Work is bounded by case counts; `deadlineMs` is only a safety net for the
 * minutes budget of a long run and is reported when it stopped a run.
 */

export interface FuzzRunOptions {
  /** Seed of every random choice: the same seed draws the same cases. */
  readonly seed: number;
  /** Number of cases to run (a harness may run a few more to finish a batch). */
  readonly cases: number;
  /** Absolute `Date.now()` after which no new case starts (Infinity: cases only). */
  readonly deadlineMs: number;
  /** Progress lines for long runs (the CI tests pass a no-op). */
  readonly log: (line: string) => void;
}

/** One input that broke the property, shrunk where the harness can. */
export interface FuzzFailure {
  /** The input, as the user would write it (minimal DML, an edit list, a file's text). */
  readonly input: string;
  /** What went wrong: the property that failed, with the values seen. */
  readonly problem: string;
}

/** A number a harness measured over its run, with the bound it must stay within. */
export interface FuzzMeasure {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  /** The limit the value must not exceed, when there is one. */
  readonly bound?: number;
}

export interface FuzzResult {
  readonly cases: number;
  readonly failures: readonly FuzzFailure[];
  readonly measures: readonly FuzzMeasure[];
  /** True when the deadline, not the case count, ended the run. */
  readonly stoppedByDeadline: boolean;
}

export interface FuzzHarness {
  /** Short name, used by `npm run fuzz -- --only NAME`. */
  readonly name: string;
  /** One line: what is fuzzed and which property is checked. */
  readonly title: string;
  /** Cases per CI run. */
  readonly ciCases: number;
  /** Cases for `npm run fuzz` without `--minutes` (the issue's target count). */
  readonly reportCases: number;
  run(options: FuzzRunOptions): Promise<FuzzResult>;
}

/** Options for a CI run of a harness: its CI case count, the CI seed, no deadline, no log. */
export function ciRunOptions(harness: FuzzHarness): FuzzRunOptions {
  const seed = Number(process.env.DML_LENS_FC_SEED ?? "20261124");
  return { seed, cases: harness.ciCases, deadlineMs: Number.POSITIVE_INFINITY, log: () => {} };
}

/** Failures as readable text for an assertion message: each input and its problem. */
export function describeFailures(failures: readonly FuzzFailure[], limit = 5): string {
  const shown = failures.slice(0, limit).map((f, i) => `#${i + 1}: ${f.problem}\n--- input ---\n${f.input}\n-------------`);
  const more = failures.length > limit ? `\n(${failures.length - limit} more)` : "";
  return shown.join("\n") + more;
}

/** Measures whose value is above their bound, as text lines (empty when all hold). */
export function exceededBounds(measures: readonly FuzzMeasure[]): string[] {
  return measures
    .filter((m) => m.bound !== undefined && m.value > m.bound)
    .map((m) => `${m.name}: ${m.value} ${m.unit} > bound ${m.bound} ${m.unit}`);
}
