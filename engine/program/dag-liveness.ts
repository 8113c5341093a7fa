/**
 * Backward liveness over the statement-block tree (blocks.ts), giving each
 * basic block
 * - `liveIn`: the variables it reads before assigning them (its `gen` set;
 *   the names of its DAG's `input` nodes), each live at its entry;
 * - `liveOut`: the variables it assigns that may be read later.
 *
 * Rules, with `after` the set live after a block:
 * - basic: live before = gen ∪ (after − kill);
 * - if: condition reads ∪ live before each branch (a missing else passes `after`);
 * - while: the set H live at the loop head is the least fixpoint of
 *   H = after ∪ condition reads ∪ live-before(body, H), so whatever the body
 *   or the condition reads is live at the end of the body;
 * - for/parfor: the bounds are evaluated once, before the loop; at the end of
 *   the body E = after ∪ (live-before(body, E) − loop variable), and live
 *   before the loop is bound reads ∪ E;
 * - function bodies end with their results live; the main program with
 *   `mainLiveAtEnd` (nothing for a program that ends; every variable it
 *   assigns for a session, whose variables outlive the run: later cells and
 *   the variables view read them).
 */
import type { BasicBlock, ProgramBlocks, StatementBlock } from "./statement-block";

export interface BlockLiveness {
  liveIn: string[];
  liveOut: string[];
}

export function blockLiveness(blocks: ProgramBlocks, mainLiveAtEnd: ReadonlySet<string> = new Set()): Map<BasicBlock, BlockLiveness> {
  const result = new Map<BasicBlock, BlockLiveness>();
  liveBeforeSequence(blocks.main, mainLiveAtEnd, result);
  for (const f of blocks.functions) liveBeforeSequence(f.bodyBlocks, new Set(f.returns), result);
  return result;
}

function liveBeforeSequence(blocks: readonly StatementBlock[], after: ReadonlySet<string>, result: Map<BasicBlock, BlockLiveness>): Set<string> {
  let live = new Set(after);
  for (const block of [...blocks].reverse()) live = liveBefore(block, live, result);
  return live;
}

function liveBefore(block: StatementBlock, after: ReadonlySet<string>, result: Map<BasicBlock, BlockLiveness>): Set<string> {
  switch (block.kind) {
    case "basic": {
      // Last iteration of an enclosing loop's fixpoint wins: it ran with the final `after`.
      result.set(block, { liveIn: [...block.gen], liveOut: block.writes.filter((name) => after.has(name)) });
      const before = new Set(after);
      for (const name of block.kill) before.delete(name);
      for (const name of block.gen) before.add(name);
      return before;
    }
    case "if": {
      const thenLive = liveBeforeSequence(block.thenBlocks, after, result);
      const elseLive = liveBeforeSequence(block.elseBlocks, after, result);
      return new Set([...block.conditionReads, ...thenLive, ...elseLive]);
    }
    case "while": {
      let head = new Set([...after, ...block.conditionReads]);
      for (;;) {
        const bodyLive = liveBeforeSequence(block.bodyBlocks, head, result);
        const next = new Set([...head, ...bodyLive]);
        if (next.size === head.size) return head;
        head = next;
      }
    }
    case "for":
    case "parfor": {
      let end = new Set(after);
      for (;;) {
        const bodyLive = liveBeforeSequence(block.bodyBlocks, end, result);
        const next = new Set([...end, ...[...bodyLive].filter((name) => name !== block.variable)]);
        if (next.size === end.size) return new Set([...block.predicateReads, ...end]);
        end = next;
      }
    }
  }
}
