/**
 * The runtime, on a worker thread of the extension host: one interpreter
 * session per script, kept across runs, so cells see what earlier cells
 * assigned (as a Jupyter kernel). Runs what the extension sends and replies
 * with the printed output, the error and its place, and a preview of every
 * variable. Polls the shared interrupt flag at every loop iteration and
 * function call, so Interrupt stops a runaway loop and keeps the session.
 * A text that can be split into its top-level statements (statement-texts.ts)
 * runs one statement at a time, each timed, so the results view can say
 * which statement took the time.
 */
import { parentPort, workerData } from "node:worker_threads";
import { createSession, type Session } from "../../engine/runtime/interpreter";
import { previewVariable } from "../../engine/runtime/interpreter/variable-preview";
import { INTERRUPT_FLAG, type RunReply, type RunRequest, type WorkerMessage } from "./runtime-protocol";
import { statementTexts } from "./statement-texts";

const flag = new Int32Array((workerData as { interrupt: SharedArrayBuffer }).interrupt);
const sessions = new Map<string, { session: Session; output: string[] }>();

function sessionFor(request: RunRequest) {
  let entry = sessions.get(request.scriptPath);
  if (!entry) {
    const output: string[] = [];
    const session = createSession({
      scriptPath: request.scriptPath,
      params: request.params,
      ...(request.workspaceRoot ? { workspaceRoot: request.workspaceRoot } : {}),
      shouldInterrupt: () => Atomics.load(flag, INTERRUPT_FLAG) === 1,
      print: (line) => output.push(line),
    });
    entry = { session, output };
    sessions.set(request.scriptPath, entry);
  }
  return entry;
}

function run(request: RunRequest): RunReply {
  const started = performance.now();
  Atomics.store(flag, INTERRUPT_FLAG, 0);
  const { session, output } = sessionFor(request);
  output.length = 0;
  let reply: Omit<RunReply, "variables" | "ms"> = { id: request.id, ok: true, interrupted: false, output, errors: [] };
  const statements: NonNullable<RunReply["statements"]> = [];
  // Each text whole, or statement by statement (timed) where splitting it changes nothing.
  const pieces = request.texts.flatMap((text) => statementTexts(text) ?? [{ text, startLine: -1, endLine: -1, statement: "" }]);
  const timed = pieces.every((p) => p.startLine >= 0);
  for (const piece of pieces) {
    const pieceStarted = performance.now();
    const result = session.runCell(piece.text);
    if (timed) statements.push({ startLine: piece.startLine, endLine: piece.endLine, statement: piece.statement, ms: performance.now() - pieceStarted });
    if (result.ok) continue;
    const place = result.error?.range && (result.error.file === undefined || result.error.file === request.scriptPath) ? result.error.range.start : undefined;
    reply = {
      ...reply,
      ok: false,
      interrupted: result.error?.message === "interrupted",
      errors: result.errors,
      ...(place && result.error ? { error: { message: result.error.message, line: place.line, character: place.character } } : {}),
    };
    break;
  }
  if (timed && statements.length > 0) reply = { ...reply, statements };
  // The run's time, without the previews built for the views after it.
  const ms = performance.now() - started;
  const variables = [...session.env].map(([name, value]) => previewVariable(name, value));
  return { ...reply, output: [...output], variables, ms };
}

parentPort?.on("message", (message: WorkerMessage) => {
  if (message.kind === "forget") {
    sessions.delete(message.scriptPath);
    return;
  }
  try {
    parentPort!.postMessage(run(message.request));
  } catch (error) {
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    parentPort!.postMessage({ id: message.request.id, ok: false, interrupted: false, output: [], errors: [`internal error in the runtime: ${text}`], variables: [], ms: 0 } satisfies RunReply);
  }
});
