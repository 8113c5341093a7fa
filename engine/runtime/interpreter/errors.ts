/**
 * A runtime error of a DML script, with the source range it happened at:
 * kernels' RuntimeError, io's DataFileError, stop(), assert() and the
 * interpreter's own checks all become one, reported as
 * `file:line:col: error: message`.
 */
import type { Range } from "../../syntax";
import { DataFileError } from "../io";
import { RuntimeError } from "../matrix";

export class DmlRuntimeError extends Error {
  override readonly name = "DmlRuntimeError";
  constructor(
    message: string,
    readonly range: Range | undefined,
    /** The script the range belongs to (a sourced file may differ from the main one). */
    public file?: string,
  ) {
    super(message);
  }
}

/** Raised by control flow to leave the script on `stop()`; kept apart so it is not re-wrapped. */
export function fail(message: string, range?: Range): never {
  throw new DmlRuntimeError(message, range);
}

/** A bug of the runtime (or of the program structures it was given), not of the script: reported as an internal error. */
export function internalError(message: string): never {
  throw new Error(message);
}

/** Runs `f`, giving any user-caused error `range` if it has none yet; host bugs are reported as internal errors with the range too. */
export function at<T>(range: Range, f: () => T): T {
  try {
    return f();
  } catch (error) {
    throw locate(error, range);
  }
}

export function locate(error: unknown, range: Range | undefined): DmlRuntimeError {
  if (error instanceof DmlRuntimeError) {
    if (error.range === undefined && range !== undefined) return new DmlRuntimeError(error.message, range, error.file);
    return error;
  }
  if (error instanceof RuntimeError) return new DmlRuntimeError(error.message, range);
  if (error instanceof DataFileError) return new DmlRuntimeError(error.message, range);
  if (error instanceof RangeError) return new DmlRuntimeError(`out of memory or invalid size: ${error.message}`, range);
  const message = error instanceof Error ? error.message : String(error);
  return new DmlRuntimeError(`internal error: ${message}`, range);
}

/** `file:line:col: error: message`, 1-based. */
export function formatRuntimeError(error: DmlRuntimeError, fallbackFile: string): string {
  const file = error.file ?? fallbackFile;
  if (!error.range) return `${file}: error: ${error.message}`;
  return `${file}:${error.range.start.line + 1}:${error.range.start.character + 1}: error: ${error.message}`;
}
