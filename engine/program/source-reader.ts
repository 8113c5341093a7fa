/**
 * Reads the files a script names in `source("path")`. SystemDS resolves a
 * relative path against its working directory and, when the file is not
 * there, in its `scripts/` folder (ParserWrapper: "check in scripts/
 * directory", and the same two places among the resources of its jar: that
 * is how `source("nn/layers/affine.dml")` finds `scripts/nn/...`). An editor
 * or `dml check` does not know the directory SystemDS will run in, so the
 * candidates are: the script's own folder, the working directory (and its
 * `scripts/`), then each folder above the script (and its `scripts/`), as if
 * SystemDS ran from there (the repository root, for SystemDS's own scripts
 * and tests).
 */
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { SourceReader } from "./function-scope";

export function fileSourceReader(scriptPath: string, workingDirectory: string = process.cwd()): SourceReader {
  const reader: SourceReader = (sourcePath) => {
    const found = resolveSourcePath(scriptPath, sourcePath, workingDirectory);
    return found === undefined ? undefined : readFileSync(found, "utf8");
  };
  reader.lookedIn = (sourcePath) => sourceCandidates(scriptPath, sourcePath, [workingDirectory]);
  return reader;
}

/** Candidates named in a missing-source message before the rest are counted. */
const NAMED_CANDIDATES = 2;

/**
 * A `source("file")` whose file is in none of the places looked at, in the
 * same words from `dml check`, the editor and the runtime. Names the first
 * places (next to the script, the working directory), counts the rest:
 * `cannot read source file 'lib.dml': no such file (looked in /w/s/lib.dml, /w/lib.dml and 6 more places: ...)`.
 */
export function missingSourceFileMessage(pathText: string, candidates: readonly string[]): string {
  if (candidates.length === 0) return `cannot read source file '${pathText}': no such file`;
  const viaScripts = path.join("scripts", pathText);
  const plain = candidates.filter((c) => !c.endsWith(viaScripts));
  const named = (plain.length > 0 ? plain : candidates).slice(0, NAMED_CANDIDATES);
  const more = candidates.length - named.length;
  const rest = more > 0 ? ` and ${more} more place${more === 1 ? "" : "s"}: scripts/ in each, and the folders above the script` : "";
  return `cannot read source file '${pathText}': no such file (looked in ${named.join(", ")}${rest})`;
}

/** The file `source(sourcePath)` reads: the first candidate (sourceCandidates) that exists; undefined if none does. */
export function resolveSourcePath(scriptPath: string, sourcePath: string, workingDirectory: string = process.cwd()): string | undefined {
  return sourceCandidates(scriptPath, sourcePath, [workingDirectory]).find((full) => {
    try {
      return statSync(full).isFile();
    } catch {
      return false; // not there: try the next candidate
    }
  });
}

/** Where `source(sourcePath)` may find its file, in order (absolute paths, no duplicates). */
export function sourceCandidates(scriptPath: string, sourcePath: string, workingDirectories: readonly string[]): string[] {
  if (path.isAbsolute(sourcePath)) return [path.normalize(sourcePath)];
  const scriptFolder = path.dirname(path.resolve(scriptPath));
  const roots = [scriptFolder, ...workingDirectories.map((d) => path.resolve(d))];
  for (let folder = path.dirname(scriptFolder); ; folder = path.dirname(folder)) {
    roots.push(folder);
    if (path.dirname(folder) === folder) break;
  }
  const candidates = new Set<string>();
  for (const root of roots) {
    candidates.add(path.resolve(root, sourcePath));
    candidates.add(path.resolve(root, "scripts", sourcePath));
  }
  return [...candidates];
}

/** The folders of SystemDS's `scripts/` directory (shipped in its jar). */
const SCRIPT_FOLDERS: ReadonlySet<string> = new Set(["scripts", "nn", "builtin", "algorithms", "staging", "datagen", "perftest", "utils", "pipelines", "tutorials"]);

/**
 * A path into the script library SystemDS ships in its jar (`nn/...`,
 * `builtin/...`, `staging/...`, `scripts/...`): SystemDS finds it even where
 * no local copy exists, so not finding it here says nothing.
 */
export function isBundledScriptPath(sourcePath: string): boolean {
  const first = sourcePath.replace(/^\.\//, "").split("/")[0];
  return SCRIPT_FOLDERS.has(first);
}
