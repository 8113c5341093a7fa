/**
 * Whether a DAG node is computed from any of some target nodes. Inputs have
 * smaller ids than their consumers (fusion-dag.ts), so the walk skips every
 * node below the smallest target; it visits each node at most once.
 */
import type { FusionDag } from "../fusion-dag";

export function computedFromAny(dag: FusionDag, node: number, targets: ReadonlySet<number>): boolean {
  let lowest = Infinity;
  for (const t of targets) lowest = Math.min(lowest, t);
  if (node < lowest) return false;
  const seen = new Set<number>([node]);
  const stack = [node];
  while (stack.length > 0) {
    const at = stack.pop()!;
    if (targets.has(at)) return true;
    for (const input of dag.nodes[at]!.inputs) {
      if (input < lowest || seen.has(input)) continue;
      seen.add(input);
      stack.push(input);
    }
  }
  return false;
}
