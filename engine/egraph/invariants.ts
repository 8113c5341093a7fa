/**
 * The e-graph's invariants after `rebuild` (egg checks the first ones with
 * `check_memo` after every rebuild in debug builds), checked one by one so
 * that a broken one is named with the class it was found at:
 * - "union-find": every live class is its own root, every id's root is live, the class count is theirs;
 * - "rebuilt": no union or analysis repair is pending;
 * - "canonical nodes": every node's children are canonical class ids;
 * - "distinct nodes": no node twice in a class, and the node count is the sum of the classes';
 * - "congruence": no canonical node in two classes (congruence closure);
 * - "hash-cons": every node maps to its class, and every hash-cons entry with canonical children is a node of the class it maps to;
 * - "parents": a class's parent list holds (canonically) every node that has it as a child, and only such nodes;
 * - "packed nodes": the matcher's packed copy of a class's nodes equals them;
 * - "analysis": merging the `make` of any node of a class into the class's data changes nothing (neither by the merge's word nor
 *   by value, see sameValue; skipped after a rebuild whose analysis repairs were cut off);
 * - "explanations": every node ever added is (canonically) a node of its id's class, and every union edge joins two ids of one class.
 * The check costs time linear in the graph (plus a `make` per node): tests
 * turn it on (EGraphOptions.checkInvariants), the optimizer does not.
 */
import { opNumber, PACKED_WIDTH } from "./intern";
import type { NodeTable } from "./node-table";
import type { Analysis, ClassId, ENode } from "./types";
import type { ProofForest } from "./explain";
import { sameValue } from "./same-value";

/** A broken invariant: its name (see the list above), the class it was found at, and what was wrong. */
export class InvariantError extends Error {
  constructor(
    readonly invariant: string,
    readonly classId: ClassId | undefined,
    readonly detail: string,
  ) {
    super(`e-graph invariant "${invariant}" broken${classId === undefined ? "" : ` at class c${classId}`}: ${detail}`);
    this.name = "InvariantError";
  }
}

/** A class as the e-graph stores it. */
export interface StoredClass<D> {
  readonly id: ClassId;
  readonly nodes: readonly ENode[];
  readonly data: D;
  readonly parents: readonly (ENode & { readonly owner: ClassId })[];
  readonly packed: Int32Array | undefined;
}

/** What the check reads of an e-graph's insides. */
export interface EGraphInsides<D> {
  readonly parent: readonly number[];
  readonly classById: readonly (StoredClass<D> | undefined)[];
  readonly liveClasses: number;
  readonly liveNodes: number;
  readonly memo: NodeTable;
  /** Unions, analysis repairs and classes awaiting `rebuild`. */
  readonly pendingWork: number;
  readonly analysis: Analysis<D>;
  readonly analysisCutoffs: number;
  readonly proofs: ProofForest | undefined;
  find(id: ClassId): ClassId;
  canonicalize(node: ENode): ENode;
  /** The e-graph itself, for `make`. */
  readonly view: Parameters<Analysis<D>["make"]>[0];
}

export function checkInvariants<D>(g: EGraphInsides<D>): void {
  checkUnionFind(g);
  if (g.pendingWork > 0) throw new InvariantError("rebuilt", undefined, `${g.pendingWork} unions, repairs or classes await rebuild (check after rebuild)`);
  const owners = checkNodes(g);
  checkHashCons(g, owners);
  checkParents(g);
  checkPacked(g);
  if (g.analysisCutoffs === 0) checkAnalysis(g);
  if (g.proofs) checkProofs(g, g.proofs);
}

const print = (node: ENode) => (node.children.length === 0 ? node.op : `(${node.op} ${node.children.map((c) => `c${c}`).join(" ")})`);
const keyOf = (node: ENode) => `${node.op}\u0000${node.children.join(",")}`;

function checkUnionFind<D>(g: EGraphInsides<D>): void {
  let live = 0;
  for (let id = 0; id < g.parent.length; id++) {
    const eclass = g.classById[id];
    const root = g.find(id);
    if (eclass !== undefined) {
      live++;
      if (root !== id) throw new InvariantError("union-find", id, `a live class is not its own root (its root is c${root})`);
      if (eclass.id !== id) throw new InvariantError("union-find", id, `the class stored at c${id} says it is c${eclass.id}`);
    } else if (g.classById[root] === undefined) {
      throw new InvariantError("union-find", id, `its root c${root} is not a live class`);
    }
  }
  if (live !== g.liveClasses) throw new InvariantError("union-find", undefined, `classCount is ${g.liveClasses} but ${live} classes are live`);
}

/** Checks canonical and distinct nodes, the node count and congruence; returns each node's class by key. */
function checkNodes<D>(g: EGraphInsides<D>): Map<string, ClassId> {
  const owners = new Map<string, ClassId>();
  let count = 0;
  for (const eclass of g.classById) {
    if (eclass === undefined) continue;
    if (eclass.nodes.length === 0) throw new InvariantError("distinct nodes", eclass.id, "the class has no nodes");
    for (const node of eclass.nodes) {
      count++;
      for (const child of node.children) {
        if (g.find(child) !== child) throw new InvariantError("canonical nodes", eclass.id, `${print(node)} has the stale child c${child} (canonical c${g.find(child)})`);
      }
      const key = keyOf(node);
      const other = owners.get(key);
      if (other === eclass.id) throw new InvariantError("distinct nodes", eclass.id, `${print(node)} is in the class twice`);
      if (other !== undefined) throw new InvariantError("congruence", eclass.id, `${print(node)} is also in class c${other}`);
      owners.set(key, eclass.id);
    }
  }
  if (count !== g.liveNodes) throw new InvariantError("distinct nodes", undefined, `nodeCount is ${g.liveNodes} but the classes hold ${count} nodes`);
  return owners;
}

