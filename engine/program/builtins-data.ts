/**
 * Builtins that bind arguments by name: data functions (`DataExpression`:
 * read, rand, matrix, frame, ...), statement functions (print, stop, assert,
 * write), parameterized builtins (`ParameterizedBuiltinFunctionExpression`:
 * order, removeEmpty, transform*, distributions, ...) and the deep-learning
 * builtins whose shapes are named arguments (conv2d, max_pool, ...).
 *
 * `unknownNames` is `error` where SystemDS rejects an unknown argument name
 * (read, rand, matrix, order, removeEmpty, toString, ...) and `warning` where
 * its validator silently ignores it (replace, aggregate, the distributions,
 * the shape arguments of conv2d and friends).
 */
import { optional, p, parameterized, required, withAliases, type BuiltinParam, type BuiltinSignature } from "./builtin-types";

const readParams: BuiltinParam[] = [
  p("file"),
  ...optional("format", "header", "sep", "fill", "default", "naStrings", "rows", "cols", "nnz", "data_type", "value_type", "schema"),
  ...optional("rows_in_block", "cols_in_block", "indSep", "dataset"),
];

function data(name: string, params: readonly BuiltinParam[], result: BuiltinSignature["result"], more: Partial<BuiltinSignature>): BuiltinSignature {
  return { ...parameterized(name, params, result), kind: "data", ...more };
}

const dataFunctions: BuiltinSignature[] = [
  data("read", readParams, "unknown", { maxPositional: 1, minArgs: 1 }),
  data("readMM", readParams, "matrix", { maxPositional: 1, minArgs: 1 }),
  // SystemDS matches `rand` case-insensitively (semantic-diagnostics looks it up that way).
  data("rand", optional("rows", "cols", "dims", "min", "max", "sparsity", "seed", "pdf", "lambda"), "matrix", { maxPositional: 0 }),
  data("matrix", [p("data"), ...optional("rows", "cols", "byrow", "dimnames", "dims")], "matrix", {
    minArgs: 3,
    maxPositional: 5,
    mixing: "first-only",
  }),
  data("frame", [p("data"), ...optional("rows", "cols", "schema")], "frame", { minArgs: 3, maxPositional: 4, mixing: "first-only" }),
  data("tensor", [p("data"), p("dims"), ...optional("byrow", "dimnames")], "unknown", { minArgs: 2, maxPositional: 4, mixing: "first-only" }),
  data("sql", [p("conn"), ...optional("user", "password"), p("query")], "unknown", { minArgs: 2, maxPositional: 4, mixing: "exclusive" }),
  data("federated", [p("addresses"), p("ranges"), p("type", false)], "unknown", { minArgs: 2, maxPositional: 3, mixing: "exclusive" }),
];

function statement(name: string, params: readonly BuiltinParam[], more: Partial<BuiltinSignature> = {}): BuiltinSignature {
  return { ...parameterized(name, params, "none"), kind: "statement", maxPositional: params.length, ...more };
}

const statementFunctions: BuiltinSignature[] = [
  // print(x) or printf-style print("%d items", n)
  statement("print", [p("value")], { variadic: true, maxArgs: undefined, maxPositional: undefined, namedAllowed: false }),
  statement("stop", [p("message")], { namedAllowed: false }),
  statement("assert", [p("condition")], { namedAllowed: false }),
  // write(X, file, format): a third unnamed argument is the format.
  statement("write", [p("X"), p("file"), ...optional("format", "header", "sep", "sparse", "description", "rows_in_block", "cols_in_block")], {
    maxPositional: 3,
    unknownNames: "warning",
  }),
];

const target = p("target");

