/**
 * The `FileSystem` of the local disk (node:fs), for the command line and the
 * language server: the engine's only module that touches the disk for
 * files. Only regular files are ever opened: a FIFO, a device or a socket is
 * `kind` "other" and reads as undefined (opening a FIFO blocks, reading
 * /dev/zero never ends); a file larger than MAX_TEXT_FILE_BYTES is not read
 * whole either.
 */
import { closeSync, constants, existsSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, realpathSync, renameSync, statSync, writeSync, type Stats } from "node:fs";
import path from "node:path";
import { type FileKind, type FileSystem, MAX_TEXT_FILE_BYTES, type TextRead, tooLargeProblem } from "./file-system";

function stat(file: string): Stats | undefined {
  try {
    return statSync(file);
  } catch {
    return undefined; // not there, or not reachable: nothing
  }
}

function kindOf(stats: Stats | undefined): FileKind {
  if (stats === undefined) return "missing";
  if (stats.isFile()) return "file";
  if (stats.isDirectory()) return "folder";
  return "other";
}

export const nodeFileSystem: FileSystem = {
  readFile(file) {
    const stats = stat(file);
    if (!stats?.isFile() || stats.size > MAX_TEXT_FILE_BYTES) return undefined;
    try {
      return readFileSync(file, "utf8");
    } catch {
      return undefined; // unreadable: as the interface says
    }
  },
  exists(file) {
    return existsSync(file);
  },
  readHead(file, maxBytes) {
    if (!stat(file)?.isFile()) return undefined;
    let fd: number | undefined;
    try {
      fd = openSync(file, "r");
      const buffer = Buffer.alloc(maxBytes);
      const read = readSync(fd, buffer, 0, maxBytes, 0);
      return buffer.subarray(0, read).toString("utf8");
    } catch {
      return undefined; // unreadable: as the interface says
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  },
  size(file) {
    const stats = stat(file);
    return stats?.isFile() ? stats.size : undefined;
  },
  kind(file) {
    return kindOf(stat(file));
  },
  mtime(file) {
    return stat(file)?.mtimeMs;
  },
  readText: readRegularFileText,
  readBytes(file, maxBytes) {
    const stats = stat(file);
    if (!stats?.isFile() || stats.size > maxBytes) return undefined;
    try {
      return readFileSync(file);
    } catch {
      return undefined; // unreadable: as the interface says
    }
  },
  list(folder) {
    try {
      return readdirSync(folder);
    } catch {
      return undefined; // no folder: nothing to list
    }
  },
  realPath(file) {
    try {
      return realpathSync(file);
    } catch {
      return undefined; // not there
    }
  },
  writeFile(file, chunks, options = {}) {
    mkdirSync(path.dirname(file), { recursive: true });
    const target = options.atomic ? `${file}.${process.pid}.tmp` : file;
    const fd = openSync(target, "w");
    try {
      for (const chunk of chunks) writeSync(fd, chunk, null, "utf8");
    } finally {
      closeSync(fd);
    }
    if (options.atomic) renameSync(target, file);
  },
};

/**
 * The text of a regular file, read safely: the type is checked before
 * opening and again on the opened descriptor (opened non-blocking, so a
 * path that became a FIFO cannot block), at most `maxBytes + 1` bytes are
 * read, and only UTF-8 text without NUL bytes is text (a binary such as
 * /proc/self/exe is refused). Each refusal is a message in the runtime's
 * words; never throws.
 */
function readRegularFileText(file: string, maxBytes: number): TextRead {
  let stats: Stats;
  try {
    stats = statSync(file);
  } catch (error) {
    return { problem: systemProblem(error) };
  }
  const kind = notRegular(stats);
  if (kind) return { problem: kind };
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    return { problem: systemProblem(error) };
  }
  try {
    const opened = fstatSync(fd);
    const openedKind = notRegular(opened);
    if (openedKind) return { problem: openedKind };
    if (opened.size > maxBytes) return { problem: tooLargeProblem(opened.size, maxBytes) };
    // Read to the end, but never past the limit (files under /proc say size 0 and have content).
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.alloc(Math.min(64 * 1024, maxBytes + 1 - total));
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      chunks.push(chunk.subarray(0, read));
      total += read;
      if (total > maxBytes) return { problem: tooLargeProblem(total, maxBytes, true) };
    }
    return textOf(Buffer.concat(chunks, total));
  } catch (error) {
    return { problem: systemProblem(error) };
  } finally {
    closeSync(fd);
  }
}

/** UTF-8 text without NUL bytes (a BOM is dropped), else why not. */
function textOf(bytes: Buffer): TextRead {
  if (bytes.includes(0)) return { problem: "it is not a text file (it contains NUL bytes)" };
  try {
    return { text: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
  } catch {
    return { problem: "it is not UTF-8 text" }; // the decoder's only failure
  }
}

function notRegular(stats: Stats): string | undefined {
  if (stats.isFile()) return undefined;
  if (stats.isDirectory()) return "it is a folder, not a file";
  if (stats.isFIFO()) return "it is a named pipe (FIFO), not a regular file";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "it is a device, not a regular file";
  if (stats.isSocket()) return "it is a socket, not a regular file";
  return "it is not a regular file";
}

function systemProblem(error: unknown): string {
  const code = (error as { code?: string }).code;
  if (code === "ENOENT") return "no such file";
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (code === "EISDIR") return "it is a folder, not a file";
  if (code === "ELOOP") return "too many levels of symbolic links";
  return `${code ?? "error"}: ${error instanceof Error ? error.message : String(error)}`;
}
