/**
 * The `dmlLens/estimate` request behind the results view's "elapsed next to
 * the estimate": the estimated seconds of the operations written in a range
 * of lines (a cell), each statement costed once, so a loop body counts one
 * iteration; `unknown` counts the operations whose sizes are not known.
 * So that the view can say why a run's time was far from the estimate, it
 * also gives the sizes it assumed for the variables the range assigns, its
 * costliest operations, and the operations left out for unknown sizes with
 * the variables of unknown size they read.
 */
import { DEFAULT_MACHINE_CONSTANTS, nodeCost } from "../../engine/cost";
import type { NodeStats, ProgramAnalysis } from "../../engine/analysis";
import { assignedNames, dagNodeLabels } from "./dml-labels";

/** How many of the costliest and of the unknown operations are named. */
const NAMED = 3;

export interface EstimatedVariable {
  name: string;
  rows: number | null;
  cols: number | null;
  nnz: number | null;
}

export interface EstimatedOperation {
  /** Short DML of the operation, operands abbreviated (`sum(…)`). */
  text: string;
  /** 0-based line where it is written. */
  line: number;
  seconds: number;
}

export interface RunEstimate {
  seconds: number;
  unknown: number;
  /** The matrices the range assigns (last assignment wins) with the sizes the estimate assumed (null: unknown). */
  variables?: EstimatedVariable[];
  /** The costliest operations of the estimate, largest first. */
  largest?: EstimatedOperation[];
  /** Operations left out of the estimate: their text and the variables of unknown size they read. */
  unknownOperations?: { text: string; line: number; unknownInputs: string[] }[];
  /** Every variable of unknown size that an operation left out reads. */
  unknownVariables?: string[];
  /** Estimated seconds per 0-based line (of the operations written starting there). */
  lines?: { line: number; seconds: number }[];
}

const sizeKnown = (s: NodeStats) => s.type.dataType !== "matrix" || (s.rows !== null && s.cols !== null && s.nnz !== null);

export function runEstimate(analysis: ProgramAnalysis, startLine: number, endLine: number, text?: string): RunEstimate {
  let seconds = 0;
  let unknown = 0;
  const variables = new Map<string, EstimatedVariable>();
  const costly: EstimatedOperation[] = [];
  const perLine = new Map<number, number>();
  const unknownOperations: { text: string; line: number; unknownInputs: string[] }[] = [];
  for (const info of analysis.dags.blocks) {
    if (info.functionName !== undefined) continue; // a function body is costed where it is called: opaque here
    const sizes = analysis.sizes.blocks.get(info.block);
    if (!sizes) continue;
    const nodes = info.dag.nodes;
    const inRange = (line: number) => line >= startLine && line <= endLine;
    let labels: string[] | undefined;
    const label = (id: number) => (labels ??= text === undefined ? nodes.map((n) => n.op.kind) : dagNodeLabels(text, nodes))[id]!;
    let assigned: (string | undefined)[] | undefined;
    /** The variable that holds an operand: a live-in variable, or one assigned where the operand is written. */
    const variableOf = (id: number): string | undefined => {
      const node = nodes[id]!;
      if (node.op.kind === "input") return node.op.name;
      return (assigned ??= text === undefined ? [] : assignedNames(text, nodes))[id];
    };
    for (const node of nodes) {
      if (node.inputs.length === 0 || !inRange(node.range.start.line)) continue;
      const estimate = nodeCost(node.op, node.inputs.map((i) => sizes.nodes[i]!), sizes.nodes[node.id]!, DEFAULT_MACHINE_CONSTANTS);
      if (estimate.known) {
        seconds += estimate.cost.seconds;
        perLine.set(node.range.start.line, (perLine.get(node.range.start.line) ?? 0) + estimate.cost.seconds);
        costly.push({ text: label(node.id), line: node.range.start.line, seconds: estimate.cost.seconds });
      } else {
        unknown++;
        const unknownInputs = node.inputs
          .filter((i) => !sizeKnown(sizes.nodes[i]!))
          .map(variableOf)
          .filter((name): name is string => name !== undefined);
        unknownOperations.push({ text: label(node.id), line: node.range.start.line, unknownInputs });
      }
    }
    for (const [name, id] of info.dag.outputs) {
      const node = nodes[id]!;
      const stats = sizes.nodes[id]!;
      if (node.op.kind === "input" || stats.type.dataType !== "matrix" || !inRange(node.range.start.line)) continue;
      variables.set(name, { name, rows: stats.rows, cols: stats.cols, nnz: stats.nnz === null ? null : Math.round(stats.nnz) });
    }
  }
  costly.sort((a, b) => b.seconds - a.seconds);
  return {
    seconds,
    unknown,
    variables: [...variables.values()],
    largest: costly.slice(0, NAMED),
    unknownOperations: unknownOperations.slice(0, NAMED),
    unknownVariables: [...new Set(unknownOperations.flatMap((op) => op.unknownInputs))],
    lines: [...perLine].sort((a, b) => a[0] - b[0]).map(([line, s]) => ({ line, seconds: s })),
  };
}
