/**
 * Reads the files a script names in `source("path")`. SystemDS resolves the
 * path against its working directory (or `setwd`), not the sourcing file; an
 * editor or `dml check` does not know that directory, so this reader tries
 * the script's own folder first and then the given working directory.
 */
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { SourceReader } from "./function-scope";

export function fileSourceReader(scriptPath: string, workingDirectory: string = process.cwd()): SourceReader {
  return (sourcePath) => {
    const found = resolveSourcePath(scriptPath, sourcePath, workingDirectory);
    return found === undefined ? undefined : readFileSync(found, "utf8");
  };
}

/** The file `source(sourcePath)` reads: next to the script, else in the working directory; undefined if neither exists. */
export function resolveSourcePath(scriptPath: string, sourcePath: string, workingDirectory: string = process.cwd()): string | undefined {
  const folders = path.isAbsolute(sourcePath) ? [""] : [path.dirname(path.resolve(scriptPath)), path.resolve(workingDirectory)];
  for (const folder of folders) {
    const full = path.resolve(folder, sourcePath);
    try {
      if (statSync(full).isFile()) return full;
    } catch {
      // not there: try the next folder
    }
  }
  return undefined;
}
