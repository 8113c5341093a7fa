/**
 * Which options can be applied together although their source texts meet,
 * and in which order. Two options whose occurrences share text are
 * compatible when each shared occurrence of one (the inner option) lies
 * within (or is) an occurrence of the other and, the outer one applied
 * first, its replacement there computes the inner option's expression:
 * apply-redundancy.ts then composes them (DFP's `g = t(A) %*% (A %*% x - b)`
 * becomes `AtA %*% x - t(A) %*% b` by hoisting `t(A) %*% A`, then
 * `AtA %*% x - Atb` by hoisting `t(A) %*% b`). The check follows the
 * applier's composition step by step (its substituteExpression on the
 * outer replacement, each inner occurrence in turn) and its rule that no
 * insertion point lies inside the other's occurrence; the applier still
 * judges the final plan, and the runtime verifies it. Options whose texts
 * do not meet need no order. Whether their windows overlap in a chain is
 * plan-costs.ts's check.
 *
 * A plan's options are applied in an order where every such outer option
 * comes before its inner ones (`applicationOrder`); a set whose "before"
 * relations form a cycle cannot be applied.
 */
import { positionBefore, type Range, rangeContains } from "../syntax";
import { substituteExpression } from "./apply-redundancy";
import { NAME_PLACEHOLDER } from "./occurrence-edits";
import type { RedundancyOption } from "./redundancy-types";

/** Pairs whose composition is checked are bounded by this count (the rest of the meeting pairs count as conflicting). */
export const MAX_ORDER_CHECKS = 400;

export interface OptionOrder {
  /** `before.get(a)` holds the options whose meeting occurrences lie within a's and that apply after a. */
  before: Map<string, Set<string>>;
  /** Meeting pairs that cannot be applied together in either order, as "a|b" with a < b. */
  conflicting: Set<string>;
  /** Pairs applied to decide. */
  checks: number;
  /** The check bound stopped it (some meeting pairs were left conflicting unchecked). */
  truncated: boolean;
}

export interface OrderedOption {
  option: RedundancyOption;
  /** Source offsets of its occurrences. */
  spans: readonly (readonly [number, number])[];
}

function meet(a: OrderedOption, b: OrderedOption): boolean {
  return a.spans.some((s) => b.spans.some((t) => s[0] < t[1] && t[0] < s[1]));
}

/** Every meeting occurrence of `inner` lies within one of `outer`'s. */
function nestsIn(inner: OrderedOption, outer: OrderedOption): boolean {
  return inner.spans.every((s) => !outer.spans.some((t) => s[0] < t[1] && t[0] < s[1]) || outer.spans.some((t) => t[0] <= s[0] && s[1] <= t[1]));
}

export const pairKey = (a: string, b: string): string => (a < b ? `${a}|${b}` : `${b}|${a}`);

/** The order relation among options whose texts meet (`skip` names pairs that conflict anyway, e.g. overlapping windows). */
export function optionOrder<T extends OrderedOption>(options: readonly T[], skip: (a: T, b: T) => boolean = () => false): OptionOrder {
  const order: OptionOrder = { before: new Map(), conflicting: new Set(), checks: 0, truncated: false };
  const applies = (first: OrderedOption, second: OrderedOption): boolean => {
    if (!nestsIn(second, first)) return false;
    if (order.checks >= MAX_ORDER_CHECKS) {
      order.truncated = true;
      return false;
    }
    order.checks++;
    return composes(first.option, second.option);
  };
  for (let i = 0; i < options.length; i++) {
    for (let j = i + 1; j < options.length; j++) {
      const a = options[i]!;
      const b = options[j]!;
      if (!meet(a, b)) continue;
      const key = pairKey(a.option.id, b.option.id);
      if (skip(a, b)) {
        order.conflicting.add(key);
        continue;
      }
      if (applies(a, b)) addBefore(order, a.option.id, b.option.id);
      else if (applies(b, a)) addBefore(order, b.option.id, a.option.id);
      else order.conflicting.add(key);
    }
  }
  return order;
}

/**
 * `inner` composes into `outer` applied before it, as apply-redundancy.ts
 * does: neither insertion point lies inside the other's occurrences, and
 * each inner occurrence that meets an outer one lies within it and finds
 * its expression in that occurrence's replacement (as rewritten by the
 * inner occurrences before it).
 */
function composes(outer: RedundancyOption, inner: RedundancyOption): boolean {
  if (outer.occurrences.some((o) => strictlyInside(inner.insertBefore.start, o.range))) return false;
  if (inner.occurrences.some((o) => strictlyInside(outer.insertBefore.start, o.range))) return false;
  const replacements = outer.occurrences.map((o) => o.replacement.split(NAME_PLACEHOLDER).join(outer.name));
  for (const occurrence of inner.occurrences) {
    const index = outer.occurrences.findIndex((o) => intersects(o.range, occurrence.range));
    if (index < 0) continue;
    const holder = outer.occurrences[index]!;
    if (!contains(holder.range, occurrence.range)) return false;
    const rewritten = substituteExpression(replacements[index]!, inner.expression, inner.name);
    if (rewritten === undefined) return false;
    replacements[index] = rewritten;
  }
  return true;
}

const contains = (outer: Range, inner: Range) => rangeContains(outer, inner.start) && rangeContains(outer, inner.end);
const intersects = (a: Range, b: Range) => positionBefore(a.start, b.end) && positionBefore(b.start, a.end);
const strictlyInside = (p: Range["start"], range: Range) => positionBefore(range.start, p) && positionBefore(p, range.end);

function addBefore(order: OptionOrder, first: string, second: string): void {
  const set = order.before.get(first) ?? new Set<string>();
  set.add(second);
  order.before.set(first, set);
}

/**
 * `items` in an order that puts every option before those it must precede
 * (otherwise as given); undefined when the relation has a cycle among them.
 */
export function applicationOrder<T>(items: readonly T[], idOf: (item: T) => string, order: Pick<OptionOrder, "before">): T[] | undefined {
  const ids = new Set(items.map(idOf));
  const waiting = new Map<string, number>();
  for (const item of items) waiting.set(idOf(item), 0);
  for (const item of items) {
    for (const later of order.before.get(idOf(item)) ?? []) if (ids.has(later)) waiting.set(later, (waiting.get(later) ?? 0) + 1);
  }
  const result: T[] = [];
  const left = [...items];
  while (left.length > 0) {
    const index = left.findIndex((item) => waiting.get(idOf(item)) === 0);
    if (index < 0) return undefined;
    const [next] = left.splice(index, 1);
    if (next === undefined) return undefined;
    result.push(next);
    for (const later of order.before.get(idOf(next)) ?? []) if (waiting.has(later)) waiting.set(later, (waiting.get(later) ?? 0) - 1);
  }
  return result;
}
