// Property: over random small DML programs of products, transposes, element-wise
// operations (with broadcasting) and aggregates on random csv data (local, or
// only its .mtd), the analysis' nnzUpperBound is never below the exact count
// of structure-ops.ts (boolean semantics, at least the real count), an exact
// nnz is the real count of the values (where sums may cancel), and nnz stays
// under the bound.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { elementwiseShape, type MatrixShape } from "../../engine/stats/matrix-shape";
import { memoryFileSystem } from "../../engine/files";
import { analyzeText } from "../../engine/analysis/program-analysis";
import type { NodeStats } from "../../engine/stats/sizes/node-stats";
import { structureFromDense, structureNnz, transposeStructure, type SparsityStructure } from "../../engine/stats/structure";
import { exactAggregate, exactElementwise, exactProduct } from "../../engine/stats/structure-ops";

interface Leaf {
  name: string;
  rows: number;
  cols: number;
  values: number[];
  local: boolean;
}

/** Values in {-1, 0, 1, 2} with a random density; `local`: the csv is there, else only its .mtd. */
function leaf(name: string, rows: number, cols: number): fc.Arbitrary<Leaf> {
  const n = rows * cols;
  return fc
    .tuple(
      fc.oneof(fc.constant(0), fc.constant(1), fc.double({ min: 0, max: 1, noNaN: true })),
      fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), fc.constantFrom(-1, 1, 2)), { minLength: n, maxLength: n }),
      fc.boolean(),
    )
    .map(([density, cells, local]) => ({ name, rows, cols, values: cells.map(([u, v]) => (u < density ? v : 0)), local }));
}

const OPS = ["%*%", "t", "*", "+", "-", "rowSums", "colSums", "> 0", "* 2", "abs"] as const;
const instruction = fc.tuple(fc.constantFrom(...OPS), fc.nat(), fc.nat(), fc.boolean());

const program = fc
  .tuple(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4 }))
  .chain(([m, n, k]) =>
    fc.tuple(
      fc.tuple(leaf("A", m, n), leaf("B", m, n), leaf("C", n, k), leaf("v", m, 1), leaf("w", 1, n)),
      fc.array(instruction, { minLength: 1, maxLength: 8 }),
    ),
  );

interface Entry {
  name: string;
  structure: SparsityStructure;
  /** The values, row-major (rows x cols of `structure`). */
  values: number[];
  leaf?: Leaf;
}

/** The real result, evaluated on the values (DML broadcasting). */
function evaluate(op: (typeof OPS)[number], a: Entry, b: Entry, out: MatrixShape): number[] {
  const [ar, ac] = [a.structure.rows, a.structure.cols];
  const [br, bc] = [b.structure.rows, b.structure.cols];
  const at = (e: Entry, r: number, c: number, i: number, j: number) => e.values[(r === 1 ? 0 : i) * c + (c === 1 ? 0 : j)]!;
  const result: number[] = [];
  for (let i = 0; i < out.rows; i++) {
    for (let j = 0; j < out.cols; j++) {
      let v = 0;
      if (op === "%*%") for (let k = 0; k < ac; k++) v += a.values[i * ac + k]! * b.values[k * bc + j]!;
      else if (op === "t") v = a.values[j * ac + i]!;
      else if (op === "*" || op === "+" || op === "-") {
        const [x, y] = [at(a, ar, ac, i, j), at(b, br, bc, i, j)];
        v = op === "*" ? x * y : op === "+" ? x + y : x - y;
      } else if (op === "rowSums") for (let k = 0; k < ac; k++) v += a.values[i * ac + k]!;
      else if (op === "colSums") for (let k = 0; k < ar; k++) v += a.values[k * ac + j]!;
      else if (op === "> 0") v = a.values[i * ac + j]! > 0 ? 1 : 0;
      else if (op === "* 2") v = a.values[i * ac + j]! * 2;
      else v = Math.abs(a.values[i * ac + j]!);
      result.push(v);
    }
  }
  return result;
}

function files(leaves: readonly Leaf[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const l of leaves) {
    const nnz = l.values.filter((v) => v !== 0).length;
    if (l.local) {
      const lines = Array.from({ length: l.rows }, (_, i) => l.values.slice(i * l.cols, (i + 1) * l.cols).join(","));
      out[`/p/${l.name}.csv`] = lines.join("\n") + "\n";
    }
    out[`/p/${l.name}.csv.mtd`] = JSON.stringify({ data_type: "matrix", rows: l.rows, cols: l.cols, nnz, format: "csv" });
  }
  return out;
}

