/**
 * Result types of calls that stay opaque `call` nodes: user functions (their
 * declared results), and the native builtins whose result type does not
 * depend on sizes. Everything else is `unknown`, never guessed.
 */
import type { DagContext, FunctionSignature } from "./dag-context";
import { builtinFunctionNames } from "./systemds-installation";
import { UNKNOWN_TYPE } from "./dag-context";
import type { DagType } from "./dag-types";
import { joinTypes, MATRIX_DOUBLE, SCALAR_BOOLEAN, SCALAR_DOUBLE, SCALAR_INT, SCALAR_STRING } from "./dag-typing";
import { ownEntry } from "./own-entry";

const LIST: DagType = { dataType: "list", valueType: "unknown" };
const FRAME: DagType = { dataType: "frame", valueType: "unknown" };

const SINGLE_RESULT: Readonly<Record<string, DagType>> = {
  ...of(MATRIX_DOUBLE, [
    "solve", "inv", "inverse", "cholesky", "cumsum", "cumprod", "cummin", "cummax", "cumsumprod", "rowcumsum",
    "rev", "roll", "order", "removeEmpty", "replace", "lower.tri", "upper.tri", "outer", "rowIndexMax", "rowIndexMin",
    "sample", "conv2d", "conv2d_backward_filter", "conv2d_backward_data", "max_pool", "max_pool_backward",
    "avg_pool", "avg_pool_backward", "bias_add", "bias_multiply", "transformapply", "sqrtMatrixJava",
  ]),
  ...of(MATRIX_DOUBLE, ["aggregate", "groupedAggregate"]),
  ...of(SCALAR_DOUBLE, ["det", "trace", "tr", "median", "interQuartileMean", "range", "moment", "centralMoment", "cov"]),
  ...of(SCALAR_DOUBLE, ["cdf", "icdf", "pnorm", "qnorm", "pexp", "qexp", "pchisq", "qchisq", "pf", "qf", "pt", "qt"]),
  ...of(SCALAR_STRING, ["toString", "typeof"]),
  ...of(SCALAR_BOOLEAN, ["exists", "contains"]),
  ...of(SCALAR_INT, ["time"]),
  ...of(LIST, ["list"]),
  ...of(FRAME, ["frame", "transformdecode", "transformmeta"]),
};

/** Multi-return builtins: the type of each result. */
const MULTI_RESULT: Readonly<Record<string, readonly DagType[]>> = {
  eigen: [MATRIX_DOUBLE, MATRIX_DOUBLE],
  qr: [MATRIX_DOUBLE, MATRIX_DOUBLE],
  lu: [MATRIX_DOUBLE, MATRIX_DOUBLE, MATRIX_DOUBLE],
  svd: [MATRIX_DOUBLE, MATRIX_DOUBLE, MATRIX_DOUBLE],
  fft: [MATRIX_DOUBLE, MATRIX_DOUBLE],
  ifft: [MATRIX_DOUBLE, MATRIX_DOUBLE],
  fft_linearized: [MATRIX_DOUBLE, MATRIX_DOUBLE],
  ifft_linearized: [MATRIX_DOUBLE, MATRIX_DOUBLE],
  stft: [MATRIX_DOUBLE, MATRIX_DOUBLE],
  transformencode: [MATRIX_DOUBLE, FRAME],
  remove: [LIST, LIST],
};

function of(type: DagType, names: readonly string[]): Record<string, DagType> {
  return Object.fromEntries(names.map((name) => [name, type]));
}

/** The type of result `output` of calling `name` with arguments of `argTypes`. */
export function callResultType(name: string, user: boolean, output: number, argTypes: readonly DagType[], context: DagContext): DagType {
  if (user) return context.signatures.get(name)?.returns[output]?.type ?? UNKNOWN_TYPE;
  const script = context.builtinScripts?.get(name);
  if (script) return builtinScriptFunction(name, script, argTypes[0])?.returns[output]?.type ?? UNKNOWN_TYPE;
  const results = ownEntry(MULTI_RESULT, name);
  if (results) return results[output] ?? UNKNOWN_TYPE;
  if (output > 0) return UNKNOWN_TYPE;
  if (name === "ifelse") return ifelseType(argTypes);
  if (name === "quantile") return quantileType(argTypes);
  if (APPEND_NAMES.has(name)) return appendType(argTypes);
  return ownEntry(SINGLE_RESULT, name) ?? UNKNOWN_TYPE;
}

/**
 * The function of a builtin script a call runs: by its first argument's
 * data type (`m_` for a matrix, `s_`/`f_` otherwise), the first the script
 * has; with that type unknown, `m_` when every candidate returns the same types.
 */
function builtinScriptFunction(name: string, candidates: readonly FunctionSignature[], first: DagType | undefined): FunctionSignature | undefined {
  const dataType = first?.dataType ?? "unknown";
  if (dataType === "unknown") {
    const [first] = candidates;
    if (!first) return undefined;
    const firstReturns = JSON.stringify(first.returns.map((r) => r.type));
    const same = candidates.every((c) => JSON.stringify(c.returns.map((r) => r.type)) === firstReturns);
    return same ? first : undefined;
  }
  for (const fn of [...builtinFunctionNames(name, dataType), name]) {
    const found = candidates.find((c) => c.name === fn);
    if (found) return found;
  }
  return undefined;
}

/** `ifelse(test, yes, no)`: element-wise if any argument is a matrix, else the join of the two branches. */
function ifelseType(argTypes: readonly DagType[]): DagType {
  if (argTypes.some((t) => t.dataType === "matrix")) return MATRIX_DOUBLE;
  const [, yes, no] = argTypes;
  if (argTypes.length !== 3 || !yes || !no || argTypes.some((t) => t.dataType !== "scalar")) return UNKNOWN_TYPE;
  return joinTypes(yes, no);
}

/** `quantile(X, [W,] p)`: a scalar for one probability, a column of quantiles for a vector of them. */
function quantileType(argTypes: readonly DagType[]): DagType {
  const probabilities = argTypes[argTypes.length - 1]?.dataType;
  return probabilities === "scalar" ? SCALAR_DOUBLE : probabilities === "matrix" ? MATRIX_DOUBLE : UNKNOWN_TYPE;
}

/** The builtins that join strings or append to a list when their first argument is one (else they bind matrices). */
export const APPEND_NAMES: ReadonlySet<string> = new Set(["append", "cbind", "rbind"]);

/**
 * `append`/`cbind`/`rbind` kept opaque (dag-calls.ts): of a scalar (two
 * strings joined with a newline) a string, of a list a list; else unknown.
 */
function appendType(argTypes: readonly DagType[]): DagType {
  const first = argTypes[0];
  if (first?.dataType === "scalar") return SCALAR_STRING;
  if (first?.dataType === "list") return argTypes.length === 1 ? MATRIX_DOUBLE : LIST;
  return UNKNOWN_TYPE;
}
