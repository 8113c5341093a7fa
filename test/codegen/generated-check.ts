/**
 * Test helper: a fused operator's generated code (generateOperator) run on
 * the unfused values of its inputs, its roots compared with their unfused
 * values.
 */
import { generateOperator, type GeneratedOperator } from "../../engine/runtime/codegen";
import { valueDifference } from "../../engine/runtime/fused";
import type { FusedOperator } from "../../engine/fusion";
import type { CheckedBlock } from "../fusion/fused-check";

/** Generated results agree with the unfused ones to this tolerance (relative plus absolute). */
export const GENERATED_TOLERANCE = { relative: 1e-12, absolute: 1e-12 };

export interface GeneratedRun {
  generated: GeneratedOperator;
  /** undefined when every root agrees, else the first difference. */
  difference: string | undefined;
}

/** Generates the operator (throws UnsupportedOperator when it has no kernel), runs it and compares its roots. */
export function runGenerated(checked: CheckedBlock, op: FusedOperator, tolerance = GENERATED_TOLERANCE): GeneratedRun {
  const generated = generateOperator(checked.block.dag, op);
  const values = generated.run((node) => checked.unfused.value(node));
  for (const root of op.roots) {
    const value = values.get(root);
    if (value === undefined) return { generated, difference: `root ${root} has no generated value` };
    const diff = valueDifference(value, checked.unfused.value(root), tolerance);
    if (diff !== undefined) return { generated, difference: `root ${root} '${checked.block.text(root)}': ${diff}` };
  }
  return { generated, difference: undefined };
}