function checkHashCons<D>(g: EGraphInsides<D>, owners: ReadonlyMap<string, ClassId>): void {
  for (const eclass of g.classById) {
    if (eclass === undefined) continue;
    for (const node of eclass.nodes) {
      const id = g.memo.get(node.op, node.children);
      if (id === undefined) throw new InvariantError("hash-cons", eclass.id, `${print(node)} is not in the hash-cons`);
      if (g.find(id) !== eclass.id) throw new InvariantError("hash-cons", eclass.id, `${print(node)} maps to c${id} (class c${g.find(id)})`);
    }
  }
  for (const [node, id] of g.memo.entries()) {
    if (node.children.some((c) => g.find(c) !== c)) continue;
    const owner = owners.get(keyOf(node));
    if (owner !== g.find(id)) throw new InvariantError("hash-cons", g.find(id), `the entry ${print(node)} maps here but ${owner === undefined ? "no class holds the node" : `class c${owner} holds it`}`);
  }
}

function checkParents<D>(g: EGraphInsides<D>): void {
  const listed = new Map<ClassId, Set<string>>();
  for (const eclass of g.classById) {
    if (eclass === undefined) continue;
    const keys = new Set<string>();
    for (const parent of eclass.parents) {
      const canonical = g.canonicalize(parent);
      const ownerClass = parent.owner === undefined || parent.owner >= g.parent.length ? undefined : g.classById[g.find(parent.owner)];
      if (ownerClass === undefined) throw new InvariantError("parents", eclass.id, `the parent ${print(canonical)} belongs to no class (c${parent.owner})`);
      const owner = ownerClass.id;
      if (!canonical.children.includes(eclass.id)) throw new InvariantError("parents", eclass.id, `the parent ${print(canonical)} (of c${owner}) does not have this class as a child`);
      if (!ownerClass.nodes.some((n) => keyOf(n) === keyOf(canonical))) throw new InvariantError("parents", eclass.id, `the parent ${print(canonical)} is not a node of its class c${owner}`);
      keys.add(`${keyOf(canonical)}\u0000${owner}`);
    }
    listed.set(eclass.id, keys);
  }
  for (const eclass of g.classById) {
    if (eclass === undefined) continue;
    for (const node of eclass.nodes) {
      for (const child of new Set(node.children)) {
        if (!listed.get(child)!.has(`${keyOf(node)}\u0000${eclass.id}`)) throw new InvariantError("parents", child, `the parent ${print(node)} of class c${eclass.id} is missing from the parent list`);
      }
    }
  }
}

function checkPacked<D>(g: EGraphInsides<D>): void {
  for (const eclass of g.classById) {
    const packed = eclass?.packed;
    if (eclass === undefined || packed === undefined) continue;
    const wrong = packed.length !== eclass.nodes.length * PACKED_WIDTH || eclass.nodes.some((node, n) => {
      const at = n * PACKED_WIDTH;
      const k = node.children;
      return packed[at] !== opNumber(node.op) || packed[at + 1] !== k.length || packed[at + 2] !== (k.length > 0 ? k[0] : -1) || packed[at + 3] !== (k.length > 1 ? k[1] : -1);
    });
    if (wrong) throw new InvariantError("packed nodes", eclass.id, "the packed nodes for matching differ from the class's nodes");
  }
}

function checkAnalysis<D>(g: EGraphInsides<D>): void {
  for (const eclass of g.classById) {
    if (eclass === undefined) continue;
    for (const node of eclass.nodes) {
      const made = g.analysis.make(g.view, node);
      const merged = g.analysis.merge(eclass.data, made);
      if (merged.changedA || !sameValue(merged.data, eclass.data)) {
        throw new InvariantError("analysis", eclass.id, `merging the data of its node ${print(node)} (${describe(made)}) changes the class's data (${describe(eclass.data)})`);
      }
    }
  }
}

function checkProofs<D>(g: EGraphInsides<D>, proofs: ProofForest): void {
  proofs.forEachNode((id, node, neighbours) => {
    const cls = g.find(id);
    const canonical = g.canonicalize(node);
    if (!g.classById[cls]!.nodes.some((n) => keyOf(n) === keyOf(canonical))) throw new InvariantError("explanations", cls, `the node ${print(canonical)} added as c${id} is not in its class`);
    for (const other of neighbours) if (g.find(other) !== cls) throw new InvariantError("explanations", cls, `a union edge joins c${id} and c${other} of class c${g.find(other)}`);
  });
}

function describe(data: unknown): string {
  try {
    return JSON.stringify(data) ?? String(data);
  } catch (error) {
    // Cyclic data or a bigint: print it as a string.
    if (error instanceof TypeError) return String(data);
    throw error;
  }
}
