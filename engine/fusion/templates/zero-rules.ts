/**
 * When a cell-wise operation gives zero at a cell, from what its operands
 * are there (zero, a known constant, or unknown):
 * - `a * b`, `a & b`: either operand zero; `a / b`, `a %% b`, `a %/% b`: `a`
 *   zero and `b` a non-zero constant (0 / 0 is NaN, and a divisor that is not
 *   a constant may be 0 exactly where `a` is);
 *   `a ^ c`: `a` zero and the constant c > 0;
 * - any other binary or unary operation: every operand zero or constant and
 *   the operation maps those values to 0 (`X != 0`, `X + Y`, `abs`, `sqrt`,
 *   `round`, `sign`, `-X`, ...; not `exp`, `cos`, `!`, `X == 0`, `X + 1`);
 * - `ifelse(c, a, b)`: b zero, and c zero (b is taken) or a zero too;
 * - `replace(target, pattern, replacement)`: target zero, and the pattern a
 *   non-zero (or NaN) constant or the replacement 0;
 * - `min`/`max` of several arguments: all zero or constant, the result 0.
 * Used by the sparse-safety analysis of an operator (sparse-safety.ts) and
 * by the Outer template's search for a driver (zero-drivers.ts).
 */
import type { ElementwiseBinaryOp } from "../../program";
import type { FusionDag } from "../fusion-dag";
import { applyNumeric, applyNumericUnary } from "../../stats/sizes/scalar-fold";
import { callArgument } from "./node-shapes";
import { builtinName, constantOf, mapsZeroToZero } from "./operation-classes";

/** What an operand is at the cell in question. */
export type AtCell = { kind: "zero" } | { kind: "constant"; value: number } | { kind: "unknown" };

export const ZERO: AtCell = { kind: "zero" };
export const UNKNOWN: AtCell = { kind: "unknown" };

/** A scalar operand: its constant value when known. */
export function scalarAt(dag: FusionDag, node: number): AtCell {
  const c = constantOf(dag, node);
  return c === undefined ? UNKNOWN : { kind: "constant", value: c };
}

/**
 * Whether the cell-wise operation at `node` is zero at the cell, given each
 * operand there (`at`); undefined when the node is not a cell-wise operation.
 */
export function cellwiseIsZero(dag: FusionDag, node: number, at: (input: number) => AtCell): boolean | undefined {
  const n = dag.nodes[node]!;
  switch (n.op.kind) {
    case "unary": {
      const a = at(n.inputs[0]!);
      return a.kind !== "unknown" && mapsZeroToZero(applyNumericUnary(n.op.op, valueOf(a)));
    }
    case "binary":
      return binaryIsZero(n.op.op, at(n.inputs[0]!), at(n.inputs[1]!));
    case "call": {
      const name = builtinName(dag, node);
      if (name === "ifelse") {
        const [test, yes, no] = ["test", "yes", "no"].map((arg) => callArgument(dag, node, arg));
        if (test === undefined || yes === undefined || no === undefined) return undefined;
        return isZero(at(no)) && (isZero(at(test)) || isZero(at(yes)));
      }
      if (name === "replace") {
        const [target, pattern, replacement] = ["target", "pattern", "replacement"].map((arg) => callArgument(dag, node, arg));
        if (target === undefined) return undefined;
        const p = pattern === undefined ? undefined : constantOf(dag, pattern);
        const r = replacement === undefined ? undefined : constantOf(dag, replacement);
        return isZero(at(target)) && ((p !== undefined && p !== 0) || r === 0);
      }
      if (name === "min" || name === "max") {
        const operands = n.inputs.map(at);
        if (operands.some((o) => o.kind === "unknown")) return false;
        const values = operands.map(valueOf);
        return (name === "min" ? Math.min(...values) : Math.max(...values)) === 0;
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

function binaryIsZero(op: ElementwiseBinaryOp, a: AtCell, b: AtCell): boolean {
  switch (op) {
    case "*":
    case "&":
      return isZero(a) || isZero(b);
    case "/":
    case "%%":
    case "%/%":
      // 0 / 0 is NaN: zero only over a divisor known not to be 0 there.
      return isZero(a) && b.kind === "constant" && b.value !== 0 && !Number.isNaN(b.value);
    case "^":
      return isZero(a) && b.kind === "constant" && b.value > 0;
    default:
      return a.kind !== "unknown" && b.kind !== "unknown" && mapsZeroToZero(applyNumeric(op, valueOf(a), valueOf(b)));
  }
}

function isZero(v: AtCell): boolean {
  return v.kind === "zero" || (v.kind === "constant" && v.value === 0);
}

function valueOf(v: AtCell): number {
  return v.kind === "constant" ? v.value : 0;
}
