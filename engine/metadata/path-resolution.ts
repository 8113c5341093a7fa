/**
 * Where the file of a `read` is: a relative path is looked up next to the
 * script first, then in the workspace root (SystemDS itself resolves against
 * its working directory, which is usually one of the two). An absolute path
 * or a `file:` URL is used as is; `hdfs:`, `s3:` and other remote URLs are
 * not on this machine.
 */
import path from "node:path";
import type { FileSystem } from "../files";

export interface DataPathResolution {
  /** The path as the script gives it. */
  text: string;
  /** Absolute local paths tried, in order (empty for a remote URL). */
  candidates: string[];
  /** The first candidate where the data file or its `.mtd` exists. */
  resolved?: string;
  /** Whether the path is a remote URL (hdfs:, s3:, ...). */
  remote: boolean;
}

export interface PathContext {
  scriptPath: string;
  workspaceRoot?: string;
  fs: FileSystem;
}

export function resolveDataPath(text: string, context: PathContext): DataPathResolution {
  const url = /^([A-Za-z][A-Za-z0-9+.-]+):\/\//.exec(text);
  if (url && url[1]!.toLowerCase() !== "file") return { text, candidates: [], remote: true };
  const local = url ? decodeURIComponent(text.replace(/^file:\/\//i, "")) : text;
  const candidates: string[] = [];
  const add = (candidate: string) => {
    if (!candidates.includes(candidate)) candidates.push(candidate);
  };
  if (path.isAbsolute(local)) add(path.normalize(local));
  else {
    add(path.resolve(path.dirname(context.scriptPath), local));
    if (context.workspaceRoot !== undefined) add(path.resolve(context.workspaceRoot, local));
  }
  const resolved = candidates.find((c) => context.fs.exists(c) || context.fs.exists(`${c}.mtd`));
  return resolved === undefined ? { text, candidates, remote: false } : { text, candidates, resolved, remote: false };
}
