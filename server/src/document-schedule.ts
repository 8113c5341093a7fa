/**
 * When the work for one open document runs, after a change:
 *
 * - the full analysis after a pause in typing (analysis-pause.ts), so a
 *   burst of keystrokes costs one analysis (two in a fast document, whose
 *   first keystroke after a quiet spell is analyzed at once), not one per
 *   keystroke; it runs once the messages received by then are handled
 *   (Clock.afterReceivedMessages), so a change already queued is seen first;
 * - a quick syntax check within a short window, once per window however
 *   many keystrokes arrive in it (none for the document's first version,
 *   which is analyzed at once);
 * - the optimizer after its own pause (debounceMs) following an analysis;
 *   a change cancels the optimization of the version before it.
 *
 * Whether a task's result is still wanted when it runs (the version it was
 * for may have been replaced meanwhile) is the caller's check: the tasks
 * read the document's current version (dml-language-server.ts).
 */
import { analysisPause } from "./analysis-pause";
import type { Clock, Timer } from "./clock";

export interface ScheduleDelays {
  /** The shortest pause before the full analysis (dmlLens.optimizer.analysisDelayMs). */
  analysisDelayMs: number;
  /** Keystrokes within this window share one syntax check (dmlLens.optimizer.syntaxWindowMs). */
  syntaxWindowMs: number;
}

export interface ChangeTasks {
  /** The full analysis of the document's newest version. */
  analyze(): void;
  /** The syntax check of the document's newest version. */
  quickCheck(): void;
}

/** How many recent analysis durations decide the pause. */
const RECENT_ANALYSES = 3;

export class DocumentSchedule {
  private analysisTimer: Timer | undefined;
  private quickTimer: Timer | undefined;
  private optimizationTimer: Timer | undefined;
  /** When the last change came in (Clock.now()). */
  private changedAt = -Infinity;
  /** How long the last few analyses took, ms (newest last). */
  private analysisMs: number[] = [];

  constructor(private readonly clock: Clock) {}

  /** A change came in; `first`: the document was never analyzed (it is at once, without a syntax check). */
  changed(first: boolean, delays: ScheduleDelays, tasks: ChangeTasks): void {
    this.cancelOptimization(); // the older version's optimization never starts
    this.clear(this.analysisTimer);
    const now = this.clock.now();
    const delay = first ? 0 : analysisPause(this.analysisMs, now - this.changedAt, delays.analysisDelayMs);
    this.changedAt = now;
    this.analysisTimer = this.clock.setTimeout(() => {
      this.analysisTimer = undefined;
      this.clock.afterReceivedMessages(() => tasks.analyze());
    }, delay);
    if (first || this.quickTimer !== undefined) return;
    this.quickTimer = this.clock.setTimeout(() => {
      this.quickTimer = undefined;
      tasks.quickCheck();
    }, delays.syntaxWindowMs);
  }

  /** An analysis took `ms` (the document's first one is not reported: it builds everything and says nothing about the next ones). */
  analyzed(ms: number): void {
    this.analysisMs = [...this.analysisMs.slice(1 - RECENT_ANALYSES), ms];
  }

  /** Runs `task` after `ms` unless a change, another optimization or close comes first. */
  optimizeAfter(ms: number, task: () => void): void {
    this.cancelOptimization();
    this.optimizationTimer = this.clock.setTimeout(() => {
      this.optimizationTimer = undefined;
      task();
    }, ms);
  }

  cancelOptimization(): void {
    this.clear(this.optimizationTimer);
    this.optimizationTimer = undefined;
  }

  /** The document closed: nothing pending starts. */
  cancelAll(): void {
    for (const timer of [this.analysisTimer, this.quickTimer, this.optimizationTimer]) this.clear(timer);
    this.analysisTimer = this.quickTimer = this.optimizationTimer = undefined;
  }

  private clear(timer: Timer | undefined): void {
    if (timer !== undefined) this.clock.clearTimeout(timer);
  }
}
