/**
 * The statements of a basic block whose right-hand side the optimizer may
 * rewrite, with the DAG node of each right-hand side and what is in scope
 * there: the variables assigned earlier in the block (their current values
 * are DAG nodes, printed by name) and the live-in variables that were
 * reassigned before (their block-entry values are no longer nameable).
 */
import type { BasicBlock } from "../program/statement-block";
import type { BlockDag } from "../program/dag-types";
import type { Position, Range } from "../syntax/ast";

export interface StatementRoot {
  /** Index of the statement in the block. */
  index: number;
  target: string;
  /** The range of the right-hand side (what a suggestion replaces). */
  range: Range;
  /** Where the statement starts (new statements go before it). */
  statementStart: Position;
  node: number;
  /** DAG node → variable name, for the values variables hold just before the statement. */
  named: Map<number, string>;
  /** Live-in variables assigned before the statement: `var:NAME` does not name their entry value any more. */
  stale: Set<string>;
}

export function statementRoots(block: BasicBlock, dag: BlockDag): StatementRoot[] {
  const byRange = new Map<string, number>();
  for (const node of dag.nodes) {
    const key = rangeKey(node.range);
    if (!byRange.has(key)) byRange.set(key, node.id);
  }
  const roots: StatementRoot[] = [];
  const current = new Map<string, number>();
  const stale = new Set<string>();
  block.statements.forEach((statement, index) => {
    const assigned = writes(statement);
    if (statement.kind === "assign" && statement.target.kind === "identifier" && statement.op !== "+=") {
      const node = byRange.get(rangeKey(statement.value.range));
      const name = statement.target.name;
      if (node !== undefined) {
        const named = new Map<number, string>();
        for (const [variable, id] of current) named.set(id, variable);
        roots.push({ index, target: name, range: statement.value.range, statementStart: statement.range.start, node, named, stale: new Set(stale) });
        current.set(name, node);
        stale.add(name);
        return;
      }
    }
    for (const name of assigned) {
      current.delete(name);
      stale.add(name);
    }
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
