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
  const folders = [path.dirname(path.resolve(scriptPath)), path.resolve(workingDirectory)];
  return (sourcePath) => {
    for (const folder of path.isAbsolute(sourcePath) ? [""] : folders) {
      const full = path.resolve(folder, sourcePath);
      try {
        if (statSync(full).isFile()) return readFileSync(full, "utf8");
      } catch {
        // not there: try the next folder
      }
    }
    return undefined;
  };
}
