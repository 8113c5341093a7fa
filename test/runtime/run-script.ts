// Runs a DML script in a fresh interpreter session, for the runtime's tests:
// what it printed (it must run without errors), or the error it stopped with.
import assert from "node:assert/strict";
import { createSession } from "../../engine/runtime/interpreter";

/** The lines the script printed, joined by newlines; the run must have no errors. */
export function printed(script: string): string {
  const lines: string[] = [];
  const result = createSession({ scriptPath: "/tmp/t.dml", print: (line) => lines.push(line) }).runScript(script);
  assert.deepEqual(result.errors, []);
  return lines.join("\n");
}

/** The errors of a script that must fail, joined by newlines. */
export function runError(script: string): string {
  const result = createSession({ scriptPath: "/tmp/t.dml", print: () => {} }).runScript(script);
  assert.equal(result.ok, false, "expected an error");
  return result.errors.join("\n");
}
