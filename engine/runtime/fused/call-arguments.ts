/**
 * The element-wise builtin calls fused operators may cover, with their
 * parameters in order: `ifelse(test, yes, no)` and
 * `replace(target, pattern, replacement)` (arguments by position or by
 * name), and `min` / `max` of several arguments.
 */
import type { DagNode } from "../../program/dag-types";

const PARAMETERS: Readonly<Record<string, readonly string[]>> = {
  ifelse: ["test", "yes", "no"],
  replace: ["target", "pattern", "replacement"],
};

/**
 * The input positions of a call's parameters in parameter order, or
 * undefined when the call is not one of these or its arguments do not
 * bind (a missing or unknown name).
 */
export function callOperandOrder(node: DagNode, name: string): number[] | undefined {
  if (name === "min" || name === "max") return node.inputs.length >= 2 ? node.inputs.map((_, k) => k) : undefined;
  const parameters = PARAMETERS[name];
  if (!parameters || node.inputs.length !== parameters.length) return undefined;
  const names = node.argNames ?? node.inputs.map(() => undefined);
  const order: (number | undefined)[] = parameters.map(() => undefined);
  const positional: number[] = [];
  names.forEach((argName, k) => {
    if (argName === undefined) positional.push(k);
    else {
      const p = parameters.indexOf(argName);
      if (p >= 0) order[p] = k;
    }
  });
  for (let p = 0; p < order.length; p++) if (order[p] === undefined) order[p] = positional.shift();
  return order.every((k) => k !== undefined) && positional.length === 0 ? (order as number[]) : undefined;
}
