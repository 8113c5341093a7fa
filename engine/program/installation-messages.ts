/**
 * What the checks, the editor and the runtime say about a call of a
 * DML-bodied builtin whose body is not at hand: no SystemDS installation is
 * configured, or the configured one ships no script of that name. Both
 * sides use the same words.
 */
import { describeInstallation, type SystemdsInstallation } from "./systemds-installation";

/** How a user points DML Lens at a SystemDS installation (the three places it looks). */
const HOW_TO_POINT_AT_SYSTEMDS =
  "point DML Lens at a SystemDS source tree, release folder or jar with the setting dmlLens.systemds.home, the command-line flag --systemds PATH, or the environment variable SYSTEMDS_ROOT";

/** A call of the DML-bodied builtin `name` without an installation (shown once per document by the checks). */
export function needsInstallationMessage(name: string): string {
  return `'${name}' is a DML-bodied builtin: its body is SystemDS's script scripts/builtin/${name}.dml, and no SystemDS installation is configured; to check and run such calls, ${HOW_TO_POINT_AT_SYSTEMDS}`;
}

/** A call of a DML-bodied builtin (by the builtin table) that the configured installation does not ship. */
export function notInInstallationMessage(name: string, installation: SystemdsInstallation): string {
  return `'${name}' is a DML-bodied builtin, but ${describeInstallation(installation)} ships no scripts/builtin/${name}.dml`;
}
