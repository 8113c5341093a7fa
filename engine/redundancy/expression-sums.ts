/**
 * One matrix expression of the source as a sum of chains (chain-terms.ts):
 * `%*%`, `t()`, `+`, `-`, unary minus and scaling by a scalar are taken
 * apart; anything else matrix-valued (`X * Y`, `diag(v)`, a call) is an
 * opaque factor. Every matrix-valued node on the way gets its own sum, so a
 * window can be matched against the node that computes exactly it, and its
 * parent, so the smallest node holding a window can be found. Scalar
 * factors and opaque factors are listed: they may hold chains of their own.
 */
import type { Expression, Identifier } from "../syntax";
import { MAX_PRODUCTS_PER_EXPRESSION, multiplySums, negateSum, scaleSum, transposeSum, type Atom, type ScalarFactor, type Sum } from "./chain-terms";

export type ValueKind = "matrix" | "scalar" | "other";

export interface SumContext {
  kindOf(e: Expression): ValueKind;
  identifierAtom(e: Identifier): Atom;
  opaqueAtom(e: Expression): Atom;
  textOf(e: Expression): string;
  /** A fresh leaf id for a factor taken from `e`. */
  newLeaf(e: Expression): number;
}

export interface ExpressionSums {
  root: Expression;
  sum: Sum;
  /** The sum of every matrix node inside the expression that was taken apart. */
  sums: Map<Expression, Sum>;
  parents: Map<Expression, Expression>;
  /** Expressions kept whole (opaque factors, scalar factors): they may hold further chains. */
  inner: Expression[];
  /** The product bound stopped an expansion somewhere. */
  truncated: boolean;
}

export function expressionSums(root: Expression, context: SumContext): ExpressionSums {
  const sums = new Map<Expression, Sum>();
  const parents = new Map<Expression, Expression>();
  const inner: Expression[] = [];
  let truncated = false;

  const opaque = (e: Expression): Sum => {
    inner.push(e);
    const sum: Sum = [{ negative: false, scalars: [], factors: [{ atom: context.opaqueAtom(e), transposed: false, leaf: context.newLeaf(e) }] }];
    sums.set(e, sum);
    return sum;
  };
  const scalar = (e: Expression, inverse: boolean): ScalarFactor => {
    inner.push(e);
    const simple = e.kind === "identifier" || e.kind === "number" || e.kind === "call";
    return { text: simple ? context.textOf(e) : `(${context.textOf(e)})`, range: e.range, inverse };
  };
  const child = (e: Expression, parent: Expression): Sum => {
    parents.set(e, parent);
    return visit(e);
  };

  function visit(e: Expression): Sum {
    const sum = build(e);
    sums.set(e, sum);
    return sum;
  }

  function build(e: Expression): Sum {
    if (e.kind === "identifier") return [{ negative: false, scalars: [], factors: [{ atom: context.identifierAtom(e), transposed: false, leaf: context.newLeaf(e) }] }];
    if (e.kind === "call" && e.callee.name === "t" && e.args.length === 1 && e.args[0]!.name === undefined && context.kindOf(e.args[0]!.value) === "matrix") {
      return transposeSum(child(e.args[0]!.value, e));
    }
    if (e.kind === "unary" && (e.op === "-" || e.op === "+") && context.kindOf(e.operand) === "matrix") {
      const operand = child(e.operand, e);
      return e.op === "-" ? negateSum(operand) : operand;
    }
    if (e.kind === "binary") {
      const left = context.kindOf(e.left);
      const right = context.kindOf(e.right);
      if (e.op === "%*%" && left === "matrix" && right === "matrix") {
        const l = child(e.left, e);
        const r = child(e.right, e);
        const product = multiplySums(l, r);
        if (product) return product;
        truncated = true;
        return opaque(e);
      }
      if ((e.op === "+" || e.op === "-") && left === "matrix" && right === "matrix") {
        const l = child(e.left, e);
        const r = child(e.right, e);
        if (l.length + r.length > MAX_PRODUCTS_PER_EXPRESSION) {
          truncated = true;
          return opaque(e);
        }
        return [...l, ...(e.op === "-" ? negateSum(r) : r)];
      }
      if (e.op === "*" && left === "scalar" && right === "matrix") return scaleSum(child(e.right, e), scalar(e.left, false));
      if ((e.op === "*" || e.op === "/") && left === "matrix" && right === "scalar") return scaleSum(child(e.left, e), scalar(e.right, e.op === "/"));
    }
    return opaque(e);
  }

  const sum = visit(root);
  return { root, sum, sums, parents, inner, truncated };
}
