/**
 * An extracted plan's cost in the units the editor can show besides time:
 * floating-point operations and bytes moved (read + written), summed over
 * the plan's operations, each shared sub-plan once (as extraction's DAG
 * cost counts it). Unknown when any operation's sizes are.
 */
import type { Extraction, ExtractionGraph } from "../extract";
import { enodeMeasures, type BlockEGraph } from "../rewrite";

export interface PlanMeasures {
  flops: number | null;
  bytes: number | null;
}

export function planMeasures(block: BlockEGraph, graph: ExtractionGraph, extraction: Extraction): PlanMeasures {
  let flops = 0;
  let bytes = 0;
  let known = true;
  const seen = new Set<string>();
  const visit = (cls: string): void => {
    if (seen.has(cls)) return;
    seen.add(cls);
    const node = graph.nodes.get(extraction.choices.get(cls)!)!;
    const children = node.children.map((child) => graph.nodes.get(child)!.eclass);
    if (children.length > 0) {
      const measures = enodeMeasures(block.egraph, { op: node.op, children: children.map(Number) }, Number(cls));
      if (typeof measures === "string") known = false;
      else {
        flops += measures.flops;
        bytes += measures.bytes;
      }
    }
    children.forEach(visit);
  };
  for (const root of graph.roots) visit(root);
  return known ? { flops, bytes } : { flops: null, bytes: null };
}

/** Sums of measures; unknown when either is. */
export function addMeasures(a: PlanMeasures, b: PlanMeasures): PlanMeasures {
  return { flops: a.flops === null || b.flops === null ? null : a.flops + b.flops, bytes: a.bytes === null || b.bytes === null ? null : a.bytes + b.bytes };
}
