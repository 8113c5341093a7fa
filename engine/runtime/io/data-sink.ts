/**
 * Where the writers put files: a FileSystem's files (the local disk:
 * folders created, the file replaced) or memory (tests, previews). Files are
 * written from chunks.
 */
import { type FileSystem, nodeFileSystem } from "../../files";

export interface DataSink {
  /** Creates or replaces the file at `filePath` with the chunks' text; throws on failure. */
  writeFile(filePath: string, chunks: Iterable<string>): void;
}

/** A sink that writes through `fs`; throws when `fs` cannot write. */
export function fileSystemDataSink(fs: FileSystem): DataSink {
  return {
    writeFile(filePath, chunks) {
      if (!fs.writeFile) throw new Error(`cannot write ${filePath}: this file system is read-only`);
      fs.writeFile(filePath, chunks);
    },
  };
}

/** The local disk. */
export const nodeDataSink: DataSink = fileSystemDataSink(nodeFileSystem);

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
