/**
 * The runtime, on a worker thread of the extension host: runs what the
 * extension sends in the script's session (run-sessions.ts) and replies
 * with the printed output, the error and its place, a preview of every
 * variable and the per-block report. Polls the shared interrupt flag at
 * every loop iteration and function call, so Interrupt stops a runaway loop
 * and keeps the session.
 */
import { parentPort, workerData } from "node:worker_threads";
import { INTERRUPT_FLAG, type RunReply, type WorkerMessage } from "./runtime-protocol";
import { RunSessions } from "./run-sessions";

const flag = new Int32Array((workerData as { interrupt: SharedArrayBuffer }).interrupt);
const sessions = new RunSessions({ shouldInterrupt: () => Atomics.load(flag, INTERRUPT_FLAG) === 1 });

parentPort?.on("message", (message: WorkerMessage) => {
  if (message.kind === "forget") {
    sessions.forget(message.scriptPath);
    return;
  }
  try {
    Atomics.store(flag, INTERRUPT_FLAG, 0);
    parentPort!.postMessage(sessions.run(message.request));
  } catch (error) {
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    parentPort!.postMessage({ id: message.request.id, ok: false, interrupted: false, output: [], errors: [`internal error in the runtime: ${text}`], variables: [], ms: 0 } satisfies RunReply);
  }
});
