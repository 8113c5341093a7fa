/**
 * The hash-cons: e-node → e-class, an open-addressing table hashed on the
 * operator and child ids as integers (no key strings, and a lookup
 * allocates nothing). Entries whose children went stale after a union are
 * never equal to a canonical query; `rebuild` re-inserts nodes under their
 * canonical form, and `reset` drops the stale entries.
 */
import type { ClassId, ENode } from "./types";

const EMPTY = -1;

export class NodeTable {
  private readonly opIds = new Map<string, number>();
  /** Slot → entry index, or EMPTY. */
  private slots = new Int32Array(1024).fill(EMPTY);
  private nodes: ENode[] = [];
  private ids: ClassId[] = [];
  private hashes: number[] = [];

  get size(): number {
    return this.nodes.length;
  }

  private hash(op: string, children: readonly ClassId[]): number {
    let opId = this.opIds.get(op);
    if (opId === undefined) this.opIds.set(op, (opId = this.opIds.size + 1));
    let h = Math.imul(opId, 0x9e3779b1);
    for (let i = 0; i < children.length; i++) {
      h = Math.imul(h ^ children[i]!, 0x85ebca6b);
      h ^= h >>> 13;
    }
    return h >>> 0;
  }

  /** The slot holding an entry equal to (op, children), or the empty slot where it would go. */
  private probe(h: number, op: string, children: readonly ClassId[]): number {
    const mask = this.slots.length - 1;
    let slot = h & mask;
    for (;;) {
      const entry = this.slots[slot]!;
      if (entry === EMPTY) return slot;
      if (this.hashes[entry] === h && isNode(this.nodes[entry]!, op, children)) return slot;
      slot = (slot + 1) & mask;
    }
  }

  get(op: string, children: readonly ClassId[]): ClassId | undefined {
    const entry = this.slots[this.probe(this.hash(op, children), op, children)]!;
    return entry === EMPTY ? undefined : this.ids[entry];
  }

  /** Maps `node` to `id` (replacing an equal node's entry). */
  set(node: ENode, id: ClassId): void {
    const h = this.hash(node.op, node.children);
    const slot = this.probe(h, node.op, node.children);
    const entry = this.slots[slot]!;
    if (entry !== EMPTY) {
      this.ids[entry] = id;
      return;
    }
    this.slots[slot] = this.nodes.length;
    this.nodes.push(node);
    this.ids.push(id);
    this.hashes.push(h);
    if (2 * this.nodes.length > this.slots.length) this.grow();
  }

  private grow(): void {
    const slots = new Int32Array(this.slots.length * 2).fill(EMPTY);
    const mask = slots.length - 1;
    for (let entry = 0; entry < this.nodes.length; entry++) {
      let slot = this.hashes[entry]! & mask;
      while (slots[slot] !== EMPTY) slot = (slot + 1) & mask;
      slots[slot] = entry;
    }
    this.slots = slots;
  }

  /** Rebuilds the table from the given (canonical) nodes only, dropping stale entries. */
  reset(entries: Iterable<[ENode, ClassId]>): void {
    this.slots = new Int32Array(1024).fill(EMPTY);
    this.nodes = [];
    this.ids = [];
    this.hashes = [];
    for (const [node, id] of entries) this.set(node, id);
  }
}

export function sameNode(a: ENode, b: ENode): boolean {
  return a === b || isNode(a, b.op, b.children);
}

function isNode(node: ENode, op: string, children: readonly ClassId[]): boolean {
  if (node.op !== op || node.children.length !== children.length) return false;
  for (let i = 0; i < children.length; i++) if (node.children[i] !== children[i]) return false;
  return true;
}
