/**
 * Block-level variable sets, as SystemDS's forward liveness pass computes them
 * (`initializeforwardLV` of each block class; research R11, R12).
 *
 * Basic block: for each statement in order, a read that no earlier statement
 * of the block wrote goes to gen (checked before the statement's own writes,
 * so `i = i + 1` has `i` in gen); all writes go to writes and kill.
 *
 * A sequence of child blocks (a branch, a loop body, a function body): a
 * child's gen counts unless an earlier child killed it; kills are collected
 * only from children guaranteed to run once reached, i.e. not from
 * while/for/parfor blocks (an `if` contributes the kills of both branches).
 *
 * - if: reads = condition ∪ branches; writes = both branches; gen = condition
 *   ∪ gen of each branch; kill = kill(then) ∩ kill(else), empty without else.
 * - while: reads = condition ∪ body; gen = condition ∪ body gen; kill = body kill.
 * - for/parfor: the loop variable starts the kill set, so it never reaches
 *   gen; reads = predicate ∪ body; writes = variable ∪ body.
 * - function: the sets of its body sequence.
 */
import { NameList } from "./names";
import type { StatementBlock, VariableSets } from "./statement-block";

/** The sets of a basic block, from the per-statement reads and writes in order. */
export function basicSets(statements: readonly { reads: readonly string[]; writes: readonly string[] }[]): VariableSets {
  const reads = new NameList();
  const writes = new NameList();
  const gen = new NameList();
  for (const statement of statements) {
    for (const name of statement.reads) if (!writes.has(name)) gen.add(name);
    reads.addAll(statement.reads);
    writes.addAll(statement.writes);
  }
  return { reads: reads.toArray(), writes: writes.toArray(), gen: gen.toArray(), kill: writes.toArray() };
}

/** The sets of a sequence of blocks; `killed` names are written and killed before the first block (a loop variable). */
export function sequenceSets(blocks: readonly StatementBlock[], killed: readonly string[] = []): VariableSets {
  const reads = new NameList();
  const writes = new NameList(killed);
  const gen = new NameList();
  const kill = new NameList(killed);
  for (const block of blocks) {
    for (const name of block.gen) if (!kill.has(name)) gen.add(name);
    reads.addAll(block.reads);
    writes.addAll(block.writes);
    if (block.kind === "basic" || block.kind === "if") kill.addAll(block.kill);
  }
  return { reads: reads.toArray(), writes: writes.toArray(), gen: gen.toArray(), kill: kill.toArray() };
}

/** `if`: the condition's reads, then the two branch sequences. */
export function ifSets(conditionReads: readonly string[], thenSets: VariableSets, elseSets: VariableSets | undefined): VariableSets {
  const elseKill = new Set(elseSets?.kill ?? []);
  return {
    reads: union(conditionReads, thenSets.reads, elseSets?.reads ?? []),
    writes: union(thenSets.writes, elseSets?.writes ?? []),
    gen: union(conditionReads, thenSets.gen, elseSets?.gen ?? []),
    kill: thenSets.kill.filter((name) => elseKill.has(name)),
  };
}

/** while/for/parfor: the predicate's reads in front of the body sequence. */
export function loopSets(predicateReads: readonly string[], body: VariableSets): VariableSets {
  return {
    reads: union(predicateReads, body.reads),
    writes: body.writes,
    gen: union(predicateReads, body.gen),
    kill: body.kill,
  };
}

function union(...lists: (readonly string[])[]): string[] {
  const names = new NameList();
  for (const list of lists) names.addAll(list);
  return names.toArray();
}
