/**
 * Where a common subexpression whose windows lie in different basic blocks
 * of one scope can be computed once (the search extended across blocks,
 * paper section 3.2): before the statement, in the innermost statement
 * list holding every occurrence, that holds the first occurrence (the
 * statement itself, or the if or loop around it). It is offered only when
 * - every variable of the window has there the value it has at each
 *   occurrence (no assignment in between: the windows' values are already
 *   equal, see Chain.values, so this checks the inserted statement's point);
 * - every path from there reaches an occurrence: one stands directly in that
 *   list, or both branches of an if in it hold one directly (a loop may run
 *   no iteration, a single branch may not be taken);
 * - two occurrences can run in one run of the script (not only in the two
 *   branches of one if, which compute it once either way);
 * - no statement written between the insertion point and an occurrence
 *   assigns a variable of the window, even on another path (an assignment
 *   in the other branch of an if): the applier (apply-redundancy.ts) judges
 *   by the text and would refuse it.
 */
import { positionBefore, type Range } from "../syntax";
import { assignedNames, valueBefore, type BlockChains, type ChainLoop, type NestStep } from "./program-chains";
import type { WindowOccurrence } from "./window-search";

export interface CrossBlockPlacement {
  /** The statement the temporary's assignment goes before. */
  insertBefore: Range;
  /** Runs of that statement per run of the script. */
  runs: number;
  /** The first loop (in program order) that holds an occurrence but not the insertion point: the value is hoisted out of it. */
  hoistedOutOf?: ChainLoop;
}

export function crossBlockPlacement(occurrences: readonly WindowOccurrence[], blocks: readonly BlockChains[]): CrossBlockPlacement | undefined {
  const [first] = occurrences;
  if (!first) return undefined;
  const holding = new Set(occurrences.map((o) => o.chain.region.block));
  if (holding.size < 2) return undefined;
  const scope = first.chain.region.block.scope;
  if ([...holding].some((b) => b.scope !== scope)) return undefined;
  let earliest = first;
  for (const o of occurrences) if (o.chain.id < earliest.chain.id) earliest = o;

  const depth = commonDepth([...holding].map((b) => b.nest));
  const firstBlock = earliest.chain.region.block;
  const step = firstBlock.nest[depth];
  let placement: CrossBlockPlacement;
  if (step === undefined) placement = { insertBefore: earliest.chain.region.statement.range, runs: firstBlock.runs };
  else {
    if (!valuesHold(earliest, step, firstBlock)) return undefined;
    placement = { insertBefore: step.statement.range, runs: step.runs };
  }
  if (!everyPathReaches(occurrences, depth)) return undefined;
  if (!twoOnOnePath(occurrences)) return undefined;
  if (writtenBetween(occurrences, placement.insertBefore, blocks.filter((b) => b.scope === scope))) return undefined;
  const loop = hoistedLoop(occurrences, depth);
  return loop ? { ...placement, hoistedOutOf: loop } : placement;
}

/** The loop around the earliest occurrence that lies in a loop below the common depth, as its block sees it. */
function hoistedLoop(occurrences: readonly WindowOccurrence[], depth: number): ChainLoop | undefined {
  const sorted = [...occurrences].sort((a, b) => a.chain.id - b.chain.id);
  for (const o of sorted) {
    const block = o.chain.region.block;
    const step = block.nest.slice(depth).find((s) => s.statement.kind !== "if");
    if (step) return block.loops.find((l) => l.statement === step.statement);
  }
  return undefined;
}

/** A statement from `at` on, ending before some occurrence starts, assigns a variable of the window. */
function writtenBetween(occurrences: readonly WindowOccurrence[], at: Range, blocks: readonly BlockChains[]): boolean {
  const [o] = occurrences;
  if (!o) return false;
  const names = new Set(o.chain.product.factors.slice(o.start, o.end + 1).flatMap((f) => (f.atom.name === undefined ? [] : [f.atom.name])));
  const starts = occurrences.map((w) => w.chain.region.statement.range.start);
  for (const block of blocks) {
    if (!block.info.block.writes.some((n) => names.has(n))) continue;
    for (const statement of block.info.block.statements) {
      if (positionBefore(statement.range.start, at.start) || !assignedNames(statement).some((n) => names.has(n))) continue;
      if (starts.some((s) => !positionBefore(s, statement.range.end))) return true;
    }
  }
  return false;
}

/** How many outer nest steps all the blocks share (same statement and same body). */
function commonDepth(nests: readonly (readonly NestStep[])[]): number {
  const [head, ...rest] = nests;
  if (!head) return 0;
  let depth = 0;
  while (depth < head.length && rest.every((n) => sameStep(n[depth], head[depth]))) depth++;
  return depth;
}

function sameStep(a: NestStep | undefined, b: NestStep | undefined): boolean {
  return a !== undefined && b !== undefined && a.statement === b.statement && a.branch === b.branch;
}

/** Every matrix of the window is a variable whose value before the step's statement is the one the window reads. */
function valuesHold(o: WindowOccurrence, step: NestStep, block: BlockChains): boolean {
  for (let i = o.start; i <= o.end; i++) {
    const name = o.chain.product.factors[i]?.atom.name;
    if (name === undefined || o.chain.values[i] !== valueBefore(step, block, name)) return false;
  }
  return true;
}

/** An occurrence stands directly in the common statement list, or both branches of one if in it hold one directly. */
function everyPathReaches(occurrences: readonly WindowOccurrence[], depth: number): boolean {
  const branches = new Map<NestStep["statement"], Set<string>>();
  for (const o of occurrences) {
    const nest = o.chain.region.block.nest;
    if (nest.length === depth) return true;
    const step = nest[depth];
    if (nest.length === depth + 1 && step && step.statement.kind === "if") {
      const seen = branches.get(step.statement) ?? new Set<string>();
      seen.add(step.branch);
      branches.set(step.statement, seen);
    }
  }
  return [...branches.values()].some((seen) => seen.has("then") && seen.has("else"));
}

/** Some two occurrences are not in different branches of one if. */
function twoOnOnePath(occurrences: readonly WindowOccurrence[]): boolean {
  for (let i = 0; i < occurrences.length; i++) {
    for (let j = i + 1; j < occurrences.length; j++) {
      if (!exclusive(occurrences[i]!.chain.region.block.nest, occurrences[j]!.chain.region.block.nest)) return true;
    }
  }
  return false;
}

function exclusive(a: readonly NestStep[], b: readonly NestStep[]): boolean {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.statement !== y.statement) return false;
    if (x.branch !== y.branch) return true;
  }
  return false;
}
