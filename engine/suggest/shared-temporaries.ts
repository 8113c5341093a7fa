/**
 * New temporaries shared between statements: when the cheapest plans of two
 * or more statements of a block compute the same sub-expression (an e-class
 * no variable holds yet, e.g. sum(X^2) in two rewritten losses), it becomes
 * one new variable, assigned before the first statement that uses it, so
 * the edit pays for it once. The largest shared sub-plans are taken first;
 * one inside another taken one is left to it.
 */
import type { ClassId } from "../egraph";
import { computedClasses, type StatementPlan } from "./statement-plan";

export interface SharedTemporary {
  name: string;
  cls: ClassId;
  /** Estimated seconds of its sub-plan (paid once instead of once per user). */
  cost: number;
  /** The plans that use it, in statement order. */
  users: StatementPlan[];
}

/** A shared sub-plan must cost at least this fraction of the cheapest user's plan. */
const MIN_SHARE = 0.05;

export function sharedTemporaries(plans: readonly StatementPlan[], sourceText: string): SharedTemporary[] {
  const used = new Map<ClassId, { cost: number; users: StatementPlan[] }>();
  const roots = new Set(plans.map((p) => p.rootClass));
  for (const plan of plans) {
    for (const [cls, cost] of computedClasses(plan)) {
      if (roots.has(cls)) continue;
      const entry = used.get(cls);
      if (entry) entry.users.push(plan);
      else used.set(cls, { cost, users: [plan] });
    }
  }
  const candidates = [...used.entries()]
    .filter(([, e]) => e.users.length >= 2 && e.cost > 0 && e.cost >= MIN_SHARE * Math.min(...e.users.map((u) => u.after.extraction.dagCost)))
    .sort((a, b) => b[1].cost - a[1].cost);
  const taken: SharedTemporary[] = [];
  const covered = new Set<ClassId>();
  const names = freshNames(sourceText);
  for (const [cls, entry] of candidates) {
    if (covered.has(cls)) continue;
    for (const inner of subPlanClasses(entry.users[0]!, cls)) covered.add(inner);
    taken.push({ name: names.next().value!, cls, cost: entry.cost, users: entry.users.sort((a, b) => a.root.index - b.root.index) });
  }
  return taken;
}

/** The classes of the sub-plan rooted at `cls` in a statement's extracted plan. */
function subPlanClasses(plan: StatementPlan, cls: ClassId): Set<ClassId> {
  const { graph, extraction } = plan.after;
  const seen = new Set<ClassId>();
  const stack = [String(cls)];
  while (stack.length > 0) {
    const at = stack.pop()!;
    if (seen.has(Number(at))) continue;
    seen.add(Number(at));
    const node = graph.nodes.get(extraction.choices.get(at) ?? "");
    if (node) for (const child of node.children) stack.push(graph.nodes.get(child)!.eclass);
  }
  return seen;
}

/** tmp1, tmp2, ... skipping names the script already uses. */
function* freshNames(sourceText: string): Generator<string> {
  const taken = new Set(sourceText.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []);
  for (let k = 1; ; k++) if (!taken.has(`tmp${k}`)) yield `tmp${k}`;
}
