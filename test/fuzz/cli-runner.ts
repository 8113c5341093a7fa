/**
 * Runs `dml` command lines for the `cli` fuzz harness, two ways:
 * - in a long-lived child process that calls the command line's `main`
 *   (dist/cli.js) with the output captured (cli/output.ts captureOutput):
 *   no node start-up per case; the child reports each run's time and the
 *   process's peak RSS; a run past the time limit, or a child that dies
 *   (out of memory), is reported and a fresh child is started;
 * - as a real subprocess, `node dist/cli.js ...`, with a time limit and a
 *   V8 heap limit; its peak RSS is read from /usr/bin/time where there is one.
 */
import { type ChildProcess, fork, spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";

export interface RunOutcome {
  /** Exit code; undefined when the run did not end by itself (`stopped` says why). */
  code?: number;
  stdout: string;
  stderr: string;
  ms: number;
  /** Peak RSS of the process that ran it, MB (in-process: of the long-lived child so far). */
  peakRssMb?: number;
  stopped?: "time limit" | "died";
}

/** Heap limit of the processes that run cases (a run that needs more is a failure: "died"). */
export const HEAP_LIMIT_MB = 2048;
/** Most output kept per stream (a 5 MB line may be echoed). */
const OUTPUT_LIMIT = 1 << 20;

const CHILD_SOURCE = `
const cli = require(process.argv[2]);
process.on("message", async (message) => {
  const started = process.hrtime.bigint();
  let reply;
  try {
    const result = await cli.captureOutput(() => cli.main(message.args));
    reply = { code: result.value, stdout: result.stdout, stderr: result.stderr };
  } catch (error) {
    reply = { code: 3, stdout: "", stderr: "dml: internal error: " + (error && error.stack ? error.stack : String(error)) };
  }
  reply.stdout = reply.stdout.slice(0, ${OUTPUT_LIMIT});
  reply.stderr = reply.stderr.slice(0, ${OUTPUT_LIMIT});
  reply.ms = Number(process.hrtime.bigint() - started) / 1e6;
  reply.peakRssMb = process.resourceUsage().maxRSS / 1024;
  reply.id = message.id;
  process.send(reply);
});
process.send({ ready: true });
`;

export class InProcessRunner {
  private child: ChildProcess | undefined;
  private nextId = 0;
  private readonly childFile: string;

  constructor(
    private readonly cliPath: string,
    private readonly cwd: string,
  ) {
    this.childFile = path.join(cwd, "run-main.cjs");
    writeFileSync(this.childFile, CHILD_SOURCE);
  }

  private async start(): Promise<ChildProcess> {
    const child = fork(this.childFile, [this.cliPath], { cwd: this.cwd, silent: true, execArgv: [`--max-old-space-size=${HEAP_LIMIT_MB}`] });
    child.stdout?.resume(); // stray console output of the engine: drained, not checked
    child.stderr?.resume();
    await new Promise<void>((resolve, reject) => {
      child.once("message", () => resolve());
      child.once("exit", (code) => reject(new Error(`the runner child exited (${code}) before it was ready`)));
    });
    return child;
  }

  async run(args: readonly string[], timeLimitMs: number): Promise<RunOutcome> {
    this.child ??= await this.start();
    const child = this.child;
    const id = this.nextId++;
    const started = Date.now();
    return new Promise<RunOutcome>((resolve) => {
      const finish = (outcome: RunOutcome) => {
        clearTimeout(timer);
        child.off("message", onMessage);
        child.off("exit", onExit);
        resolve(outcome);
      };
      const onMessage = (reply: { id: number; code: number; stdout: string; stderr: string; ms: number; peakRssMb: number }) => {
        if (reply.id === id) finish({ code: reply.code, stdout: reply.stdout, stderr: reply.stderr, ms: reply.ms, peakRssMb: reply.peakRssMb });
      };
      const onExit = () => {
        this.child = undefined;
        finish({ stdout: "", stderr: "", ms: Date.now() - started, stopped: "died" });
      };
      const timer = setTimeout(() => {
        this.child = undefined;
        child.off("exit", onExit);
        child.kill("SIGKILL");
        finish({ stdout: "", stderr: "", ms: Date.now() - started, stopped: "time limit" });
      }, timeLimitMs);
      child.on("message", onMessage);
      child.once("exit", onExit);
      child.send({ id, args });
    });
  }

  close(): void {
    this.child?.kill("SIGKILL");
    this.child = undefined;
  }
}

/** `node dist/cli.js ARGS` in `cwd`, killed after `timeLimitMs`; peak RSS through /usr/bin/time -f %M when available. */
export function runSubprocess(cliPath: string, args: readonly string[], cwd: string, timeLimitMs: number): RunOutcome {
  const timer = existsSync("/usr/bin/time") ? ["/usr/bin/time", "-f", "\nmaxrss-kb %M"] : [];
  const [program, ...rest] = [...timer, process.execPath, `--max-old-space-size=${HEAP_LIMIT_MB}`, cliPath, ...args];
  const started = Date.now();
  const result = spawnSync(program!, rest, { cwd, timeout: timeLimitMs, killSignal: "SIGKILL", maxBuffer: 4 * OUTPUT_LIMIT, encoding: "utf8" });
  const ms = Date.now() - started;
  let stderr = result.stderr ?? "";
  let peakRssMb: number | undefined;
  const rss = /\nmaxrss-kb (\d+)\n?$/.exec(stderr);
  if (rss) {
    peakRssMb = Number(rss[1]) / 1024;
    stderr = stderr.slice(0, rss.index);
  }
  stderr = stderr.replace(/^Command exited with non-zero status \d+\n/m, "");
  const stdout = (result.stdout ?? "").slice(0, OUTPUT_LIMIT);
  if (result.error && (result.error as NodeJS.ErrnoException).code === "ETIMEDOUT") return { stdout, stderr, ms, stopped: "time limit" };
  if (result.status === null) return { stdout, stderr, ms, stopped: "died", ...(peakRssMb !== undefined ? { peakRssMb } : {}) };
  return { code: result.status, stdout, stderr: stderr.slice(0, OUTPUT_LIMIT), ms, ...(peakRssMb !== undefined ? { peakRssMb } : {}) };
}
