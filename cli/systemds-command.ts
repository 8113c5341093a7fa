/**
 * The command that runs a DML script on SystemDS, built from an
 * installation's layout (systemds-layout.ts), the programs found on the
 * machine (java-tools.ts) and what to run. Nothing is started here
 * (systemds-process.ts starts it); `dml run --engine systemds` and the
 * editor's "DML: Run on SystemDS" both build their command with it.
 *
 * SystemDS's command line (org.apache.sysds.api.DMLScript, DMLOptions):
 * `-f SCRIPT -exec singlenode|hybrid|spark [-config FILE] [-stats] [-explain]
 * -nvargs name=value ...` (or `-args v1 v2 ...` for `$1`, `$2`). `-nvargs`
 * takes every argument after it, so it comes last; it splits each pair at
 * `=` and wants exactly two parts, so a value can hold no `=` and cannot be
 * empty; the names are DML identifiers; `-nvargs` and `-args` exclude each
 * other. These limits are checked here, with a message, instead of letting
 * SystemDS fail with a usage dump.
 *
 * Three ways to start it:
 * - `java`: `java [opts] -cp JAR:lib/*:target/lib/* [-Dlog4j...] DMLScript ARGS`,
 *   as bin/systemds does it for a local run; every argument is passed as
 *   it is (no shell), so paths and values with spaces or quotes are safe.
 * - `launcher`: a release's `bin/systemds [JAR] -f SCRIPT ARGS`, which
 *   applies the release's own settings (SYSTEMDS_STANDALONE_OPTS, its conf/).
 *   It expands its arguments unquoted, so a path or value with white space
 *   or `*?[` would be split or globbed: then the jar is run by `java`
 *   instead (with a note), or, when the launcher was asked for, a problem.
 * - `spark-submit` for `-exec spark|hybrid`: `spark-submit [opts] --class
 *   DMLScript JAR ARGS` (the launcher does the same with SYSDS_DISTRIBUTED=1).
 */
import path from "node:path";
import { DML_SCRIPT_CLASS, type SystemdsLayout, type SystemdsLocation } from "./systemds-layout";
import type { FoundTool } from "./java-tools";

export const EXEC_MODES = ["singlenode", "hybrid", "spark"] as const;
export type ExecMode = (typeof EXEC_MODES)[number];

export const isExecMode = (text: string): text is ExecMode => (EXEC_MODES as readonly string[]).includes(text);

export type StartVia = "auto" | "java" | "launcher";

export interface SystemdsRun {
  /** The script SystemDS runs (an absolute path, or an hdfs:/ URI for a cluster). */
  script: string;
  /** `$name` values, in the order given (dml-lens.json's first, then the command line's). */
  parameters: ReadonlyMap<string, string>;
  exec: ExecMode;
  /** `-stats`: SystemDS prints its execution statistics after the run. */
  stats?: boolean;
  /** `-explain`: SystemDS prints its runtime plan before the run. */
  explain?: boolean;
  /** `-config FILE`; without it, the installation's conf/SystemDS*config*.xml when there is one. */
  config?: string;
  /** The JVM's heap (`-Xmx`), e.g. `4g`; for `java` only (the launcher and Spark have their own settings). */
  memory?: string;
  /** The folder SystemDS runs in: its relative read()/write()/source() paths resolve there. */
  workingDirectory: string;
  via?: StartVia;
}

export interface SystemdsCommand {
  program: string;
  args: string[];
  /** Variables added to the environment (the rest is inherited). */
  env: Record<string, string>;
  cwd: string;
  via: "java" | "launcher" | "spark-submit";
  /** What the user should know about the choice (a launcher passed over, a fallback). */
  notes: string[];
}

export type CommandResult = { command: SystemdsCommand } | { problem: string };

export interface FoundPrograms {
  java: FoundTool;
  sparkSubmit: FoundTool;
  platform: NodeJS.Platform;
  /** The environment the command will inherit (SYSTEMDS_STANDALONE_OPTS, SYSTEMDS_DISTRIBUTED_OPTS, SYSDS_QUIET). */
  env: Readonly<Record<string, string | undefined>>;
}

/** DML identifiers, as DMLOptions checks `-nvargs` names. */
const NVARGS_NAME = /^[a-zA-Z][a-zA-Z0-9_]*$/;

