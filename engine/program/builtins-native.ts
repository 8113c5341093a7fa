/**
 * Native (Java-implemented) builtins of SystemDS that take their arguments by
 * position (`BuiltinFunctionExpression`): aggregates, element-wise math,
 * reorganisation, linear algebra, casts, frames and the multi-return
 * decompositions. Argument counts follow the validator's
 * `checkNumParameters` calls; parameter names are descriptive only, since
 * SystemDS ignores the names of arguments to these functions.
 */
import { native, optional, p, required, withAliases, type BuiltinSignature } from "./builtin-types";

const X = [p("X")];
const XY = required("X", "Y");

function unary(name: string, result: BuiltinSignature["result"] = "matrix"): BuiltinSignature {
  return native(name, X, result);
}

/** A multi-return native builtin that must be called as `[a, b] = f(...)`. */
function multi(name: string, params: BuiltinSignature["params"] & object, outputs: number[]): BuiltinSignature {
  return native(name, params, "matrix", { outputs, multiReturnOnly: true });
}

const aggregates: BuiltinSignature[] = [
  unary("sum", "scalar"),
  unary("prod", "scalar"),
  unary("sd", "scalar"),
  unary("var", "scalar"),
  withAliases(unary("trace", "scalar"), "tr"),
  withAliases(native("mean", [p("X"), p("W", false)], "scalar"), "avg"),
  // min(X), min(X, s), min(a, b, c, ...): unary aggregate, binary or n-ary element-wise
  withAliases(native("min", X, "unknown", { variadic: true, maxArgs: undefined }), "pmin"),
  withAliases(native("max", X, "unknown", { variadic: true, maxArgs: undefined }), "pmax"),
  native("range", X, "scalar"),
  native("median", [p("X"), p("W", false)], "scalar"),
  native("quantile", [p("X"), p("W_or_P"), p("P", false)], "unknown"),
  native("interQuantile", [p("X"), p("W_or_P"), p("P", false)], "matrix"),
  native("interQuartileMean", [p("X"), p("W", false)], "scalar"),
  withAliases(native("moment", [p("X"), p("W_or_order"), p("order", false)], "scalar"), "centralMoment"),
  native("cov", [p("X"), p("Y"), p("W", false)], "scalar"),
  ...["colSums", "colMeans", "colVars", "colSds", "colMaxs", "colMins", "colProds"].map((n) => unary(n)),
  ...["rowSums", "rowMeans", "rowVars", "rowSds", "rowMaxs", "rowMins", "rowProds", "rowIndexMax", "rowIndexMin"].map((n) => unary(n)),
  unary("rowCountDistinct"),
  unary("colCountDistinct"),
  ...["cumsum", "cumprod", "cummin", "cummax", "cumsumprod", "rowcumsum"].map((n) => unary(n)),
];

const elementwise: BuiltinSignature[] = [
  ...["abs", "sign", "sqrt", "exp", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "round", "floor"].map((n) =>
    unary(n, "unknown"),
  ),
  withAliases(unary("ceil", "unknown"), "ceiling"),
  native("log", [p("X"), p("base", false)], "unknown"),
  withAliases(unary("is.na", "unknown"), "isNA"),
  withAliases(unary("is.nan", "unknown"), "isNaN"),
  withAliases(unary("is.infinite", "unknown"), "isInf"),
  ...["xor", "bitwAnd", "bitwOr", "bitwXor", "bitwShiftL", "bitwShiftR"].map((n) => native(n, XY, "unknown")),
  native("ppred", [p("X"), p("Y"), p("op")], "matrix", { note: "deprecated: use the comparison operator directly" }),
  native("ifelse", required("test", "yes", "no"), "unknown"),
];

const reorganisation: BuiltinSignature[] = [
  unary("t"),
  unary("rev"),
  native("roll", [p("X"), p("shift")], "matrix"),
  unary("diag"),
  // cbind(list), cbind(A, B, ...), cbind("a", "b") for strings
  withAliases(native("cbind", X, "unknown", { variadic: true, maxArgs: undefined }), "append"),
  native("rbind", X, "unknown", { variadic: true, maxArgs: undefined }),
  withAliases(native("table", [p("A"), p("B"), ...optional("W", "dim1", "dim2", "outputEmptyBlocks")], "matrix"), "ctable"),
  native("seq", [p("from"), p("to"), p("incr", false)], "matrix"),
  native("sample", [p("range"), p("size"), p("replace", false), p("seed", false)], "matrix"),
  native("outer", [p("X"), p("Y"), p("op")], "matrix"),
];

