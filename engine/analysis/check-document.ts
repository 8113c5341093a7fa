/**
 * Every diagnostic of one script, as `dml check` and the language server
 * report them: the parser's; then, when there is no syntax error (the
 * recovered tree has holes), the semantic ones (unassigned variables, unknown
 * functions, arguments), the type errors of the DAGs, the dimension errors of
 * the size analysis and the problems of input metadata and `@size`
 * annotations that point into the script.
 */
import { type Diagnostic, parse, type ParseResultWithComments } from "../syntax";
import { semanticDiagnostics, type SourceReader } from "../program";
import { type AnalysisOptions, analyzeParsed, type ProgramAnalysis } from "./program-analysis";

export interface CheckOptions extends AnalysisOptions {
  /** Reads the files named in `source(...)` (to check `ns::f` calls). */
  readFile?: SourceReader;
}

/** `parsed` may be given when the caller has already parsed `text` (with comments). */
export function checkDocument(text: string, options: CheckOptions = {}, parsed: ParseResultWithComments = parse(text, { keepComments: true })): Diagnostic[] {
  return checkAndAnalyze(text, options, parsed).diagnostics;
}

/** The diagnostics, and the analysis behind them (none while there is a syntax error). */
export function checkAndAnalyze(text: string, options: CheckOptions, parsed: ParseResultWithComments): { diagnostics: Diagnostic[]; analysis?: ProgramAnalysis } {
  if (parsed.diagnostics.some((d) => d.severity === "error")) return { diagnostics: sortByPosition([...parsed.diagnostics]) };
  const semantic = semanticDiagnostics(parsed.program, options.readFile ? { readFile: options.readFile } : {});
  const sourceCache = options.readFile?.files?.cache;
  const analysis = analyzeParsed(text, parsed, sourceCache ? { ...options, sourceCache } : options);
  return { diagnostics: sortByPosition(unique([...parsed.diagnostics, ...semantic, ...analysis.diagnostics])), analysis };
}

function unique(diagnostics: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return diagnostics.filter((d) => {
    const key = `${d.range.start.line}:${d.range.start.character}:${d.code ?? ""}:${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function sortByPosition(diagnostics: Diagnostic[]): Diagnostic[] {
  return diagnostics.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
}
