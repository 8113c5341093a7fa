/**
 * Candidate exploration: the open-fuse-merge-close (OFMC) algorithm. One
 * bottom-up pass over the DAG (ids ascending: inputs before consumers) fills
 * the memo table with every valid partial fusion plan of every node. The
 * walk is template-oblivious: it only asks each template's open, fuse,
 * merge and close conditions (templates/*.ts).
 *
 * At a node h:
 * 1. open: each template whose open(h) holds starts an entry that reads
 *    h's inputs materialized;
 * 2. fuse: each open template T at an input c with fuse(h, c) extends to h
 *    (entry referring to c);
 * 3. for both, merge enumerates the combinations of h's other inputs that
 *    the template can take in (merge(h, in) and `in` has an open entry of T
 *    or Cell): at most 2^|inputs| entries per template;
 * 4. close: each entry gets the status close(h) of its template; a
 *    closed-invalid entry is dropped.
 * Only nodes reachable from the DAG's roots are explored.
 */
import type { FusionDag } from "./fusion-dag";
import { MemoTable } from "./memo-table";
import type { FusionTemplate, MemoEntry, TemplateType } from "./types";

export function exploreFusionPlans(dag: FusionDag, templates: readonly FusionTemplate[]): MemoTable {
  const memo = new MemoTable();
  const byType = new Map<TemplateType, FusionTemplate>(templates.map((t) => [t.type, t]));
  for (const node of reachableAscending(dag)) {
    const entries: MemoEntry[] = [];
    for (const template of templates) if (template.open(dag, node)) entries.push(...enumeratePlans(dag, memo, template, node, undefined));
    for (const input of new Set(dag.nodes[node]!.inputs)) {
      for (const type of memo.openTemplates(input)) {
        const template = byType.get(type);
        if (template && template.fuse(dag, node, input)) entries.push(...enumeratePlans(dag, memo, template, node, input));
      }
    }
    memo.add(node, closeEntries(dag, byType, node, entries));
  }
  return memo;
}

/** The entries of `template` at `node` (fusing `fused` when given), with every mergeable combination of the other inputs. */
function enumeratePlans(dag: FusionDag, memo: MemoTable, template: FusionTemplate, node: number, fused: number | undefined): MemoEntry[] {
  const inputs = dag.nodes[node]!.inputs;
  let plans: number[][] = [inputs.map((i) => (i === fused ? i : -1))];
  for (const input of new Set(inputs)) {
    if (input === fused) continue;
    if (!template.merge(dag, node, input) || !memo.contains(input, [template.type, "cell"], true)) continue;
    plans = plans.flatMap((plan) => [plan, plan.map((ref, k) => (inputs[k] === input ? input : ref))]);
  }
  return plans.map((plan) => ({ template: template.type, inputs: plan, status: "open-valid" as const }));
}

function closeEntries(dag: FusionDag, byType: ReadonlyMap<TemplateType, FusionTemplate>, node: number, entries: readonly MemoEntry[]): MemoEntry[] {
  const closed: MemoEntry[] = [];
  for (const entry of entries) {
    const decision = byType.get(entry.template)!.close(dag, node);
    if (decision === "closed-invalid") continue;
    closed.push({ ...entry, status: decision });
  }
  return closed;
}

/** Nodes reachable from the roots, ascending (inputs before consumers). */
export function reachableAscending(dag: FusionDag): number[] {
  const seen = new Uint8Array(dag.nodes.length);
  const stack = [...dag.roots];
  for (const root of stack) seen[root] = 1;
  while (stack.length > 0) {
    for (const input of dag.nodes[stack.pop()!]!.inputs) {
      if (seen[input]) continue;
      seen[input] = 1;
      stack.push(input);
    }
  }
  const nodes: number[] = [];
  seen.forEach((s, id) => {
    if (s) nodes.push(id);
  });
  return nodes;
}