/**
 * SystemDS's own arguments: `-f`, `-exec`, options, then `-nvargs` or `-args`
 * last. `launcher` leaves out what bin/systemds adds itself (`-f` is given
 * by the caller, `-exec singlenode` and its conf/ `-config` for a local run).
 */
function dmlScriptArguments(run: SystemdsRun, layout: Pick<SystemdsLayout, "config">, launcher = false): { args: string[] } | { problem: string } {
  const parameters = parameterArguments(run.parameters);
  if ("problem" in parameters) return parameters;
  const args = ["-f", run.script];
  if (!launcher || run.exec !== "singlenode") args.push("-exec", run.exec);
  const config = run.config ?? (launcher ? undefined : layout.config);
  if (config !== undefined) args.push("-config", config);
  if (run.stats) args.push("-stats");
  if (run.explain) args.push("-explain");
  args.push(...parameters.args);
  return { args };
}

/** `-nvargs a=1 b=2` for named values, `-args v1 v2` for `$1`, `$2`, ...; nothing without values. */
export function parameterArguments(parameters: ReadonlyMap<string, string>): { args: string[] } | { problem: string } {
  if (parameters.size === 0) return { args: [] };
  const names = [...parameters.keys()];
  const positional = names.filter((n) => /^[0-9]+$/.test(n));
  if (positional.length > 0 && positional.length < names.length) {
    const named = names.find((n) => !/^[0-9]+$/.test(n))!;
    return { problem: `SystemDS takes either named values (-nvargs) or positional ones (-args), not both: found $${positional[0]} and $${named}` };
  }
  if (positional.length > 0) {
    const values: string[] = [];
    for (let k = 1; k <= names.length; k++) {
      const value = parameters.get(String(k));
      if (value === undefined) return { problem: `positional values must be $1 to $${names.length} without gaps (SystemDS's -args): $${k} is missing` };
      if (value === "") return { problem: `$${k} is empty: SystemDS's -args drops empty values` };
      if (/^-[A-Za-z]/.test(value)) return { problem: `$${k} = '${value}' starts like an option; SystemDS's -args would read it as one` };
      values.push(value);
    }
    return { args: ["-args", ...values] };
  }
  const pairs: string[] = [];
  for (const [name, value] of parameters) {
    if (!NVARGS_NAME.test(name)) return { problem: `$${name}: SystemDS's -nvargs names start with a letter, then letters, digits or _` };
    if (value === "") return { problem: `$${name} is empty: SystemDS's -nvargs needs name=value with a value` };
    if (value.includes("=")) return { problem: `$${name} = '${value}' holds '=': SystemDS's -nvargs splits name=value at every '=' and rejects it` };
    pairs.push(`${name}=${value}`);
  }
  return { args: ["-nvargs", ...pairs] };
}

/** The command that runs `run` with this installation; or why it cannot run. */
export function systemdsCommand(location: SystemdsLocation, layout: SystemdsLayout, run: SystemdsRun, programs: FoundPrograms): CommandResult {
  const via = run.via ?? "auto";
  const notes: string[] = [];
  const launcherProblem = launcherUnusable(location, layout, run, programs.platform);
  if (via === "launcher" && launcherProblem) return { problem: `cannot start SystemDS with its launcher: ${launcherProblem}` };
  if (via === "launcher" || (via === "auto" && launcherProblem === undefined && isRelease(layout))) {
    return launcherCommand(layout, run, programs);
  }
  if (via === "auto" && launcherProblem && layout.launcher && isRelease(layout) && programs.platform !== "win32") {
    notes.push(`running the jar with java instead of ${layout.launcher}: ${launcherProblem}`);
  }
  if (!layout.jar) return { problem: layout.missingJar ?? `no SystemDS jar in ${location.location}` };
  const dml = dmlScriptArguments(run, layout);
  if ("problem" in dml) return dml;
  if (run.exec !== "singlenode") return sparkSubmitCommand(layout.jar, dml.args, run, programs, notes);
  if ("problem" in programs.java) return { problem: programs.java.problem };
  if (programs.java.note) notes.push(programs.java.note);
  const separator = programs.platform === "win32" ? ";" : ":";
  const javaOptions = [...splitOptions(programs.env.SYSTEMDS_STANDALONE_OPTS), ...(run.memory ? [`-Xmx${run.memory}`] : [])];
  const log4j = layout.log4j ? [`-Dlog4j.configuration=file:${layout.log4j}`] : [];
  const classpath = [layout.jar, ...layout.dependencies].join(separator);
  return { command: { program: programs.java.path, args: [...javaOptions, "-cp", classpath, ...log4j, DML_SCRIPT_CLASS, ...dml.args], env: {}, cwd: run.workingDirectory, via: "java", notes } };
}

