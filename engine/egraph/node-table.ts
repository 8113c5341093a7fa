/**
 * The hash-cons: e-node → e-class, an open-addressing table hashed on the
 * operator and child ids as integers. Entries keep the operator id and up to
 * two child ids in typed arrays, so a lookup compares integers without
 * touching e-node objects (it is the hottest loop of saturation) and
 * allocates nothing. Entries whose children went stale after a union are
 * never equal to a canonical query; `rebuild` re-inserts nodes under their
 * canonical form, and `reset` drops the stale entries.
 */
import { hashNode, opNumber } from "./intern";
import type { ClassId, ENode } from "./types";

const EMPTY = -1;
const INLINE_ARITY = 2;

export class NodeTable {
  /** Slot → entry index, or EMPTY. */
  private slots = new Int32Array(1024).fill(EMPTY);
  private size_ = 0;
  private hashes = new Int32Array(512);
  private ops = new Int32Array(512);
  private arities = new Int32Array(512);
  private first = new Int32Array(512);
  private second = new Int32Array(512);
  private ids = new Int32Array(512);
  /** The node of each entry (compared directly only above INLINE_ARITY children). */
  private nodes: ENode[] = [];

  get size(): number {
    return this.size_;
  }

  private matches(entry: number, h: number, opId: number, children: readonly ClassId[]): boolean {
    if (this.hashes[entry] !== h || this.ops[entry] !== opId || this.arities[entry] !== children.length) return false;
    const n = children.length;
    if (n === 0) return true;
    if (this.first[entry] !== children[0]) return false;
    if (n === 1) return true;
    if (this.second[entry] !== children[1]) return false;
    if (n === INLINE_ARITY) return true;
    const stored = this.nodes[entry]!.children;
    for (let i = INLINE_ARITY; i < n; i++) if (stored[i] !== children[i]) return false;
    return true;
  }

  /** The slot holding an entry equal to (op, children), or the empty slot where it would go. */
  private probe(h: number, opId: number, children: readonly ClassId[]): number {
    const slots = this.slots;
    const mask = slots.length - 1;
    let slot = h & mask;
    for (;;) {
      const entry = slots[slot]!;
      if (entry === EMPTY || this.matches(entry, h, opId, children)) return slot;
      slot = (slot + 1) & mask;
    }
  }

  /** The entry equal to (op, children), or EMPTY. */
  private entry(op: string, children: readonly ClassId[]): number {
    const opId = opNumber(op);
    return this.slots[this.probe(hashNode(opId, children), opId, children)]!;
  }

  get(op: string, children: readonly ClassId[]): ClassId | undefined {
    const entry = this.entry(op, children);
    return entry === EMPTY ? undefined : this.ids[entry];
  }

  /** The stored node equal to (op, children), if any. */
  node(op: string, children: readonly ClassId[]): ENode | undefined {
    const entry = this.entry(op, children);
    return entry === EMPTY ? undefined : this.nodes[entry];
  }

  /** Maps `node` to `id` (replacing an equal node's entry). */
  set(node: ENode, id: ClassId): void {
    const opId = opNumber(node.op);
    const children = node.children;
    const h = hashNode(opId, children);
    const slot = this.probe(h, opId, children);
    const known = this.slots[slot]!;
    if (known !== EMPTY) {
      this.ids[known] = id;
      return;
    }
    const entry = this.size_++;
    if (entry === this.ids.length) this.growEntries();
    this.hashes[entry] = h;
    this.ops[entry] = opId;
    this.arities[entry] = children.length;
    this.first[entry] = children.length > 0 ? children[0]! : 0;
    this.second[entry] = children.length > 1 ? children[1]! : 0;
    this.ids[entry] = id;
    this.nodes[entry] = node;
    this.slots[slot] = entry;
    if (2 * this.size_ > this.slots.length) this.growSlots();
  }

  private growEntries(): void {
    const grow = (a: Int32Array) => {
      const b = new Int32Array(a.length * 2);
      b.set(a);
      return b;
    };
    this.hashes = grow(this.hashes);
    this.ops = grow(this.ops);
    this.arities = grow(this.arities);
    this.first = grow(this.first);
    this.second = grow(this.second);
    this.ids = grow(this.ids);
  }

  private growSlots(): void {
    const slots = new Int32Array(this.slots.length * 2).fill(EMPTY);
    const mask = slots.length - 1;
    for (let entry = 0; entry < this.size_; entry++) {
      let slot = this.hashes[entry]! & mask;
      while (slots[slot] !== EMPTY) slot = (slot + 1) & mask;
      slots[slot] = entry;
    }
    this.slots = slots;
  }

  /** Every entry: the node stored and the class it maps to (entries whose children went stale included). */
  *entries(): Generator<[ENode, ClassId]> {
    for (let entry = 0; entry < this.size_; entry++) yield [this.nodes[entry]!, this.ids[entry]!];
  }

  /** Rebuilds the table from the given (canonical) nodes only, dropping stale entries. */
  reset(entries: Iterable<[ENode, ClassId]>): void {
    this.slots = new Int32Array(1024).fill(EMPTY);
    this.size_ = 0;
    this.nodes = [];
    for (const [node, id] of entries) this.set(node, id);
  }
}

export function sameNode(a: ENode, b: ENode): boolean {
  if (a === b) return true;
  if (a.op !== b.op || a.children.length !== b.children.length) return false;
  for (let i = 0; i < a.children.length; i++) if (a.children[i] !== b.children[i]) return false;
  return true;
}

/** A hash of an e-node and one more id (e.g. the class it belongs to), for deduplication. */
export function nodeHash(op: string, children: readonly ClassId[], extra: number): number {
  return hashNode(opNumber(op), children, extra);
}
