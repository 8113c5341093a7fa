/**
 * The e-graph tests' analysis: constant folding over + and * on integers
 * (after egg's ConstantFold). An operator that is an integer ("3", "-2") is a
 * constant; (+ a b) and (* a b) of two constants fold; `modify` adds the
 * folded constant to the class. Two different constants in one class are a
 * contradiction the merge reports. Every graph the tests build checks its
 * invariants after each rebuild.
 */
import { EGraph, type Analysis, type EGraphOptions, type ENode, type EGraphView } from "../../engine/egraph";

export type Constant = number | null;

export function constantOf(op: string): Constant {
  return /^-?\d+$/.test(op) ? Number(op) : null;
}

export const constantFolding: Analysis<Constant> = {
  make(egraph: EGraphView<Constant>, node: ENode): Constant {
    const own = constantOf(node.op);
    if (own !== null || node.children.length !== 2) return own;
    const [a, b] = node.children.map((c) => egraph.data(c));
    if (a === null || b === null || a === undefined || b === undefined) return null;
    if (node.op === "+") return a + b;
    if (node.op === "*") return a * b;
    return null;
  },
  merge(a, b) {
    if (a !== null && b !== null && a !== b) throw new Error(`constant folding: ${a} and ${b} were merged`);
    return { data: a ?? b, changedA: a === null && b !== null, changedB: b === null && a !== null };
  },
  modify(egraph, id) {
    const value = egraph.data(id);
    if (value !== null) egraph.union(id, egraph.add({ op: String(value), children: [] }), "constant folding");
  },
};

/** An analysis that knows nothing (for tests of structure alone). */
export const noAnalysis: Analysis<null> = { make: () => null, merge: () => ({ data: null, changedA: false, changedB: false }) };

/** A constant-folding e-graph that checks its invariants after every rebuild. */
export function foldingGraph(options: EGraphOptions = {}): EGraph<Constant> {
  return new EGraph<Constant>(constantFolding, { checkInvariants: true, ...options });
}

/** A structure-only e-graph that checks its invariants after every rebuild. */
export function plainGraph(options: EGraphOptions = {}): EGraph<null> {
  return new EGraph<null>(noAnalysis, { checkInvariants: true, ...options });
}
