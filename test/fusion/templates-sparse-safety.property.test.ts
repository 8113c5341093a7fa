// Property: a fused operator the templates call sparse-safe really ignores
// the zero cells of its main input. Random cell-wise expressions over a
// sparse X, a dense Y and constants are planned; when the operator covering
// the expression is sparse-safe for main input M, evaluating the expression
// at a cell where M is 0 (the other matrix at random values) gives 0, as a
// result cell (no aggregation) or as a contribution to a sum. Every
// operator's binding is also a partition of its inputs.
import { strict as assert } from "node:assert";
import { test } from "node:test";
import fc from "fast-check";
import type { ElementwiseBinaryOp, ElementwiseUnaryOp } from "../../engine/program/dag-types";
import { applyNumeric, applyNumericUnary } from "../../engine/stats/sizes/scalar-fold";
import { lastPlan } from "./plan-text";

type Expr = { kind: "X" } | { kind: "Y" } | { kind: "const"; value: number } | { kind: "unary"; op: ElementwiseUnaryOp; a: Expr } | { kind: "binary"; op: ElementwiseBinaryOp; a: Expr; b: Expr };

const UNARY: ElementwiseUnaryOp[] = ["abs", "sign", "round", "floor", "ceil", "-", "!", "sin", "cos", "exp", "sqrt", "tanh"];
const BINARY: ElementwiseBinaryOp[] = ["+", "-", "*", "/", "^", "%%", "%/%", "min", "max", "!=", "==", ">", "<", ">=", "&", "|"];
const CONSTANTS = [0, 1, 2, -1, 0.5, 3];

const expr: fc.Arbitrary<Expr> = fc.letrec<{ e: Expr }>((tie) => ({
  e: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constant<Expr>({ kind: "X" }),
    fc.constant<Expr>({ kind: "Y" }),
    fc.constantFrom(...CONSTANTS).map((value): Expr => ({ kind: "const", value })),
    fc.record({ kind: fc.constant("unary" as const), op: fc.constantFrom(...UNARY), a: tie("e") }),
    fc.record({ kind: fc.constant("binary" as const), op: fc.constantFrom(...BINARY), a: tie("e"), b: tie("e") }),
  ),
})).e;

function dml(e: Expr): string {
  switch (e.kind) {
    case "X":
    case "Y":
      return e.kind;
    case "const":
      return e.value < 0 ? `(${e.value})` : String(e.value);
    case "unary":
      return e.op === "-" || e.op === "!" ? `(${e.op}${dml(e.a)})` : `${e.op}(${dml(e.a)})`;
    case "binary":
      return e.op === "min" || e.op === "max" ? `${e.op}(${dml(e.a)}, ${dml(e.b)})` : `(${dml(e.a)} ${e.op} ${dml(e.b)})`;
  }
}

const num = (v: number | boolean | undefined) => (typeof v === "boolean" ? (v ? 1 : 0) : (v ?? Number.NaN));

/** The expression's value at one cell, or NaN when any step is not finite (IEEE corner cases the analysis ignores, as SystemDS does). */
function evaluate(e: Expr, x: number, y: number): number {
  const finite = (v: number) => (Number.isFinite(v) ? v : Number.NaN);
  switch (e.kind) {
    case "X":
      return x;
    case "Y":
      return y;
    case "const":
      return e.value;
    case "unary":
      return finite(num(applyNumericUnary(e.op, evaluate(e.a, x, y))));
    case "binary":
      return finite(num(applyNumeric(e.op, evaluate(e.a, x, y), evaluate(e.b, x, y))));
  }
}

const mentions = (e: Expr): boolean => e.kind === "X" || e.kind === "Y" || (e.kind === "unary" && mentions(e.a)) || (e.kind === "binary" && (mentions(e.a) || mentions(e.b)));

const DATA = `X = rand(rows=300, cols=200, sparsity=0.05)
Y = rand(rows=300, cols=200, min=-2, max=2)
if (nrow(X) > 0) { print("data") }
`;

test("a sparse-safe operator's expression is zero wherever its main input is zero", () => {
  fc.assert(
    fc.property(expr, fc.boolean(), fc.array(fc.double({ min: -3, max: 3, noNaN: true }), { minLength: 3, maxLength: 3 }), (e, summed, others) => {
      fc.pre(mentions(e) && e.kind !== "X" && e.kind !== "Y");
      const body = summed ? `s = sum(${dml(e)})\nprint(s)` : `Q = ${dml(e)}\nprint(toString(Q))`;
      const b = lastPlan(DATA + body);
      for (const op of b.plan.operators) {
        const bound = [op.binding.mainInput, ...op.binding.sideInputs, ...op.binding.scalarInputs].filter((i) => i !== null);
        assert.deepEqual([...bound].sort((p, q) => p - q), [...op.inputs].sort((p, q) => p - q), "binding partitions the inputs");
      }
      // The expression's node: below print (and toString).
      let root = b.dag.roots[0]!;
      while (b.dag.nodes[root]!.op.kind === "call") root = b.dag.nodes[root]!.inputs[0]!;
      const op = b.plan.operators.find((o) => o.roots.includes(root));
      if (!op || !op.binding.sparseSafe || op.binding.mainInput === null) return;
      // The whole expression must be inside the operator for the check below.
      if (op.inputs.some((i) => !["X", "Y"].includes(b.text(i)) && b.dag.stats[i]!.type.dataType !== "scalar")) return;
      const main = b.text(op.binding.mainInput);
      for (const other of others) {
        const value: number = main === "X" ? evaluate(e, 0, other) : evaluate(e, other, 0);
        if (Number.isNaN(value)) continue;
        assert.equal(value === 0, true, `${dml(e)} with ${main} = 0 and the other ${other} gives ${value}`);
      }
    }),
    { numRuns: 150 },
  );
});
