/**
 * Operators over interpreter values: element-wise binary and unary on
 * scalars and matrices (with DML's int/double/boolean/string rules),
 * aggregates, indexing and casts.
 */
import type { AggregateDirection, AggregateFunction, ElementwiseBinaryOp, ElementwiseUnaryOp } from "../../program";
import { aggregate, scalarBinary, elementwiseBinary, elementwiseUnary, type IndexRange, leftIndex, rightIndex, matrixFill, scalarUnary } from "../kernels";
import type { Matrix } from "../matrix";
import { listAsMatrix, listSlice } from "./builtins-lists";
import { frameFromValue, matrixFromFrame } from "./frame-casts";
import { parseNumber } from "../io";
import { fail } from "./errors";
import { asScalarMessage } from "./messages";
import { bool, double, int, scalarText, str, type ScalarValue, type Value, describeValue } from "./values";

const COMPARISONS = new Set<ElementwiseBinaryOp>(["<", "<=", ">", ">=", "==", "!="]);
const LOGICAL = new Set<ElementwiseBinaryOp>(["&", "|", "xor"]);
const INT_PRESERVING = new Set<ElementwiseBinaryOp>(["+", "-", "*", "%/%", "%%", "min", "max"]);

export function num(v: Value, what = "operand"): number {
  if (v.kind === "scalar") {
    if (v.type === "boolean") return v.value ? 1 : 0;
    if (v.type === "string") {
      // As Java's Double.parseDouble: "NaN", "Infinity", "1.5d", ...
      return parseNumber(v.value) ?? fail(`${what}: expected a number, found the string "${v.value}"`);
    }
    return v.value;
  }
  if (v.kind === "matrix" && v.matrix.rows === 1 && v.matrix.cols === 1) return v.matrix.get(0, 0);
  return fail(`${what}: expected a scalar, found a ${describeValue(v)}`);
}

export function truthy(v: Value, what = "condition"): boolean {
  if (v.kind === "scalar" && v.type === "string") return fail(`${what}: expected a boolean, found a string`);
  return num(v, what) !== 0;
}

export function mat(v: Value, what = "operand"): Matrix {
  if (v.kind === "matrix") return v.matrix;
  if (v.kind === "scalar") return matrixFill(num(v, what), 1, 1);
  return fail(`${what}: expected a matrix, found a ${describeValue(v)}`);
}

export function text(v: Value): string {
  if (v.kind === "scalar") return scalarText(v);
  return fail(`expected a scalar, found a ${describeValue(v)}`);
}

function isIntLike(v: ScalarValue): boolean {
  return v.type === "int" || v.type === "boolean";
}

export function binary(op: ElementwiseBinaryOp, a: Value, b: Value): Value {
  if (a.kind === "scalar" && b.kind === "scalar") return scalarOp(op, a, b);
  if (a.kind !== "matrix" && b.kind !== "matrix") fail(`operator ${op} is not defined for a ${describeValue(a)} and a ${describeValue(b)}`);
  if (a.kind === "matrix") return { kind: "matrix", matrix: elementwiseBinary(op, a.matrix, b.kind === "matrix" ? b.matrix : num(b)) };
  return { kind: "matrix", matrix: elementwiseBinary(op, num(a), mat(b)) };
}

function scalarOp(op: ElementwiseBinaryOp, a: ScalarValue, b: ScalarValue): Value {
  if (a.type === "string" || b.type === "string") {
    if (op === "+") return str(scalarText(a) + scalarText(b));
    if (COMPARISONS.has(op)) {
      const x = scalarText(a);
      const y = scalarText(b);
      const c = x < y ? -1 : x > y ? 1 : 0;
      return bool(op === "==" ? c === 0 : op === "!=" ? c !== 0 : op === "<" ? c < 0 : op === "<=" ? c <= 0 : op === ">" ? c > 0 : c >= 0);
    }
    fail(`operator ${op} is not defined for strings`);
  }
  const x = num(a);
  const y = num(b);
  const r = scalarBinary(op, x, y);
  if (COMPARISONS.has(op) || LOGICAL.has(op)) return bool(r !== 0);
  if (isIntLike(a) && isIntLike(b) && INT_PRESERVING.has(op) && Number.isFinite(r)) return int(r);
  return double(r);
}

