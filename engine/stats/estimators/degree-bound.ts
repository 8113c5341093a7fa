/**
 * Galley's chain bound over degree constraints (section 7.3.2, after the
 * cardinality-bounding work it cites). Index variables are bits of a mask; a
 * degree constraint D(X | Y) = d says: for any one assignment of the
 * variables Y, at most d distinct assignments of X occur together with it.
 *
 * Starting from a set of variables already fixed, a chain adds variables one
 * constraint at a time (usable when its Y is already covered) and multiplies
 * the degrees on the way; any chain that reaches a superset of the target
 * bounds the number of distinct target assignments (projections never grow).
 * The bound is the cheapest such chain: a shortest path over the subsets of
 * variables, in one pass because every step strictly grows the set.
 */

export interface DegreeConstraint {
  /** Variables counted (bit mask). */
  readonly x: number;
  /** Variables conditioned on (bit mask; 0 for none). */
  readonly y: number;
  /** The maximum degree (a whole number ≥ 0). */
  readonly d: number;
}

/**
 * The least product of degrees along a chain from the variables `from` to a
 * superset of `target`, over `variableCount` variables. Infinity when no
 * chain reaches the target.
 */
export function chainBound(
  variableCount: number,
  constraints: readonly DegreeConstraint[],
  from: number,
  target: number,
): number {
  const states = 1 << variableCount;
  const best = new Float64Array(states).fill(Infinity);
  best[from] = 1;
  let answer = Infinity;
  // Masks in increasing order: each step goes to a strict superset, a larger number.
  for (let mask = 0; mask < states; mask++) {
    const here = best[mask]!;
    if (here === Infinity) continue;
    if ((mask & target) === target) answer = Math.min(answer, here);
    for (const c of constraints) {
      if ((c.y & mask) !== c.y) continue;
      const next = mask | c.x;
      if (next === mask) continue;
      const cost = here * c.d;
      if (cost < best[next]!) best[next] = cost;
    }
  }
  return answer;
}
