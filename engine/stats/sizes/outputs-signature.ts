/**
 * What a block's outputs are, as text, relative to its inputs: two results
 * with the same signature are interchangeable, so a block recomputed after an edit may hand on the
 * objects it produced before and the blocks after it stay cached
 * (block-sizes-cache.ts).
 *
 * Stats are values except for sketch patterns, which relate matrices by the
 * identity of a root object (sketch-sizes.ts). The signature names each
 * root by where it comes from: an input's root by its object id, any other
 * root (made inside the block) by the order it first appears in. Equal
 * signatures then mean equal values with the same pattern relations among
 * the outputs and to the inputs, whatever else the block reads. An output
 * that is an input's very object (`B = A`) is named by that object's id.
 */
import type { DegreeStats, MncSketch } from "../estimators";
import type { NodeStats, ScalarValue } from "./node-stats";

export function outputsSignature(
  inputs: readonly (NodeStats | undefined)[],
  outputs: Iterable<readonly [string, NodeStats]>,
  idOf: (object: object) => number,
): string {
  const isInput = new Set<NodeStats | undefined>(inputs);
  const known = new Map<object, string>();
  inputs.forEach((stats) => {
    if (!stats) return;
    const sketch = stats.sketch;
    if (sketch?.pattern) known.set(sketch.pattern.root, `r${idOf(sketch.pattern.root)}`);
    if (sketch?.mnc) known.set(sketch.mnc, `m${idOf(sketch.mnc)}`);
  });
  let fresh = 0;
  const rootName = (root: object): string => {
    let name = known.get(root);
    if (name === undefined) {
      name = `f${fresh++}`;
      known.set(root, name);
    }
    return name;
  };
  const parts: string[] = [];
  for (const [name, stats] of outputs) {
    if (isInput.has(stats)) {
      parts.push(`${name}=in${idOf(stats)}`);
      continue;
    }
    const sketch = stats.sketch;
    const pattern = sketch?.pattern ? `${rootName(sketch.pattern.root)}:${sketch.pattern.relation}` : "-";
    const mnc = sketch?.mnc ? (known.get(sketch.mnc) ?? mncText(sketch.mnc)) : "-";
    parts.push(
      `${name}=${JSON.stringify([stats.type.dataType, stats.type.valueType, stats.rows, stats.cols, stats.nnz, stats.nnzExact ?? false, stats.nnzUpperBound ?? null])}` +
        `${valueText(stats.value)}|${pattern}|${degreesText(sketch?.chain)}|${mnc}`,
    );
  }
  return parts.join("\n");
}

function valueText(value: ScalarValue | undefined): string {
  if (value === undefined) return "";
  if (typeof value === "number") return `#${Object.is(value, -0) ? "-0" : String(value)}`;
  return `${typeof value}:${JSON.stringify(value)}`;
}

function degreesText(d: DegreeStats | undefined): string {
  return d ? [d.rows, d.cols, d.nnz, d.maxRowNnz, d.maxColNnz, d.nonEmptyRows, d.nonEmptyCols].join(",") : "-";
}

function mncText(m: MncSketch): string {
  const scalars = [m.rows, m.cols, m.nnz, m.maxRowCount, m.maxColCount, m.nonEmptyRows, m.nonEmptyCols, m.singleRows, m.singleCols, m.halfFullRows, m.halfFullCols, m.fullDiagonal, m.origin];
  const arrays = [m.rowCounts, m.colCounts, m.rowCountsInSingleCols, m.colCountsInSingleRows].map((a) => (a ? Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString("base64") : "null"));
  return [...scalars, ...arrays].join(",");
}
