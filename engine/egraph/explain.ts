/**
 * Explanations (after egg's explain.rs, simplified): every e-node added is a
 * proof node; each union records an edge between the two nodes it was
 * given, labelled with the rule (or "congruence"). The explanation of
 * a = b is the path of edges between their nodes.
 */
import { printTerm } from "./pattern";
import type { ClassId, ENode, ExplanationStep, Justification, Term } from "./types";

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

  /**
   * The path of unions between two proof nodes of one class, each step with
   * its rule and the terms it equates. A congruence step (same operator,
   * children equal) is explained by the steps that made its children equal,
   * down to `congruenceDepth` levels (egg's flattened explanations).
   */
  explain(a: ClassId, b: ClassId, maxDepth = 4, congruenceDepth = 3): ExplanationStep[] {
    const path = this.path(a, b);
    if (!path) return [];
    const steps: ExplanationStep[] = [];
    for (const p of path) {
      const from = this.nodes[p.from]!;
      const to = this.nodes[p.to]!;
      if (p.why === "congruence" && congruenceDepth > 0 && from.op === to.op && from.children.length === to.children.length) {
        const inner = from.children.flatMap((c, k) => (c === to.children[k] ? [] : this.explain(c, to.children[k]!, maxDepth, congruenceDepth - 1)));
        if (inner.length > 0) {
          steps.push(...inner);
          continue;
        }
      }
      steps.push({ rule: p.why, left: printTerm(this.term(p.from, maxDepth)), right: printTerm(this.term(p.to, maxDepth)) });
    }
    return steps;
  }

  /** The shortest path of union edges from `a` to `b`, or undefined when they are not connected. */
  private path(a: ClassId, b: ClassId): { from: ClassId; to: ClassId; why: Justification }[] | undefined {
    const previous = new Map<ClassId, { from: ClassId; why: Justification }>();
    const queue = [a];
    previous.set(a, { from: a, why: "" });
    for (let head = 0; head < queue.length && !previous.has(b); head++) {
      const at = queue[head]!;
      for (const edge of this.edges[at] ?? []) {
        if (!previous.has(edge.to)) {
          previous.set(edge.to, { from: at, why: edge.why });
          queue.push(edge.to);
        }
      }
    }
    if (!previous.has(b)) return undefined;
    const path: { from: ClassId; to: ClassId; why: Justification }[] = [];
    for (let at = b; at !== a; ) {
      const step = previous.get(at)!;
      path.push({ from: step.from, to: at, why: step.why });
      at = step.from;
    }
    return path.reverse();
  }

  /** The term a proof node was added as (its children as they were added), cut off below `depth`. */
  private term(id: ClassId, depth: number): Term {
    const node = this.nodes[id]!;
    if (depth <= 0 && node.children.length > 0) return { op: "…", children: [] };
    return { op: node.op, children: node.children.map((c) => this.term(c, depth - 1)) };
  }
}
