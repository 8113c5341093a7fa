/**
 * Explanations (after egg's explain.rs, simplified): every e-node added is a
 * proof node; each union records an edge between the two nodes it was
 * given, labelled with the rule (or "congruence"). The explanation of
 * a = b is the path of edges between their nodes.
 */
import { smallestTerms } from "./smallest-term";
import { printTerm } from "./pattern";
import type { ClassId, EGraphView, ENode, ExplanationStep, Justification } from "./types";

interface Edge {
  to: ClassId;
  why: Justification;
}

export class ProofForest {
  private readonly nodes: ENode[] = [];
  private readonly edges: Edge[][] = [];

  addNode(id: ClassId, node: ENode): void {
    this.nodes[id] = node;
    this.edges[id] = [];
  }

  addEdge(a: ClassId, b: ClassId, why: Justification): void {
    this.edges[a]!.push({ to: b, why });
    this.edges[b]!.push({ to: a, why });
  }

  explain<D>(a: ClassId, b: ClassId, egraph: EGraphView<D> & { classes(): Iterable<{ id: ClassId; nodes: readonly ENode[] }> }): ExplanationStep[] {
    const previous = new Map<ClassId, { from: ClassId; why: Justification }>();
    const queue = [a];
    previous.set(a, { from: a, why: "" });
    while (queue.length > 0 && !previous.has(b)) {
      const at = queue.shift()!;
      for (const edge of this.edges[at] ?? []) {
        if (!previous.has(edge.to)) {
          previous.set(edge.to, { from: at, why: edge.why });
          queue.push(edge.to);
        }
      }
    }
    if (!previous.has(b)) return [];
    const path: { from: ClassId; to: ClassId; why: Justification }[] = [];
    for (let at = b; at !== a; ) {
      const step = previous.get(at)!;
      path.push({ from: step.from, to: at, why: step.why });
      at = step.from;
    }
    path.reverse();
    const terms = smallestTerms(egraph);
    const print = (id: ClassId) => {
      const node = this.nodes[id]!;
      return printTerm({ op: node.op, children: node.children.map((c) => terms.get(egraph.find(c)) ?? { op: `c${c}`, children: [] }) });
    };
    return path.map((p) => ({ rule: p.why, left: print(p.from), right: print(p.to) }));
  }
}
