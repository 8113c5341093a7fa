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
