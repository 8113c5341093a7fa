/**
 * Variable elimination over one monomial (Galley, section 5.3/5.6): the
 * summed attributes are eliminated one at a time; eliminating `a` multiplies
 * the factors that use `a` and sums `a` away, so a factor is kept out of a
 * sum it does not use (Σ_ij U_i² V_j² = Σ_i U_i² · Σ_j V_j²). Greedy picks
 * the cheapest step and bounds a dynamic programme over sets of eliminated
 * attributes (branch and bound), which returns the cheapest order. Steps
 * whose product would need more than three attributes (not one LA operator)
 * are avoided while another step exists. A step's work is the product of
 * its attributes' dims times its factors' densities.
 */
import type { Factor, Monomial } from "./polynomial";

export type FactorPlan =
  | { kind: "factor"; factor: Factor }
  | { kind: "product"; items: FactorPlan[] }
  | { kind: "sum"; attribute: number; body: FactorPlan };

export interface FactorizedMonomial {
  coef: number;
  plan: FactorPlan | undefined;
  cost: number;
}

export interface FactorizeContext {
  dim(attribute: number): number;
  /** Fraction of non-zero cells of a factor's value (1 when unknown). */
  density(factor: Factor): number;
}

interface Item {
  plan: FactorPlan;
  attrs: number[];
  density: number;
}

interface State {
  items: Item[];
  cost: number;
}

const MAX_DP_ATTRIBUTES = 10;
const LA_ATTRIBUTES = 3;

export function factorizeMonomial(m: Monomial, context: FactorizeContext): FactorizedMonomial {
  let coef = m.coef;
  const used = new Set(m.factors.flatMap((f) => [f.row, f.col]).filter((a) => a >= 0));
  const bound: number[] = [];
  for (const a of new Set(m.sums)) {
    if (used.has(a)) bound.push(a);
    else coef *= context.dim(a); // Σ_a of a term without a
  }
  const items: Item[] = m.factors.map((factor) => ({
    plan: { kind: "factor", factor },
    attrs: [...new Set([factor.row, factor.col].filter((a) => a >= 0))],
    density: context.density(factor),
  }));
  const start: State = { items, cost: 0 };
  const greedy = eliminateGreedy(start, bound, context);
  const best = bound.length <= MAX_DP_ATTRIBUTES ? eliminateExact(start, bound, context, greedy.cost) : greedy;
  const remaining = [...best.items].sort((x, y) => x.attrs.length - y.attrs.length);
  return { coef, plan: productPlan(remaining.map((i) => i.plan)), cost: best.cost };
}

function productPlan(plans: FactorPlan[]): FactorPlan | undefined {
  if (plans.length === 0) return undefined;
  return plans.length === 1 ? plans[0] : { kind: "product", items: plans };
}

/** The state after summing `a` away, with the step's work; undefined when no item uses `a`. */
function eliminate(state: State, a: number, context: FactorizeContext): { state: State; width: number } {
  const using = state.items.filter((i) => i.attrs.includes(a));
  const rest = state.items.filter((i) => !i.attrs.includes(a));
  const attrs = [...new Set(using.flatMap((i) => i.attrs))];
  let work = using.reduce((d, i) => d * i.density, 1);
  for (const x of attrs) work *= context.dim(x);
  // Narrow factors first: ((u * v) * X) multiplies the vectors before touching the matrix.
  using.sort((x, y) => x.attrs.length - y.attrs.length);
  const merged: Item = {
    plan: { kind: "sum", attribute: a, body: productPlan(using.map((i) => i.plan))! },
    attrs: attrs.filter((x) => x !== a),
    density: Math.min(1, using.reduce((d, i) => d * i.density, 1) * context.dim(a)),
  };
  return { state: { items: [...rest, merged], cost: state.cost + work }, width: attrs.length };
}

function eliminateGreedy(start: State, bound: readonly number[], context: FactorizeContext): State {
  let state = start;
  const left = [...bound];
  while (left.length > 0) {
    let choice: { state: State; width: number; k: number } | undefined;
    left.forEach((a, k) => {
      const next = eliminate(state, a, context);
      const better =
        choice === undefined ||
        (next.width <= LA_ATTRIBUTES) > (choice.width <= LA_ATTRIBUTES) ||
        ((next.width <= LA_ATTRIBUTES) === (choice.width <= LA_ATTRIBUTES) && next.state.cost < choice.state.cost);
      if (better) choice = { ...next, k };
    });
    state = choice!.state;
    left.splice(choice!.k, 1);
  }
  return state;
}

/** Galley's branch and bound: the best state per set of eliminated attributes, pruned by the greedy cost. */
function eliminateExact(start: State, bound: readonly number[], context: FactorizeContext, limit: number): State {
  let layer = new Map<number, State>([[0, start]]);
  for (let step = 0; step < bound.length; step++) {
    const next = new Map<number, State>();
    for (const [mask, state] of layer) {
      bound.forEach((a, k) => {
        if (mask & (1 << k)) return;
        const { state: after, width } = eliminate(state, a, context);
        if (width > LA_ATTRIBUTES || after.cost > limit * (1 + 1e-9)) return;
        const key = mask | (1 << k);
        const known = next.get(key);
        if (known === undefined || after.cost < known.cost) next.set(key, after);
      });
    }
    if (next.size === 0) return eliminateGreedy(start, bound, context);
    layer = next;
  }
  return layer.get((1 << bound.length) - 1) ?? eliminateGreedy(start, bound, context);
}
