/**
 * The memo table of partial fusion plans: one group per DAG node, holding
 * the node's valid partial plans (memo entries). An entry refers to input
 * groups by node id, so a group stands for all the plans below it without
 * enumerating their combinations (as Cascades groups do).
 */
import { nodeLabel, type FusionDag } from "./fusion-dag";
import type { CloseStatus, MemoEntry, TemplateType } from "./types";

export class MemoTable {
  private readonly groups = new Map<number, MemoEntry[]>();

  /** Adds entries to the node's group, each at most once. */
  add(node: number, entries: readonly MemoEntry[]): void {
    const group = this.groups.get(node) ?? [];
    const keys = new Set(group.map(entryKey));
    for (const entry of entries) {
      const key = entryKey(entry);
      if (keys.has(key)) continue;
      keys.add(key);
      group.push(entry);
    }
    if (group.length > 0) this.groups.set(node, group);
  }

  /** Replaces the node's group (an empty list removes it). */
  set(node: number, entries: readonly MemoEntry[]): void {
    if (entries.length === 0) this.groups.delete(node);
    else this.groups.set(node, [...entries]);
  }

  get(node: number): readonly MemoEntry[] {
    return this.groups.get(node) ?? [];
  }

  has(node: number): boolean {
    return this.groups.has(node);
  }

  /** Whether the group has an entry of one of `templates` (only open ones when `openOnly`). */
  contains(node: number, templates: readonly TemplateType[], openOnly = false): boolean {
    return this.get(node).some((e) => templates.includes(e.template) && (!openOnly || isOpen(e.status)));
  }

  /** The distinct templates of the group's open entries (those a consumer may extend). */
  openTemplates(node: number): TemplateType[] {
    return [...new Set(this.get(node).filter((e) => isOpen(e.status)).map((e) => e.template))];
  }

  /** Node ids with a group, ascending. */
  nodes(): number[] {
    return [...this.groups.keys()].sort((a, b) => a - b);
  }

  /** Number of entries over all groups. */
  get size(): number {
    let n = 0;
    for (const group of this.groups.values()) n += group.length;
    return n;
  }

  /** One line per group: `12 +: C(-1,10) R(9,10)*` (open entries plain, closed ones starred, invalid ones with `!`). */
  print(dag: FusionDag, label: (node: number) => string = (n) => nodeLabel(dag.nodes[n])): string {
    return this.nodes()
      .map((node) => `${node} ${label(node)}: ${this.get(node).map(printEntry).join(" ")}`)
      .join("\n");
  }
}

function isOpen(status: CloseStatus): boolean {
  return status === "open-valid" || status === "open-invalid";
}

/** Whether an operator may end at this entry's node (its status is valid). */
export function isValidRoot(status: CloseStatus): boolean {
  return status === "open-valid" || status === "closed-valid";
}

/** How many input positions the entry fuses. */
export function fusedCount(entry: MemoEntry): number {
  return entry.inputs.filter((i) => i >= 0).length;
}

/** The input node ids the entry fuses (distinct). */
export function fusedInputs(entry: MemoEntry): number[] {
  return [...new Set(entry.inputs.filter((i) => i >= 0))];
}

const TEMPLATE_LETTER: Record<TemplateType, string> = { cell: "C", row: "R", magg: "M", outer: "O" };

export function printEntry(entry: MemoEntry): string {
  const mark = entry.status === "closed-valid" ? "*" : entry.status === "open-invalid" ? "!" : "";
  return `${TEMPLATE_LETTER[entry.template]}(${entry.inputs.join(",")})${mark}`;
}

function entryKey(entry: MemoEntry): string {
  return `${entry.template}|${entry.inputs.join(",")}|${entry.status}`;
}
