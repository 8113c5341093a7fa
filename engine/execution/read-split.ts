/**
 * Reads first: a block that reads a data file and computes with it (the
 * first cell of most scripts: `X = read($X)` then `W = (X != 0)`, a loss)
 * would be compiled without the file's sizes, so nothing after the read
 * could be rewritten or fused. As SystemDS recompiles once a read's sizes
 * are known, the block is split: its reads (and the scalars they are
 * given: file names, formats) run first, then the rest of the block is
 * compiled with the values read as inputs. Only when no effect (print,
 * write, stop) comes before a read: the order of effects stays as written.
 */
import type { BlockDag, DagNode } from "../program";

export interface ReadSplit {
  /** The reads and the nodes they need; its outputs are the reads' values, named by `readInputName`. */
  reads: BlockDag;
  /** The block with every read's node an input of that name. */
  rest: BlockDag;
}

function readInputName(node: number): string {
  return `.read${node}`;
}

/** The split of a block with reads and no effect before them; undefined otherwise. */
export function splitAtReads(dag: BlockDag): ReadSplit | undefined {
  const reads = dag.nodes.filter((n) => n.op.kind === "read").map((n) => n.id);
  if (reads.length === 0) return undefined;
  const lastRead = Math.max(...reads);
  if (dag.sinks.some((s) => s.node < lastRead)) return undefined;
  const needed = new Set<number>();
  const stack = [...reads];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (needed.has(id)) continue;
    needed.add(id);
    stack.push(...dag.nodes[id]!.inputs);
  }
  const order = [...needed].sort((a, b) => a - b);
  const newId = new Map(order.map((id, k) => [id, k]));
  const prefixNodes: DagNode[] = order.map((id, k) => ({ ...dag.nodes[id]!, id: k, inputs: dag.nodes[id]!.inputs.map((i) => newId.get(i)!) }));
  const prefixInputs = new Map([...dag.inputs].filter(([, id]) => needed.has(id)).map(([name, id]) => [name, newId.get(id)!]));
  const readSet = new Set(reads);
  const restNodes: DagNode[] = dag.nodes.map((n) => (readSet.has(n.id) ? asInputNode(n, readInputName(n.id)) : n));
  return {
    reads: { nodes: prefixNodes, inputs: prefixInputs, outputs: new Map(reads.map((id) => [readInputName(id), newId.get(id)!])), sinks: [] },
    rest: { ...dag, nodes: restNodes, inputs: new Map([...dag.inputs, ...reads.map((id) => [readInputName(id), id] as const)]) },
  };
}

/** `node` as an input named `name`: no operands, so no argument names. */
function asInputNode(node: DagNode, name: string): DagNode {
  const { argNames: _operandNames, ...rest } = node;
  return { ...rest, op: { kind: "input", name }, inputs: [] };
}
