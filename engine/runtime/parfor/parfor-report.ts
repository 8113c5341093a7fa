/**
 * What each parfor did: ran on worker threads (how many, how many
 * iterations) or sequentially and why. Kept per process (the last
 * REPORTS_KEPT runs) for `--timings`-style lines and tests; the counters
 * say how much ran on workers, a count, not a time.
 */
import type { Range } from "../../syntax";

export interface ParforReport {
  /** The parfor statement's range (in its own file). */
  range: Range;
  file?: string;
  iterations: number;
  /** Worker threads the iterations ran on; 0: sequentially on the calling thread. */
  workers: number;
  /** Why it ran sequentially. */
  reason?: string;
}

const REPORTS_KEPT = 50;

const reports: ParforReport[] = [];
let iterationsOnWorkers = 0;
let parallelRuns = 0;
let insideWorker = false;

export function recordParfor(report: ParforReport): void {
  reports.push(report);
  if (reports.length > REPORTS_KEPT) reports.shift();
  if (report.workers > 0) {
    parallelRuns++;
    iterationsOnWorkers += report.iterations;
  }
}

/** The reports of the last parfor runs (oldest first), and clears them. */
export function takeParforReports(): ParforReport[] {
  return reports.splice(0, reports.length);
}

/** Parfor runs on worker threads, and the iterations they ran there, since the process started. */
export function parforWorkerCounts(): { runs: number; iterations: number } {
  return { runs: parallelRuns, iterations: iterationsOnWorkers };
}

/** One line per report: `file:line: parfor: 100 iterations on 2 worker threads` / `...: sequential: reason`. */
export function parforReportLine(report: ParforReport, fallbackFile: string): string {
  const where = `${report.file ?? fallbackFile}:${report.range.start.line + 1}`;
  const n = `${report.iterations} iteration${report.iterations === 1 ? "" : "s"}`;
  if (report.workers > 0) return `${where}: parfor: ${n} on ${report.workers} worker thread${report.workers === 1 ? "" : "s"}`;
  return `${where}: parfor: ${n}, sequential: ${report.reason ?? "unknown reason"}`;
}

/** Set in a parfor worker thread: parfor loops nested in its iterations run sequentially there. */
export function markInsideParforWorker(): void {
  insideWorker = true;
}

export function insideParforWorker(): boolean {
  return insideWorker;
}
