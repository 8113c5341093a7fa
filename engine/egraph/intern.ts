/**
 * Operators as shared objects and small integers: `internOp` gives one
 * string object per operator (stored nodes and patterns use it, so map
 * lookups and comparisons meet a string whose hash V8 has cached), and
 * `opNumber` one global numbering shared by the packed node arrays of
 * e-matching, the hash-cons and node hashes.
 */
const interned = new Map<string, string>();

export function internOp(op: string): string {
  const known = interned.get(op);
  if (known !== undefined) return known;
  interned.set(op, op);
  return op;
}

const ids = new Map<string, number>();

/** A small integer per operator. */
export function opNumber(op: string): number {
  let id = ids.get(op);
  if (id === undefined) ids.set(op, (id = ids.size + 1));
  return id;
}

/** Integers per node in EGraph.packedNodes: op number, arity, first child, second child. */
export const PACKED_WIDTH = 4;

/** A hash of a node given its operator number, and one more id (e.g. the class it belongs to; 0 for none). */
export function hashNode(opId: number, children: readonly number[], extra = 0): number {
  let h = Math.imul(opId ^ extra, 0x9e3779b1);
  for (let i = 0; i < children.length; i++) {
    h = Math.imul(h ^ children[i]!, 0x85ebca6b);
    h ^= h >>> 13;
  }
  return h | 0;
}
