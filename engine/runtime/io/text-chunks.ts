/**
 * Writers produce a file's text as a sequence of chunks (about 64 KiB each)
 * so that a large matrix is never one huge string (V8 caps strings near
 * 512 MiB); `ChunkedText` gathers lines into such chunks.
 */

const CHUNK_CHARS = 1 << 16;

export class ChunkedText {
  private buffer = "";
  private readonly ready: string[] = [];

  append(text: string): void {
    this.buffer += text;
    if (this.buffer.length >= CHUNK_CHARS) {
      this.ready.push(this.buffer);
      this.buffer = "";
    }
  }

  /** Chunks complete so far (each returned once). */
  take(): string[] {
    return this.ready.splice(0, this.ready.length);
  }

  /** The rest, after the last append. */
  finish(): string[] {
    if (this.buffer !== "") this.ready.push(this.buffer);
    this.buffer = "";
    return this.take();
  }
}

/** The whole text of a chunk sequence (for tests and small data). */
export function joinChunks(chunks: Iterable<string>): string {
  let text = "";
  for (const chunk of chunks) text += chunk;
  return text;
}
