/**
 * Expressions → DAG nodes. Each sub-expression becomes (or finds) one node:
 *
 * - literals (`1` int, `1.0`/`1e3` double, strings, `TRUE`/`FALSE`) and the
 *   builtin constants `pi`, `Inf`, `NaN` (when the program never binds
 *   them) are `literal` nodes; a unary minus on a number literal folds into
 *   a negative literal, as SystemDS's parser does (`seed=-1` is the literal -1);
 * - a variable is its latest value in the block or its `input` node;
 * - `$p` is a `parameter` node; `ifdef($p, d)` the same with `d` as input 0;
 * - `A %*% B` is `matmul`, other infix operators `binary` (`&&`/`||`, which
 *   SystemDS rejects, are read as `&`/`|`), prefix `-`/`!` are `unary`
 *   (prefix `+` is no node);
 * - `X[rl:ru, cl:cu]` is `index` with inputs X, rl, ru, cl, cu; a missing
 *   bound is the literal ALL_INDICES (a value no index expression can
 *   have, so `X[-1, 1]` stays an out-of-range row), a single index `i` is `i:i`;
 * - calls: dag-calls.ts.
 */
import type { BinaryOperator, Expression, IndexExpression, NumberLiteral, Range } from "../syntax";
import type { DagBuilder } from "./dag-builder";
import { compileCall } from "./dag-calls";
import type { DagType, ElementwiseBinaryOp } from "./dag-types";
import { binaryType, indexType, matmulType, SCALAR_BOOLEAN, SCALAR_DOUBLE, SCALAR_INT, SCALAR_STRING, unaryType } from "./dag-typing";
import { ownEntry } from "./own-entry";

const CONSTANT_VALUES: Readonly<Record<string, number>> = { pi: Math.PI, Inf: Number.POSITIVE_INFINITY, NaN: Number.NaN };

export function compileExpression(b: DagBuilder, expression: Expression): number {
  switch (expression.kind) {
    case "number":
      return numberLiteral(b, expression, false);
    case "string":
      return b.add({ kind: "literal", value: expression.value }, [], SCALAR_STRING, expression.range);
    case "boolean":
      return b.add({ kind: "literal", value: expression.value }, [], SCALAR_BOOLEAN, expression.range);
    case "identifier":
      return variable(b, expression.name, expression.range);
    case "parameter":
      return b.add({ kind: "parameter", name: expression.name }, [], { dataType: "scalar", valueType: "unknown" }, expression.range);
    case "ifdef": {
      const fallback = compileExpression(b, expression.defaultValue);
      const name = expression.parameter.kind === "parameter" ? expression.parameter.name : "?";
      const type: DagType = { dataType: "scalar", valueType: b.typeOf(fallback).valueType };
      return b.add({ kind: "parameter", name }, [fallback], type, expression.range);
    }
    case "index": {
      const target = variable(b, expression.target.name, expression.target.range);
      return b.add({ kind: "index" }, [target, ...indexBounds(b, expression)], indexType(b.typeOf(target)), expression.range);
    }
    case "call":
      return compileCall(b, expression, (e) => compileExpression(b, e));
    case "binary":
      return binary(b, expression.op, expression.left, expression.right, expression.range);
    case "unary": {
      if (expression.op === "+") return compileExpression(b, expression.operand);
      if (expression.op === "-" && expression.operand.kind === "number") return numberLiteral(b, expression.operand, true, expression.range);
      const operand = compileExpression(b, expression.operand);
      return b.add({ kind: "unary", op: expression.op }, [operand], unaryType(expression.op, b.typeOf(operand)), expression.range);
    }
    case "list": {
      const items = expression.items.map((item) => compileExpression(b, item));
      return b.add({ kind: "call", name: "[]", user: false, output: 0 }, items, { dataType: "list", valueType: "unknown" }, expression.range);
    }
    case "error":
      return b.add({ kind: "call", name: "<error>", user: false, output: 0 }, [], { dataType: "unknown", valueType: "unknown" }, expression.range);
  }
}

function numberLiteral(b: DagBuilder, literal: NumberLiteral, negate: boolean, range: Range = literal.range): number {
  const value = negate ? -literal.value : literal.value;
  return b.add({ kind: "literal", value }, [], literal.isInteger ? SCALAR_INT : SCALAR_DOUBLE, range);
}

/** A variable read, or a builtin constant the program never binds. */
function variable(b: DagBuilder, name: string, range: Range): number {
  const constant = b.context.constants.has(name) ? ownEntry(CONSTANT_VALUES, name) : undefined;
  if (constant !== undefined) return b.add({ kind: "literal", value: constant }, [], SCALAR_DOUBLE, range);
  return b.read(name, range);
}

/** `left op right`: `%*%` is matmul, every other operator element-wise. */
function binary(b: DagBuilder, op: BinaryOperator, leftExpression: Expression, rightExpression: Expression, range: Range): number {
  const left = compileExpression(b, leftExpression);
  const right = compileExpression(b, rightExpression);
  return binaryNode(b, op, left, right, range);
}

export function binaryNode(b: DagBuilder, op: BinaryOperator, left: number, right: number, range: Range): number {
  if (op === "%*%") return b.add({ kind: "matmul" }, [left, right], matmulType(b.typeOf(left), b.typeOf(right)), range);
  const elementwise: ElementwiseBinaryOp = op === "&&" ? "&" : op === "||" ? "|" : op;
  return b.add({ kind: "binary", op: elementwise }, [left, right], binaryType(elementwise, b.typeOf(left), b.typeOf(right)), range);
}

/**
 * The value of the literal that stands for an omitted index bound ("all rows"
 * or "all columns"): a string, so no number a user writes or computes, such
 * as -1, is ever taken for it.
 */
export const ALL_INDICES = ":";

/** The four bounds rl, ru, cl, cu of an index expression (ALL_INDICES for an omitted one). */
export function indexBounds(b: DagBuilder, expression: IndexExpression): number[] {
  const bounds: number[] = [];
  for (const part of [expression.rows, expression.cols]) {
    if (!part) {
      const all = b.add({ kind: "literal", value: ALL_INDICES }, [], SCALAR_INT, expression.range);
      bounds.push(all, all);
      continue;
    }
    const lower = compileExpression(b, part.lower);
    bounds.push(lower, part.upper ? compileExpression(b, part.upper) : lower);
  }
  return bounds;
}
