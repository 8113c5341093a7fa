/**
 * What an Outer operator's root is, relative to its cell expression W
 * (the covered node of the driver's shape computed per non-zero), as the
 * reference skeleton reads it (engine/runtime/fused/outer-skeleton.ts):
 * - `cells`: W itself, a matrix with the driver's pattern;
 * - `sum`: a full sum (or sum of squares) of W over the visited cells;
 * - `product`: W times a whole operand B, accumulated per non-zero (i, j)
 *   into row `over` of a buffer Y: `over` = "i" adds w * B'_j to Y_i,
 *   `over` = "j" adds w * B'_i to Y_j, where B' is the operand oriented so
 *   that its rows are the other index (the operand itself, or its
 *   transpose for the mirrored products `A %*% W`, `A %*% t(W)`); the
 *   root is Y, or t(Y) when `transposeResult`.
 * Anything else is an UnsupportedOperator naming the root.
 */
import type { FusionDag, FusedOperator } from "../../fusion";
import { sameShape, shapeText, type NodeShape } from "../fused";
import { UnsupportedOperator } from "./generated-operator";

export type OuterRoot =
  | { kind: "cells"; root: number; cells: number }
  | { kind: "sum"; root: number; cells: number; squared: boolean }
  | {
      kind: "product";
      root: number;
      cells: number;
      /** The whole operand B of the product. */
      other: number;
      /** Whether B' (rows indexed by the other loop index) is t(B) rather than B. */
      transposeOther: boolean;
      over: "i" | "j";
      transposeResult: boolean;
    };

/** How covered nodes read the driver: cell by cell, through a transpose, or both. */
type Alignment = "direct" | "transposed" | "mixed";

export function outerRoots(dag: FusionDag, op: FusedOperator, shapes: ReadonlyMap<number, NodeShape>): OuterRoot[] {
  const driver = op.binding.mainInput;
  if (driver === null) throw new UnsupportedOperator(`Outer operator ${op.id} has no sparse driver (main input)`);
  const domain = shapes.get(driver);
  if (!domain || domain.scalar) throw new UnsupportedOperator(`the driver of Outer operator ${op.id} is not a matrix`);
  const covered = new Set(op.covered);
  const alignment = driverAlignment(dag, op, driver);
  const shapeOf = (node: number) => shapes.get(node);
  const ofDomain = (node: number) => {
    const s = shapeOf(node);
    return covered.has(node) && !!s && sameShape(s, domain) && alignment.get(node) !== "transposed";
  };
  const isCells = (node: number) => ofDomain(node) && alignment.get(node) === "direct";

  return op.roots.map((root): OuterRoot => {
    const node = dag.nodes[root]!;
    const o = node.op;
    if (o.kind === "matmul") {
      const product = cellProduct(dag, covered, node.inputs as [number, number], isCells);
      if (product) return { kind: "product", root, ...product };
    }
    if (o.kind === "transpose" && covered.has(node.inputs[0]!)) {
      const below = dag.nodes[node.inputs[0]!]!;
      const product = below.op.kind === "matmul" ? cellProduct(dag, covered, below.inputs as [number, number], isCells) : undefined;
      if (product) return { kind: "product", root, ...product, transposeResult: !product.transposeResult };
    }
    if (o.kind === "aggregate" && ofDomain(node.inputs[0]!)) {
      if (o.direction !== "full" || (o.fn !== "sum" && o.fn !== "sumSq")) {
        throw new UnsupportedOperator(`Outer operator ${op.id}: no kernel for the aggregate ${o.fn} (${o.direction}) of its cells (only full sum and sumSq)`);
      }
      return { kind: "sum", root, cells: node.inputs[0]!, squared: o.fn === "sumSq" };
    }
    if (ofDomain(root)) return { kind: "cells", root, cells: root };
    const s = shapeOf(root);
    throw new UnsupportedOperator(
      `Outer operator ${op.id}: root ${root} (${o.kind}${s ? `, ${shapeText(s)}` : ""}) is neither its cell expression over the driver (${shapeText(domain)}), a sum of it, nor its product with a factor`,
    );
  });
}

/** The product's side that is W (or t(W)) and how it accumulates; undefined when neither side is. */
function cellProduct(
  dag: FusionDag,
  covered: ReadonlySet<number>,
  [a, b]: [number, number],
  isCells: (node: number) => boolean,
): Omit<Extract<OuterRoot, { kind: "product" }>, "kind" | "root"> | undefined {
  const transposedCells = (node: number) => {
    const n = dag.nodes[node]!;
    return covered.has(node) && n.op.kind === "transpose" && isCells(n.inputs[0]!) ? n.inputs[0]! : undefined;
  };
  // W %*% B: Y_i += w B_j.
  if (isCells(a)) return { cells: a, other: b, transposeOther: false, over: "i", transposeResult: false };
  // t(W) %*% B: Y_j += w B_i.
  const ta = transposedCells(a);
  if (ta !== undefined) return { cells: ta, other: b, transposeOther: false, over: "j", transposeResult: false };
  // A %*% W = t(t(W) %*% t(A)): Y_j += w t(A)_i.
  if (isCells(b)) return { cells: b, other: a, transposeOther: true, over: "j", transposeResult: true };
  // A %*% t(W) = t(W %*% t(A)): Y_i += w t(A)_j.
  const tb = transposedCells(b);
  if (tb !== undefined) return { cells: tb, other: a, transposeOther: true, over: "i", transposeResult: true };
  return undefined;
}

/** How covered nodes read the driver; nodes that do not read it are absent. */
function driverAlignment(dag: FusionDag, op: FusedOperator, driver: number): Map<number, Alignment> {
  const alignment = new Map<number, Alignment>([[driver, "direct"]]);
  for (const node of op.covered) {
    const n = dag.nodes[node]!;
    const read = new Set(n.inputs.map((i) => alignment.get(i)).filter((x) => x !== undefined));
    if (read.size === 0) continue;
    const one = read.size === 1 ? [...read][0]! : "mixed";
    alignment.set(node, n.op.kind === "transpose" && one !== "mixed" ? (one === "direct" ? "transposed" : "direct") : one);
  }
  return alignment;
}
