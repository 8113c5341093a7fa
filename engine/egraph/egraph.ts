/**
 * The e-graph (after egg's egraph.rs): hash-consed e-nodes, union-find over
 * e-classes, deferred rebuilding (congruence and analysis data repaired in
 * batches by `rebuild`), an e-class analysis kept as a class invariant, and
 * optional explanations (the unions that prove two terms equal).
 */
import type { Analysis, ClassId, EClassView, EGraphApi, ENode, ExplanationStep, FlatExplanationStep, Justification, Term } from "./types";
import { ProofForest, type FlatExplainOptions } from "./explain";
import { internOp, opNumber, PACKED_WIDTH } from "./intern";
import { checkInvariants } from "./invariants";
import { nodeHash, NodeTable, sameNode } from "./node-table";

export interface EGraphOptions {
  /** Record why classes were merged, so that `explain` can give the rule steps (default false). */
  explanations?: boolean;
  /**
   * Work bound of one `rebuild`'s analysis repairs (re-making a node's data
   * after a child's data changed): this many per e-node in the graph, plus
   * ANALYSIS_REPAIR_BASE. An analysis whose data settles (a lattice, merges
   * that say "unchanged" for equal values) never comes near it; one that
   * keeps calling its data changed is cut off here instead of spinning, and
   * `analysisCutoffs` counts it (the runner then stops with "rebuildLimit").
   */
  analysisRepairsPerNode?: number;
  /**
   * Check every invariant (invariants.ts) after each `rebuild`, throwing an
   * InvariantError naming the broken one (default false: tests turn it on;
   * its cost, linear in the graph, stays out of the optimizer).
   */
  checkInvariants?: boolean;
}

/** Default analysis repairs per e-node per rebuild (see EGraphOptions.analysisRepairsPerNode). */
export const ANALYSIS_REPAIRS_PER_NODE = 64;
/** Analysis repairs every rebuild may make on top of the per-node share. */
export const ANALYSIS_REPAIR_BASE = 10_000;

interface EClass<D> extends EClassView<D> {
  readonly id: ClassId;
  nodes: ENode[];
  data: D;
  /** Nodes that have this class as a child, with the class they belong to. */
  parents: ParentNode[];
  /** Length of `parents` after its last deduplication. */
  cleanParents: number;
  /** The nodes packed for matching (built on demand, dropped when `nodes` changes). */
  packed: Int32Array | undefined;
}

/** A node as its children's classes list it: with the class it belongs to (possibly a stale id; `find` resolves it). */
interface ParentNode extends ENode {
  readonly owner: ClassId;
}

export class EGraph<D> implements EGraphApi<D> {
  private readonly parent: number[] = [];
  /** Live classes by canonical id (merged-away ids are undefined). */
  private readonly classById: (EClass<D> | undefined)[] = [];
  private liveClasses = 0;
  private liveNodes = 0;
  private readonly memo = new NodeTable();
  private pending: ParentNode[] = [];
  private analysisPending: ParentNode[] = [];
  /** Classes whose node lists may hold stale or duplicate nodes since the last rebuild. */
  private dirty = new Set<ClassId>();
  private readonly proofs: ProofForest | undefined;
  private readonly analysisRepairsPerNode: number;
  private readonly checksInvariants: boolean;
  /** Changes on every added node and every effective union (saturation detection). */
  version = 0;
  /** Rebuilds whose analysis repairs hit their bound and were cut off (the analysis data may then not be settled). */
  analysisCutoffs = 0;

  constructor(
    readonly analysis: Analysis<D>,
    options: EGraphOptions = {},
  ) {
    this.proofs = options.explanations ? new ProofForest() : undefined;
    this.analysisRepairsPerNode = options.analysisRepairsPerNode ?? ANALYSIS_REPAIRS_PER_NODE;
    this.checksInvariants = options.checkInvariants ?? false;
  }

  /** E-nodes in the graph (exact after `rebuild`; congruent duplicates are counted until then). */
  get nodeCount(): number {
    return this.liveNodes;
  }

  get classCount(): number {
    return this.liveClasses;
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
    return this.classById[this.find(id)]!.data;
  }

  classOf(id: ClassId): EClassView<D> {
    return this.classById[this.find(id)]!;
  }

  /**
   * The class's nodes as integers for e-matching, PACKED_WIDTH per node:
   * operator number (intern.ts), arity, first and second child (-1 past the
   * arity); a node with more children is read from `nodes` at the same index.
   */
  packedNodes(id: ClassId): Int32Array {
    const eclass = this.classById[this.find(id)]!;
    if (eclass.packed) return eclass.packed;
    const nodes = eclass.nodes;
    const packed = new Int32Array(nodes.length * PACKED_WIDTH);
    for (let n = 0; n < nodes.length; n++) {
      const node = nodes[n]!;
      const at = n * PACKED_WIDTH;
      packed[at] = opNumber(node.op);
      packed[at + 1] = node.children.length;
      packed[at + 2] = node.children.length > 0 ? node.children[0]! : -1;
      packed[at + 3] = node.children.length > 1 ? node.children[1]! : -1;
    }
    eclass.packed = packed;
    return packed;
  }