const parameterizedBuiltins: BuiltinSignature[] = [
  parameterized("order", [target, ...optional("by", "decreasing", "index.return")], "matrix"),
  parameterized("removeEmpty", [target, p("margin"), ...optional("select", "empty.return")], "unknown"),
  parameterized("replace", [target, p("pattern"), p("replacement")], "unknown", { unknownNames: "warning" }),
  parameterized("lower.tri", [target, ...optional("diag", "values")], "matrix"),
  parameterized("upper.tri", [target, ...optional("diag", "values")], "matrix"),
  parameterized("contains", [target, p("pattern")], "scalar", { unknownNames: "warning" }),
  parameterized("toString", [target, ...optional("rows", "cols", "decimal", "sparse", "sep", "linesep")], "scalar", { maxPositional: 1 }),
  parameterized("unique", [p("data"), p("dir", false)], "matrix", { maxPositional: 1 }),
  parameterized("countDistinct", [p("data"), p("dir", false)], "unknown", { maxPositional: 1 }),
  parameterized("countDistinctApprox", [p("data"), ...optional("type", "dir")], "unknown", { maxPositional: 1 }),
  parameterized("rowCountDistinctApprox", [p("data"), p("type", false)], "matrix", { maxPositional: 1 }),
  parameterized("colCountDistinctApprox", [p("data"), p("type", false)], "matrix", { maxPositional: 1 }),
  withAliases(
    parameterized("aggregate", [target, p("groups"), p("fn"), ...optional("weights", "ngroups", "order")], "matrix", { unknownNames: "warning" }),
    "groupedAggregate",
  ),
  parameterized("transformencode", required("target", "spec"), "matrix", { outputs: [2], multiReturnOnly: true, unknownNames: "warning" }),
  parameterized("transformapply", [...required("target", "spec", "meta"), p("embedding", false)], "matrix", { unknownNames: "warning" }),
  parameterized("transformdecode", required("target", "spec", "meta"), "frame", { unknownNames: "warning" }),
  parameterized("transformcolmap", required("target", "spec"), "matrix", { unknownNames: "warning" }),
  parameterized("transformmeta", required("spec", "transformPath"), "frame", { unknownNames: "warning" }),
  parameterized("tokenize", [...required("target", "spec"), p("max_tokens", false)], "frame", { unknownNames: "warning" }),
  parameterized("autoDiff", optional("output", "lineage"), "list", { unknownNames: "warning" }),
  parameterized(
    "paramserv",
    [
      p("model"),
      ...optional("features", "labels", "val_features", "val_labels", "upd", "agg", "val", "mode", "utype", "freq", "epochs"),
      ...optional("batchsize", "k", "scheme", "runtime_balancing", "weighting", "hyperparams", "checkpointing", "seed", "nbatches"),
      ...optional("modelAvg", "he", "num_backup_workers"),
    ],
    "list",
    { unknownNames: "warning" },
  ),
];

/** cdf, icdf and the pnorm, qnorm, ... shortcuts: a scalar `target` and distribution parameters, all named. */
function distribution(name: string, needed: string[], optionalNames: string[], lowerTail: boolean): BuiltinSignature {
  const params = [target, ...required(...needed), ...optional(...optionalNames), ...(lowerTail ? optional("lower.tail") : [])];
  return parameterized(name, params, "scalar", { unknownNames: "warning" });
}

const shapeParams = ["mean", "sd", "df", "df1", "df2", "rate"];

const distributions: BuiltinSignature[] = [
  distribution("cdf", ["dist"], shapeParams, true),
  distribution("icdf", ["dist"], shapeParams, false),
  distribution("pnorm", [], ["mean", "sd"], true),
  distribution("qnorm", [], ["mean", "sd"], false),
  distribution("pt", ["df"], [], true),
  distribution("qt", ["df"], [], false),
  distribution("pf", ["df1", "df2"], [], true),
  distribution("qf", ["df1", "df2"], [], false),
  distribution("pchisq", ["df"], [], true),
  distribution("qchisq", ["df"], [], false),
  distribution("pexp", [], ["rate"], true),
  distribution("qexp", [], ["rate"], false),
];

/** conv2d and pooling: the images positionally, the shapes as named list arguments (`stride=[1,1]`). */
function dnn(name: string, positional: string[], shapes: string[]): BuiltinSignature {
  const params = [...required(...positional), ...required(...shapes)];
  return { ...parameterized(name, params, "matrix", { maxPositional: positional.length, unknownNames: "warning" }), kind: "native" };
}

const convShapes = ["stride", "padding", "input_shape", "filter_shape"];
const poolShapes = ["stride", "padding", "input_shape", "pool_size"];

const deepLearning: BuiltinSignature[] = [
  dnn("conv2d", ["input", "filter"], convShapes),
  dnn("conv2d_backward_filter", ["input", "dout"], convShapes),
  dnn("conv2d_backward_data", ["filter", "dout"], convShapes),
  dnn("max_pool", ["input"], poolShapes),
  dnn("avg_pool", ["input"], poolShapes),
  dnn("max_pool_backward", ["input", "dout"], poolShapes),
  dnn("avg_pool_backward", ["input", "dout"], poolShapes),
];

export const NAMED_ARGUMENT_BUILTINS: readonly BuiltinSignature[] = [
  ...dataFunctions,
  ...statementFunctions,
  ...parameterizedBuiltins,
  ...distributions,
  ...deepLearning,
];