export function unary(op: ElementwiseUnaryOp, a: Value): Value {
  if (a.kind === "matrix") return { kind: "matrix", matrix: elementwiseUnary(op, a.matrix) };
  if (a.kind !== "scalar") fail(`${op} is not defined for a ${describeValue(a)}`);
  if (op === "!") return bool(!truthy(a, "!"));
  const r = scalarUnary(op, num(a, op));
  if (op === "is.na" || op === "is.nan" || op === "is.infinite") return bool(r !== 0);
  if (isIntLike(a) && (op === "-" || op === "abs" || op === "sign")) return int(r);
  if (op === "round" || op === "floor" || op === "ceil") return isIntLike(a) ? int(r) : double(r);
  return double(r);
}

export function aggregateValue(fn: AggregateFunction, direction: AggregateDirection, a: Value): Value {
  if (a.kind === "scalar" && direction === "full") {
    const x = num(a);
    if (fn === "sumSq") return double(x * x);
    if (fn === "var" || fn === "sd") return double(0);
    return a.type === "int" ? int(x) : double(x);
  }
  const r = aggregate(fn, direction, mat(a, fn));
  return typeof r === "number" ? double(r) : { kind: "matrix", matrix: r };
}

export function indexRange(bounds: (number | undefined)[]): IndexRange {
  const [rowLower, rowUpper, colLower, colUpper] = bounds;
  return { rowLower, rowUpper, colLower, colUpper };
}

export function rightIndexValue(x: Value, range: IndexRange): Value {
  if (x.kind === "list") return listSlice(x, int(range.rowLower ?? 1), int(range.rowUpper ?? x.items.length));
  if (x.kind !== "matrix") fail(`cannot index a ${describeValue(x)}`);
  return { kind: "matrix", matrix: rightIndex(x.matrix, range) };
}

export function leftIndexValue(x: Value, y: Value, range: IndexRange): Value {
  if (x.kind !== "matrix") fail(`cannot assign into an index of a ${describeValue(x)}`);
  const source = y.kind === "matrix" ? y.matrix : num(y);
  return { kind: "matrix", matrix: leftIndex(x.matrix, source, range) };
}

export function castValue(to: string, a: Value): Value {
  switch (to) {
    case "scalar":
      if (a.kind === "scalar") return a;
      if (a.kind === "matrix") {
        if (a.matrix.rows !== 1 || a.matrix.cols !== 1) fail(asScalarMessage(a.matrix));
        return double(a.matrix.get(0, 0));
      }
      if (a.kind === "list") {
        const [item, ...others] = a.items;
        if (item !== undefined && others.length === 0) return castValue("scalar", item);
      }
      return fail(`as.scalar: cannot convert a ${describeValue(a)}`);
    case "matrix":
      if (a.kind === "matrix") return a;
      if (a.kind === "list") return listAsMatrix(a);
      if (a.kind === "frame") return { kind: "matrix", matrix: matrixFromFrame(a.frame) };
      return { kind: "matrix", matrix: matrixFill(num(a, "as.matrix"), 1, 1) };
    case "double":
      return double(num(a, "as.double"));
    case "int":
      return int(num(a, "as.integer"));
    case "boolean":
      if (a.kind === "scalar" && a.type === "string") return bool(a.value.toUpperCase() === "TRUE");
      return bool(num(a, "as.logical") !== 0);
    case "list":
      return a.kind === "list" ? a : { kind: "list", items: [a] };
    case "frame":
      return frameFromValue(a);
    default:
      return fail(`as.${to} is not supported by the embedded runtime yet`);
  }
}
