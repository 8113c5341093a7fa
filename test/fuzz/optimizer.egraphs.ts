/**
 * Random serialized e-graphs (engine/extract/serialized.ts format) for the
 * optimizer harness and the extraction tests: a few classes, each with a few
 * nodes of random (also negative) cost whose children are random classes,
 * so graphs have cycles, shared children and classes no root uses; and the
 * brute-force optimum of a tiny one (every choice of one node per class).
 */
import fc from "fast-check";
import { dagCost, parseSerializedEGraph, validateExtraction, type ExtractionGraph } from "../../engine/extract";

export interface RandomGraphShape {
  maxClasses: number;
  maxNodesPerClass: number;
  maxChildren: number;
  /** Allow negative node costs. */
  negative: boolean;
}

/** The serialized JSON of a random e-graph; class 0 is always a root. */
export function serializedEGraphs(shape: RandomGraphShape): fc.Arbitrary<unknown> {
  return fc.integer({ min: 1, max: shape.maxClasses }).chain((classCount) => {
    const cost = shape.negative ? fc.integer({ min: -20, max: 20 }) : fc.integer({ min: 0, max: 20 });
    const node = fc.record({ cost, children: fc.array(fc.integer({ min: 0, max: classCount - 1 }), { maxLength: shape.maxChildren }) });
    return fc.record({
      classes: fc.array(fc.array(node, { minLength: 1, maxLength: shape.maxNodesPerClass }), { minLength: classCount, maxLength: classCount }),
      roots: fc.uniqueArray(fc.integer({ min: 0, max: classCount - 1 }), { maxLength: 2 }),
    }).map(({ classes, roots }) => {
      const nodes: Record<string, { op: string; cost: number; eclass: string; children: string[] }> = {};
      classes.forEach((members, c) => {
        members.forEach((n, k) => {
          nodes[`${c}.${k}`] = { op: `f${k}`, cost: n.cost, eclass: `c${c}`, children: n.children.map((child) => `${child}.0`) };
        });
      });
      return { nodes, root_eclasses: [...new Set([0, ...roots])].map((r) => `c${r}`) };
    });
  });
}

export function randomGraph(json: unknown): ExtractionGraph {
  return parseSerializedEGraph(json);
}

/**
 * The least DAG cost over every valid extraction (one node per class, the
 * roots reach only chosen classes, no cycle), or undefined when none is
 * valid. Tries every combination: tiny graphs only (at most `limit`).
 */
export function bruteForceOptimum(graph: ExtractionGraph, limit = 100_000): number | undefined {
  const classes = [...graph.classes.keys()];
  const members = classes.map((c) => graph.classes.get(c)!.filter((id) => Number.isFinite(graph.nodes.get(id)!.cost)));
  const combinations = members.reduce((n, m) => n * Math.max(1, m.length), 1);
  if (combinations > limit) throw new Error(`brute force: ${combinations} combinations is above ${limit}`);
  let best: number | undefined;
  const choices = new Map<string, string>();
  const go = (k: number): void => {
    if (k === classes.length) {
      if (validateExtraction(graph, choices).length > 0) return;
      const cost = dagCost(graph, choices);
      if (best === undefined || cost < best) best = cost;
      return;
    }
    if (members[k]!.length === 0) {
      choices.delete(classes[k]!);
      go(k + 1);
      return;
    }
    for (const id of members[k]!) {
      choices.set(classes[k]!, id);
      go(k + 1);
    }
  };
  go(0);
  return best;
}
