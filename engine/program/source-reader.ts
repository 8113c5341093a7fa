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
 *
 * One safe reader for every place that loads a sourced file (the checks, the
 * size analysis, the runtime): only a regular file is read (a folder, a
 * device such as /dev/zero, a FIFO or a socket is refused without reading:
 * the type is checked before opening, and again on the opened descriptor,
 * opened non-blocking so a FIFO cannot block), at most MAX_SOURCE_BYTES of
 * it, and only UTF-8 text (a binary such as /proc/self/exe is refused). Each
 * refusal is a message in the runtime's words. A `SourceFiles` keeps what it
 * read and parsed, so one analysis reads and parses each file once however
 * often it is sourced (a diamond of sources).
 */
import path from "node:path";
import { type FileSystem, isFile, nodeFileSystem, readText, type TextRead } from "../files";
import { type ParseResult, parse } from "../syntax";
import type { SourceReader } from "./function-scope";
import { builtinScriptFile, joinInside, type SystemdsInstallation } from "./systemds-installation";

/** The largest sourced file read: DML libraries are kilobytes; SystemDS's largest builtin is ~100 KB. */
export const MAX_SOURCE_BYTES = 4 * 1024 * 1024;

/** A sourced file's text, or why it cannot be read (`cannot read source file 'x': <problem>`). */
export type SourceText = TextRead;

/**
 * The text of a sourced file, read safely through `fs` (see the header and
 * FileSystem.readText): never blocks, never reads more than `maxBytes + 1`
 * bytes, never throws.
 */
export function readSourceText(file: string, maxBytes: number = MAX_SOURCE_BYTES, fs: FileSystem = nodeFileSystem): SourceText {
  return readText(fs, file, maxBytes);
}

/** A sourced file as found: its path and parse, or the places looked in, or why it cannot be read. */
export type LoadedSource =
  | { kind: "file"; file: string; text: string; parsed: ParseResult }
  | { kind: "missing"; candidates: string[] }
  | { kind: "unreadable"; file: string; problem: string };

/** How a `SourceFiles` sees the file system (the analysis's tests give a file system in memory). */
export interface SourceFileAccess {
  exists(file: string): boolean;
  read(file: string): SourceText;
}

/** Sourced files found and read through `fs`, safely (FileSystem.readText). */
export function fileSystemSourceAccess(fs: FileSystem): SourceFileAccess {
  return { exists: (file) => fs.exists(file), read: (file) => readSourceText(file, MAX_SOURCE_BYTES, fs) };
}

/** The disk, read safely. */
export const diskSourceAccess: SourceFileAccess = fileSystemSourceAccess(nodeFileSystem);

/**
 * The sourced files of one analysis or run: each path is looked up among
 * its candidates (the first that exists, whatever it is, so that a folder or
 * a device is named as such, not as missing), read and parsed once per
 * resolved file. Readers of one analysis with different working
 * directories (the checks, the sizes) share `cache`.
 */
export class SourceFiles {
  constructor(
    private readonly workingDirectories: readonly string[] = [process.cwd()],
    private readonly access: SourceFileAccess = diskSourceAccess,
    readonly cache: Map<string, LoadedSource> = new Map(),
    /** A SystemDS installation: its `scripts/` is the last place looked in, and it holds the builtin scripts. */
    readonly installation?: SystemdsInstallation,
  ) {}

  /** `source(sourcePath)` in the file `fromFile` (the script, or a sourced file for its own sources). */
  load(fromFile: string, sourcePath: string): LoadedSource {
    const candidates = sourceCandidates(fromFile, sourcePath, this.workingDirectories);
    if (this.installation && !path.isAbsolute(sourcePath)) {
      const inInstallation = joinInside(this.installation.scriptsRoot, sourcePath.replace(/^\.\/|^scripts\//, ""));
      if (!candidates.includes(inInstallation)) candidates.push(inInstallation);
    }
    const file = candidates.find((c) => this.accessFor(c).exists(c));
    if (file === undefined) return { kind: "missing", candidates };
    return this.loadFile(file);
  }

  /**
   * The script of the DML-bodied builtin `name` in the installation, parsed;
   * undefined without an installation or when it ships no such script.
   */
  loadBuiltinScript(name: string): (LoadedSource & { kind: "file" | "unreadable" }) | undefined {
    if (!this.installation?.builtinScripts.has(name)) return undefined;
    const file = builtinScriptFile(this.installation, name);
    if (!this.installation.access.exists(file)) return undefined;
    return this.loadFile(file) as LoadedSource & { kind: "file" | "unreadable" };
  }

  private loadFile(file: string): LoadedSource {
    let loaded = this.cache.get(file);
    if (!loaded) {
      const read = this.accessFor(file).read(file);
      loaded = "text" in read ? { kind: "file", file, text: read.text, parsed: parse(read.text) } : { kind: "unreadable", file, problem: read.problem };
      this.cache.set(file, loaded);
    }
    return loaded;
  }

  /** The installation reads its own files (inside a jar, from the zip); the rest comes from `access`. */
  private accessFor(file: string): SourceFileAccess {
    const installation = this.installation;
    return installation && (file === installation.scriptsRoot || file.startsWith(installation.scriptsRoot + (installation.scriptsRoot.includes("!/") ? "/" : path.sep))) ? installation.access : this.access;
  }
}

/** The message of a sourced file that cannot be used, in the same words from check, the editor and the runtime. */
export function sourceProblemMessage(pathText: string, loaded: Exclude<LoadedSource, { kind: "file" }>): string {
  if (loaded.kind === "missing") return missingSourceFileMessage(pathText, loaded.candidates);
  const where = path.isAbsolute(pathText) && path.normalize(pathText) === loaded.file ? "" : ` (${loaded.file})`;
  return `cannot read source file '${pathText}'${where}: ${loaded.problem}`;
}

/**
 * The reader `dml check` and the editor give the checks (function-scope.ts):
 * the text of a sourced file, its parse, and why it cannot be read.
 */
export function fileSourceReader(scriptPath: string, workingDirectory: string = process.cwd(), installation?: SystemdsInstallation): SourceReader {
  return sourceReaderOver(new SourceFiles([workingDirectory], diskSourceAccess, new Map(), installation), scriptPath, workingDirectory);
}

/** The checks' reader of the files `source()` names in `scriptPath`, found and read through `files`. */
export function sourceReaderOver(files: SourceFiles, scriptPath: string, workingDirectory: string): SourceReader {
  const reader: SourceReader = (sourcePath) => {
    const loaded = files.load(scriptPath, sourcePath);
    return loaded.kind === "file" ? loaded.text : undefined;
  };
  reader.lookedIn = (sourcePath) => sourceCandidates(scriptPath, sourcePath, [workingDirectory]);
  reader.load = (sourcePath) => files.load(scriptPath, sourcePath);
  reader.files = files;
  reader.scriptPath = path.resolve(scriptPath);
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
export function resolveSourcePath(scriptPath: string, sourcePath: string, workingDirectory: string = process.cwd(), fs: FileSystem = nodeFileSystem): string | undefined {
  return sourceCandidates(scriptPath, sourcePath, [workingDirectory]).find((full) => isFile(fs, full));
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
  const [first = ""] = sourcePath.replace(/^\.\//, "").split("/");
  return SCRIPT_FOLDERS.has(first);
}
