/** Joining what two paths know about one variable (at an `if` join or a loop head). */
import type { NodeStats } from "./node-stats";

/**
 * What holds on both paths: equal dims stay, different ones become unknown;
 * non-zero estimates take the larger (unknown when `widen`, so that a loop
 * whose estimate keeps growing still reaches a fixpoint); a constant stays
 * only if both paths agree.
 */
export function joinStats(a: NodeStats, b: NodeStats, widen = false): NodeStats {
  const sameType = a.type.dataType === b.type.dataType && a.type.valueType === b.type.valueType;
  const type = sameType ? a.type : a.type.dataType === b.type.dataType ? { dataType: a.type.dataType, valueType: "unknown" as const } : { dataType: "unknown" as const, valueType: "unknown" as const };
  const rows = a.rows === b.rows ? a.rows : null;
  const cols = a.cols === b.cols ? a.cols : null;
  let nnz: number | null = null;
  if (a.nnz !== null && b.nnz !== null) nnz = a.nnz === b.nnz ? a.nnz : widen ? null : Math.max(a.nnz, b.nnz);
  const joined: NodeStats = { type, rows, cols, nnz };
  if (nnz !== null && a.nnz === b.nnz && a.nnzExact && b.nnzExact) joined.nnzExact = true;
  if (a.value !== undefined && a.value === b.value) joined.value = a.value;
  return joined;
}

export function sameStats(a: NodeStats, b: NodeStats): boolean {
  return (
    a.type.dataType === b.type.dataType &&
    a.type.valueType === b.type.valueType &&
    a.rows === b.rows &&
    a.cols === b.cols &&
    a.nnz === b.nnz &&
    a.value === b.value &&
    (a.nnzExact ?? false) === (b.nnzExact ?? false)
  );
}