function shapeOf(s: SparsityStructure): MatrixShape {
  return { rows: s.rows, cols: s.cols };
}

/** The DML text and exact structures of the program; statements that do not type-check are skipped. */
function build(leaves: readonly Leaf[], steps: readonly (readonly [(typeof OPS)[number], number, number, boolean])[]) {
  const pool: Entry[] = leaves.map((l) => ({ name: l.name, leaf: l, values: l.values, structure: structureFromDense(l.rows, l.cols, l.values) }));
  const lines = leaves.map((l) => `${l.name} = read("${l.name}.csv")`);
  steps.forEach(([op, i, j, newBlock], n) => {
    const a = pool[i % pool.length]!;
    const b = pool[j % pool.length]!;
    let text: string | undefined;
    let structure: SparsityStructure | undefined;
    if (op === "%*%" && a.structure.cols === b.structure.rows) [text, structure] = [`${a.name} %*% ${b.name}`, exactProduct(a.structure, b.structure)];
    else if (op === "t") [text, structure] = [`t(${a.name})`, transposeStructure(a.structure)];
    else if (op === "*" || op === "+" || op === "-") {
      let shape: MatrixShape | undefined;
      try {
        shape = elementwiseShape([shapeOf(a.structure), shapeOf(b.structure)]);
      } catch {
        shape = undefined;
      }
      if (shape) [text, structure] = [`${a.name} ${op} ${b.name}`, exactElementwise(op === "*" ? "intersect" : "union", [a.structure, b.structure], shape)];
    } else if (op === "rowSums") [text, structure] = [`rowSums(${a.name})`, exactAggregate(a.structure, "cols")];
    else if (op === "colSums") [text, structure] = [`colSums(${a.name})`, exactAggregate(a.structure, "rows")];
    else if (op === "> 0" && a.leaf) {
      const l = a.leaf;
      [text, structure] = [`${a.name} > 0`, structureFromDense(l.rows, l.cols, l.values.map((v) => (v > 0 ? 1 : 0)))];
    } else if (op === "* 2" || op === "> 0") [text, structure] = [`${a.name} * 2`, a.structure];
    else if (op === "abs") [text, structure] = [`abs(${a.name})`, a.structure];
    if (!text || !structure) return;
    if (newBlock) lines.push("while (FALSE) {}");
    const name = `V${n}`;
    lines.push(`${name} = ${text}`);
    pool.push({ name, structure, values: evaluate(op === "> 0" && !a.leaf ? "* 2" : op, a, b, shapeOf(structure)) });
  });
  return { text: lines.join("\n") + "\n", pool };
}

describe("sizes with sketches over random programs", () => {
  it("the upper bound never underestimates; exact counts are exact", () => {
    fc.assert(
      fc.property(program, ([leaves, steps]) => {
        const { text, pool } = build(leaves, steps);
        const analysis = analyzeText(text, { scriptPath: "/p/s.dml", fs: memoryFileSystem(files(leaves)) });
        assert.deepEqual(analysis.diagnostics.filter((d) => d.severity === "error"), [], text);
        const stats = new Map<string, NodeStats>();
        for (const block of analysis.dags.blocks) {
          const sizes = analysis.sizes.blocks.get(block.block);
          for (const [name, id] of block.dag.outputs) if (sizes) stats.set(name, sizes.nodes[id]!);
        }
        for (const entry of pool) {
          const s = stats.get(entry.name);
          assert.ok(s, `${entry.name} not analysed\n${text}`);
          const truth = structureNnz(entry.structure);
          const real = entry.values.filter((v) => v !== 0).length;
          const where = `${entry.name}: nnz ${s.nnz}${s.nnzExact ? " (exact)" : ""}, bound ${s.nnzUpperBound}, true ${truth}, real ${real}\n${text}`;
          assert.ok(real <= truth, where);
          assert.ok(s.nnzUpperBound !== undefined && s.nnzUpperBound >= truth, where);
          assert.ok(s.nnz !== null && s.nnz >= 0 && s.nnz <= s.nnzUpperBound + 1e-9, where);
          if (s.nnzExact) assert.equal(s.nnz, real, where);
        }
      }),
      { numRuns: 300 },
    );
  });
});
