/**
 * Test helper: a Row operator's generated kernel run on the values of its
 * inputs (the unfused values), compared with the unfused values of its
 * roots, or with the reference evaluation of the operator.
 */
import { generateRowOperator } from "../../engine/runtime/codegen/row-operator";
import type { GeneratedOperator } from "../../engine/runtime/codegen";
import { evaluateFusedOperator, valueDifference } from "../../engine/runtime/fused";
import type { FusedOperator } from "../../engine/fusion";
import type { Value } from "../../engine/runtime/interpreter";
import type { CheckedBlock } from "../fusion/fused-check";

/** Generated against unfused: 1e-12 relative (plus 1e-14 absolute for values that cancel to about 0). */
export const ROW_TOLERANCE = { relative: 1e-12, absolute: 1e-14 };

export interface GeneratedRun {
  generated: GeneratedOperator;
  values: ReadonlyMap<number, Value>;
}

export function runGenerated(checked: CheckedBlock, op: FusedOperator): GeneratedRun {
  const generated = generateRowOperator(checked.block.dag, op);
  return { generated, values: generated.run((node) => checked.unfused.value(node)) };
}

/** The first difference of the generated values from the unfused ones (undefined when all roots agree). */
export function generatedDifference(checked: CheckedBlock, op: FusedOperator, run = runGenerated(checked, op)): string | undefined {
  for (const root of op.roots) {
    const value = run.values.get(root);
    if (value === undefined) return `root ${root} has no generated value`;
    const diff = valueDifference(value, checked.unfused.value(root), ROW_TOLERANCE);
    if (diff !== undefined) return `root ${root} '${checked.block.text(root)}': ${diff}`;
  }
  return undefined;
}

/** The first difference of the generated values from the reference evaluation of the operator. */
export function referenceDifference(checked: CheckedBlock, op: FusedOperator): string | undefined {
  const { values } = runGenerated(checked, op);
  const reference = evaluateFusedOperator(checked.block.dag, op, (node) => checked.unfused.value(node));
  for (const root of op.roots) {
    const diff = valueDifference(values.get(root)!, reference.get(root)!, ROW_TOLERANCE);
    if (diff !== undefined) return `root ${root} '${checked.block.text(root)}': ${diff}`;
  }
  return undefined;
}
