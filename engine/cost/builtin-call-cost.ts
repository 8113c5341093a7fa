/**
 * The builtin calls whose cost is modelled (the optimizer reorganizes
 * them); every other call stays opaque.
 *
 *   rev(X), roll(X, k)   move rows: read X, write the output (like t(X))
 *   trace(X)             reads the diagonal (n cells), n - 1 additions
 *   outer(v, r, op)      one operation per output cell: reads v and r,
 *                        writes the n x m output
 */
import type { WorkResult } from "./cost-types";
import { cellCount, type OperandStats } from "./operand-stats";
import { fail, matrixInput, ok, streamingWork } from "./work-helpers";

const MODELLED: ReadonlySet<string> = new Set(["rev", "roll", "trace", "tr", "outer"]);

/** Whether the cost of builtin `name` is modelled here. */
export function isModelledBuiltin(name: string): boolean {
  return MODELLED.has(name);
}

export function builtinCallWork(name: string, inputs: readonly OperandStats[], output: OperandStats): WorkResult {
  const x = matrixInput(inputs, 0, name);
  if (typeof x === "string") return fail(x);
  switch (name) {
    case "rev":
    case "roll":
      return ok(streamingWork(inputs, output, 0));
    case "trace":
    case "tr": {
      const n = Math.min(x.rows, x.cols);
      return ok({ ...streamingWork([], output, Math.max(0, n - 1)), bytesRead: 8 * n });
    }
    case "outer":
      return ok(streamingWork(inputs, output, output.kind === "matrix" ? cellCount(output) : 1));
    default:
      return fail(`builtin '${name}' is opaque: its cost is not modelled`);
  }
}
