/**
 * CPlan construction: the selected memo table (at most one entry per
 * template in a group) becomes fused operators. A top-down walk from the
 * DAG's roots opens an operator at each materialized node with a valid
 * entry, follows the entry's fusion references into its inputs' groups
 * (an entry of the same template, or a Cell entry it merged), and collects
 * the covered nodes and the materialized inputs; those inputs are then
 * walked as materialized nodes in turn. The template binds the operator's
 * data (main input, side inputs, variant) or rejects it, in which case the
 * node runs unfused.
 *
 * Selection costs its candidate plans with the same `operatorAt`, over a
 * view of the memo table under one assignment of interesting points
 * (select/plan-entries.ts), so it costs exactly what is built here.
 */
import type { FusionDag } from "./fusion-dag";
import { fusedCount, isValidRoot, type MemoTable } from "./memo-table";
import { rowWorkCovered } from "./templates";
import { fusedOperatorSeconds } from "./select";
import type { FusedOperator, FusionTemplate, MemoEntry, TemplateType } from "./types";
import type { MachineConstants } from "../cost";

/** Template preference when several selected entries could root an operator at one node. */
const ROOT_PREFERENCE: readonly TemplateType[] = ["outer", "row", "magg", "cell"];

/** Where construction reads a node's selected entries: the selected memo table, or selection's view of one candidate plan. */
export interface EntrySource {
  get(node: number): readonly MemoEntry[];
}

/** A fused operator before it is numbered and costed. */
export type OperatorShape = Omit<FusedOperator, "id" | "seconds">;

export function constructOperators(dag: FusionDag, selected: MemoTable, templates: readonly FusionTemplate[], constants?: MachineConstants): FusedOperator[] {
  const byType = templatesByType(templates);
  const operators: FusedOperator[] = [];
  const visited = new Set<number>();
  const stack = [...dag.roots].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (visited.has(node)) continue;
    visited.add(node);
    const operator = operatorAt(dag, selected, byType, node);
    if (operator) {
      operators.push({ ...operator, id: operators.length, seconds: fusedOperatorSeconds(dag, operator, constants) });
      stack.push(...[...operator.inputs].reverse());
    } else stack.push(...[...new Set(dag.nodes[node]!.inputs)].reverse());
  }
  return operators.sort((a, b) => a.roots[0]! - b.roots[0]!).map((op, id) => ({ ...op, id }));
}

export function templatesByType(templates: readonly FusionTemplate[]): Map<TemplateType, FusionTemplate> {
  return new Map(templates.map((t) => [t.type, t]));
}

/** The valid root entries of a node that fuse something, best first: the preferred template, then the most fused inputs. */
function rootEntries(selected: EntrySource, node: number): MemoEntry[] {
  const candidates = selected.get(node).filter((e) => isValidRoot(e.status) && e.inputs.some((i) => i >= 0));
  return candidates.sort((a, b) => ROOT_PREFERENCE.indexOf(a.template) - ROOT_PREFERENCE.indexOf(b.template) || fusedCount(b) - fusedCount(a));
}

/**
 * The fused operator rooted at a materialized `node`: of its root entries,
 * best first, the first whose template accepts the operator's binding
 * (e.g. an Outer entry whose product was materialized has no product to
 * bind: the Cell entry roots the operator instead); undefined when none
 * does and the node runs as a single operation.
 */
export function operatorAt(dag: FusionDag, selected: EntrySource, byType: ReadonlyMap<TemplateType, FusionTemplate>, node: number): OperatorShape | undefined {
  let cellOnlyRow: OperatorShape | undefined;
  for (const entry of rootEntries(selected, node)) {
    const operator = operatorOf(dag, selected, byType, node, entry);
    if (!operator) continue;
    // A Row operator without row-level work over a column vector is a Cell operator's job when one can root here (row-facts.ts rowWorkCovered).
    if (operator.template === "row" && !rowWorkCovered(dag, operator.covered, operator.binding.mainInput)) {
      cellOnlyRow ??= operator;
      continue;
    }
    return operator;
  }
  return cellOnlyRow;
}

/** The operator the root entry `entry` of `node` covers, if its template binds it. */
function operatorOf(dag: FusionDag, selected: EntrySource, byType: ReadonlyMap<TemplateType, FusionTemplate>, node: number, entry: MemoEntry): OperatorShape | undefined {
  const template = byType.get(entry.template);
  if (!template) return undefined;
  const covered = new Set<number>([node]);
  const inputs: number[] = [];
  // Depth-first over the fusion references, inputs in order (an explicit stack: long chains do not overflow).
  const stack: { at: number; entry: MemoEntry; next: number }[] = [{ at: node, entry, next: 0 }];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    const nodeInputs = dag.nodes[frame.at]!.inputs;
    if (frame.next >= nodeInputs.length) {
      stack.pop();
      continue;
    }
    const k = frame.next++;
    const input = nodeInputs[k]!;
    const ref = frame.entry.inputs[k]!;
    const child = ref >= 0 ? referencedEntry(selected, ref, entry.template) : undefined;
    if (child) {
      if (!covered.has(input)) {
        covered.add(input);
        stack.push({ at: input, entry: child, next: 0 });
      }
    } else if (!inputs.includes(input)) inputs.push(input);
  }
  const materialized = inputs.filter((i) => !covered.has(i));
  const binding = template.describe(dag, node, covered, materialized);
  if (!binding) return undefined;
  return { template: entry.template, roots: [node], covered: [...covered].sort((a, b) => a - b), inputs: materialized, binding };
}

/** The entry a reference from an operator of `template` continues with: the input's entry of that template, else its Cell entry (merged). */
function referencedEntry(selected: EntrySource, node: number, template: TemplateType): MemoEntry | undefined {
  const group = selected.get(node);
  return group.find((e) => e.template === template) ?? group.find((e) => e.template === "cell");
}