function sparkSubmitCommand(jar: string, dmlArgs: string[], run: SystemdsRun, programs: FoundPrograms, notes: string[]): CommandResult {
  if ("problem" in programs.sparkSubmit) return { problem: programs.sparkSubmit.problem };
  if (programs.sparkSubmit.note) notes.push(programs.sparkSubmit.note);
  const sparkOptions = splitOptions(programs.env.SYSTEMDS_DISTRIBUTED_OPTS);
  return { command: { program: programs.sparkSubmit.path, args: [...sparkOptions, "--class", DML_SCRIPT_CLASS, jar, ...dmlArgs], env: {}, cwd: run.workingDirectory, via: "spark-submit", notes } };
}

/** `bin/systemds [JAR] -f SCRIPT ...`: the jar first when known (the launcher treats a first argument naming a jar as the jar to run). */
function launcherCommand(layout: SystemdsLayout, run: SystemdsRun, programs: FoundPrograms): CommandResult {
  const dml = dmlScriptArguments(run, layout, true);
  if ("problem" in dml) return dml;
  const env: Record<string, string> = { SYSTEMDS_ROOT: path.dirname(path.dirname(layout.launcher!)) };
  // Without SYSDS_QUIET the launcher prints its settings on standard output, mixed with the script's print()s.
  if (programs.env.SYSDS_QUIET === undefined) env.SYSDS_QUIET = "1";
  if (run.exec !== "singlenode") env.SYSDS_DISTRIBUTED = "1";
  const args = [...(layout.jar ? [layout.jar] : []), ...dml.args];
  const notes = run.memory ? [`the JVM's heap is the launcher's (SYSTEMDS_STANDALONE_OPTS, default -Xmx4g): ${run.memory} applies when SystemDS runs with java`] : [];
  return { command: { program: layout.launcher!, args, env, cwd: run.workingDirectory, via: "launcher", notes } };
}

/** A release with its launcher: bin/systemds carries the release's settings, so it is the first choice. */
function isRelease(layout: SystemdsLayout): boolean {
  return layout.launcher !== undefined && layout.release;
}

/** Why the launcher cannot run this (undefined when it can). */
function launcherUnusable(location: SystemdsLocation, layout: SystemdsLayout, run: SystemdsRun, platform: NodeJS.Platform): string | undefined {
  if (!layout.launcher) return `${location.location} has no bin/systemds`;
  if (platform === "win32") return "bin/systemds is a bash script (on Windows, SystemDS runs with java)";
  const dml = dmlScriptArguments(run, layout, true);
  const passed = [layout.launcher, run.workingDirectory, ...(layout.jar ? [layout.jar] : []), ...("args" in dml ? dml.args : [])];
  const unsafe = passed.find((a) => /[\s*?[]/.test(a));
  if (unsafe !== undefined) return `bin/systemds splits its arguments at white space and expands * ? [, so it cannot pass '${unsafe}' unchanged`;
  return undefined;
}

/** `-Xmx4g -Xms4g` as separate options (the launchers' variables hold them as one string). */
function splitOptions(text: string | undefined): string[] {
  return (text ?? "").split(/\s+/).filter((o) => o !== "");
}

/** The command as one line for a POSIX shell: environment additions first, arguments quoted where needed. */
export function commandLine(command: Pick<SystemdsCommand, "program" | "args" | "env">): string {
  const env = Object.entries(command.env).map(([k, v]) => `${k}=${shellQuote(v)}`);
  return [...env, shellQuote(command.program), ...command.args.map(shellQuote)].join(" ");
}

/** `text` as one word of a POSIX shell: as it is when it is plain, else in single quotes. */
export function shellQuote(text: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(text)) return text;
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
