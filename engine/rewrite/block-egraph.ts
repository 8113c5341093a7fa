/**
 * A statement block's LA DAG in the optimizer's e-graph: each DAG node the
 * optimizer understands becomes an LA e-node; anything else (user functions,
 * indexing, string operations, ...) is an opaque leaf `dag:ID` with the
 * node's sizes, a barrier the rules never look into.
 */
import { EGraph, type ClassId, type ENode } from "../egraph";
import type { BlockDag, DagNode } from "../program";
import type { NodeStats } from "../stats/sizes/node-stats";
import { OptimizerAnalysis, type OptimizerData } from "./analysis";
import { AttributeTable } from "./attributes";
import { fillOp, isElementwiseBinaryOp, literalOp, opOfDag, outerOp } from "./la-ops";
import { bindRoot } from "./root-binds";

export interface BlockEGraph {
  egraph: EGraph<OptimizerData>;
  attributes: AttributeTable;
  /** The class of each DAG node, by node id. */
  classOfNode: ClassId[];
  /** The e-nodes added for DAG nodes (the original plan), by node id. */
  originalNodes: ENode[];
  /** Leaf op → the DAG node it stands for (`var:NAME` → the input node, `dag:ID` → node ID). */
  leafNodes: Map<string, DagNode>;
}

export interface BlockEGraphOptions {
  explanations?: boolean;
  /** Check the e-graph's invariants after every rebuild (slow: for tests). */
  checkInvariants?: boolean;
}

export function buildBlockEGraph(dag: BlockDag, stats: readonly NodeStats[], options: BlockEGraphOptions = {}): BlockEGraph {
  const attributes = new AttributeTable();
  const leafNodes = new Map<string, DagNode>();
  const leafStats = (op: string) => {
    const node = leafNodes.get(op);
    return node ? stats[node.id] : undefined;
  };
  const egraph = new EGraph<OptimizerData>(new OptimizerAnalysis(attributes, leafStats), { explanations: options.explanations ?? false, checkInvariants: options.checkInvariants ?? false });
  const classOfNode: ClassId[] = [];
  const originalNodes: ENode[] = [];
  for (const node of dag.nodes) {
    const enode = toENode(node, stats, classOfNode);
    if (enode.children.length === 0 && !enode.op.startsWith("lit:")) leafNodes.set(enode.op, node);
    originalNodes[node.id] = enode;
    classOfNode[node.id] = egraph.add(enode);
  }
  egraph.rebuild();
  const result: BlockEGraph = { egraph, attributes, classOfNode, originalNodes, leafNodes };
  return result;
}

/** Adds the relational form of each root class (a bind with fresh attributes; unbinding follows from the rules). */
export function bindRoots(block: BlockEGraph, roots: readonly ClassId[]): void {
  for (const root of roots) bindRoot(block.egraph, block.attributes, root);
  block.egraph.rebuild();
}

function toENode(node: DagNode, stats: readonly NodeStats[], classOfNode: readonly ClassId[]): ENode {
  const opaque: ENode = { op: `dag:${node.id}`, children: [] };
  const op = node.op;
  if (op.kind === "literal") return typeof op.value === "number" ? { op: literalOp(op.value), children: [] } : opaque;
  if (op.kind === "input") return { op: `var:${op.name}`, children: [] };
  const own = stats[node.id];
  if (op.kind === "matrix") {
    const data = stats[node.inputs[0]!];
    if (own && own.rows !== null && own.cols !== null && data?.type.dataType === "scalar" && node.inputs.length >= 1) {
      return { op: fillOp(own.rows, own.cols), children: [classOfNode[node.inputs[0]!]!] };
    }
    return reshapeENode(node, stats, classOfNode) ?? opaque;
  }
  if (op.kind === "call" || op.kind === "diag") return reorganizeENode(node, stats, classOfNode) ?? opaque;
  const eop = opOfDag(op, node.inputs.length);
  if (eop === undefined) return opaque;
  return { op: eop, children: node.inputs.map((i) => classOfNode[i]!) };
}

const sized = (s: NodeStats | undefined) => s !== undefined && s.type.dataType === "matrix" && s.rows !== null && s.cols !== null;

/**
 * `matrix(X, rows=R, cols=C)` of a matrix X (row-major: no `byrow`, or
 * `byrow=TRUE`) with known dims: (reshape X R C), the dims as the script
 * computes them.
 */
function reshapeENode(node: DagNode, stats: readonly NodeStats[], classOfNode: readonly ClassId[]): ENode | undefined {
  const names = node.argNames ?? [];
  const at = (name: string, position: number) => {
    const k = names.indexOf(name);
    if (k >= 0) return k;
    let seen = 0;
    for (let i = 0; i < node.inputs.length; i++) {
      if (names[i] !== undefined) continue;
      if (seen === position) return i;
      seen++;
    }
    return -1;
  };
  const [data, rows, cols, byrow] = [at("data", 0), at("rows", 1), at("cols", 2), at("byrow", 3)];
  if (data < 0 || rows < 0 || cols < 0 || !sized(stats[node.id]) || !sized(stats[node.inputs[data]!])) return undefined;
  if (byrow >= 0 && stats[node.inputs[byrow]!]?.value !== true) return undefined;
  if (names.some((n) => n !== undefined && !["data", "rows", "cols", "byrow"].includes(n))) return undefined;
  return { op: "reshape", children: [data, rows, cols].map((k) => classOfNode[node.inputs[k]!]!) };
}

/**
 * rev(X), roll(X, k), trace(X) (or tr), outer(v, r, "OP") and diag(X) with
 * positional arguments and known sizes (an unknown size would cost as
 * unknown where the opaque call cost nothing).
 */
function reorganizeENode(node: DagNode, stats: readonly NodeStats[], classOfNode: readonly ClassId[]): ENode | undefined {
  if ((node.argNames ?? []).some((n) => n !== undefined) || !sized(stats[node.inputs[0]!])) return undefined;
  const children = node.inputs.map((i) => classOfNode[i]!);
  const op = node.op;
  if (op.kind === "diag") return node.inputs.length === 1 && sized(stats[node.id]) ? { op: "diag", children } : undefined;
  if (op.kind !== "call" || op.user || op.output !== 0) return undefined;
  const name = op.name === "tr" ? "trace" : op.name;
  if (name === "trace" && node.inputs.length === 1) return { op: "trace", children };
  if (!sized(stats[node.id])) return undefined;
  if ((name === "rev" && node.inputs.length === 1) || (name === "roll" && node.inputs.length === 2)) return { op: name, children };
  if (name !== "outer" || node.inputs.length !== 3 || !sized(stats[node.inputs[1]!])) return undefined;
  const operator = stats[node.inputs[2]!]?.value;
  if (typeof operator !== "string" || !isElementwiseBinaryOp(operator)) return undefined;
  return { op: outerOp(operator), children: children.slice(0, 2) };
}
