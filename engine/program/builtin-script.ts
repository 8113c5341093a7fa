/**
 * Which function a call of a DML-bodied builtin runs (SystemDS's
 * FunctionCallIdentifier): when no user function of that name is in scope,
 * the installation's `scripts/builtin/NAME.dml` is loaded and its function
 * `m_NAME` (matrix first argument) or `s_NAME` (`f_NAME` for a frame, in
 * newer releases) is called. Every function of that file joins SystemDS's
 * builtin namespace, so other builtin scripts can call its helpers by their
 * plain names; that is also how a script that defines the function under the
 * builtin's own name (`union = function(...)` in some releases) is called.
 */
import type { FunctionDefinition } from "../syntax";
import type { LoadedSource, SourceFiles } from "./source-reader";
import { type ArgumentDataType, builtinFunctionNames } from "./systemds-installation";

export type BuiltinScriptResolution =
  /** The script and the function the call runs. */
  | { kind: "function"; name: string; file: string; definition: FunctionDefinition; loaded: LoadedSource & { kind: "file" } }
  /** The script cannot be used: unreadable, a syntax error, or no `m_`/`s_`/`f_` function of that name in it. */
  | { kind: "problem"; file: string; message: string };

/**
 * The builtin script behind a call of `name` whose first argument has data
 * type `firstArgument`; undefined when there is no installation or it ships
 * no script of that name (then the name is a native builtin or unknown).
 */
export function resolveBuiltinScript(files: SourceFiles, name: string, firstArgument: ArgumentDataType): BuiltinScriptResolution | undefined {
  const loaded = files.loadBuiltinScript(name);
  if (!loaded) return undefined;
  if (loaded.kind === "unreadable") return { kind: "problem", file: loaded.file, message: `cannot read builtin script ${loaded.file}: ${loaded.problem}` };
  const syntax = loaded.parsed.diagnostics.find((d) => d.severity === "error");
  if (syntax) return { kind: "problem", file: loaded.file, message: `builtin script ${loaded.file}:${syntax.range.start.line + 1}:${syntax.range.start.character + 1} has a syntax error: ${syntax.message}` };
  const functions = scriptFunctions(loaded);
  const candidates = builtinFunctionNames(name, firstArgument);
  const found = [...candidates, name].find((candidate) => functions.has(candidate));
  if (found === undefined) return { kind: "problem", file: loaded.file, message: `builtin script ${loaded.file} defines no function ${candidates.slice(0, 2).join(" or ")}` };
  return { kind: "function", name: found, file: loaded.file, definition: functions.get(found)!, loaded };
}

/** The functions a loaded script defines at its top level, by name (the first of each name). */
export function scriptFunctions(loaded: LoadedSource & { kind: "file" }): Map<string, FunctionDefinition> {
  const functions = new Map<string, FunctionDefinition>();
  for (const statement of loaded.parsed.program.body) {
    if (statement.kind === "function" && !functions.has(statement.name.name)) functions.set(statement.name.name, statement);
  }
  return functions;
}
