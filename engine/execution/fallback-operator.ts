/**
 * A generated operator that falls back to the unfused operations when its
 * kernel turns out not to cover the inputs it gets at run time (a format
 * or shape its generator has no kernel for): the covered nodes are then
 * computed one by one from the operator's inputs, so the run goes on with
 * the same values.
 */
import type { FusionDag, FusedOperator } from "../fusion";
import { UnsupportedOperator, type GeneratedOperator } from "../runtime/codegen";
import { UnfusedEvaluator } from "../runtime/fused";
import type { Value } from "../runtime/interpreter";

export function fallbackOperator(dag: FusionDag, op: FusedOperator, generated: GeneratedOperator): GeneratedOperator {
  return {
    template: generated.template,
    get programs() {
      return generated.programs;
    },
    roots: op.roots,
    covered: op.covered,
    inputs: op.inputs,
    run(valueOf: (node: number) => Value): ReadonlyMap<number, Value> {
      try {
        return generated.run(valueOf);
      } catch (error) {
        if (!(error instanceof UnsupportedOperator)) throw error;
        const unfused = new UnfusedEvaluator(dag, { leaves: new Map(op.inputs.map((node) => [node, valueOf(node)])) });
        return new Map(op.roots.map((root) => [root, unfused.value(root)]));
      }
    },
  };
}
