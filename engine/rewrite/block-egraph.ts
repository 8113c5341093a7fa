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
import { fillOp, literalOp, opOfDag } from "./la-ops";
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
}

export function buildBlockEGraph(dag: BlockDag, stats: readonly NodeStats[], options: BlockEGraphOptions = {}): BlockEGraph {
  const attributes = new AttributeTable();
  const leafNodes = new Map<string, DagNode>();
  const leafStats = (op: string) => {
    const node = leafNodes.get(op);
    return node ? stats[node.id] : undefined;
  };
  const egraph = new EGraph<OptimizerData>(new OptimizerAnalysis(attributes, leafStats), { explanations: options.explanations ?? false });
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
    return opaque;
  }
  const eop = opOfDag(op, node.inputs.length);
  if (eop === undefined) return opaque;
  return { op: eop, children: node.inputs.map((i) => classOfNode[i]!) };
}