  /** Calls `visit` with every live class (faster than iterating `classes()`). */
  forEachClass(visit: (eclass: EClassView<D>) => void): void {
    const all = this.classById;
    for (let i = 0; i < all.length; i++) {
      const eclass = all[i];
      if (eclass !== undefined) visit(eclass);
    }
  }

  *classes(): Iterable<EClassView<D>> {
    for (const eclass of this.classById) if (eclass !== undefined) yield eclass;
  }

  canonicalize(node: ENode): ENode {
    const children = node.children;
    const parent = this.parent;
    for (let i = 0; i < children.length; i++) {
      if (parent[children[i]!] !== children[i]) {
        // A stored node keeps the id it was added under (explanations name it).
        const owner = (node as Partial<ParentNode>).owner;
        const mapped = children.map((c) => this.find(c));
        return owner === undefined ? { op: node.op, children: mapped } : ({ op: node.op, children: mapped, owner } as ParentNode);
      }
    }
    return node;
  }

  nodeId(node: ENode): ClassId | undefined {
    const canonical = this.canonicalize(node);
    const stored = this.memo.node(canonical.op, canonical.children) as Partial<ParentNode> | undefined;
    return stored?.owner ?? this.lookup(node);
  }

  lookup(node: ENode): ClassId | undefined {
    const canonical = this.canonicalize(node);
    const id = this.memo.get(canonical.op, canonical.children);
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
    return this.addOp(node.op, node.children);
  }

  /** `add` without an e-node object: allocates only when the node is new (the children array is copied then). */
  addOp(op: string, children: readonly ClassId[]): ClassId {
    const parent = this.parent;
    let kids = children;
    for (let i = 0; i < kids.length; i++) {
      if (parent[kids[i]!] !== kids[i]) {
        kids = kids.map((c) => this.find(c));
        break;
      }
    }
    const existing = this.memo.get(op, kids);
    if (existing !== undefined) return this.find(existing);
    const id = parent.length;
    parent.push(id);
    this.version++;
    this.liveNodes++;
    this.liveClasses++;
    const stored: ParentNode = { op: internOp(op), children: kids === children ? children.slice() : kids, owner: id };
    const eclass: EClass<D> = { id, nodes: [stored], data: undefined as D, parents: [], cleanParents: 0, packed: undefined };
    this.classById[id] = eclass;
    for (const child of stored.children) this.classById[child]!.parents.push(stored);
    this.memo.set(stored, id);
    this.proofs?.addNode(id, stored);
    eclass.data = this.analysis.make(this, stored);
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
    let ca = this.classById[ra]!;
    let cb = this.classById[rb]!;
    if (ca.parents.length < cb.parents.length) {
      [ra, rb] = [rb, ra];
      [ca, cb] = [cb, ca];
    }
    this.version++;
    this.parent[rb] = ra;
    this.classById[rb] = undefined;
    this.liveClasses--;
    this.dirty.delete(rb);
    this.dirty.add(ra);
    for (const p of cb.parents) this.pending.push(p);
    const merged = this.analysis.merge(ca.data, cb.data);
    if (merged.changedA) for (const p of ca.parents) this.analysisPending.push(p);
    if (merged.changedB) for (const p of cb.parents) this.analysisPending.push(p);
    ca.data = merged.data;
    for (const n of cb.nodes) ca.nodes.push(n);
    ca.packed = undefined;
    for (const p of cb.parents) ca.parents.push(p);
    this.analysis.modify?.(this, ra);
    return true;
  }

