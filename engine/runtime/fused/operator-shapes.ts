/**
 * The shapes of a fused operator's nodes, propagated from the values of
 * its materialized inputs through the covered nodes (the skeletons index
 * cells and rows by them): a scalar, or a rows x cols matrix. A covered
 * node whose shape cannot be derived is an operator failure.
 */
import type { FusionDag, FusedOperator } from "../../fusion";
import type { Value } from "../interpreter";
import { callOperandOrder } from "./call-arguments";
import { operatorFailure } from "./fused-error";
import { columnRangeOf } from "./column-range";

export interface NodeShape {
  rows: number;
  cols: number;
  /** A scalar (rows = cols = 1); a 1 x 1 matrix has `scalar` false. */
  scalar: boolean;
}

const SCALAR_SHAPE: NodeShape = { rows: 1, cols: 1, scalar: true };

function valueShape(value: Value): NodeShape | undefined {
  if (value.kind === "scalar") return SCALAR_SHAPE;
  if (value.kind === "matrix") return { rows: value.matrix.rows, cols: value.matrix.cols, scalar: false };
  return undefined;
}

export function sameShape(a: NodeShape, b: NodeShape): boolean {
  return a.rows === b.rows && a.cols === b.cols && a.scalar === b.scalar;
}

export function shapeText(s: NodeShape): string {
  return s.scalar ? "scalar" : `${s.rows} x ${s.cols}`;
}

/** Element-wise broadcasting of operand shapes (same shape, 1 x 1 or scalar, row or column vector, column with row vector). */
function broadcastShapes(shapes: readonly NodeShape[]): NodeShape | undefined {
  const matrices = shapes.filter((s) => !s.scalar);
  if (matrices.length === 0) return SCALAR_SHAPE;
  let rows = 1;
  let cols = 1;
  for (const s of matrices) {
    if (s.rows === 1 && s.cols === 1) continue;
    if (rows !== s.rows && rows !== 1 && s.rows !== 1) return undefined;
    if (cols !== s.cols && cols !== 1 && s.cols !== 1) return undefined;
    // a unit dimension takes the other's (0 included: a matrix without rows broadcast with a row vector has no rows)
    if (rows === 1) rows = s.rows;
    if (cols === 1) cols = s.cols;
  }
  return { rows, cols, scalar: false };
}

/** Shapes of the operator's inputs (from their values) and covered nodes (derived). */
export function operatorShapes(dag: FusionDag, op: FusedOperator, inputs: ReadonlyMap<number, Value>): Map<number, NodeShape> {
  const shapes = new Map<number, NodeShape>();
  for (const [node, value] of inputs) {
    const shape = valueShape(value);
    if (!shape) operatorFailure(dag, op, node, `input is a ${value.kind}, not a matrix or scalar`);
    shapes.set(node, shape);
  }
  for (const node of op.covered) shapes.set(node, coveredShape(dag, op, node, shapes, inputs));
  return shapes;
}

function coveredShape(dag: FusionDag, op: FusedOperator, node: number, shapes: ReadonlyMap<number, NodeShape>, inputs: ReadonlyMap<number, Value>): NodeShape {
  const n = dag.nodes[node]!;
  const of = (k: number) => shapes.get(n.inputs[k]!) ?? operatorFailure(dag, op, node, `input ${n.inputs[k]} has no shape`);
  const o = n.op;
  switch (o.kind) {
    case "literal":
      return SCALAR_SHAPE;
    case "binary":
    case "unary":
      return elementwise(n.inputs.map((_, k) => of(k)));
    case "transpose": {
      const a = of(0);
      return { rows: a.cols, cols: a.rows, scalar: a.scalar };
    }
    case "aggregate": {
      const a = of(0);
      if (o.direction === "full") return SCALAR_SHAPE;
      return o.direction === "row" ? { rows: a.rows, cols: 1, scalar: false } : { rows: 1, cols: a.cols, scalar: false };
    }
    case "matmul": {
      const a = of(0);
      const b = of(1);
      if (a.cols !== b.rows) operatorFailure(dag, op, node, `matrix product of ${shapeText(a)} and ${shapeText(b)}`);
      return { rows: a.rows, cols: b.cols, scalar: false };
    }
    case "call": {
      if (o.name === "rowIndexMax" && n.inputs.length === 1) return { rows: of(0).rows, cols: 1, scalar: false };
      const order = callOperandOrder(n, o.name) ?? operatorFailure(dag, op, node, `the call ${o.name} is not interpreted inside a fused operator`);
      return o.name === "replace" ? of(order[0]!) : elementwise(order.map(of));
    }
    case "cbind": {
      const parts = n.inputs.map((_, k) => of(k));
      if (parts.some((p) => p.scalar || p.rows !== parts[0]!.rows)) operatorFailure(dag, op, node, `cbind of ${parts.map(shapeText).join(", ")}`);
      return { rows: parts[0]!.rows, cols: parts.reduce((sum, p) => sum + p.cols, 0), scalar: false };
    }
    case "index": {
      const range = columnRangeOf(dag, node, inputs);
      if (typeof range === "string") return operatorFailure(dag, op, node, range);
      return { rows: of(0).rows, cols: range.upper - range.lower, scalar: false };
    }
    case "cast":
      if (o.to === "scalar" || o.to === "double") return SCALAR_SHAPE;
      return operatorFailure(dag, op, node, `the cast as.${o.to} is not interpreted inside a fused operator`);
    default:
      return operatorFailure(dag, op, node, `a ${o.kind} node is not interpreted inside a fused operator`);
  }

  function elementwise(operands: NodeShape[]): NodeShape {
    return broadcastShapes(operands) ?? operatorFailure(dag, op, node, `operands of shapes ${operands.map(shapeText).join(", ")} do not combine`);
  }
}
