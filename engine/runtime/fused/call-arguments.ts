/**
 * The element-wise builtin calls fused operators may cover, with their
 * operands in parameter order: `ifelse(test, yes, no)` and
 * `replace(target, pattern, replacement)` (bound as engine/program's
 * builtin-call-parameters.ts binds them), and `min` / `max` of several
 * arguments.
 */
import { boundArguments, CALL_PARAMETERS, type DagNode } from "../../program";

/** The input positions of a call's operands in parameter order, or undefined when the call is not one of these or its arguments do not bind. */
export function callOperandOrder(node: DagNode, name: string): number[] | undefined {
  if (name === "min" || name === "max") return node.inputs.length >= 2 ? node.inputs.map((_, k) => k) : undefined;
  if (name !== "ifelse" && name !== "replace") return undefined;
  return boundArguments(node, CALL_PARAMETERS[name]!);
}
