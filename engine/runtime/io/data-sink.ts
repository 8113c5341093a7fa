/**
 * Where the writers put files: the local disk (folders created, the file
 * replaced) or memory (tests, previews). Files are written from chunks.
 */
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import path from "node:path";

export interface DataSink {
  /** Creates or replaces the file at `filePath` with the chunks' text; throws on failure. */
  writeFile(filePath: string, chunks: Iterable<string>): void;
}

export const nodeDataSink: DataSink = {
  writeFile(filePath, chunks) {
    mkdirSync(path.dirname(filePath), { recursive: true });
    const fd = openSync(filePath, "w");
    try {
      for (const chunk of chunks) writeSync(fd, chunk, null, "utf8");
    } finally {
      closeSync(fd);
    }
  },
};

/** A sink that keeps files in `files` (path → text); pass the same map to `memoryFileSystem` to read them back. */
export function memoryDataSink(files: Map<string, string> = new Map()): DataSink & { files: Map<string, string> } {
  return {
    files,
    writeFile(filePath, chunks) {
      let text = "";
      for (const chunk of chunks) text += chunk;
      files.set(filePath, text);
    },
  };
}
