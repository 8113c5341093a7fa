/**
 * Which files analysis may read while the user types: the workspace folders,
 * the folders of `dmlLens.analysis.readableFolders` and the extension's own
 * bundled scripts. A path counts by where it really is (symbolic links
 * resolved, `..` normalized), so `read("../../etc/x")`, an absolute path or
 * a link from inside the workspace to outside it is not opened.
 *
 * `guardedFileSystem` wraps the analysis' FileSystem: outside the readable
 * folders every method answers "not there" without touching the file's
 * content, and the path is noted; `refusalDiagnostics` then turns the
 * analysis' "not found" messages about those paths into one that says why
 * and how to allow it, at the same place (the `read()` argument).
 * `guardedFileSourceReader` does the same for the files of `source(...)`;
 * the SystemDS installation's scripts (the setting dmlLens.systemds.home,
 * SYSTEMDS_ROOT) are read wherever the installation is: the user named it.
 */
import { realpathSync } from "node:fs";
import path from "node:path";
import type { FileSystem } from "../../engine/files";
import { type SourceReader, diskSourceAccess, SourceFiles, type SourceFileAccess, sourceReaderOver, type SystemdsInstallation } from "../../engine/program";
import type { Diagnostic } from "../../engine/syntax";

export const READABLE_FOLDERS_SETTING = "dmlLens.analysis.readableFolders";
export const OUTSIDE_READABLE_FOLDERS_CODE = "outside-readable-folders";

/** The real path of `file`: of its deepest existing ancestor, with the rest appended (a file that does not exist yet). */
export function realPathOf(file: string): string {
  const absolute = path.resolve(file);
  const rest: string[] = [];
  let at = absolute;
  for (;;) {
    try {
      return path.join(realpathSync(at), ...rest.reverse());
    } catch {
      const parent = path.dirname(at);
      if (parent === at) return absolute;
      rest.push(path.basename(at));
      at = parent;
    }
  }
}

export class ReadableFolders {
  private readonly real: string[];

  constructor(readonly folders: readonly string[]) {
    this.real = folders.map(realPathOf);
  }

  allows(file: string): boolean {
    const real = realPathOf(file);
    return this.real.some((folder) => real === folder || real.startsWith(folder.endsWith(path.sep) ? folder : folder + path.sep));
  }
}

/** `fs` limited to `readable`; each refused path (without a `.mtd` suffix) is added to `refused`. */
export function guardedFileSystem(fs: FileSystem, readable: ReadableFolders, refused: Set<string>): FileSystem {
  const allowed = (file: string) => {
    if (readable.allows(file)) return true;
    refused.add(path.resolve(file).replace(/\.mtd$/, ""));
    return false;
  };
  const guarded: FileSystem = {
    readFile: (file) => (allowed(file) ? fs.readFile(file) : undefined),
    exists: (file) => allowed(file) && fs.exists(file),
  };
  if (fs.readHead) guarded.readHead = (file, maxBytes) => (allowed(file) ? fs.readHead!(file, maxBytes) : undefined);
  if (fs.size) guarded.size = (file) => (allowed(file) ? fs.size!(file) : undefined);
  if (fs.kind) guarded.kind = (file) => (allowed(file) ? fs.kind!(file) : "missing");
  if (fs.mtime) guarded.mtime = (file) => (allowed(file) ? fs.mtime!(file) : undefined);
  if (fs.readText) guarded.readText = (file, maxBytes) => (allowed(file) ? fs.readText!(file, maxBytes) : { problem: "it is outside the folders analysis may read" });
  if (fs.readBytes) guarded.readBytes = (file, maxBytes) => (allowed(file) ? fs.readBytes!(file, maxBytes) : undefined);
  if (fs.list) guarded.list = (folder) => (allowed(folder) ? fs.list!(folder) : undefined);
  if (fs.realPath) guarded.realPath = (file) => (allowed(file) ? fs.realPath!(file) : undefined);
  return guarded;
}

/**
 * The checks' reader of the files of `source(...)` (as fileSourceReader,
 * with the installation's scripts after the usual places), limited to
 * `readable`: a file outside is not read, its path is noted in `refused`,
 * and the message that it cannot be read names it (refusalDiagnostics
 * rewrites it). Its `files` (shared with the size analysis) read through the
 * same guard.
 */
export function guardedFileSourceReader(scriptPath: string, readable: ReadableFolders, refused: Set<string>, installation?: SystemdsInstallation): SourceReader {
  const access: SourceFileAccess = {
    exists: diskSourceAccess.exists,
    read: (file) => {
      if (readable.allows(file)) return diskSourceAccess.read(file);
      refused.add(path.resolve(file));
      return { problem: "it is outside the folders analysis may read" };
    },
  };
  const workingDirectory = process.cwd();
  return sourceReaderOver(new SourceFiles([workingDirectory], access, new Map(), installation), scriptPath, workingDirectory);
}

export function refusalMessage(file: string): string {
  return `analysis does not read '${file}': it is outside the folders analysis may read while you type (the workspace folders and ${READABLE_FOLDERS_SETTING}); add its folder to ${READABLE_FOLDERS_SETTING} in your user settings to allow it`;
}

/**
 * The diagnostics with each one that names a refused path (a "not found"
 * or "cannot be read" message) replaced by the refusal, at its place. A
 * refused path no diagnostic names needed no saying (another candidate
 * path was found, or an annotation gave the sizes).
 */
export function refusalDiagnostics(diagnostics: readonly Diagnostic[], refused: ReadonlySet<string>): Diagnostic[] {
  if (refused.size === 0) return [...diagnostics];
  const longestFirst = [...refused].sort((a, b) => b.length - a.length);
  return diagnostics.map((d) => {
    const file = longestFirst.find((f) => d.message.includes(f));
    return file === undefined ? d : { ...d, severity: "warning" as const, message: refusalMessage(file), code: OUTSIDE_READABLE_FOLDERS_CODE };
  });
}
