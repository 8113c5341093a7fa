/**
 * The programs that start SystemDS: `java` (from JAVA_HOME, else the first
 * on PATH, as a shell finds it) and, for `-exec spark|hybrid`,
 * `spark-submit` (from SPARK_HOME, else PATH). Found without running them;
 * the environment and the platform are parameters, so tests can ask for a
 * machine without Java.
 */
import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";

export interface ToolEnvironment {
  env: Readonly<Record<string, string | undefined>>;
  platform: NodeJS.Platform;
}

export type FoundTool = { path: string; note?: string } | { problem: string };

export const hostTools = (): ToolEnvironment => ({ env: process.env, platform: process.platform });

/** `java`: `$JAVA_HOME/bin/java`, else the first `java` on PATH. */
export function findJava(tools: ToolEnvironment): FoundTool {
  return findTool(tools, "java", "JAVA_HOME", "no Java found: JAVA_HOME is not set and there is no 'java' on PATH; SystemDS needs a Java runtime (Java 17 for current releases, 11 for older 3.x): install one, or set JAVA_HOME");
}

/** `spark-submit`: `$SPARK_HOME/bin/spark-submit`, else the first on PATH. */
export function findSparkSubmit(tools: ToolEnvironment): FoundTool {
  return findTool(tools, "spark-submit", "SPARK_HOME", "no spark-submit found: SPARK_HOME is not set and there is no 'spark-submit' on PATH; -exec spark and -exec hybrid run SystemDS through Spark: install Spark 3.x, or set SPARK_HOME (or run with --exec singlenode)");
}

function findTool(tools: ToolEnvironment, name: string, homeVariable: string, missing: string): FoundTool {
  const windows = tools.platform === "win32";
  const names = windows ? [`${name}.exe`, `${name}.cmd`] : [name];
  const home = tools.env[homeVariable];
  let note: string | undefined;
  if (home) {
    const inHome = names.map((n) => path.join(home, "bin", n)).find(isExecutable);
    if (inHome) return { path: inHome };
    note = `${homeVariable}=${home} has no bin/${names[0]}; using the ${name} on PATH`;
  }
  const pathVariable = tools.env.PATH ?? tools.env.Path ?? "";
  for (const folder of pathVariable.split(windows ? ";" : ":")) {
    if (folder === "") continue;
    const found = names.map((n) => path.join(folder, n)).find(isExecutable);
    if (found) return note ? { path: found, note } : { path: found };
  }
  return { problem: note ? `${missing} (${homeVariable}=${home} has no bin/${names[0]})` : missing };
}

function isExecutable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false; // missing or not executable: keep looking
  }
}
