/**
 * Calls → DAG nodes. DML builtins with an operator of their own map to the
 * generic node kinds; everything else is an opaque `call`:
 *
 * | DML | node |
 * |---|---|
 * | `t(X)` | `transpose` |
 * | `sum mean avg prod var sd min max` of one argument | `aggregate` full (`avg` = mean) |
 * | `rowSums colSums rowMeans colMeans rowMaxs colMaxs rowMins colMins rowProds colProds rowVars colVars rowSds colSds` | `aggregate` row / col |
 * | `min max pmin pmax` of two arguments | `binary` min / max (more arguments: opaque call) |
 * | `abs sign sqrt exp log round floor ceil(ing) sin ... tanh sigmoid is.na is.nan is.infinite` (+ aliases) of one argument | `unary` |
 * | `log(X, base)` | `binary` log |
 * | `xor bitwAnd bitwOr bitwXor bitwShiftL bitwShiftR` | `binary` |
 * | `ppred(X, Y, "op")` with a literal comparison | `binary` op |
 * | `cbind`/`append`, `rbind`, `diag`, `table`/`ctable`, `seq`, `matrix`, `rand`, `read`/`readMM` | their kinds, arguments as inputs with `argNames` |
 * | `as.scalar`/`castAsScalar`, `as.matrix`, `as.double`, `as.integer`, `as.logical`/`as.boolean`, `as.frame`, `as.list` | `cast` |
 * | `nrow`, `ncol`, `length` | their kinds |
 * | user functions (defined in the file, or `ns::f`), `ifelse`, every other builtin | `call` |
 *
 * A user function hides a builtin of the same name. Types: dag-typing.ts,
 * and dag-call-types.ts for opaque calls.
 */
import type { CallExpression, Expression, Range } from "../syntax";
import type { DagBuilder } from "./dag-builder";
import { callResultType } from "./dag-call-types";
import type { AggregateDirection, AggregateFunction, DagOp, DagType, ElementwiseBinaryOp, ElementwiseUnaryOp } from "./dag-types";
import { asScalarType, binaryType, MATRIX_DOUBLE, SCALAR_DOUBLE, SCALAR_INT, scalarCastType, unaryType, type TypeResult } from "./dag-typing";
import { ownEntry } from "./own-entry";
import { isUserFunctionCall } from "./user-functions";

const FULL_AGGREGATES: Readonly<Record<string, AggregateFunction>> = {
  sum: "sum", mean: "mean", avg: "mean", prod: "prod", var: "var", sd: "sd", min: "min", max: "max", pmin: "min", pmax: "max",
};

const ROW_COL_AGGREGATES: Readonly<Record<string, [AggregateFunction, AggregateDirection]>> = {
  rowSums: ["sum", "row"], colSums: ["sum", "col"], rowMeans: ["mean", "row"], colMeans: ["mean", "col"],
  rowMaxs: ["max", "row"], colMaxs: ["max", "col"], rowMins: ["min", "row"], colMins: ["min", "col"],
  rowProds: ["prod", "row"], colProds: ["prod", "col"], rowVars: ["var", "row"], colVars: ["var", "col"],
  rowSds: ["sd", "row"], colSds: ["sd", "col"],
};

/**
 * The DML builtin that computes an aggregate (`sum`, `rowSums`, `colMeans`,
 * ...): the first name the tables above give it; undefined when DML has
 * none (`sumSq`).
 */
export function aggregateBuiltinName(fn: AggregateFunction, direction: AggregateDirection): string | undefined {
  if (direction === "full") return Object.keys(FULL_AGGREGATES).find((name) => FULL_AGGREGATES[name] === fn);
  return Object.keys(ROW_COL_AGGREGATES).find((name) => ROW_COL_AGGREGATES[name]![0] === fn && ROW_COL_AGGREGATES[name]![1] === direction);
}

const UNARY_FUNCTIONS: Readonly<Record<string, ElementwiseUnaryOp>> = {
  abs: "abs", sign: "sign", sqrt: "sqrt", exp: "exp", log: "log", round: "round", floor: "floor", ceil: "ceil", ceiling: "ceil",
  sin: "sin", cos: "cos", tan: "tan", asin: "asin", acos: "acos", atan: "atan", sinh: "sinh", cosh: "cosh", tanh: "tanh",
  sigmoid: "sigmoid", "is.na": "is.na", isNA: "is.na", "is.nan": "is.nan", isNaN: "is.nan", "is.infinite": "is.infinite", isInf: "is.infinite",
};

/**
 * A call of one argument that becomes an element-wise operator of its own
 * (`sigmoid(X)`): DML Lens computes it without the builtin's script.
 */
