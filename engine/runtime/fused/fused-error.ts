/**
 * Why a fused operator could not be evaluated with its template's
 * semantics: a covered node the skeleton cannot compute (a column
 * aggregate consumed inside a Row operator, a matrix product inside a
 * Cell expression, ...) or a binding that breaks the operator contract.
 * The message names the operator and the node, so a property test that
 * meets one fails with it instead of skipping the operator.
 */
import { nodeLabel, type FusionDag, type FusedOperator } from "../../fusion";

export class FusedOperatorError extends Error {
  override readonly name = "FusedOperatorError";
  constructor(
    message: string,
    readonly operator: number,
    readonly node: number | undefined,
  ) {
    super(message);
  }
}

/** Throws a FusedOperatorError: "fused operator #3 (row) at node 12 (sum:col): <why>". */
export function operatorFailure(dag: FusionDag, op: FusedOperator, node: number | undefined, why: string): never {
  const where = node === undefined ? "" : ` at node ${node} (${nodeLabel(dag.nodes[node])})`;
  throw new FusedOperatorError(`fused operator #${op.id} (${op.template})${where}: ${why}`, op.id, node);
}

export { nodeLabel };
