/**
 * The builtin scripts the checks can see: those of the SystemDS installation
 * a `SourceFiles` carries (`dmlLens.systemds.home`, `--systemds`,
 * `SYSTEMDS_ROOT`). A call of a DML-bodied builtin is checked against the
 * script's real function (parameters, defaults, returns), chosen as SystemDS
 * chooses it: `m_NAME` for a matrix first argument, `s_NAME` (`f_NAME`) for
 * a scalar or frame (builtin-script.ts). The checks see no types, so the
 * first argument's data type is read from its syntax (a literal is a
 * scalar, `matrix(...)` a matrix, ...) and is otherwise unknown: then every
 * function of the script the call may run is a candidate.
 *
 * SystemDS loads the script of every DML-bodied builtin a program calls
 * (and those the scripts call, in turn) into one builtin namespace, where a
 * call finds the scripts' private helpers by plain name (`topk_cleaning`
 * calls `crossV` of `bandit.dml`): `helper` finds them the same way.
 */
import type { Expression, FunctionDefinition, Program } from "../syntax";
import { type BuiltinScriptResolution, resolveBuiltinScript, scriptFunctions } from "./builtin-script";
import { calledNames } from "./called-names";
import type { SourceFiles } from "./source-reader";
import { type ArgumentDataType, builtinFunctionNames, type SystemdsInstallation } from "./systemds-installation";

export interface BuiltinScripts {
  readonly installation: SystemdsInstallation;
  /** The installation ships `scripts/builtin/NAME.dml`. */
  has(name: string): boolean;
  /** The function a call of `name` runs, or why the script cannot be used; undefined when not shipped. */
  resolve(name: string, firstArgument: ArgumentDataType): BuiltinScriptResolution | undefined;
  /**
   * The functions a call of `name` may run when its first argument's type is
   * unknown: the script's `m_`, `s_` and `f_` functions that exist, `m_` first.
   */
  candidates(name: string): FunctionDefinition[];
  /** Names of every builtin script shipped (for "did you mean"). */
  names(): Iterable<string>;
  /** A function of the builtin namespace the program loads (the scripts it calls, transitively), by plain name. */
  helper(name: string): { definition: FunctionDefinition; file: string } | undefined;
}

/** The builtin scripts of `files`' installation, as `program` sees them; undefined without one. */
export function builtinScriptsOf(files: SourceFiles | undefined, program: Program): BuiltinScripts | undefined {
  const installation = files?.installation;
  if (!files || !installation) return undefined;
  let namespace: Map<string, { definition: FunctionDefinition; file: string }> | undefined;
  return {
    installation,
    has: (name) => installation.builtinScripts.has(name),
    resolve: (name, firstArgument) => resolveBuiltinScript(files, name, firstArgument),
    candidates: (name) => {
      const loaded = files.loadBuiltinScript(name);
      if (loaded?.kind !== "file") return [];
      const functions = scriptFunctions(loaded);
      return [...builtinFunctionNames(name, "unknown"), name].flatMap((fn) => (functions.has(fn) ? [functions.get(fn)!] : []));
    },
    names: () => installation.builtinScripts,
    helper: (name) => (namespace ??= builtinNamespace(files, program)).get(name),
  };
}

/** The functions of every builtin script `program` calls by name, and of those these call, in turn (the first of each name). */
function builtinNamespace(files: SourceFiles, program: Program): Map<string, { definition: FunctionDefinition; file: string }> {
  const namespace = new Map<string, { definition: FunctionDefinition; file: string }>();
  const pending = [...calledNames(program)];
  const seen = new Set<string>();
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    const loaded = files.loadBuiltinScript(name);
    if (loaded?.kind !== "file") continue;
    for (const [fn, definition] of scriptFunctions(loaded)) if (!namespace.has(fn)) namespace.set(fn, { definition, file: loaded.file });
    pending.push(...calledNames(loaded.parsed.program));
  }
  return namespace;
}

const MATRIX_CALLS: ReadonlySet<string> = new Set(["matrix", "rand", "seq", "t", "cbind", "rbind", "as.matrix", "diag", "table", "rowSums", "colSums", "rowMeans", "colMeans"]);
const SCALAR_CALLS: ReadonlySet<string> = new Set(["as.scalar", "as.double", "as.integer", "as.logical", "as.boolean", "nrow", "ncol", "length", "sum", "mean", "toString"]);

/**
 * The data type of a call's first argument as far as its syntax tells
 * (literals, a few constructors and casts); `unknown` for variables and
 * everything else.
 */
export function syntacticDataType(expression: Expression | undefined): ArgumentDataType {
  if (!expression) return "unknown";
  switch (expression.kind) {
    case "number":
    case "string":
    case "boolean":
      return "scalar";
    case "list":
      return "list";
    case "call": {
      const name = expression.callee.name;
      if (MATRIX_CALLS.has(name)) return "matrix";
      if (SCALAR_CALLS.has(name)) return "scalar";
      if (name === "as.frame" || name === "frame") return "frame";
      if (name === "list" || name === "as.list") return "list";
      return "unknown";
    }
    default:
      return "unknown";
  }
}
