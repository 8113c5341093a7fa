/**
 * The fusion planner's inputs for one statement block: the block's DAG as
 * written (with its source ranges), and the block as rewritten (every
 * offered suggestion's extracted plan in place of its original statement).
 */
import { fusionDagOfBlock, planFusion, type FusionDag } from "../fusion";
import { textInRange } from "../syntax/ranges";
import type { FusionView } from "./block-fusion";
import { fusionView, type FusionViewSource } from "./fusion-view";
import type { BlockInput } from "./optimize-block";

/** The block's DAG as written, planned. */
export function asWrittenFusion(input: BlockInput): FusionView {
  const dag = fusionDagOfBlock(input.dag, input.stats);
  return fusionView(dag, planFusion(dag), asWrittenSource(input, dag));
}

/** Nodes named as written: a variable by its name, a value assigned to a variable by the variable, else the source text. */
function asWrittenSource(input: BlockInput, dag: FusionDag): FusionViewSource {
  const assigned = new Map<number, string>();
  for (const [name, node] of input.dag.outputs) if (!assigned.has(node)) assigned.set(node, name);
  const written = (node: number) => {
    const n = dag.nodes[node]!;
    if (n.op.kind === "input") return n.op.name;
    if (n.op.kind === "literal") return String(n.op.value);
    return textInRange(input.sourceText, n.range).replace(/\s+/g, " ").trim();
  };
  return {
    text: written,
    inputText: (node) => assigned.get(node) ?? written(node),
    range: (node) => dag.nodes[node]!.range,
  };
}
