/**
 * The error of a data file that cannot be read (or written) as asked: it
 * names the file, the 1-based line and column when the problem has a place,
 * and what was expected. `message` is the compiler-style text
 * `file:line:column: detail` (`file:line: detail` without a column,
 * `file: detail` without a line), e.g.
 * `examples/data/x.csv:12: expected 4 values, found 3`.
 */

export type DataFileErrorCode =
  /** The file (or its .mtd) is not where the read looked. */
  | "not-found"
  /** The .mtd sidecar is invalid or contradicts the read() arguments. */
  | "metadata"
  /** A line or value of the data does not fit the format. */
  | "syntax"
  /** A well-formed value that does not fit the declared dims, nnz or schema. */
  | "mismatch"
  /** A format or data type this reader does not handle. */
  | "unsupported"
  /** The data is too large to hold. */
  | "too-large"
  /** The file system failed (read or write). */
  | "io";

export interface DataFileErrorInit {
  file: string;
  /** 1-based line in `file`. */
  line?: number;
  /** 1-based column (character) in the line. */
  column?: number;
  code: DataFileErrorCode;
  /** A "not-found" error: the absolute paths the read looked at, in order. */
  candidates?: readonly string[];
}

export class DataFileError extends Error {
  readonly file: string;
  readonly line: number | undefined;
  readonly column: number | undefined;
  readonly code: DataFileErrorCode;
  /** A "not-found" error: the absolute paths the read looked at, in order. */
  readonly candidates: readonly string[] | undefined;
  /** The problem without the place, e.g. "expected 4 values, found 3". */
  readonly detail: string;

  constructor(detail: string, init: DataFileErrorInit) {
    super(formatPlace(init) + detail);
    this.name = "DataFileError";
    this.file = init.file;
    this.line = init.line;
    this.column = init.column;
    this.code = init.code;
    this.candidates = init.candidates;
    this.detail = detail;
  }
}

function formatPlace(init: DataFileErrorInit): string {
  if (init.line === undefined) return `${init.file}: `;
  if (init.column === undefined) return `${init.file}:${init.line}: `;
  return `${init.file}:${init.line}:${init.column}: `;
}

/** A problem that does not stop the read (e.g. a .mtd nnz that differs from the data's). */
export interface DataFileWarning {
  file: string;
  line?: number;
  message: string;
}

/** The outcome of a read: the value, or the error (never a half-read value). */
export type DataReadResult<T> =
  | { ok: true; value: T; warnings: DataFileWarning[] }
  | { ok: false; error: DataFileError };

/** Runs `read`, turning a thrown DataFileError into an error value (other exceptions propagate). */
export function catchDataFileError<T>(read: () => { value: T; warnings: DataFileWarning[] }): DataReadResult<T> {
  try {
    const { value, warnings } = read();
    return { ok: true, value, warnings };
  } catch (error) {
    if (error instanceof DataFileError) return { ok: false, error };
    throw error;
  }
}
