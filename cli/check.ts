/**
 * `dml check FILE... [--syntax] [--json]`: prints the diagnostics of each file.
 * Exit 0 when no file has an error, 1 when some file has one, 2 on bad usage
 * or when a file cannot be read.
 *
 * `--syntax` runs only the parser. Without it, a file with no syntax error
 * also gets the diagnostics of the analysis (engine/stats/check-document.ts):
 * unassigned variables, unknown functions, arguments and outputs, type
 * errors, dimension errors, input metadata and `@size` annotations; a file
 * with syntax errors gets only those. The working directory is the
 * workspace root (for `dml-lens.json` and relative data paths). Files named in `source(...)` are read from
 * the script's folder, then the working directory, to check `ns::f` calls.
 */
import { readFile } from "node:fs/promises";
import { fileSourceReader } from "../engine/program/source-reader";
import { checkDocument } from "../engine/stats/check-document";
import { parse, type Diagnostic } from "../engine/syntax";
import { err, out } from "./output";
import { parseArgs, UsageError } from "./usage";

export const checkUsage = "dml check FILE... [--syntax] [--json]";

interface FileReport {
  file: string;
  diagnostics: Diagnostic[];
}

export async function check(args: readonly string[]): Promise<number> {
  const parsed = parseArgs("dml check", args, { flags: ["--syntax", "--json"] });
  if (parsed.positionals.length === 0) throw new UsageError("dml check: no FILE given");
  const json = parsed.flags.has("--json");
  const syntaxOnly = parsed.flags.has("--syntax");

  const reports: FileReport[] = [];
  let unreadable = false;
  for (const file of parsed.positionals) {
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      err(`dml check: cannot read ${file}: ${describeReadError(reason)}`);
      unreadable = true;
      continue;
    }
    const diagnostics = syntaxOnly
      ? parse(text).diagnostics
      : checkDocument(text, { scriptPath: file, workspaceRoot: process.cwd(), readFile: fileSourceReader(file) }).filter(
          // Hints (why a size is unknown, ...) are for the editor, not for a check.
          (d) => d.severity !== "hint",
        );
    reports.push({ file, diagnostics: [...diagnostics].sort(byPosition) });
  }

  if (json) {
    out(JSON.stringify(reports.map(toJson), null, 2));
  } else {
    for (const report of reports) {
      for (const d of report.diagnostics) {
        out(`${report.file}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.severity}: ${d.message}`);
      }
    }
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

function byPosition(a: Diagnostic, b: Diagnostic): number {
  return a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character;
}

function summary(reports: readonly FileReport[]): string {
  const count = (severity: Diagnostic["severity"]) =>
    reports.reduce((n, r) => n + r.diagnostics.filter((d) => d.severity === severity).length, 0);
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  return `checked ${plural(reports.length, "file")}: ${plural(count("error"), "error")}, ${plural(count("warning"), "warning")}`;
}

function describeReadError(code: string): string {
  switch (code) {
    case "ENOENT":
      return "no such file";
    case "EISDIR":
      return "is a directory";
    case "EACCES":
      return "permission denied";
    default:
      return code;
  }
}
