/**
 * A clock for in-process server tests (server/src/clock.ts): time stands
 * still until the test advances it; timers fire in order of their time (then
 * of their setting) when it does; tasks deferred behind the received
 * messages wait until the test runs them, so a test can deliver a change in
 * between, as a change queued behind a timer would be.
 */
import type { Clock, Timer } from "../../server/src/clock";

interface PendingTimer {
  at: number;
  order: number;
  task: () => void;
}

export class FakeClock implements Clock {
  private time = 0;
  private set = 0;
  private readonly timers = new Map<number, PendingTimer>();
  private deferred: (() => void)[] = [];

  now(): number {
    return this.time;
  }

  setTimeout(task: () => void, ms: number): Timer {
    const id = ++this.set;
    this.timers.set(id, { at: this.time + Math.max(0, ms), order: id, task });
    return id;
  }

  clearTimeout(timer: Timer): void {
    this.timers.delete(timer as number);
  }

  afterReceivedMessages(task: () => void): void {
    this.deferred.push(task);
  }

  /** Timers set and not yet fired or cleared. */
  get pendingTimers(): number {
    return this.timers.size;
  }

  /** Tasks waiting behind the received messages. */
  get pendingDeferred(): number {
    return this.deferred.length;
  }

  /** Moves time `ms` on, firing every timer due by then (also those a firing timer sets). */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const next = [...this.timers.entries()].filter(([, t]) => t.at <= end).sort(([, a], [, b]) => a.at - b.at || a.order - b.order)[0];
      if (!next) break;
      const [id, timer] = next;
      this.timers.delete(id);
      this.time = timer.at;
      timer.task();
    }
    this.time = end;
  }

  /** Runs the tasks deferred so far (not those they defer); how many ran. */
  runDeferred(): number {
    const tasks = this.deferred;
    this.deferred = [];
    for (const task of tasks) task();
    return tasks.length;
  }
}
