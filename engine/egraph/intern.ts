/**
 * One string object per operator, shared by e-nodes and patterns, so that
 * matching compares operators by identity (V8 compares distinct string
 * objects by content).
 */
const interned = new Map<string, string>();

export function internOp(op: string): string {
  const known = interned.get(op);
  if (known !== undefined) return known;
  interned.set(op, op);
  return op;
}

const ids = new Map<string, number>();

/** A small integer per operator (for packed node arrays). */
export function opNumber(op: string): number {
  let id = ids.get(op);
  if (id === undefined) ids.set(op, (id = ids.size + 1));
  return id;
}

/** Integers per node in EGraph.packedNodes: op number, arity, first child, second child. */
export const PACKED_WIDTH = 4;
