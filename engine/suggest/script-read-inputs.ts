/**
 * The data a script reads, as random-input shapes: every `read(...)` of the
 * main program with the sizes the analysis gives it (`.mtd`, `@size`, the
 * workspace file, scanned data). A whole-script check (verify-script-edit.ts)
 * replaces each such call by a variable holding a random matrix of that shape,
 * so the original and the edited script see the same data without files.
 */
import type { Range } from "../syntax";
import type { ProgramAnalysis } from "../analysis";
import type { VariableShape } from "./random-inputs";

export interface ReadInput {
  /** The whole `read(...)` call. */
  range: Range;
  shape: VariableShape;
}

/** The script's reads with their shapes (named `name(k)`), or why one cannot be given random data. */
export function scriptReadInputs(analysis: ProgramAnalysis, name: (k: number) => string): ReadInput[] | string {
  const found = new Map<string, ReadInput>();
  for (const info of analysis.dags.blocks) {
    const sizes = analysis.sizes.blocks.get(info.block);
    for (const node of info.dag.nodes) {
      if (node.op.kind !== "read") continue;
      const where = `line ${node.range.start.line + 1}`;
      if (info.functionName !== undefined) return `the read() at ${where} is inside the function ${info.functionName}`;
      const key = `${node.range.start.line}:${node.range.start.character}`;
      if (found.has(key)) continue;
      const stats = sizes?.nodes[node.id];
      if (stats === undefined || stats.type.dataType !== "matrix") return `the read() at ${where} does not read a matrix the analysis knows`;
      if (stats.rows === null || stats.cols === null) return `the sizes of the read() at ${where} are unknown`;
      const sparsity = stats.nnz !== null && stats.rows * stats.cols > 0 ? stats.nnz / (stats.rows * stats.cols) : 1;
      found.set(key, { range: node.range, shape: { name: name(found.size + 1), kind: "matrix", rows: stats.rows, cols: stats.cols, sparsity } });
    }
  }
  return [...found.values()];
}
