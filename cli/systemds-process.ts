/**
 * Starts a SystemDS command (systemds-command.ts) and streams what it
 * writes: each chunk of its standard output and standard error goes to the
 * caller as it arrives (the command line writes it through, the editor
 * appends it to its output channel). The result is the exit code, or the
 * signal that ended it, or why it could not start.
 */
import { spawn } from "node:child_process";
import { constants } from "node:os";
import type { SystemdsCommand } from "./systemds-command";

export interface OutputStreams {
  stdout(text: string): void;
  stderr(text: string): void;
}

type SystemdsExit = { exitCode: number; signal?: NodeJS.Signals } | { problem: string };

export interface RunningSystemds {
  /** Settles when the process has ended and its output has been read to the end. */
  done: Promise<SystemdsExit>;
  /** Ends the run (SIGTERM; with `ownProcessGroup`, to the launcher and the JVM it started). */
  stop(): void;
}

export interface StartOptions {
  /** Standard input: the terminal's (`inherit`, the command line) or none (`ignore`, the editor). */
  stdin?: "inherit" | "ignore";
  /**
   * Run in a process group of its own, so `stop` reaches the JVM that a
   * launcher script started, not just the script (POSIX; the editor uses
   * it). The command line leaves it off: Ctrl-C in the terminal reaches
   * the whole foreground group anyway.
   */
  ownProcessGroup?: boolean;
}

export function startSystemds(command: SystemdsCommand, streams: OutputStreams, options: StartOptions = {}): RunningSystemds {
  const group = options.ownProcessGroup === true && process.platform !== "win32";
  let child;
  try {
    child = spawn(command.program, command.args, {
      cwd: command.cwd,
      env: { ...process.env, ...command.env },
      stdio: [options.stdin ?? "ignore", "pipe", "pipe"],
      detached: group,
      windowsHide: true,
    });
  } catch (error) {
    return { done: Promise.resolve({ problem: startProblem(command, error) }), stop: () => undefined };
  }
  child.stdout.setEncoding("utf8");
  child.stderr.setEncoding("utf8");
  child.stdout.on("data", (text: string) => streams.stdout(text));
  child.stderr.on("data", (text: string) => streams.stderr(text));
  const done = new Promise<SystemdsExit>((resolve) => {
    child.once("error", (error) => resolve({ problem: startProblem(command, error) }));
    child.once("close", (code, signal) => {
      if (code !== null) resolve({ exitCode: code });
      else if (signal !== null) resolve({ exitCode: 128 + (constants.signals[signal] ?? 0), signal });
      else resolve({ exitCode: 1 });
    });
  });
  const stop = () => {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
    try {
      if (group) process.kill(-child.pid, "SIGTERM");
      else child.kill("SIGTERM");
    } catch {
      // it ended meanwhile: nothing to stop
    }
  };
  return { done, stop };
}

function startProblem(command: SystemdsCommand, error: unknown): string {
  const code = (error as NodeJS.ErrnoException)?.code;
  const reason = code === "ENOENT" ? "no such program" : code === "EACCES" ? "it is not executable" : error instanceof Error ? error.message : String(error);
  return `cannot start ${command.program}: ${reason}`;
}

/** Calls `line` with each complete line of the text fed to it (without the newline); `flush` gives the rest. */
export function lineSplitter(line: (text: string) => void): { feed(text: string): void; flush(): void } {
  let pending = "";
  return {
    feed(text) {
      pending += text;
      let newline = pending.indexOf("\n");
      while (newline >= 0) {
        line(pending.slice(0, newline).replace(/\r$/, ""));
        pending = pending.slice(newline + 1);
        newline = pending.indexOf("\n");
      }
    },
    flush() {
      if (pending !== "") line(pending);
      pending = "";
    },
  };
}
