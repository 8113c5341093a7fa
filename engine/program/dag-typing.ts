/**
 * Type rules of the DAG's operations, after SystemDS's validator
 * (`Expression.computeDataType` / `computeValueType`, `BinaryExpression`,
 * `RelationalExpression`, `BooleanExpression`, `BuiltinFunctionExpression`):
 *
 * - a matrix operand makes an element-wise result a matrix of doubles
 *   (matrices are FP64 at runtime, comparisons give 0/1 doubles);
 * - scalars: `+ - * %% %/% min max` keep int when both sides are int
 *   (booleans count as int), else double; `/`, `^` and `log` give double;
 *   comparisons and `& | xor` give boolean; `bitw*` give int;
 * - a string operand: `+` concatenates to a string, comparisons give
 *   boolean, any other arithmetic is an error;
 * - unary `-`, `abs`, `sign`, `round`, `floor`, `ceil` keep an int scalar
 *   int; the other math functions give double; `!` and `is.na` & co. give
 *   boolean on scalars.
 *
 * Errors are only reported for clear cases (a string, frame or list where
 * only numbers or matrices make sense); an unknown operand type gives an
 * unknown result, never an error.
 */
import type { ElementwiseBinaryOp, ElementwiseUnaryOp, DagType, ValueType } from "./dag-types";
import { UNKNOWN_TYPE } from "./dag-context";

interface DagTypeError {
  /** Stable id: `type-string-operand`, `type-matmul-operand`, ... */
  code: string;
  message: string;
}

export interface TypeResult {
  type: DagType;
  error?: DagTypeError;
}

export const MATRIX_DOUBLE: DagType = { dataType: "matrix", valueType: "double" };
export const SCALAR_INT: DagType = { dataType: "scalar", valueType: "int" };
export const SCALAR_DOUBLE: DagType = { dataType: "scalar", valueType: "double" };
export const SCALAR_BOOLEAN: DagType = { dataType: "scalar", valueType: "boolean" };
export const SCALAR_STRING: DagType = { dataType: "scalar", valueType: "string" };

const COMPARISONS: ReadonlySet<ElementwiseBinaryOp> = new Set(["<", "<=", ">", ">=", "==", "!="]);
const LOGICAL: ReadonlySet<ElementwiseBinaryOp> = new Set(["&", "|", "xor"]);
const BITWISE: ReadonlySet<ElementwiseBinaryOp> = new Set(["bitwAnd", "bitwOr", "bitwXor", "bitwShiftL", "bitwShiftR"]);
const ALWAYS_DOUBLE: ReadonlySet<ElementwiseBinaryOp> = new Set(["/", "^", "log"]);
const INT_PRESERVING_UNARY: ReadonlySet<ElementwiseUnaryOp> = new Set(["-", "abs", "sign", "round", "floor", "ceil"]);
const PREDICATE_UNARY: ReadonlySet<ElementwiseUnaryOp> = new Set(["!", "is.na", "is.nan", "is.infinite"]);

const isString = (t: DagType) => t.dataType === "scalar" && t.valueType === "string";

/** How an operator is named in messages: `'-'`, `'min'`. */
function opName(op: string): string {
  return `'${op}'`;
}

function describe(t: DagType): string {
  if (t.dataType === "scalar") return t.valueType === "unknown" ? "a scalar" : `a ${t.valueType === "int" ? "integer" : t.valueType}`;
  return `a ${t.dataType}`;
}

/** `left op right`, element-wise. */
export function binaryType(op: ElementwiseBinaryOp, left: DagType, right: DagType): TypeResult {
  for (const side of [left, right]) {
    if (side.dataType === "list") {
      return { type: UNKNOWN_TYPE, error: { code: "type-list-operand", message: `${opName(op)} is not defined on a list` } };
    }
  }
  if ((left.dataType === "matrix" && right.dataType === "frame") || (left.dataType === "frame" && right.dataType === "matrix")) {
    return { type: UNKNOWN_TYPE, error: { code: "type-matrix-frame", message: `${opName(op)} cannot combine a matrix and a frame` } };
  }
  if (left.dataType === "frame" || right.dataType === "frame") return { type: UNKNOWN_TYPE };
  if (isString(left) || isString(right)) return stringBinaryType(op, left, right);
  if (left.dataType === "matrix" || right.dataType === "matrix") return { type: MATRIX_DOUBLE };
  if (COMPARISONS.has(op) || LOGICAL.has(op)) return { type: scalarOr(left, right, "boolean") };
  if (BITWISE.has(op)) return { type: scalarOr(left, right, "int") };
  if (ALWAYS_DOUBLE.has(op)) return { type: scalarOr(left, right, "double") };
  const both = left.dataType === "scalar" && right.dataType === "scalar";
  return { type: { dataType: both ? "scalar" : "unknown", valueType: both ? numericJoin(left.valueType, right.valueType) : "unknown" } };
}

/** A scalar of `valueType` when both sides are scalars; unknown when one side's data type is unknown. */
function scalarOr(left: DagType, right: DagType, valueType: ValueType): DagType {
  return left.dataType === "scalar" && right.dataType === "scalar" ? { dataType: "scalar", valueType } : UNKNOWN_TYPE;
}

