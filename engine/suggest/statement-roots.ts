/**
 * The statements of a basic block whose right-hand side the optimizer may
 * rewrite, with the DAG node of each right-hand side and what is in scope
 * there: the variables assigned earlier in the block (their current values
 * are DAG nodes, printed by name) and the live-in variables that were
 * reassigned before (their block-entry values are no longer nameable).
 */
import type { BasicBlock, BlockDag } from "../program";
import type { Position, Range } from "../syntax";

export interface StatementRoot {
  /** Index of the statement in the block. */
  index: number;
  target: string;
  /** The range of the right-hand side (what a suggestion replaces). */
  range: Range;
  /** Where the statement starts (new statements go before it). */
  statementStart: Position;
  node: number;
  /** What the variables hold just before the statement (shared by the block's statements: no copy per statement). */
  scope: StatementScope;
}

/** One assignment of the block: from statement `index` on, `name` holds DAG node `node` (undefined: a value the DAG does not name). */
interface Assignment {
  index: number;
  name: string;
  node: number | undefined;
}

/**
 * The block's assignments in statement order, read as of one statement.
 * Every statement's view shares the block's one list of assignments, so a
 * block of n statements keeps O(n) entries, not a copy of every variable
 * per statement (O(n^2): 10,000 statements took gigabytes).
 */
export class BlockAssignments {
  private readonly byName = new Map<string, Assignment[]>();
  private readonly byNode = new Map<number, Assignment[]>();

  record(index: number, name: string, node: number | undefined): void {
    const assignment: Assignment = { index, name, node };
    let list = this.byName.get(name);
    if (!list) this.byName.set(name, (list = []));
    list.push(assignment);
    if (node === undefined) return;
    let users = this.byNode.get(node);
    if (!users) this.byNode.set(node, (users = []));
    users.push(assignment);
  }

  /** The DAG node `name` holds just before statement `index` (undefined: unassigned in the block, or not a DAG value). */
  nodeOf(name: string, index: number): number | undefined {
    const list = this.byName.get(name);
    const last = list === undefined ? undefined : latestBefore(list, index);
    return last?.node;
  }

  /** The variable holding DAG node `node` just before statement `index` (the most recently assigned one). */
  nameOf(node: number, index: number): string | undefined {
    const users = this.byNode.get(node);
    if (!users) return undefined;
    for (let k = users.length - 1; k >= 0; k--) {
      const a = users[k]!;
      if (a.index < index && this.nodeOf(a.name, index) === node) return a.name;
    }
    return undefined;
  }

  /** Whether `name` was assigned before statement `index` (its block-entry value, `var:NAME`, is gone then). */
  assignedBefore(name: string, index: number): boolean {
    const first = this.byName.get(name)?.[0];
    return first !== undefined && first.index < index;
  }
}

/** The last assignment of a list (in statement order) made before statement `index`. */
function latestBefore(list: readonly Assignment[], index: number): Assignment | undefined {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.index < index) lo = mid + 1;
    else hi = mid;
  }
  return lo === 0 ? undefined : list[lo - 1];
}

/** What the variables hold just before one statement: a view of the block's assignments. */
export class StatementScope {
  constructor(
    private readonly assignments: BlockAssignments,
    private readonly index: number,
  ) {}

  /** The variable that holds DAG node `node` (its value is already computed). */
  nameOf(node: number): string | undefined {
    return this.assignments.nameOf(node, this.index);
  }

  /** The DAG node variable `name` holds (undefined: its block-entry value, or one the DAG does not name). */
  nodeOf(name: string): number | undefined {
    return this.assignments.nodeOf(name, this.index);
  }

  /** A live-in variable assigned before the statement: `var:NAME` does not name its entry value any more. */
  isStale(name: string): boolean {
    return this.assignments.assignedBefore(name, this.index);
  }
}

export function statementRoots(block: BasicBlock, dag: BlockDag): StatementRoot[] {
  const byRange = new Map<string, number>();
  for (const node of dag.nodes) {
    const key = rangeKey(node.range);
    if (!byRange.has(key)) byRange.set(key, node.id);
  }
  const roots: StatementRoot[] = [];
  const assignments = new BlockAssignments();
  block.statements.forEach((statement, index) => {
    const assigned = writes(statement);
    if (statement.kind === "assign" && statement.target.kind === "identifier" && statement.op !== "+=") {
      const node = byRange.get(rangeKey(statement.value.range));
      const name = statement.target.name;
      if (node !== undefined) {
        roots.push({ index, target: name, range: statement.value.range, statementStart: statement.range.start, node, scope: new StatementScope(assignments, index) });
        assignments.record(index, name, node);
        return;
      }
    }
    for (const name of assigned) assignments.record(index, name, undefined);
  });
  return roots;
}

function rangeKey(r: Range): string {
  return `${r.start.line}:${r.start.character}-${r.end.line}:${r.end.character}`;
}

function writes(statement: BasicBlock["statements"][number]): string[] {
  const name = (t: { kind: string; name?: string; target?: { name: string } }) => (t.kind === "identifier" ? t.name! : t.kind === "index" ? t.target!.name : undefined);
  if (statement.kind === "assign") return [name(statement.target)].filter((n): n is string => n !== undefined);
  if (statement.kind === "multiAssign") return statement.targets.map(name).filter((n): n is string => n !== undefined);
  return [];
}
