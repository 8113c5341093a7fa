// The per-cell code builder (engine/runtime/codegen/cell-code.ts): the
// statements it emits for a hand-built operator, put at the loop level
// their positions need, transposes swapping the indexes, shared
// sub-expressions computed once, and nodes it cannot compute refused.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CellCode, cellNodeProblem, type CellPosition } from "../../engine/runtime/codegen/cell-code";
import { UnsupportedOperator } from "../../engine/runtime/codegen";
import { operatorShapes } from "../../engine/runtime/fused/operator-shapes";
import { handOperator, nodeOf, prepareBlock } from "../fusion/fused-check";

const DATA = `
D = rand(rows=5, cols=4, min=-1, max=1, seed=1)
r = rand(rows=1, cols=4, min=-1, max=1, seed=2)
w = rand(rows=5, cols=1, min=-1, max=1, seed=3)
v = rand(rows=4, cols=1, min=-1, max=1, seed=4)
lambda = 0.25
`;

function build(computation: string, root: string) {
  const checked = prepareBlock(DATA, computation);
  const op = handOperator(checked.block, { template: "cell", roots: [root], main: "D" });
  const inputs = new Map(op.inputs.map((n) => [n, checked.unfused.value(n)]));
  const shapes = operatorShapes(checked.block.dag, op, inputs);
  const reads: string[] = [];
  const code = new CellCode({
    dag: checked.block.dag,
    op,
    shapes,
    read: (node: number, at: CellPosition) => {
      const text = checked.block.text(node);
      reads.push(`${text}@${at.row}${at.col}`);
      return `${text}[${at.row},${at.col}]`;
    },
  });
  return { code, value: code.value(nodeOf(checked.block, root)), reads, block: checked.block };
}

describe("per-cell code", () => {
  it("puts scalar work before the loop, column-vector work per row and the rest per cell", () => {
    const { code, value, reads } = build("R = (D + r) * (w * (lambda + 1))\nprint(toString(R))", "(D + r) * (w * (lambda + 1))");
    assert.deepEqual(reads.sort(), ["D@ij", "lambda@00", "r@0j", "w@i0"]);
    assert.equal(code.invariant.length, 2, code.invariant.join("\n"));
    assert.match(code.invariant.join("\n"), /\+ 1\)/);
    assert.equal(code.row.length, 2, code.row.join("\n"));
    assert.equal(code.cell.length, 4, code.cell.join("\n"));
    assert.match(value, /^t\d+$/);
    assert.ok(code.cell[code.cell.length - 1]!.startsWith(`const ${value} = `));
  });
  it("reads a transposed column vector at (j, 0) and a shared sub-expression once", () => {
    const { code, reads } = build("R = D * t(v) + (D * t(v))^2\nprint(toString(R))", "D * t(v) + (D * t(v))^2");
    assert.deepEqual(reads.sort(), ["D@ij", "v@j0"]);
    assert.equal(code.cell.filter((s) => s.includes("*")).length, 1, code.cell.join("\n"));
    assert.match(code.cell.join("\n"), /Math\.pow/);
  });
  it("refuses what it cannot compute per cell", () => {
    const { block } = build("R = D %*% v\nprint(toString(R))", "D");
    assert.match(cellNodeProblem(block.dag, nodeOf(block, "D %*% v")) ?? "", /matmul|cannot/);
    assert.throws(() => build("R = D + sum(D)\nprint(toString(R))", "D + sum(D)"), UnsupportedOperator);
  });
});