function numericJoin(a: ValueType, b: ValueType): ValueType {
  if (a === "unknown" || b === "unknown" || a === "string" || b === "string") return "unknown";
  if (a === "double" || b === "double") return "double";
  return "int";
}

function stringBinaryType(op: ElementwiseBinaryOp, left: DagType, right: DagType): TypeResult {
  if (left.dataType === "matrix" || right.dataType === "matrix") {
    return { type: UNKNOWN_TYPE, error: { code: "type-string-operand", message: `${opName(op)} cannot combine a matrix and a string` } };
  }
  if (op === "+") return { type: SCALAR_STRING };
  if (COMPARISONS.has(op) || LOGICAL.has(op)) return { type: SCALAR_BOOLEAN };
  return { type: UNKNOWN_TYPE, error: { code: "type-string-operand", message: `${opName(op)} is not defined on strings (only '+' concatenates)` } };
}

/** `op(x)`, element-wise. */
export function unaryType(op: ElementwiseUnaryOp, operand: DagType): TypeResult {
  if (operand.dataType === "list" || operand.dataType === "frame") {
    return { type: UNKNOWN_TYPE, error: { code: `type-${operand.dataType}-operand`, message: `${opName(op)} is not defined on ${describe(operand)}` } };
  }
  if (isString(operand)) {
    return { type: UNKNOWN_TYPE, error: { code: "type-string-operand", message: `${opName(op)} is not defined on strings` } };
  }
  if (operand.dataType === "matrix") return { type: MATRIX_DOUBLE };
  if (operand.dataType !== "scalar") return { type: UNKNOWN_TYPE };
  if (PREDICATE_UNARY.has(op)) return { type: SCALAR_BOOLEAN };
  if (INT_PRESERVING_UNARY.has(op)) {
    const v = operand.valueType;
    return { type: { dataType: "scalar", valueType: v === "boolean" ? "int" : v } };
  }
  return { type: SCALAR_DOUBLE };
}

/** `A %*% B`: a matrix; a string, frame or list operand is an error. */
export function matmulType(left: DagType, right: DagType): TypeResult {
  for (const side of [left, right]) {
    if (isString(side) || side.dataType === "frame" || side.dataType === "list") {
      return { type: MATRIX_DOUBLE, error: { code: "type-matmul-operand", message: `'%*%' needs matrices, not ${describe(side)}` } };
    }
  }
  return { type: MATRIX_DOUBLE };
}

/** `X[...]`: a matrix gives a matrix, a frame a frame; indexing a scalar is an error. */
export function indexType(target: DagType): TypeResult {
  switch (target.dataType) {
    case "matrix":
      return { type: MATRIX_DOUBLE };
    case "frame":
      return { type: { dataType: "frame", valueType: target.valueType } };
    case "scalar":
      return { type: UNKNOWN_TYPE, error: { code: "type-index-scalar", message: `cannot index ${describe(target)}` } };
    default:
      return { type: UNKNOWN_TYPE };
  }
}

/** `X[...] = v`: the new X has X's type (a matrix stays a matrix of doubles). */
export function leftIndexType(target: DagType): TypeResult {
  if (target.dataType === "scalar") {
    return { type: target, error: { code: "type-index-scalar", message: `cannot assign into ${describe(target)} by index` } };
  }
  return { type: target.dataType === "matrix" ? MATRIX_DOUBLE : target };
}

/** `as.scalar(X)`: a matrix, frame or list element; of a scalar it is an error. */
export function asScalarType(operand: DagType): TypeResult {
  switch (operand.dataType) {
    case "matrix":
      return { type: SCALAR_DOUBLE };
    case "scalar":
      return { type: operand, error: { code: "type-as-scalar", message: `as.scalar needs a matrix, frame or list, not ${describe(operand)}` } };
    default:
      return { type: { dataType: "scalar", valueType: "unknown" } };
  }
}

/** `as.double`, `as.integer`, `as.logical`: a scalar cast, or a matrix of doubles for a matrix. */
export function scalarCastType(operand: DagType, to: ValueType): TypeResult {
  if (operand.dataType === "matrix") return { type: MATRIX_DOUBLE };
  if (operand.dataType === "frame" || operand.dataType === "list") return { type: UNKNOWN_TYPE };
  return { type: { dataType: "scalar", valueType: to } };
}

/** Types at a control-flow join: equal types stay, same data type keeps it, else unknown. */
export function joinTypes(a: DagType, b: DagType): DagType {
  if (a.dataType === b.dataType && a.valueType === b.valueType) return a;
  if (a.dataType !== b.dataType) return UNKNOWN_TYPE;
  if (a.dataType === "scalar" && (a.valueType === "int" || a.valueType === "double") && (b.valueType === "int" || b.valueType === "double")) {
    return SCALAR_DOUBLE;
  }
  return { dataType: a.dataType, valueType: "unknown" };
}

export function sameType(a: DagType, b: DagType): boolean {
  return a.dataType === b.dataType && a.valueType === b.valueType;
}
