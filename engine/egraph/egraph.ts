/**
 * The e-graph (after egg's egraph.rs): hash-consed e-nodes, union-find over
 * e-classes, deferred rebuilding (congruence and analysis data repaired in
 * batches by `rebuild`), an e-class analysis kept as a class invariant, and
 * optional explanations (the unions that prove two terms equal).
 */
import type { Analysis, ClassId, EClassView, EGraphApi, ENode, ExplanationStep, Justification, Term } from "./types";
import { ProofForest } from "./explain";

export interface EGraphOptions {
  /** Record why classes were merged, so that `explain` can give the rule steps (default false). */
  explanations?: boolean;
}

interface EClass<D> extends EClassView<D> {
  readonly id: ClassId;
  nodes: ENode[];
  data: D;
  /** Nodes that have this class as a child, with the class they belong to. */
  parents: [ENode, ClassId][];
}

export function nodeKey(op: string, children: readonly ClassId[]): string {
  return children.length === 0 ? op : `${op}(${children.join(",")}`;
}

export class EGraph<D> implements EGraphApi<D> {
  private readonly parent: number[] = [];
  private readonly classMap = new Map<ClassId, EClass<D>>();
  private readonly memo = new Map<string, ClassId>();
  private pending: [ENode, ClassId][] = [];
  private analysisPending: [ENode, ClassId][] = [];
  private readonly proofs: ProofForest | undefined;
  /** Changes on every added node and every effective union (saturation detection). */
  version = 0;

  constructor(
    readonly analysis: Analysis<D>,
    options: EGraphOptions = {},
  ) {
    this.proofs = options.explanations ? new ProofForest() : undefined;
  }

  get nodeCount(): number {
    return this.memo.size;
  }

  get classCount(): number {
    return this.classMap.size;
  }

  find(id: ClassId): ClassId {
    const parent = this.parent;
    let root = id;
    while (parent[root] !== root) root = parent[root]!;
    while (parent[id] !== root) {
      const next = parent[id]!;
      parent[id] = root;
      id = next;
    }
    return root;
  }

  data(id: ClassId): D {
    return this.classMap.get(this.find(id))!.data;
  }

  classOf(id: ClassId): EClassView<D> {
    return this.classMap.get(this.find(id))!;
  }

  classes(): Iterable<EClassView<D>> {
    return this.classMap.values();
  }

  canonicalize(node: ENode): ENode {
    const children = node.children;
    let same = true;
    for (let i = 0; i < children.length; i++) {
      if (this.parent[children[i]!] !== children[i]) {
        same = false;
        break;
      }
    }
    return same ? node : { op: node.op, children: children.map((c) => this.find(c)) };
  }

  lookup(node: ENode): ClassId | undefined {
    const canonical = this.canonicalize(node);
    const id = this.memo.get(nodeKey(canonical.op, canonical.children));
    return id === undefined ? undefined : this.find(id);
  }

  lookupTerm(term: Term): ClassId | undefined {
    const children: ClassId[] = [];
    for (const child of term.children) {
      const id = this.lookupTerm(child);
      if (id === undefined) return undefined;
      children.push(id);
    }
    return this.lookup({ op: term.op, children });
  }

  add(node: ENode): ClassId {
    const canonical = this.canonicalize(node);
    const key = nodeKey(canonical.op, canonical.children);
    const existing = this.memo.get(key);
    if (existing !== undefined) return this.find(existing);
    const id = this.parent.length;
    this.parent.push(id);
    this.version++;
    const eclass: EClass<D> = { id, nodes: [canonical], data: undefined as D, parents: [] };
    this.classMap.set(id, eclass);
    for (const child of canonical.children) this.classMap.get(child)!.parents.push([canonical, id]);
    this.memo.set(key, id);
    this.proofs?.addNode(id, canonical);
    eclass.data = this.analysis.make(this, canonical);
    this.analysis.modify?.(this, id);
    return this.find(id);
  }

  addTerm(term: Term): ClassId {
    return this.add({ op: term.op, children: term.children.map((c) => this.addTerm(c)) });
  }

