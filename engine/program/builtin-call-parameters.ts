/**
 * The element-wise and row-wise builtins that stay `call` nodes in a block
 * DAG (`ifelse`, `replace`, `rowIndexMax`, `rowIndexMin`), with their
 * parameters in order, and how a call node's arguments bind to them:
 * named arguments by name, positional ones fill the remaining parameters
 * in order. Sizes, the fusion templates and the fused operators' reference
 * evaluation all bind through here, so they agree on which input is which.
 */
import type { DagNode } from "./dag-types";

export const CALL_PARAMETERS: Readonly<Record<string, readonly string[]>> = {
  ifelse: ["test", "yes", "no"],
  replace: ["target", "pattern", "replacement"],
  rowIndexMax: ["target"],
  rowIndexMin: ["target"],
};

/**
 * The input position of each parameter, in parameter order; undefined when
 * the arguments do not bind (another count, an unknown or repeated name).
 */
export function boundArguments(node: DagNode, parameters: readonly string[]): number[] | undefined {
  if (node.inputs.length !== parameters.length) return undefined;
  const order: (number | undefined)[] = parameters.map(() => undefined);
  const positional: number[] = [];
  for (let k = 0; k < node.inputs.length; k++) {
    const name = node.argNames?.[k];
    if (name === undefined) {
      positional.push(k);
      continue;
    }
    const p = parameters.indexOf(name);
    if (p < 0 || order[p] !== undefined) return undefined;
    order[p] = k;
  }
  for (let p = 0; p < order.length; p++) if (order[p] === undefined) order[p] = positional.shift();
  return order as number[];
}

/** The input position of `parameter` of a call to one of CALL_PARAMETERS' builtins, or undefined. */
export function callParameterInput(node: DagNode, parameter: string): number | undefined {
  if (node.op.kind !== "call") return undefined;
  const parameters = CALL_PARAMETERS[node.op.name];
  const p = parameters?.indexOf(parameter) ?? -1;
  return p < 0 ? undefined : boundArguments(node, parameters!)?.[p];
}
