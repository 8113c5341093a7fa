/**
 * A SystemDS installation in a jar: SystemDS ships its script library as
 * resources of its jar (`scripts/builtin/*.dml`, `scripts/nn/...`), which is
 * where SystemDS itself finds a builtin's script when no folder has it.
 *
 * The jar is read once, with fflate's `unzipSync`: its central directory is
 * walked and only the entries under `scripts/` (and the Maven
 * `pom.properties`, for the version) are inflated, each at most
 * MAX_SOURCE_BYTES, all together at most MAX_SCRIPTS_BYTES. The jar's bytes
 * are dropped once that is done: what stays are the scripts (kilobytes each),
 * so a 100 MB jar is held once, briefly, never for the session. Paths inside
 * the jar are `<jar>!/scripts/...` (systemds-installation.ts).
 *
 * A path that is no file, a file that is no zip (or a truncated one), a zip
 * without `scripts/builtin/`: a message saying what was looked for, never an
 * exception.
 */
import path from "node:path";
import { fileKind, fileSize, type FileSystem, nodeFileSystem } from "../files";
import { unzipSync, type UnzipFileInfo } from "fflate";
import { MAX_SOURCE_BYTES, type SourceFileAccess, type SourceText } from "./source-reader";
import type { SystemdsInstallation } from "./systemds-installation";

/** The largest jar opened: SystemDS's own is tens of MB (with its dependencies, about 100). */
const MAX_JAR_BYTES = 512 * 1024 * 1024;
/** The most bytes of scripts kept from one jar (SystemDS's scripts/ is a few MB). */
const MAX_SCRIPTS_BYTES = 64 * 1024 * 1024;
/** The most entries walked in a jar's directory (a corrupt count must not loop for ever). */
const MAX_JAR_ENTRIES = 500_000;

/** The separator between a jar and a path inside it. */
const INSIDE_JAR = "!/";

/** What an installation in a jar is made of, or why the file is not one. */
export type JarOpening = { installation: SystemdsInstallation } | { problem: string };

/** The installation whose scripts are inside the jar `jarPath`, or why it is none. */
export function jarInstallation(jarPath: string, origin: string, fs: FileSystem = nodeFileSystem): JarOpening {
  const jar = path.resolve(jarPath);
  const read = readJar(jar, fs);
  if ("problem" in read) return read;
  const { scripts, refused, properties } = read;
  const builtinScripts = new Set<string>();
  for (const name of [...scripts.keys(), ...refused.keys()]) {
    const match = /^scripts\/builtin\/([^/]+)\.dml$/.exec(name);
    if (match) builtinScripts.add(match[1]!);
  }
  if (builtinScripts.size === 0) return { problem: `${jar} is a zip but holds no SystemDS builtin scripts (no entries scripts/builtin/*.dml)` };
  const scriptsRoot = `${jar}${INSIDE_JAR}scripts`;
  const prefix = `${jar}${INSIDE_JAR}`;
  const folders = folderEntries([...scripts.keys(), ...refused.keys()]);
  const entryOf = (file: string) => (file.startsWith(prefix) ? path.posix.normalize(file.slice(prefix.length)) : undefined);
  const access: SourceFileAccess = {
    exists: (file) => {
      const entry = entryOf(file);
      return entry !== undefined && (scripts.has(entry) || refused.has(entry) || folders.has(entry));
    },
    read: (file): SourceText => {
      const entry = entryOf(file);
      if (entry === undefined) return { problem: "it is outside the SystemDS installation" };
      const bytes = scripts.get(entry);
      if (bytes) return textOf(bytes);
      const problem = refused.get(entry);
      if (problem !== undefined) return { problem };
      if (folders.has(entry)) return { problem: "it is a folder, not a file" };
      return { problem: "no such file" };
    },
  };
  const version = versionFromJarName(jar) ?? versionFromProperties(properties);
  return { installation: { kind: "jar", location: jar, origin, ...(version ? { version } : {}), jar, scriptsRoot, access, builtinScripts } };
}

/** `3.2.0` from `systemds-3.2.0.jar` (also `-SNAPSHOT`, `-bin`); undefined for other names (`SystemDS.jar`). */
export function versionFromJarName(jar: string): string | undefined {
  const match = /^systemds-(\d+\.\d+(?:\.\d+)?(?:-SNAPSHOT)?)(?:-[a-z]+)?\.jar$/i.exec(path.basename(jar));
  return match?.[1];
}

