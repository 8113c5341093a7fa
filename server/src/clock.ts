/**
 * The time the language server reads and the timers it sets, as an
 * interface: the real ones (systemClock) in server.ts, a fake one that a
 * test advances by hand (test/server/fake-clock.ts), so debounce,
 * cancellation and stale-version behaviour can be tested in-process and
 * without waiting.
 */

/** A pending timer, as `setTimeout` returned it: only passed back to `clearTimeout`. */
export type Timer = unknown;

export interface Clock {
  /** Milliseconds from an arbitrary origin, never decreasing (performance.now()). */
  now(): number;
  setTimeout(task: () => void, ms: number): Timer;
  clearTimeout(timer: Timer): void;
  /**
   * Runs `task` once the messages the server has already received are
   * handled: a timer that fires after a long task would otherwise act on a
   * version the next queued change already replaced.
   */
  afterReceivedMessages(task: () => void): void;
}

/**
 * The real clock. vscode-jsonrpc handles one message per setImmediate,
 * queued when the data is read (the poll phase); a second setImmediate
 * lands behind it.
 */
export const systemClock: Clock = {
  now: () => performance.now(),
  setTimeout: (task, ms) => setTimeout(task, ms),
  clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout),
  afterReceivedMessages: (task) => setImmediate(() => setImmediate(task)),
};
