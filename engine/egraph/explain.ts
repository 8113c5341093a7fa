/**
 * Explanations (after egg's explain.rs, simplified): every e-node added is a
 * proof node; each union records an edge between the two nodes it was
 * given, labelled with the rule (or "congruence"). The explanation of
 * a = b is the path of edges between their nodes.
 */
import { printTerm } from "./pattern";
import type { ClassId, ENode, ExplanationStep, FlatExplanationStep, Justification, Term } from "./types";

/**
 * A union justified by `why` between a node U = (op ... c ...) and a node R,
 * where the rule saw, in the class of U's child c (at `child`), a node N
 * with U's other children and R at `innerChild` (an unbind: U = (ubm i j c)
 * joins R because c's class holds (b i j R)). The flat explanation shows it
 * as the steps from c's own term to N, then the rule from (op ... N ...) to
 * R. When no N has R itself, the nearest N with U's other children stands
 * in, and the steps from its child to R follow.
 */
export interface Projection {
  child: number;
  innerChild: number;
}

export interface FlatExplainOptions {
  maxSteps?: number;
  projections?: ReadonlyMap<Justification, Projection>;
}

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

  /** Calls `visit` with every proof node: its id, the node as it was added, and the ids its union edges join it to. */
  forEachNode(visit: (id: ClassId, node: ENode, neighbours: readonly ClassId[]) => void): void {
    this.nodes.forEach((node, id) => visit(id, node, this.edges[id]!.map((e) => e.to)));
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

  /**
   * egg's flat explanation: whole terms from the term of proof node `a` to
   * that of `b`, each step changing one sub-term by one union (a rule, or a
   * union whose justification the caller gave). A congruence step is
   * replaced by its children's steps in context, so consecutive steps chain
   * (a step's `after` is the next step's `before`). At most about `maxSteps`
   * steps (and 20 path searches a step): past that, congruence and
   * projection steps stay whole (still true, less detailed).
   */
  explainFlat(a: ClassId, b: ClassId, options: FlatExplainOptions = {}): FlatExplanationStep[] {
    const steps: FlatExplanationStep[] = [];
    const maxSteps = options.maxSteps ?? 400;
    // Each expansion searches a path; bound their number too (a proof of mostly congruences emits little).
    const pathsBefore = this.pathSearches;
    const context: FlatContext = {
      emit: (rule, before, after) => steps.push({ rule, before, after }),
      full: () => steps.length >= maxSteps || this.pathSearches - pathsBefore >= 20 * maxSteps,
      projections: options.projections ?? new Map(),
      expanding: new Set(),
    };
    this.flat(a, b, context);
    return steps;
  }

  /** Emits the steps from node `a` to node `b` (same class) through `context.emit`. */
  private flat(a: ClassId, b: ClassId, context: FlatContext): void {
    const path = this.path(a, b);
    if (!path) return;
    for (const p of path) {
      const from = this.nodes[p.from]!;
      const to = this.nodes[p.to]!;
      if (p.why === "congruence" && from.op === to.op && from.children.length === to.children.length && !context.full()) {
        // One child at a time: the children left of k are already those of `to`.
        const current = from.children.map((c) => this.fullTerm(c));
        for (let k = 0; k < from.children.length; k++) {
          const x = from.children[k]!;
          const y = to.children[k]!;
          if (x === y) continue;
          if (context.full()) {
            // Out of steps: the remaining children change in one congruence step.
            context.emit("congruence", { op: from.op, children: current }, this.fullTerm(p.to));
            break;
          }
          const wrap = (inner: Term): Term => ({ op: from.op, children: current.map((c, i) => (i === k ? inner : c)) });
          this.flat(x, y, { ...context, emit: (rule, before, after) => context.emit(rule, wrap(before), wrap(after)) });
          current[k] = this.fullTerm(y);
        }
        continue;
      }
      const projection = context.projections.get(p.why);
      if (projection && !context.full() && this.projected(p.from, p.to, p.why, projection, context)) continue;
      context.emit(p.why, this.fullTerm(p.from), this.fullTerm(p.to));
    }
  }

  /** A projection union (see `Projection`) as its steps, in either direction; false when no inner node is found. */
  private projected(from: ClassId, to: ClassId, why: Justification, projection: Projection, context: FlatContext): boolean {
    const key = from < to ? `${from}-${to}` : `${to}-${from}`;
    if (context.expanding.has(key)) return false;
    const forward = this.nodes[from]!.children.length > projection.child;
    const [u, r] = forward ? [from, to] : [to, from];
    const unode = this.nodes[u]!;
    const c = unode.children[projection.child];
    if (c === undefined) return false;
    const inner = this.innerNode(c, unode, r, projection.innerChild);
    if (inner === undefined) return false;
    const x = this.nodes[inner]!.children[projection.innerChild]!;
    const wrap = (t: Term): Term => ({ op: unode.op, children: unode.children.map((k, i) => (i === projection.child ? t : this.fullTerm(k))) });
    const nested = { ...context, expanding: new Set(context.expanding).add(key) };
    const wrapped = { ...nested, emit: (rule: Justification, before: Term, after: Term) => context.emit(rule, wrap(before), wrap(after)) };
    if (forward) {
      this.flat(c, inner, wrapped);
      context.emit(why, wrap(this.fullTerm(inner)), this.fullTerm(x));
      if (x !== r) this.flat(x, r, nested);
    } else {
      if (x !== r) this.flat(r, x, nested);
      context.emit(why, this.fullTerm(x), wrap(this.fullTerm(inner)));
      this.flat(inner, c, wrapped);
    }
    return true;
  }

  /** The proof node nearest to `c` in its class with `unode`'s children except at `innerChild`: one with `r` there if any. */
  private innerNode(c: ClassId, unode: ENode, r: ClassId, innerChild: number): ClassId | undefined {
    const seen = new Set([c]);
    const queue = [c];
    let fallback: ClassId | undefined;
    for (let head = 0; head < queue.length; head++) {
      const at = queue[head]!;
      const node = this.nodes[at]!;
      if (node.children.length > innerChild && node.children.every((k, i) => i === innerChild || k === unode.children[i])) {
        if (node.children[innerChild] === r) return at;
        fallback ??= at;
      }
      for (const edge of this.edges[at] ?? []) {
        if (!seen.has(edge.to)) {
          seen.add(edge.to);
          queue.push(edge.to);
        }
      }
    }
    return fallback;
  }

  private readonly terms: Term[] = [];
  /** Path searches so far (bounds the work of a flat explanation). */
  private pathSearches = 0;

  /** The whole term a proof node was added as (shared sub-terms are shared objects). */
  fullTerm(id: ClassId): Term {
    let term = this.terms[id];
    if (term === undefined) {
      const node = this.nodes[id]!;
      term = { op: node.op, children: node.children.map((c) => this.fullTerm(c)) };
      this.terms[id] = term;
    }
    return term;
  }

  /** The shortest path of union edges from `a` to `b`, or undefined when they are not connected. */
  private path(a: ClassId, b: ClassId): { from: ClassId; to: ClassId; why: Justification }[] | undefined {
    this.pathSearches++;
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

interface FlatContext {
  emit: (rule: Justification, before: Term, after: Term) => void;
  full: () => boolean;
  projections: ReadonlyMap<Justification, Projection>;
  /** Projection edges being expanded (an edge met again inside its own expansion stays whole). */
  expanding: Set<string>;
}
