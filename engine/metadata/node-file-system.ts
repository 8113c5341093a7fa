/**
 * The `FileSystem` of the local disk (node:fs), for the command line and the
 * language server. Only regular files are ever opened: a FIFO, a device or a
 * socket is `kind` "other" and reads as undefined (opening a FIFO blocks,
 * reading /dev/zero never ends); a file larger than MAX_TEXT_FILE_BYTES is
 * not read whole either.
 */
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync, type Stats } from "node:fs";
import { type FileKind, type FileSystem, MAX_TEXT_FILE_BYTES } from "./file-system";

function stat(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

function kindOf(stats: Stats | undefined): FileKind {
  if (stats === undefined) return "missing";
  if (stats.isFile()) return "file";
  if (stats.isDirectory()) return "folder";
  return "other";
}

export const nodeFileSystem: FileSystem = {
  readFile(path) {
    const stats = stat(path);
    if (!stats?.isFile() || stats.size > MAX_TEXT_FILE_BYTES) return undefined;
    try {
      return readFileSync(path, "utf8");
    } catch {
      return undefined;
    }
  },
  exists(path) {
    return existsSync(path);
  },
  readHead(path, maxBytes) {
    if (!stat(path)?.isFile()) return undefined;
    let fd: number | undefined;
    try {
      fd = openSync(path, "r");
      const buffer = Buffer.alloc(maxBytes);
      const read = readSync(fd, buffer, 0, maxBytes, 0);
      return buffer.subarray(0, read).toString("utf8");
    } catch {
      return undefined;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  },
  size(path) {
    const stats = stat(path);
    return stats?.isFile() ? stats.size : undefined;
  },
  kind(path) {
    return kindOf(stat(path));
  },
  mtime(path) {
    return stat(path)?.mtimeMs;
  },
};
