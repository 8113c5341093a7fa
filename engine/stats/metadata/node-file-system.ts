/** The `FileSystem` of the local disk (node:fs), for the command line and the language server. */
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import type { FileSystem } from "./file-system";

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

export const nodeFileSystem: FileSystem = {
  readFile(path) {
    if (!isFile(path)) return undefined;
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
    if (!isFile(path)) return undefined;
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
    try {
      const stat = statSync(path);
      return stat.isFile() ? stat.size : undefined;
    } catch {
      return undefined;
    }
  },
  mtime(path) {
    try {
      return statSync(path).mtimeMs;
    } catch {
      return undefined;
    }
  },
};
