/**
 * The contract of the generic e-graph (after egg): it knows nothing of
 * matrices. An e-node is an operator string plus child e-class ids; any
 * payload (a literal's value, an attribute name) is part of the operator
 * string, e.g. "lit:3", "@i7", "var:X".
 */

/** Canonical or stale id of an e-class (stale ids are resolved with `find`). */
export type ClassId = number;

export interface ENode {
  readonly op: string;
  readonly children: readonly ClassId[];
}

/** A tree term, used to add expressions and to print extracted plans. */
export interface Term {
  readonly op: string;
  readonly children: readonly Term[];
}

/** egg's DidMerge: whether the merged data differs from a's and from b's. */
export interface MergeResult<D> {
  data: D;
  changedA: boolean;
  changedB: boolean;
}

/** An e-class analysis: a value per class, kept as a class invariant. */
export interface Analysis<D> {
  /** The data of a new class holding only `node` (children are canonical). */
  make(egraph: EGraphView<D>, node: ENode): D;
  /** Joins the data of two classes that are being merged. */
  merge(a: D, b: D): MergeResult<D>;
  /** Called after a class's data changed (e.g. add a constant node and union): may add nodes and union. */
  modify?(egraph: EGraphApi<D>, id: ClassId): void;
}

export interface EClassView<D> {
  readonly id: ClassId;
  readonly nodes: readonly ENode[];
  readonly data: D;
}

/** Read access (what `make` may use). */
export interface EGraphView<D> {
  find(id: ClassId): ClassId;
  data(id: ClassId): D;
  lookup(node: ENode): ClassId | undefined;
}

/** Why two classes were merged: a rule's name, "congruence", or a caller's label. */
export type Justification = string;

export interface EGraphApi<D> extends EGraphView<D> {
  add(node: ENode): ClassId;
  /** `add` of the node (op, children), without building an e-node object. */
  addOp(op: string, children: readonly ClassId[]): ClassId;
  /** The id the node (as it is now) was added under, for unions that explanations should attribute to it. */
  nodeId(node: ENode): ClassId | undefined;
  addTerm(term: Term): ClassId;
  union(a: ClassId, b: ClassId, why?: Justification): boolean;
  classOf(id: ClassId): EClassView<D>;
  classes(): Iterable<EClassView<D>>;
  readonly nodeCount: number;
  readonly classCount: number;
}

/** One step of an explanation: `left` became `right` by `rule`. Terms are printed as s-expressions. */
export interface ExplanationStep {
  rule: Justification;
  left: string;
  right: string;
}

/** One step of a flat explanation: the whole term `before` became `after` by `rule` applied to one of its sub-terms. */
export interface FlatExplanationStep {
  rule: Justification;
  before: Term;
  after: Term;
}