  /** Restores the invariants after unions: congruence, the hash-cons, analysis data, canonical class nodes. */
  rebuild(): number {
    let repairs = 0;
    let analysisRepairs = 0;
    let analysisCut = false;
    while (this.pending.length > 0 || this.analysisPending.length > 0) {
      const todo = this.pending;
      this.pending = [];
      for (const node of todo) {
        const cls = node.owner;
        repairs++;
        const canonical = this.canonicalize(node);
        const existing = this.memo.get(canonical.op, canonical.children);
        const clsRoot = this.find(cls);
        this.dirty.add(clsRoot);
        if (existing !== undefined && this.find(existing) !== clsRoot) {
          // Between the two congruent nodes themselves, so an explanation can descend into their children.
          const other = (this.memo.node(canonical.op, canonical.children) as Partial<ParentNode> | undefined)?.owner;
          this.union(other ?? existing, cls, "congruence");
        }
        this.memo.set(canonical, this.find(cls));
      }
      const analysisTodo = this.analysisPending;
      this.analysisPending = [];
      if (analysisCut) continue;
      for (const node of analysisTodo) {
        if (++analysisRepairs > ANALYSIS_REPAIR_BASE + this.analysisRepairsPerNode * this.liveNodes) {
          // Congruence still closes (unions only shrink the class count); the analysis stops propagating.
          analysisCut = true;
          this.analysisCutoffs++;
          this.analysisPending = [];
          break;
        }
        const id = this.find(node.owner);
        const eclass = this.classById[id]!;
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
    if (this.checksInvariants) this.checkInvariants();
    return repairs;
  }

  /**
   * Throws an InvariantError naming the first broken invariant and the class
   * it was found at (see invariants.ts); call it after `rebuild`.
   */
  checkInvariants(): void {
    checkInvariants<D>({
      parent: this.parent,
      classById: this.classById,
      liveClasses: this.liveClasses,
      liveNodes: this.liveNodes,
      memo: this.memo,
      pendingWork: this.pending.length + this.analysisPending.length + this.dirty.size,
      analysis: this.analysis,
      analysisCutoffs: this.analysisCutoffs,
      proofs: this.proofs,
      find: (id) => this.find(id),
      canonicalize: (node) => this.canonicalize(node),
      view: this,
    });
  }

  /** Canonical, duplicate-free node lists in the classes touched since the last rebuild. */
  private rebuildClasses(): void {
    const dirty = this.dirty;
    this.dirty = new Set();
    for (const id of dirty) {
      const eclass = this.classById[this.find(id)];
      if (eclass === undefined) continue;
      const before = eclass.nodes.length;
      eclass.nodes = dedupeNodes(eclass.nodes.map((n) => this.canonicalize(n)));
      eclass.packed = undefined;
      this.liveNodes -= before - eclass.nodes.length;
      if (eclass.parents.length > 2 * eclass.cleanParents + 16) this.dedupeParents(eclass);
    }
    if (this.memo.size > 2 * this.liveNodes + 1024) this.compactMemo();
  }

  /**
   * Parents that became congruent after unions, kept once, in their order
   * (the first of equal ones stays). The order never depends on hash values:
   * those come from operator numbers, which depend on what the process saw
   * before, and the parents' order decides the order of repairs and unions.
   */
  private dedupeParents(eclass: EClass<D>): void {
    const byHash = new Map<number, ParentNode[]>();
    const kept: ParentNode[] = [];
    for (const parent of eclass.parents) {
      const canonical = this.canonicalize(parent);
      const owner = this.find(parent.owner);
      const hash = nodeHash(canonical.op, canonical.children, owner);
      const same = byHash.get(hash);
      if (same?.some((k) => k.owner === owner && sameNode(k, canonical))) continue;
      const entry: ParentNode = { op: canonical.op, children: canonical.children, owner };
      if (same) same.push(entry);
      else byHash.set(hash, [entry]);
      kept.push(entry);
    }
    eclass.parents = kept;
    eclass.cleanParents = kept.length;
  }

  private compactMemo(): void {
    const entries: [ENode, ClassId][] = [];
    for (const eclass of this.classById) if (eclass !== undefined) for (const node of eclass.nodes) entries.push([node, eclass.id]);
    this.memo.reset(entries);
  }

  /**
   * The rule steps that prove `a` and `b` equal, or null when they are not
   * (needs `explanations`). A class id stands for the node it was created
   * with; a term or an e-node for the node that was added as its top.
   */
  explain(a: ClassId | Term | ENode, b: ClassId | Term | ENode): ExplanationStep[] | null {
    if (!this.proofs) throw new Error("explanations are off: create the e-graph with { explanations: true }");
    const ia = this.proofNode(a);
    const ib = this.proofNode(b);
    if (ia === undefined || ib === undefined || this.find(ia) !== this.find(ib)) return null;
    return this.proofs.explain(ia, ib);
  }

  /** The same proof as whole terms, one union per step (egg's flat explanation); null when `a` and `b` are not equal. */
  explainFlat(a: ClassId, b: ClassId, options: FlatExplainOptions = {}): FlatExplanationStep[] | null {
    if (!this.proofs) throw new Error("explanations are off: create the e-graph with { explanations: true }");
    if (this.find(a) !== this.find(b)) return null;
    return this.proofs.explainFlat(a, b, options);
  }

  private proofNode(x: ClassId | Term | ENode): ClassId | undefined {
    if (typeof x === "number") return x;
    const isTerm = x.children.some((c) => typeof c !== "number");
    const node: ENode = isTerm ? { op: x.op, children: (x as Term).children.map((c) => this.addTerm(c)) } : (x as ENode);
    if (isTerm || x.children.length === 0) this.add(node);
    return this.nodeId(node);
  }
}

/**
 * The distinct nodes of a list, in their order (the first of equal ones
 * stays; small lists compared pairwise, larger ones through a hash map). The
 * order never depends on hash values (see dedupeParents).
 */
function dedupeNodes(nodes: ENode[]): ENode[] {
  const kept: ENode[] = [];
  if (nodes.length <= 16) {
    for (const node of nodes) if (!kept.some((k) => sameNode(k, node))) kept.push(node);
    return kept;
  }
  const byHash = new Map<number, ENode[]>();
  for (const node of nodes) {
    const hash = nodeHash(node.op, node.children, 0);
    const same = byHash.get(hash);
    if (same?.some((k) => sameNode(k, node))) continue;
    if (same) same.push(node);
    else byHash.set(hash, [node]);
    kept.push(node);
  }
  return kept;
}
