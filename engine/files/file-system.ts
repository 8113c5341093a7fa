/**
 * The engine's one door to the disk: every engine file that reads (or
 * writes) a file does it through a `FileSystem`, so the language server can
 * serve unsaved buffers and limit what analysis reads, and tests can use
 * memory. Paths are absolute (or relative to the process's working
 * directory for the node implementation). Reading never throws: a missing
 * or unreadable file is `undefined` (or, from `readText`, the reason);
 * `writeFile` throws when the file cannot be written.
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
  /** A regular file's UTF-8 text of at most `maxBytes` bytes, or why not (see TextRead); never blocks on a FIFO or device. */
  readText?(path: string, maxBytes: number): TextRead;
  /** A regular file's bytes, or undefined when it is missing, no regular file, unreadable or larger than `maxBytes`. */
  readBytes?(path: string, maxBytes: number): Uint8Array | undefined;
  /** The names in a folder (unsorted), or undefined when it is no readable folder. */
  list?(folder: string): string[] | undefined;
  /** The path with symbolic links resolved, or undefined when it does not exist. */
  realPath?(path: string): string | undefined;
  /** Creates or replaces the file with the chunks' text, creating its folder; atomically (a temporary file renamed) when `atomic`. Throws on failure. */
  writeFile?(path: string, chunks: Iterable<string>, options?: { atomic?: boolean }): void;
}

/** A file's text, or why it cannot be read, in the runtime's words ("no such file", "it is a folder, not a file", ...). */
export type TextRead = { text: string } | { problem: string };

/**
 * A regular file's text of at most `maxBytes` bytes, or why not: through
 * `readText` when the file system has it, else from `kind` and `readFile`
 * (text with NUL bytes is refused as not text, as the disk's reader does).
 */
export function readText(fs: FileSystem, path: string, maxBytes: number): TextRead {
  if (fs.readText) return fs.readText(path, maxBytes);
  const kind = fileKind(fs, path);
  if (kind === "missing") return { problem: "no such file" };
  if (kind === "folder") return { problem: "it is a folder, not a file" };
  if (kind === "other") return { problem: "it is not a regular file" };
  const text = fs.readFile(path);
  if (text === undefined) return { problem: "it cannot be read" };
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > maxBytes) return { problem: tooLargeProblem(bytes, maxBytes) };
  if (text.includes("\0")) return { problem: "it is not a text file (it contains NUL bytes)" };
  return { text };
}

/** Why a file of `bytes` bytes is not read under a limit of `maxBytes` (`atLeast`: the reader stopped at the limit). */
export function tooLargeProblem(bytes: number, maxBytes: number, atLeast = false): string {
  return `it is ${atLeast ? "over " : ""}${atLeast ? maxBytes : bytes} bytes; source files are read up to ${maxBytes} bytes (${maxBytes / (1024 * 1024)} MB)`;
}

/** The names in `folder` (sorted), or [] when it is no folder or the file system cannot list. */
export function listFolder(fs: FileSystem, folder: string): string[] {
  return (fs.list?.(folder) ?? []).sort();
}

/** Whether a regular file is at `path`. */
export function isFile(fs: FileSystem, path: string): boolean {
  return fileKind(fs, path) === "file";
}

/** Whether a folder is at `path`. */
export function isFolder(fs: FileSystem, path: string): boolean {
  return fileKind(fs, path) === "folder";
}

/** Writes `text` to `path` through the file system; throws when it cannot write (or cannot write at all). */
export function writeTextFile(fs: FileSystem, path: string, text: string, options: { atomic?: boolean } = {}): void {
  if (!fs.writeFile) throw new Error(`cannot write ${path}: this file system is read-only`);
  fs.writeFile(path, [text], options);
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
 * Files held in memory, keyed by path (folders are the paths' prefixes up
 * to a "/"); `fallback` (e.g. the node file system) answers for the rest.
 * Writes are kept in memory too (never passed to `fallback`). Used for
 * tests and for editor buffers.
 */
export function memoryFileSystem(files: ReadonlyMap<string, string> | Record<string, string>, fallback?: FileSystem): FileSystem {
  const given = files instanceof Map ? files : new Map(Object.entries(files));
  const written = new Map<string, string>();
  const folders = new Set<string>();
  const addFolders = (path: string) => {
    for (let i = path.lastIndexOf("/"); i > 0; i = path.lastIndexOf("/", i - 1)) folders.add(path.slice(0, i));
  };
  for (const path of given.keys()) addFolders(path);
  const textOf = (path: string) => written.get(path) ?? given.get(path);
  const has = (path: string) => written.has(path) || given.has(path);
  return {
    readFile: (path) => textOf(path) ?? fallback?.readFile(path),
    exists: (path) => has(path) || folders.has(path) || (fallback?.exists(path) ?? false),
    readHead: (path, maxBytes) => {
      const text = textOf(path);
      if (text !== undefined) return text.slice(0, maxBytes);
      return fallback ? readFileHead(fallback, path, maxBytes) : undefined;
    },
    size: (path) => {
      const text = textOf(path);
      if (text !== undefined) return Buffer.byteLength(text, "utf8");
      return fallback ? fileSize(fallback, path) : undefined;
    },
    mtime: (path) => (has(path) ? undefined : fallback?.mtime?.(path)),
    kind: (path) => (has(path) ? "file" : folders.has(path) ? "folder" : fallback ? fileKind(fallback, path) : "missing"),
    readBytes: (path, maxBytes) => {
      const text = textOf(path);
      if (text === undefined) return fallback?.readBytes?.(path, maxBytes);
      const bytes = Buffer.from(text, "utf8");
      return bytes.length > maxBytes ? undefined : new Uint8Array(bytes);
    },
    list: (folder) => {
      if (!folders.has(folder)) return fallback?.list?.(folder);
      const names = new Set<string>();
      for (const path of [...given.keys(), ...written.keys(), ...folders]) {
        if (path.startsWith(`${folder}/`) && !path.slice(folder.length + 1).includes("/")) names.add(path.slice(folder.length + 1));
      }
      return [...names];
    },
    realPath: (path) => (has(path) || folders.has(path) ? path : fallback?.realPath?.(path)),
    writeFile: (path, chunks) => {
      let text = "";
      for (const chunk of chunks) text += chunk;
      written.set(path, text);
      addFolders(path);
    },
  };
}
