/**
 * What `dml check` and the editor say about the files behind one
 * `source(...)` statement of a script, beyond "not found": the runtime loads
 * a sourced file, parses it and loads the files it sources in turn, and any
 * of these steps can fail. Each problem is reported at the script's own
 * `source(...)` statement (the only place in the script that leads there):
 * - the file cannot be read (a folder, a device, a FIFO, binary, too large);
 * - the file has a syntax error (the runtime refuses it, naming file:line:col);
 * - a file it sources, directly or further down, cannot be read or parsed;
 * - the files source each other in a cycle: a warning naming the cycle (each
 *   file is loaded once, so the cycle itself does no harm; the runtime, too,
 *   loads each file once).
 * Walks the files with an explicit stack of at most MAX_SOURCE_DEPTH files.
 */
import path from "node:path";
import type { Diagnostic, SourceStatement } from "../syntax";
import { isBundledScriptPath, type LoadedSource, sourceProblemMessage } from "./source-reader";
import { forEachStatement } from "./statement-walk";

/** Sourced files nested deeper than this are not followed (reported once). */
const MAX_SOURCE_DEPTH = 64;

/** Loads `source(sourcePath)` written in the file `fromFile`. */
export type LoadSource = (fromFile: string, sourcePath: string) => LoadedSource;

/**
 * The problems of the files behind `statement` (written in `scriptPath`),
 * `loaded` being what the statement's own path gave. Nothing for a missing
 * file (reported as not found by the caller).
 */
export function sourceChainProblems(scriptPath: string, statement: SourceStatement, loaded: LoadedSource, load: LoadSource): Diagnostic[] {
  const at = (severity: Diagnostic["severity"], message: string, code: string): Diagnostic => ({ severity, message, range: statement.range, code });
  if (loaded.kind === "unreadable") return [at("error", sourceProblemMessage(statement.path, loaded), "source-unreadable")];
  if (loaded.kind === "missing") return [];
  const script = path.resolve(scriptPath);
  // Depth-first over the files, each visited once; `chain` is the path from the script to the current file.
  const visited = new Set<string>([loaded.file]);
  const stack: { file: LoadedSource & { kind: "file" }; chain: string[] }[] = [{ file: loaded, chain: [script, loaded.file] }];
  let cycle: string[] | undefined = loaded.file === script ? [script, script] : undefined;
  let tooDeep = false;
  if (cycle) stack.length = 0; // the script sources itself: its problems are its own
  while (stack.length > 0) {
    const { file, chain } = stack.pop()!;
    const syntax = file.parsed.diagnostics.find((d) => d.severity === "error");
    if (syntax) {
      const where = `${file.file}:${syntax.range.start.line + 1}:${syntax.range.start.character + 1}`;
      return [at("error", `source file '${statement.path}'${via(chain)} has a syntax error: ${where}: ${syntax.message}`, "source-syntax")];
    }
    const inner: SourceStatement[] = [];
    forEachStatement(file.parsed.program.body, (s) => {
      if (s.kind === "source") inner.push(s);
    });
    for (const s of inner) {
      const next = load(file.file, s.path);
      if (next.kind === "missing" && isBundledScriptPath(s.path)) continue;
      if (next.kind !== "file") {
        return [at("error", `source file '${statement.path}'${via(chain)} sources a file that cannot be used: ${sourceProblemMessage(s.path, next)}`, "source-unreadable")];
      }
      if (chain.includes(next.file)) {
        cycle ??= [...chain.slice(chain.indexOf(next.file)), next.file];
        continue;
      }
      if (visited.has(next.file)) continue;
      if (chain.length > MAX_SOURCE_DEPTH) {
        tooDeep = true;
        continue;
      }
      visited.add(next.file);
      stack.push({ file: next, chain: [...chain, next.file] });
    }
  }
  const found: Diagnostic[] = [];
  if (cycle) found.push(at("warning", `source cycle: ${cycle.map((f) => path.basename(f)).join(" → ")} (each file is loaded once)`, "source-cycle"));
  if (tooDeep) found.push(at("warning", `sourced files nested deeper than ${MAX_SOURCE_DEPTH} files: the deeper ones are not checked`, "source-too-deep"));
  return found;
}

/** `, through b.dml → c.dml,` for a problem found below the directly sourced file (chain: script, sourced file, deeper files). */
function via(chain: readonly string[]): string {
  return chain.length > 2 ? `, through ${chain.slice(2).map((f) => path.basename(f)).join(" → ")},` : "";
}
