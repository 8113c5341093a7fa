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
 */
import type { Expression, FunctionDefinition } from "../syntax/ast";
import { type BuiltinScriptResolution, resolveBuiltinScript, scriptFunctions } from "./builtin-script";
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
}

/** The builtin scripts of `files`' installation; undefined without one. */
export function builtinScriptsOf(files: SourceFiles | undefined): BuiltinScripts | undefined {
  const installation = files?.installation;
  if (!files || !installation) return undefined;
  return {
    installation,
    has: (name) => installation.builtinScripts.has(name),
    resolve: (name, firstArgument) => resolveBuiltinScript(files, name, firstArgument),
    candidates: (name) => {
      const loaded = files.loadBuiltinScript(name);
      if (loaded?.kind !== "file") return [];
      const functions = scriptFunctions(loaded);
      return builtinFunctionNames(name, "unknown").flatMap((fn) => (functions.has(fn) ? [functions.get(fn)!] : []));
    },
    names: () => installation.builtinScripts,
  };
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