  union(a: ClassId, b: ClassId, why: Justification = "union"): boolean {
    let ra = this.find(a);
    let rb = this.find(b);
    if (ra === rb) return false;
    this.proofs?.addEdge(a, b, why);
    let ca = this.classMap.get(ra)!;
    let cb = this.classMap.get(rb)!;
    if (ca.parents.length < cb.parents.length) {
      [ra, rb] = [rb, ra];
      [ca, cb] = [cb, ca];
    }
    this.version++;
    this.parent[rb] = ra;
    this.classMap.delete(rb);
    for (const p of cb.parents) this.pending.push(p);
    const merged = this.analysis.merge(ca.data, cb.data);
    if (merged.changedA) for (const p of ca.parents) this.analysisPending.push(p);
    if (merged.changedB) for (const p of cb.parents) this.analysisPending.push(p);
    ca.data = merged.data;
    for (const n of cb.nodes) ca.nodes.push(n);
    for (const p of cb.parents) ca.parents.push(p);
    this.analysis.modify?.(this, ra);
    return true;
  }

  /** Restores the invariants after unions: congruence, the hash-cons, analysis data, canonical class nodes. */
  rebuild(): number {
    let repairs = 0;
    while (this.pending.length > 0 || this.analysisPending.length > 0) {
      const todo = this.pending;
      this.pending = [];
      for (const [node, cls] of todo) {
        repairs++;
        const canonical = this.canonicalize(node);
        const key = nodeKey(canonical.op, canonical.children);
        const existing = this.memo.get(key);
        const clsRoot = this.find(cls);
        if (existing !== undefined && this.find(existing) !== clsRoot) this.union(existing, cls, "congruence");
        this.memo.set(key, this.find(cls));
      }
      const analysisTodo = this.analysisPending;
      this.analysisPending = [];
      for (const [node, cls] of analysisTodo) {
        const id = this.find(cls);
        const eclass = this.classMap.get(id)!;
        const fresh = this.analysis.make(this, this.canonicalize(node));
        const merged = this.analysis.merge(eclass.data, fresh);
        if (merged.changedA) {
          eclass.data = merged.data;
          for (const p of eclass.parents) this.analysisPending.push(p);
          this.analysis.modify?.(this, id);
        }
      }
    }
    this.rebuildClasses();
    return repairs;
  }

  /** Canonical, duplicate-free node lists; stale hash-cons keys dropped. */
  private rebuildClasses(): void {
    for (const eclass of this.classMap.values()) {
      const seen = new Set<string>();
      const nodes: ENode[] = [];
      for (const node of eclass.nodes) {
        const canonical = this.canonicalize(node);
        const key = nodeKey(canonical.op, canonical.children);
        if (seen.has(key)) continue;
        seen.add(key);
        nodes.push(canonical);
      }
      eclass.nodes = nodes;
      if (eclass.parents.length > 2 * nodes.length + 16) {
        const parentKeys = new Set<string>();
        eclass.parents = eclass.parents.filter(([node, cls]) => {
          const canonical = this.canonicalize(node);
          const key = `${nodeKey(canonical.op, canonical.children)}@${this.find(cls)}`;
          if (parentKeys.has(key)) return false;
          parentKeys.add(key);
          return true;
        });
      }
    }
    for (const [key, id] of this.memo) {
      const root = this.find(id);
      if (root !== id) this.memo.set(key, root);
    }
    if (this.memo.size > 1.5 * this.countNodes() + 64) this.compactMemo();
  }

  private countNodes(): number {
    let n = 0;
    for (const eclass of this.classMap.values()) n += eclass.nodes.length;
    return n;
  }

  private compactMemo(): void {
    this.memo.clear();
    for (const eclass of this.classMap.values()) {
      for (const node of eclass.nodes) this.memo.set(nodeKey(node.op, node.children), eclass.id);
    }
  }

  /** The rule steps that prove `a` and `b` equal, or null when they are not (needs `explanations`). */
  explain(a: ClassId | Term, b: ClassId | Term): ExplanationStep[] | null {
    if (!this.proofs) throw new Error("explanations are off: create the e-graph with { explanations: true }");
    const ia = typeof a === "number" ? a : this.addTerm(a);
    const ib = typeof b === "number" ? b : this.addTerm(b);
    if (this.find(ia) !== this.find(ib)) return null;
    return this.proofs.explain(ia, ib, this);
  }
}
