/**
 * What it takes to start SystemDS from an installation (a source tree, a
 * release folder or a jar): the jar that runs scripts, the folders of the
 * jars it depends on, a release's launcher script `bin/systemds`, and the
 * configuration files in `conf/`. Found the way SystemDS's own `bin/systemds`
 * finds them: `SystemDS.jar`, then `systemds-X.Y.Z.jar`, then
 * `systemds-X.Y.Z-SNAPSHOT.jar`, in `conf/`, `lib/`, `target/` (a built source
 * tree) and the top folder; the classpath is the jar, `lib/*` and
 * `target/lib/*`; `conf/SystemDS*config*.xml` is passed as `-config` and
 * `conf/log4j*properties` as the log4j configuration.
 */
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import type { SystemdsInstallation } from "../engine/program";

/** The part of an installation that says where SystemDS is (the script library is not needed to run it). */
export type SystemdsLocation = Pick<SystemdsInstallation, "kind" | "location" | "origin" | "jar" | "version">;

export interface SystemdsLayout {
  /** The jar that runs scripts (main class org.apache.sysds.api.DMLScript); undefined when there is none. */
  jar?: string;
  /** Classpath entries after the jar: folders of dependency jars, as `folder/*` (Java's wildcard). */
  dependencies: string[];
  /** A release's (or source tree's) launcher script `bin/systemds`. */
  launcher?: string;
  /** A folder with `bin/systemds` and no `pom.xml`: a release, whose launcher carries its settings. */
  release: boolean;
  /** `conf/SystemDS*config*.xml`, given to SystemDS as `-config`. */
  config?: string;
  /** `conf/log4j*properties`, given to the JVM as `-Dlog4j.configuration=file:...`. */
  log4j?: string;
  /** Why there is no jar, and what to do (a source tree that was not built, an empty folder). */
  missingJar?: string;
}

/** The main class of SystemDS's command line (bin/systemds and spark-submit run it). */
export const DML_SCRIPT_CLASS = "org.apache.sysds.api.DMLScript";

/** The jar names bin/systemds looks for, in its order. */
const JAR_NAMES: readonly RegExp[] = [/^systemds\.jar$/i, /^systemds-\d+\.\d+\.\d+\.jar$/i, /^systemds-\d+\.\d+\.\d+-SNAPSHOT\.jar$/i];

export function systemdsLayout(installation: SystemdsLocation): SystemdsLayout {
  if (installation.kind === "jar") return jarLayout(installation.jar ?? installation.location);
  const root = installation.location;
  const folders = ["conf", "lib", "target", "."].map((f) => path.join(root, f));
  const jar = installation.jar ?? findJar(folders);
  const dependencies = ["lib", path.join("target", "lib")].filter((f) => isFolder(path.join(root, f))).map((f) => path.join(root, f, "*"));
  const launcher = path.join(root, "bin", "systemds");
  const config = firstFile(path.join(root, "conf"), /^systemds.*config.*\.xml$/i);
  const log4j = firstFile(path.join(root, "conf"), /^log4j.*properties$/);
  const release = installation.kind === "release" || (isFile(launcher) && !isFile(path.join(root, "pom.xml")));
  const layout: SystemdsLayout = { dependencies, release };
  if (jar) layout.jar = jar;
  else layout.missingJar = missingJarMessage(installation);
  if (isFile(launcher)) layout.launcher = launcher;
  if (config) layout.config = config;
  if (log4j) layout.log4j = log4j;
  return layout;
}

/** A jar named on its own: its folder's `lib/*`, and the folder itself when other jars lie beside it (the `lib/` of a pip package). */
function jarLayout(jar: string): SystemdsLayout {
  const folder = path.dirname(jar);
  const dependencies: string[] = [];
  if (isFolder(path.join(folder, "lib"))) dependencies.push(path.join(folder, "lib", "*"));
  if (list(folder).some((name) => name.endsWith(".jar") && path.join(folder, name) !== jar)) dependencies.push(path.join(folder, "*"));
  return isFile(jar) ? { jar, dependencies, release: false } : { dependencies, release: false, missingJar: `the SystemDS jar ${jar} does not exist` };
}

function missingJarMessage(installation: SystemdsLocation): string {
  const where = installation.location;
  if (installation.kind === "source-tree" || isFile(path.join(where, "pom.xml"))) {
    return `the SystemDS source tree ${where} is not built: it has no target/SystemDS.jar or target/systemds-*.jar; build it with 'mvn clean package -P distribution' in ${where}, or point to a SystemDS release or jar`;
  }
  return `no SystemDS jar in ${where} (looked for SystemDS.jar and systemds-X.Y.Z.jar in conf/, lib/, target/ and the folder itself)`;
}

function findJar(folders: readonly string[]): string | undefined {
  for (const pattern of JAR_NAMES) {
    for (const folder of folders) {
      const name = list(folder).find((n) => pattern.test(n) && isFile(path.join(folder, n)));
      if (name) return path.join(folder, name);
    }
  }
  return undefined;
}

function firstFile(folder: string, pattern: RegExp): string | undefined {
  const name = list(folder).find((n) => pattern.test(n) && isFile(path.join(folder, n)));
  return name ? path.join(folder, name) : undefined;
}

/** A folder's entries, sorted (so the choice among several jars is the same on any machine); none when it cannot be read. */
function list(folder: string): string[] {
  try {
    return readdirSync(folder).sort();
  } catch {
    return []; // no such folder: nothing found there
  }
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

function isFolder(folder: string): boolean {
  try {
    return statSync(folder).isDirectory();
  } catch {
    return false;
  }
}
