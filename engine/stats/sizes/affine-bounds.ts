/**
 * Index bounds as affine forms: `k * (i - 1) + 1` and `k * i` with `k`
 * known and `i` not are `k*i - k + 1` and `k*i`, so `X[k*(i-1)+1 : k*i, ]`
 * has k rows whatever `i` is (SystemDS's scripts slice blocks of a matrix
 * this way: kmeans's best run, `All_Centroids[(k*(b-1)+1):(k*b), ]`). A
 * bound is a constant plus integer multiples of unknowns; an unknown is a
 * variable read by the block, or any node whose value is not known (the
 * same node is the same unknown). Products of two unknowns, divisions and
 * casts are unknowns of their own.
 */
import type { BlockDag } from "../../program";
import type { NodeStats } from "./node-stats";

interface Affine {
  constant: number;
  /** Coefficient of each unknown, by a key naming it. */
  terms: Map<string, number>;
}

/** How deep a bound's expression is followed (bounds are short expressions). */
const MAX_DEPTH = 16;

/**
 * `upper - lower + 1` when the two bounds (node ids of `dag`) differ by a
 * constant; undefined when they do not, or are not affine.
 */
export function affineSpan(dag: BlockDag, stats: readonly NodeStats[], lower: number, upper: number): number | undefined {
  if (lower === upper) return 1;
  const lo = affineForm(dag, stats, lower, 0);
  const hi = affineForm(dag, stats, upper, 0);
  if (!lo || !hi) return undefined;
  const difference = combine(hi, lo, -1);
  if (difference.terms.size > 0 || !Number.isFinite(difference.constant)) return undefined;
  return Math.round(difference.constant) + 1;
}

function affineForm(dag: BlockDag, stats: readonly NodeStats[], id: number, depth: number): Affine | undefined {
  const node = dag.nodes[id];
  const known = stats[id]?.value;
  if (typeof known === "number") return Number.isFinite(known) ? { constant: known, terms: new Map() } : undefined;
  if (typeof known === "boolean") return { constant: known ? 1 : 0, terms: new Map() };
  if (!node || typeof known === "string") return undefined;
  const unknown = (): Affine => ({ constant: 0, terms: new Map([[node.op.kind === "input" ? `input ${node.op.name}` : `node ${id}`, 1]]) });
  if (stats[id]?.type.dataType === "matrix") return undefined;
  if (depth >= MAX_DEPTH) return unknown();
  const operand = (k: number) => affineForm(dag, stats, node.inputs[k]!, depth + 1);
  if (node.op.kind === "binary" && (node.op.op === "+" || node.op.op === "-" || node.op.op === "*")) {
    const a = operand(0);
    const b = operand(1);
    if (!a || !b) return unknown();
    if (node.op.op === "+") return combine(a, b, 1);
    if (node.op.op === "-") return combine(a, b, -1);
    if (a.terms.size === 0) return scaled(b, a.constant);
    if (b.terms.size === 0) return scaled(a, b.constant);
    return unknown();
  }
  if (node.op.kind === "unary" && node.op.op === "-") {
    const a = operand(0);
    return a ? scaled(a, -1) : unknown();
  }
  return unknown();
}

function combine(a: Affine, b: Affine, sign: 1 | -1): Affine {
  const terms = new Map(a.terms);
  for (const [key, c] of b.terms) {
    const sum = (terms.get(key) ?? 0) + sign * c;
    if (sum === 0) terms.delete(key);
    else terms.set(key, sum);
  }
  return { constant: a.constant + sign * b.constant, terms };
}

function scaled(a: Affine, factor: number): Affine {
  if (factor === 0) return { constant: 0, terms: new Map() };
  return { constant: a.constant * factor, terms: new Map([...a.terms].map(([key, c]) => [key, c * factor])) };
}
