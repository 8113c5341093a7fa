/**
 * Loop-constant marking (ReMac's loop-constant subexpressions): inside a
 * loop, a node is loop-constant when its value is the same in every
 * iteration, i.e. it depends only on
 * - literals and `$` parameters,
 * - `input` nodes of variables that no enclosing loop writes (the loop
 *   blocks' `writes`, which include a `for` loop's variable),
 * and is not volatile (dag-purity.ts: `rand` without seed, `read`, user
 * function calls, builtins with effects or unknown purity).
 *
 * Per node, `invariantLoops` counts the enclosing loops, innermost first,
 * that leave it unchanged: an input of a variable only an outer loop
 * writes is invariant in the inner loops (an outer loop's writes include
 * its inner loops' writes, so the count stops at the first loop that
 * writes the variable). `loopConstant` means invariant in all of them.
 *
 * A value computed earlier in the same block from loop-constant nodes is
 * loop-constant too, even when the variable holding it is reassigned in
 * the loop: the node, not the variable, is what an optimizer hoists.
 */
import { isVolatile } from "./dag-purity";
import { dagNode } from "./dag-node";
import type { BlockDag } from "./dag-types";

/** `loopWrites`: the writes of each enclosing loop, innermost first. */
export function markLoopConstants(dag: BlockDag, loopWrites: readonly ReadonlySet<string>[]): void {
  const depth = loopWrites.length;
  // Inputs have smaller ids than their users, so one pass in id order sees every input marked.
  for (const node of dag.nodes) {
    const inputs = node.inputs.map((id) => dagNode(dag, id));
    let invariant: number;
    if (node.op.kind === "input") {
      const name = node.op.name;
      invariant = loopWrites.findIndex((writes) => writes.has(name));
      if (invariant < 0) invariant = depth;
    } else if (isVolatile(node.op, node.argNames, inputs)) {
      invariant = 0;
    } else {
      invariant = Math.min(depth, ...inputs.map((input) => input.invariantLoops ?? 0));
    }
    node.invariantLoops = invariant;
    node.loopConstant = invariant === depth;
  }
}
