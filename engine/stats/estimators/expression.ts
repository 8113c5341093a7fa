/**
 * A small matrix-expression tree over structures, evaluated either exactly
 * (structure-ops.ts) or with any sparsity estimator. Tests and the
 * `estimators` benchmark describe their cases with it; it is not the program
 * DAG.
 */
import { type AggregateAxis, elementwiseShape, type MatrixShape, productShape } from "../matrix-shape";
import { type SparsityStructure, transposeStructure } from "../structure";
import { exactAggregate, exactElementwise, exactProduct } from "../structure-ops";
import type { SparsityEstimator } from "./estimator";

export type SparsityExpr =
  | { readonly op: "input"; readonly name: string; readonly structure: SparsityStructure }
  | { readonly op: "t"; readonly arg: SparsityExpr }
  | { readonly op: "%*%"; readonly left: SparsityExpr; readonly right: SparsityExpr }
  /** `*` annihilates (non-zero where all are), `+` does not (non-zero where any is); both broadcast. */
  | { readonly op: "*" | "+"; readonly args: readonly SparsityExpr[] }
  | { readonly op: "agg"; readonly over: AggregateAxis; readonly arg: SparsityExpr };

export const input = (name: string, structure: SparsityStructure): SparsityExpr => ({ op: "input", name, structure });
export const t = (arg: SparsityExpr): SparsityExpr => ({ op: "t", arg });
export const matmul = (left: SparsityExpr, right: SparsityExpr): SparsityExpr => ({ op: "%*%", left, right });
export const times = (...args: SparsityExpr[]): SparsityExpr => ({ op: "*", args });
export const plus = (...args: SparsityExpr[]): SparsityExpr => ({ op: "+", args });
export const rowSums = (arg: SparsityExpr): SparsityExpr => ({ op: "agg", over: "cols", arg });
export const colSums = (arg: SparsityExpr): SparsityExpr => ({ op: "agg", over: "rows", arg });
export const sumAll = (arg: SparsityExpr): SparsityExpr => ({ op: "agg", over: "all", arg });

export function exprShape(e: SparsityExpr): MatrixShape {
  switch (e.op) {
    case "input":
      return { rows: e.structure.rows, cols: e.structure.cols };
    case "t": {
      const s = exprShape(e.arg);
      return { rows: s.cols, cols: s.rows };
    }
    case "%*%":
      return productShape(exprShape(e.left), exprShape(e.right));
    case "*":
    case "+":
      return elementwiseShape(e.args.map(exprShape));
    case "agg": {
      const s = exprShape(e.arg);
      return e.over === "cols" ? { rows: s.rows, cols: 1 } : e.over === "rows" ? { rows: 1, cols: s.cols } : { rows: 1, cols: 1 };
    }
  }
}

/** The exact structure (boolean semantics). */
export function evaluateExact(e: SparsityExpr): SparsityStructure {
  switch (e.op) {
    case "input":
      return e.structure;
    case "t":
      return transposeStructure(evaluateExact(e.arg));
    case "%*%":
      return exactProduct(evaluateExact(e.left), evaluateExact(e.right));
    case "*":
    case "+":
      return exactElementwise(e.op === "*" ? "intersect" : "union", e.args.map(evaluateExact), exprShape(e));
    case "agg":
      return exactAggregate(evaluateExact(e.arg), e.over);
  }
}

/** The statistics an estimator derives for `e`; `leaf` gives those of each input (e.g. prebuilt). */
export function evaluateWith<S>(
  estimator: SparsityEstimator<S>,
  e: SparsityExpr,
  leaf: (name: string, structure: SparsityStructure) => S = (_, s) => estimator.fromData(s),
): S {
  const go = (x: SparsityExpr): S => {
    switch (x.op) {
      case "input":
        return leaf(x.name, x.structure);
      case "t":
        return estimator.transpose(go(x.arg));
      case "%*%":
        return estimator.matmul(go(x.left), go(x.right));
      case "*":
        return estimator.annihilatingMap(x.args.map(go), exprShape(x));
      case "+":
        return estimator.nonAnnihilatingMap(x.args.map(go), exprShape(x));
      case "agg":
        return estimator.aggregate(go(x.arg), x.over);
    }
  };
  return go(e);
}

/** The distinct inputs of `e`, by name, in first-use order. */
export function exprInputs(e: SparsityExpr): Map<string, SparsityStructure> {
  const found = new Map<string, SparsityStructure>();
  const walk = (x: SparsityExpr): void => {
    switch (x.op) {
      case "input":
        found.set(x.name, x.structure);
        return;
      case "%*%":
        walk(x.left);
        walk(x.right);
        return;
      case "*":
      case "+":
        x.args.forEach(walk);
        return;
      case "t":
      case "agg":
        walk(x.arg);
    }
  };
  walk(e);
  return found;
}

const precedence = { "%*%": 3, "*": 2, "+": 1 } as const;

/** DML text of `e`, e.g. `t(X) %*% X`, `rowSums(X * Y)`. */
export function exprText(e: SparsityExpr): string {
  switch (e.op) {
    case "input":
      return e.name;
    case "t":
      return `t(${exprText(e.arg)})`;
    case "agg":
      return `${e.over === "cols" ? "rowSums" : e.over === "rows" ? "colSums" : "sum"}(${exprText(e.arg)})`;
    case "%*%":
      return binaryText("%*%", [e.left, e.right]);
    case "*":
    case "+":
      return binaryText(e.op, e.args);
  }
}

function binaryText(op: keyof typeof precedence, args: readonly SparsityExpr[]): string {
  return args
    .map((a, n) => {
      const inner = a.op === "%*%" || a.op === "*" || a.op === "+" ? precedence[a.op] : 4;
      const needs = n === 0 ? inner < precedence[op] : inner <= precedence[op];
      return needs ? `(${exprText(a)})` : exprText(a);
    })
    .join(` ${op} `);
}