/** `version=3.2.0` from a Maven `pom.properties` of the artifact systemds. */
function versionFromProperties(properties: string | undefined): string | undefined {
  if (properties === undefined) return undefined;
  const match = /^version\s*=\s*(\S+)\s*$/m.exec(properties);
  return match?.[1];
}

interface JarScripts {
  /** Entry name -> bytes, for entries under scripts/ within the size limits. */
  scripts: Map<string, Uint8Array>;
  /** Entries under scripts/ that are not read (too large, compressed with a method other than deflate), and why. */
  refused: Map<string, string>;
  /** The text of META-INF/maven/.../systemds/pom.properties, when the jar has one. */
  properties?: string;
}

function readJar(jar: string, fs: FileSystem): JarScripts | { problem: string } {
  const kind = fileKind(fs, jar);
  if (kind === "missing") return { problem: `${jar}: no such file or folder` };
  if (kind !== "file") return { problem: `${jar} is not a regular file (expected a SystemDS jar)` };
  const size = fileSize(fs, jar);
  if (size !== undefined && size > MAX_JAR_BYTES) return { problem: `${jar} is ${size} bytes; a SystemDS jar is read up to ${MAX_JAR_BYTES / (1024 * 1024)} MB` };
  const bytes = fs.readBytes?.(jar, MAX_JAR_BYTES);
  if (bytes === undefined) return { problem: `${jar}: it cannot be read${fs.readBytes ? "" : " (this file system does not read bytes)"}` };
  const refused = new Map<string, string>();
  let entries = 0;
  let kept = 0;
  let overTotal = false;
  let propertiesName: string | undefined;
  const keep = (file: UnzipFileInfo): boolean => {
    if (++entries > MAX_JAR_ENTRIES) throw new Error(`more than ${MAX_JAR_ENTRIES} entries in its directory`);
    const name = file.name;
    if (/^META-INF\/maven\/[^/]+\/systemds\/pom\.properties$/.test(name) && file.originalSize <= 64 * 1024) {
      propertiesName = name;
      return supportedMethod(file.compression);
    }
    if (!name.startsWith("scripts/") || name.endsWith("/")) return false;
    if (file.originalSize > MAX_SOURCE_BYTES) {
      refused.set(name, `it is ${file.originalSize} bytes; source files are read up to ${MAX_SOURCE_BYTES} bytes (${MAX_SOURCE_BYTES / (1024 * 1024)} MB)`);
      return false;
    }
    if (!supportedMethod(file.compression)) {
      refused.set(name, `it is compressed with zip method ${file.compression}; only stored and deflated entries are read`);
      return false;
    }
    if (kept + file.originalSize > MAX_SCRIPTS_BYTES) {
      overTotal = true;
      return false;
    }
    kept += file.originalSize;
    return true;
  };
  let unzipped: Record<string, Uint8Array>;
  try {
    unzipped = unzipSync(bytes, { filter: keep });
  } catch (error) {
    return { problem: `${jar} is not a readable jar (zip) file: ${zipProblem(error)}` };
  }
  if (overTotal) return { problem: `${jar} has more than ${MAX_SCRIPTS_BYTES / (1024 * 1024)} MB of scripts under scripts/; that is not a SystemDS jar's script library` };
  const scripts = new Map<string, Uint8Array>();
  let properties: string | undefined;
  for (const [name, data] of Object.entries(unzipped)) {
    if (name === propertiesName) properties = new TextDecoder().decode(data);
    else scripts.set(name, data);
  }
  return { scripts, refused, ...(properties !== undefined ? { properties } : {}) };
}

/** Entries stored (0) or deflated (8) are read; unzipSync would throw for the whole jar on any other method. */
function supportedMethod(compression: number): boolean {
  return compression === 0 || compression === 8;
}

/** Every folder above the entries (`scripts`, `scripts/nn`, ...). */
function folderEntries(names: readonly string[]): Set<string> {
  const folders = new Set<string>();
  for (const name of names) {
    for (let folder = path.posix.dirname(name); folder !== "." && !folders.has(folder); folder = path.posix.dirname(folder)) folders.add(folder);
  }
  return folders;
}

function textOf(bytes: Uint8Array): SourceText {
  if (bytes.includes(0)) return { problem: "it is not a text file (it contains NUL bytes)" };
  try {
    return { text: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
  } catch {
    return { problem: "it is not UTF-8 text" };
  }
}

function zipProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message === "invalid zip data" ? "no zip directory found (truncated, or not a zip)" : message;
}
