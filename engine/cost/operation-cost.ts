/**
 * The cost of one DAG operation from the sizes of its operands, independent
 * of how the DAG is stored: the caller passes the operation and the stats
 * of its inputs (in order) and of its output.
 *
 * - `operationCost` takes fully known sizes. It still answers "unknown" for
 *   opaque calls (builtins and user functions without a cost rule,
 *   builtin-call-cost.ts has the modelled ones) and for
 *   inconsistent sizes (e.g. `%*%` inner dimensions that differ).
 * - `estimateOperationCost` takes partial sizes and answers "unknown" as
 *   soon as any size it would need is unknown; it never guesses.
 *
 * Peak memory is inputs + output + known temporaries, each in its storage
 * format (operand-stats.ts); an input used twice counts twice. Values that
 * already exist (literals, live-in inputs, parameters) and the metadata
 * queries nrow / ncol / length cost nothing.
 */
import type { DagOp } from "../program";
import type { CostEstimate, OperationCost, WorkResult } from "./cost-types";
import { aggregateWork, binaryWork, unaryWork } from "./elementwise-cost";
import { castWork, matrixWork, randWork, readWork, seqWork } from "./generation-cost";
import { DEFAULT_MACHINE_CONSTANTS, type MachineConstants } from "./machine-constants";
import { matmulWork } from "./matmul-cost";
import { knownOperand, validateMatrix, type OperandStats, type PartialOperandStats } from "./operand-stats";
import { builtinCallWork, isModelledBuiltin } from "./builtin-call-cost";
import { bindWork, diagWork, indexWork, leftIndexWork, tableWork, transposeWork } from "./reorganize-cost";
import { estimateTime } from "./time";
import { totalBytes } from "./work-helpers";

const free: WorkResult = {
  ok: true,
  work: { flops: 0, bytesRead: 0, diskBytesRead: 0, bytesWritten: 0, temporaryBytes: 0, sparseKernel: false, peakMemoryBytes: 0 },
};

/** The work rule of `op`, before it is turned into time and peak memory. */
function operationWork(op: DagOp, inputs: readonly OperandStats[], output: OperandStats): WorkResult {
  switch (op.kind) {
    case "literal":
    case "input":
    case "parameter":
    case "nrow":
    case "ncol":
    case "length":
      return free;
    case "matmul":
      return matmulWork(inputs, output);
    case "binary":
      return binaryWork(op.op, inputs, output);
    case "unary":
      return unaryWork(op.op, inputs, output);
    case "aggregate":
      return aggregateWork(op.fn, inputs, output);
    case "transpose":
      return transposeWork(inputs, output);
    case "index":
      return indexWork(inputs, output);
    case "leftIndex":
      return leftIndexWork(inputs, output);
    case "cbind":
    case "rbind":
      return bindWork(inputs, output);
    case "diag":
      return diagWork(inputs, output);
    case "table":
      return tableWork(inputs, output);
    case "seq":
      return seqWork(inputs, output);
    case "matrix":
      return matrixWork(inputs, output);
    case "rand":
      return randWork(inputs, output);
    case "read":
      return readWork(output);
    case "cast":
      return castWork(op.to, inputs, output);
    case "call":
      if (!op.user && isModelledBuiltin(op.name)) return builtinCallWork(op.name, inputs, output);
      return { ok: false, reason: `${op.user ? "user function" : "builtin"} '${op.name}' is opaque: its cost is not modelled` };
    default:
      return { ok: false, reason: `no cost rule for '${(op as { kind: string }).kind}'` };
  }
}

/** The cost of `op` with fully known operand sizes (see the file comment). */
export function operationCost(
  op: DagOp,
  inputs: readonly OperandStats[],
  output: OperandStats,
  constants: MachineConstants = DEFAULT_MACHINE_CONSTANTS,
): CostEstimate {
  for (const [i, o] of [...inputs, output].entries()) {
    if (o.kind !== "matrix") continue;
    const invalid = validateMatrix(o);
    if (invalid !== undefined) return { known: false, reason: `${i < inputs.length ? `input ${i + 1}` : "output"}: ${invalid}` };
  }
  const result = operationWork(op, inputs, output);
  if (!result.ok) return { known: false, reason: result.reason };
  const w = result.work;
  const cost: OperationCost = {
    flops: w.flops,
    bytesRead: w.bytesRead,
    diskBytesRead: w.diskBytesRead,
    bytesWritten: w.bytesWritten,
    peakMemoryBytes: w.peakMemoryBytes ?? totalBytes(inputs) + totalBytes([output]) + w.temporaryBytes,
    seconds: estimateTime(w, constants).seconds,
  };
  return { known: true, cost };
}

/** Operation kinds whose cost does not depend on any operand's size. */
const sizeFree: ReadonlySet<DagOp["kind"]> = new Set(["literal", "input", "parameter", "nrow", "ncol", "length"]);

/**
 * The cost of `op` when some sizes may be unknown: "unknown" (with the
 * first unknown size as the reason) unless every size is known.
 */
export function estimateOperationCost(
  op: DagOp,
  inputs: readonly PartialOperandStats[],
  output: PartialOperandStats,
  constants: MachineConstants = DEFAULT_MACHINE_CONSTANTS,
): CostEstimate {
  if (sizeFree.has(op.kind)) return operationCost(op, [], { kind: "scalar" }, constants);
  if (op.kind === "call" && (op.user || !isModelledBuiltin(op.name))) return operationCost(op, [], { kind: "scalar" }, constants);
  const known: OperandStats[] = [];
  for (const [i, p] of inputs.entries()) {
    const k = knownOperand(p, `input ${i + 1}`);
    if (!k.ok) return { known: false, reason: k.reason };
    known.push(k.stats);
  }
  const out = knownOperand(output, "output");
  if (!out.ok) return { known: false, reason: out.reason };
  return operationCost(op, known, out.stats, constants);
}