export function isUnaryOperatorCall(name: string, argumentCount: number): boolean {
  return argumentCount === 1 && ownEntry(UNARY_FUNCTIONS, name) !== undefined;
}

const BINARY_FUNCTIONS: Readonly<Record<string, ElementwiseBinaryOp>> = {
  min: "min", max: "max", pmin: "min", pmax: "max", log: "log",
  xor: "xor", bitwAnd: "bitwAnd", bitwOr: "bitwOr", bitwXor: "bitwXor", bitwShiftL: "bitwShiftL", bitwShiftR: "bitwShiftR",
};

const PPRED_OPS: ReadonlySet<string> = new Set(["<", "<=", ">", ">=", "==", "!="]);

/** Kinds whose arguments are kept as they are written (named ones with their names). */
const DATA_KINDS: Readonly<Record<string, "cbind" | "rbind" | "diag" | "table" | "seq" | "matrix" | "rand" | "read">> = {
  cbind: "cbind", append: "cbind", rbind: "rbind", diag: "diag", table: "table", ctable: "table",
  seq: "seq", matrix: "matrix", rand: "rand", read: "read", readMM: "read",
};

const CASTS: Readonly<Record<string, Extract<DagOp, { kind: "cast" }>["to"]>> = {
  "as.scalar": "scalar", castAsScalar: "scalar", "as.matrix": "matrix", "as.double": "double", "as.integer": "int",
  "as.logical": "boolean", "as.boolean": "boolean", "as.frame": "frame", "as.list": "list",
};

interface Arguments {
  ids: number[];
  names: (string | undefined)[];
  types: DagType[];
}

/** The node of a call's (first) result. */
export function compileCall(b: DagBuilder, call: CallExpression, compile: (e: Expression) => number): number {
  const args = compileArguments(b, call, compile);
  if (!isUserFunctionCall(call, b.context.functions)) {
    // SystemDS matches `rand` case-insensitively (`Rand(rows=2, cols=2)`).
    const mapped = builtinNode(b, call.callee.name.toLowerCase() === "rand" ? "rand" : call.callee.name, args, call.range);
    if (mapped !== undefined) return mapped;
  }
  return callNode(b, call, args, 0);
}

/** `[a, b, ...] = f(...)`: one opaque call node per result (`output` 0, 1, ...), sharing the argument nodes. */
export function compileMultiCall(b: DagBuilder, call: CallExpression, count: number, compile: (e: Expression) => number): number[] {
  return callNodes(b, call, compileArguments(b, call, compile), count);
}

function compileArguments(b: DagBuilder, call: CallExpression, compile: (e: Expression) => number): Arguments {
  const ids = call.args.map((arg) => compile(arg.value));
  return { ids, names: call.args.map((arg) => arg.name), types: ids.map((id) => b.typeOf(id)) };
}

function callNodes(b: DagBuilder, call: CallExpression, args: Arguments, count: number): number[] {
  return Array.from({ length: count }, (_, output) => callNode(b, call, args, output));
}

/** The opaque `call` node of result `output` (0 = the first). */
function callNode(b: DagBuilder, call: CallExpression, args: Arguments, output: number): number {
  const name = call.callee.name;
  const user = isUserFunctionCall(call, b.context.functions);
  const type = callResultType(name, user, output, args.types, b.context);
  return b.add({ kind: "call", name, user, output }, args.ids, type, call.range, args.names);
}

/** The node of argument `index`; the caller has checked the number of arguments. */
function argumentId(args: Arguments, index: number): number {
  const id = args.ids[index];
  if (id === undefined) throw new Error(`a call with ${args.ids.length} arguments has no argument ${index + 1}`);
  return id;
}

/** The type of argument `index`; the caller has checked the number of arguments. */
function argumentType(args: Arguments, index: number): DagType {
  const type = args.types[index];
  if (type === undefined) throw new Error(`a call with ${args.types.length} arguments has no argument ${index + 1}`);
  return type;
}

