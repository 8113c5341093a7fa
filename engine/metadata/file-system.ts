/**
 * File access of the metadata readers, behind an interface so that the
 * language server can serve unsaved buffers and tests can use memory.
 * Paths are absolute (or relative to the process's working directory for
 * the node implementation). Nothing here throws: a missing or unreadable
 * file is `undefined`.
 */

/** What is at a path: a regular file, a folder, something else (FIFO, device, socket: never opened for reading) or nothing. */
export type FileKind = "file" | "folder" | "other" | "missing";

/**
 * The largest file read whole as text (512 MiB less a little: V8's longest
 * string). Larger files are not read (`readFile` answers undefined); their
 * readers say so with the size.
 */
export const MAX_TEXT_FILE_BYTES = 0x1fffffe8;

export interface FileSystem {
  /** The whole file as UTF-8 text, or undefined when it does not exist, is not a readable regular file or is larger than MAX_TEXT_FILE_BYTES. */
  readFile(path: string): string | undefined;
  /** Whether a file (or folder) exists at `path`. */
  exists(path: string): boolean;
  /** At most the first `maxBytes` bytes, decoded as UTF-8 (for headers of big files). */
  readHead?(path: string, maxBytes: number): string | undefined;
  /** The size in bytes, or undefined when unknown. */
  size?(path: string): number | undefined;
  /** What is at `path`, without opening it. */
  kind?(path: string): FileKind;
  /** The last modification time in milliseconds, or undefined when unknown (for caches keyed by file). */
  mtime?(path: string): number | undefined;
}

/** The first `maxBytes` of a file, through `readHead` when the file system has it. */
export function readFileHead(fs: FileSystem, path: string, maxBytes: number): string | undefined {
  if (fs.readHead) return fs.readHead(path, maxBytes);
  const text = fs.readFile(path);
  return text === undefined ? undefined : text.slice(0, maxBytes);
}

/** The size of a file in bytes: `size` when the file system has it, else the UTF-8 length of its text. */
export function fileSize(fs: FileSystem, path: string): number | undefined {
  if (fs.size) return fs.size(path);
  const text = fs.readFile(path);
  return text === undefined ? undefined : Buffer.byteLength(text, "utf8");
}

/** What is at `path`: `kind` when the file system has it, else a readable file, an existing folder or nothing. */
export function fileKind(fs: FileSystem, path: string): FileKind {
  if (fs.kind) return fs.kind(path);
  if (!fs.exists(path)) return "missing";
  return fs.readFile(path) !== undefined ? "file" : "folder";
}

/**
 * Files held in memory, keyed by path; `fallback` (e.g. the node file
 * system) answers for the rest. Used for tests and for editor buffers.
 */
export function memoryFileSystem(files: ReadonlyMap<string, string> | Record<string, string>, fallback?: FileSystem): FileSystem {
  const map = files instanceof Map ? files : new Map(Object.entries(files));
  const folders = new Set<string>();
  for (const path of map.keys()) {
    for (let i = path.lastIndexOf("/"); i > 0; i = path.lastIndexOf("/", i - 1)) folders.add(path.slice(0, i));
  }
  return {
    readFile: (path) => map.get(path) ?? fallback?.readFile(path),
    exists: (path) => map.has(path) || folders.has(path) || (fallback?.exists(path) ?? false),
    readHead: (path, maxBytes) => {
      const text = map.get(path);
      if (text !== undefined) return text.slice(0, maxBytes);
      return fallback ? readFileHead(fallback, path, maxBytes) : undefined;
    },
    size: (path) => {
      const text = map.get(path);
      if (text !== undefined) return Buffer.byteLength(text, "utf8");
      return fallback ? fileSize(fallback, path) : undefined;
    },
    mtime: (path) => (map.has(path) ? undefined : fallback?.mtime?.(path)),
    kind: (path) => (map.has(path) ? "file" : folders.has(path) ? "folder" : fallback ? fileKind(fallback, path) : "missing"),
  };
}