const linearAlgebra: BuiltinSignature[] = [
  native("solve", required("A", "b"), "matrix"),
  withAliases(unary("inv"), "inverse"),
  unary("cholesky"),
  unary("det", "scalar"),
  unary("sqrtMatrixJava"),
  native("einsum", [p("equation"), p("A")], "unknown", { variadic: true, maxArgs: undefined }),
  multi("eigen", X, [2]),
  multi("lu", X, [3]),
  multi("qr", X, [2]),
  multi("svd", X, [3]),
  multi("fft", X, [2]),
  multi("ifft", [p("re"), p("im", false)], [2]),
  multi("fft_linearized", X, [2]),
  multi("ifft_linearized", [p("re"), p("im", false)], [2]),
  multi("stft", [p("re"), p("im_or_window"), p("window_or_overlap"), p("overlap", false)], [2]),
  withAliases(multi("rowClassMeet", required("X", "Y"), [2]), "rcm"),
];

const deepLearning: BuiltinSignature[] = [
  // Outputs: out and c, plus the caches for lstm_backward (one `state` in some releases, three in others).
  multi("lstm", required("X", "W", "bias", "out0", "c0", "return_sequences"), [2, 3, 5]),
  // Current SystemDS also takes the forward pass's caches (11 arguments); older releases take the first 8.
  multi("lstm_backward", [...required("X", "W", "bias", "out0", "c0", "return_sequences", "dout", "cy"), ...optional("cache_out", "cache_c", "cache_ifog")], [5]),
  multi("batch_norm2d", required("input", "scale", "bias", "runningMean", "runningVar", "mode", "epsilon", "momentum"), [5]),
  multi("batch_norm2d_backward", required("input", "dout", "scale", "epsilon", "savedMean", "savedInvVariance"), [3]),
  native("bias_add", required("input", "bias"), "matrix"),
  native("bias_multiply", required("input", "bias"), "matrix"),
];

const castsAndMeta: BuiltinSignature[] = [
  withAliases(unary("as.scalar", "scalar"), "castAsScalar"),
  unary("as.matrix"),
  native("as.frame", [p("X"), p("colnames", false)], "frame"),
  unary("as.list", "list"),
  unary("as.double", "scalar"),
  unary("as.integer", "scalar"),
  withAliases(unary("as.logical", "scalar"), "as.boolean"),
  unary("nrow", "scalar"),
  unary("ncol", "scalar"),
  unary("length", "scalar"),
  unary("exists", "scalar"),
  unary("typeof", "frame"),
  unary("lineage", "scalar"),
  unary("local"),
  native("time", [], "scalar"),
  native("list", [], "list", { variadic: true, maxArgs: undefined }),
  native("eval", [p("fname")], "unknown", { variadic: true, maxArgs: undefined }),
  native("evalList", [p("fname")], "list", { variadic: true, maxArgs: undefined }),
  native("compress", [p("X"), p("Y", false)], "unknown", { outputs: [1, 2] }),
  unary("decompress", "unknown"),
  native("quantize_compress", required("X", "scale"), "matrix", { outputs: [1, 2] }),
  native("freplicate", required("X", "Y"), "frame"),
  native("remove", required("L", "index"), "list", { outputs: [2], multiReturnOnly: true }),
];

const frames: BuiltinSignature[] = [
  native("map", [p("X"), p("func"), p("margin", false)], "frame"),
  unary("colnames", "frame"),
  unary("detectSchema", "frame"),
  native("applySchema", required("X", "schema"), "frame"),
  native("getCategoricalMask", required("X", "spec"), "matrix"),
  native("dropInvalidType", required("X", "schema"), "frame"),
  native("dropInvalidLength", required("X", "mask"), "frame"),
  native("valueSwap", required("X", "Y"), "frame"),
];

export const NATIVE_BUILTINS: readonly BuiltinSignature[] = [
  ...aggregates,
  ...elementwise,
  ...reorganisation,
  ...linearAlgebra,
  ...deepLearning,
  ...castsAndMeta,
  ...frames,
];