/** The node of a builtin with an operator of its own, or undefined for an opaque call. */
function builtinNode(b: DagBuilder, name: string, args: Arguments, range: Range): number | undefined {
  const { ids, names } = args;
  const add = (op: DagOp, typed: TypeResult | DagType) => b.add(op, ids, typed, range, names);
  const n = ids.length;
  if (name === "t" && n === 1) return add({ kind: "transpose" }, MATRIX_DOUBLE);
  const fullAggregate = ownEntry(FULL_AGGREGATES, name);
  if (n === 1 && fullAggregate !== undefined) return add({ kind: "aggregate", fn: fullAggregate, direction: "full" }, SCALAR_DOUBLE);
  const rowColAggregate = ownEntry(ROW_COL_AGGREGATES, name);
  if (n === 1 && rowColAggregate !== undefined) {
    const [fn, direction] = rowColAggregate;
    return add({ kind: "aggregate", fn, direction }, MATRIX_DOUBLE);
  }
  const unary = ownEntry(UNARY_FUNCTIONS, name);
  if (n === 1 && unary !== undefined) return add({ kind: "unary", op: unary }, unaryType(unary, argumentType(args, 0)));
  const binary = ownEntry(BINARY_FUNCTIONS, name);
  if (n === 2 && binary !== undefined) return add({ kind: "binary", op: binary }, binaryType(binary, argumentType(args, 0), argumentType(args, 1)));
  if (name === "ppred" && n === 3) {
    const op = b.node(argumentId(args, 2)).op;
    if (op.kind === "literal" && typeof op.value === "string" && PPRED_OPS.has(op.value)) {
      const comparison = op.value as ElementwiseBinaryOp;
      return b.add({ kind: "binary", op: comparison }, ids.slice(0, 2), binaryType(comparison, argumentType(args, 0), argumentType(args, 1)), range);
    }
    return undefined;
  }
  const kind = ownEntry(DATA_KINDS, name);
  if (kind !== undefined && n > 0) {
    if ((kind === "cbind" || kind === "rbind") && !bindsMatrices(argumentType(args, 0))) return undefined;
    return add({ kind }, dataKindType(b, kind, args));
  }
  const to = ownEntry(CASTS, name);
  if (to !== undefined && n === 1) return add({ kind: "cast", to }, castType(to, argumentType(args, 0)));
  if ((name === "nrow" || name === "ncol" || name === "length") && n === 1) return add({ kind: name }, SCALAR_INT);
  return undefined;
}

/**
 * `cbind`/`rbind`/`append` bind matrices (or frames) only when the first
 * argument is one: of two strings they join them with a newline, of a list
 * they append items (SystemDS's BuiltinFunctionExpression). Those, and a
 * first argument of unknown type, stay opaque calls (types in dag-call-types.ts).
 */
function bindsMatrices(first: DagType): boolean {
  return first.dataType === "matrix" || first.dataType === "frame";
}

function dataKindType(b: DagBuilder, kind: (typeof DATA_KINDS)[string], args: Arguments): DagType {
  if (kind === "cbind" || kind === "rbind") {
    if (argumentType(args, 0).dataType === "frame") return { dataType: "frame", valueType: "unknown" };
    return MATRIX_DOUBLE;
  }
  if (kind === "read") return readType(b, args);
  return MATRIX_DOUBLE;
}

/** `read(...)`: a matrix unless the literal `data_type=` says frame, scalar or list (`value_type=` for scalars). */
function readType(b: DagBuilder, args: Arguments): DagType {
  const literal = (name: string): string | undefined => {
    const index = args.names.indexOf(name);
    const op = index < 0 ? undefined : b.node(argumentId(args, index)).op;
    return op?.kind === "literal" && typeof op.value === "string" ? op.value.toLowerCase() : undefined;
  };
  const dataType = literal("data_type");
  if (dataType === undefined || dataType === "matrix") return MATRIX_DOUBLE;
  if (dataType === "frame") return { dataType: "frame", valueType: "unknown" };
  if (dataType === "list") return { dataType: "list", valueType: "unknown" };
  if (dataType !== "scalar") return { dataType: "unknown", valueType: "unknown" };
  switch (literal("value_type")) {
    case "int":
    case "int64":
    case "integer":
      return SCALAR_INT;
    case "double":
    case "fp64":
      return SCALAR_DOUBLE;
    case "boolean":
      return { dataType: "scalar", valueType: "boolean" };
    case "string":
      return { dataType: "scalar", valueType: "string" };
    default:
      return { dataType: "scalar", valueType: "unknown" };
  }
}

function castType(to: Extract<DagOp, { kind: "cast" }>["to"], operand: DagType): TypeResult | DagType {
  switch (to) {
    case "scalar":
      return asScalarType(operand);
    case "matrix":
      return MATRIX_DOUBLE;
    case "double":
      return scalarCastType(operand, "double");
    case "int":
      return scalarCastType(operand, "int");
    case "boolean":
      return scalarCastType(operand, "boolean");
    case "frame":
      return { dataType: "frame", valueType: "unknown" };
    case "list":
      return { dataType: "list", valueType: "unknown" };
  }
}
