/**
 * Diagnostics of the metadata stage. They may point into the script (a
 * `read` argument, an `@size` annotation) or into another file (a `.mtd`
 * sidecar, a Matrix Market header, `dml-lens.json`), so each one names its
 * file. Ranges are 0-based and end-exclusive, as everywhere in the engine.
 */
import { lineStarts, type Diagnostic, type Position, type Range, type Severity } from "../syntax";

export interface MetadataDiagnostic extends Diagnostic {
  /** The file the range points into. */
  file: string;
}

export function metadataDiagnostic(
  file: string,
  severity: Severity,
  message: string,
  range: Range,
  code: string,
): MetadataDiagnostic {
  return { file, severity, message, range, code };
}

/** A range covering `length` characters of one line. */
export function lineRange(line: number, character: number, length: number): Range {
  return { start: { line, character }, end: { line, character: character + length } };
}

export const fileStartRange: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/** `file:line:col: severity: message`, 1-based as compilers print it. */
export function formatMetadataDiagnostic(diagnostic: MetadataDiagnostic): string {
  const { line, character } = diagnostic.range.start;
  return `${diagnostic.file}:${line + 1}:${character + 1}: ${diagnostic.severity}: ${diagnostic.message}`;
}

/** Maps offsets of a text to line/character positions (lines end at \n; a \r before it counts as a character). */
export class LineMap {
  private readonly starts: readonly number[];

  constructor(text: string) {
    this.starts = lineStarts(text);
  }

  position(offset: number): Position {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.starts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low, character: offset - this.starts[low]! };
  }

  range(start: number, end: number): Range {
    return { start: this.position(start), end: this.position(end) };
  }
}
