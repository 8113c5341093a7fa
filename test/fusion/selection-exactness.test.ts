// The exactness property of MPSkipEnum (issue 15): on random DAGs with
// random sizes and sparsity (up to 12 interesting points per partition),
// (some unknown), the pruned search finds a plan of the same cost as costing every
// assignment, never costs more plans than that, and its cost is the cost
// of the operators construction builds from the selected memo table.
import { strict as assert } from "node:assert";
import { after, test } from "node:test";
import fc from "fast-check";
import { exploreFusionPlans } from "../../engine/fusion/explore";
import { choosePartitionPlans } from "../../engine/fusion/select";
import { constructedCost, DagBuilder, selectionCost, TEST_TEMPLATES } from "./selection-fixtures";

const MAX_POINTS = 12;

interface Step {
  kind: number;
  a: number;
  b: number;
}

const caseArb = fc.record({
  rows: fc.constantFrom(10, 1000, 100_000),
  cols: fc.constantFrom(2, 50, 1000),
  // null: the input's non-zeros are unknown (costs of what depends on it are unknown).
  sparsity: fc.array(fc.constantFrom<number | null>(1, 0.2, 0.01, 0.0001, null), { minLength: 3, maxLength: 3 }),
  steps: fc.array(fc.record({ kind: fc.nat(9), a: fc.nat(20), b: fc.nat(20) }), { minLength: 6, maxLength: 30 }),
  extraRoots: fc.array(fc.nat(40), { maxLength: 2 }),
});

/** A random DAG: element-wise products, sums, differences, exp, abs, matrix-vector products, broadcasts, row and full sums. */
function randomDag(c: { rows: number; cols: number; sparsity: (number | null)[]; steps: Step[]; extraRoots: number[] }) {
  const b = new DagBuilder();
  const matrices = c.sparsity.map((s, i) => b.matrix(`X${i}`, c.rows, c.cols, s));
  const v = b.matrix("v", c.cols, 1);
  const vectors = [b.matrix("w", c.rows, 1)];
  const roots: number[] = [];
  // Operands mostly among the last few values, so intermediates are shared.
  const pick = (list: number[], i: number) => (i < 12 ? list[list.length - 1 - (i % Math.min(list.length, 4))]! : list[i % list.length]!);
  for (const { kind, a, b: other } of c.steps) {
    switch (kind) {
      case 0: matrices.push(b.binary("*", pick(matrices, a), pick(matrices, other))); break;
      case 1: matrices.push(b.binary("+", pick(matrices, a), pick(matrices, other))); break;
      case 2: matrices.push(b.binary("-", pick(matrices, a), pick(matrices, other))); break;
      case 3: matrices.push(b.unary("exp", pick(matrices, a))); break;
      case 4: matrices.push(b.unary("abs", pick(matrices, a))); break;
      case 5: vectors.push(b.matmul(pick(matrices, a), v)); break;
      case 6: matrices.push(b.binary("*", pick(matrices, a), pick(vectors, other))); break;
      case 7: vectors.push(b.binary("+", pick(vectors, a), pick(vectors, other))); break;
      case 8: vectors.push(b.rowSums(pick(matrices, a))); break;
      default: roots.push(b.sum(a % 2 === 0 ? pick(matrices, other) : pick(vectors, other)));
    }
  }
  roots.push(b.sum(matrices[matrices.length - 1]!), b.sum(vectors[vectors.length - 1]!));
  for (const r of c.extraRoots) roots.push(r % b.nodes.length);
  return b.dag(roots);
}

const totals = { cases: 0, partitions: 0, maxPoints: 0, largePartitions: 0, evaluated: 0, withoutPruning: 0 };

test("MPSkipEnum's plan cost equals brute force on random DAGs (up to 12 interesting points), with no more plans costed", () => {
  fc.assert(
    fc.property(caseArb, (c) => {
      const dag = randomDag(c);
      const memo = exploreFusionPlans(dag, TEST_TEMPLATES);
      const pruned = choosePartitionPlans(dag, memo, TEST_TEMPLATES, { exactLimit: MAX_POINTS });
      fc.pre(pruned.every((p) => !p.approximated));
      const brute = choosePartitionPlans(dag, memo, TEST_TEMPLATES, { pruning: false, exactLimit: MAX_POINTS });
      assert.equal(pruned.length, brute.length);
      let evaluated = 0;
      let without = 0;
      pruned.forEach((p, i) => {
        const q = brute[i]!;
        assert.deepEqual(p.partition.nodes, q.partition.nodes);
        assert.ok(Math.abs(p.cost - q.cost) <= 1e-12 * Math.max(q.cost, 1e-300), `partition ${i}: pruned ${p.cost} vs brute force ${q.cost}`);
        assert.equal(q.evaluated, 2 ** q.partition.points.length);
        if (!p.cached) assert.ok(p.evaluated <= q.evaluated, `partition ${i}: ${p.evaluated} plans costed with pruning, ${q.evaluated} without`);
        evaluated += p.evaluated;
        without += q.evaluated;
        totals.maxPoints = Math.max(totals.maxPoints, p.partition.points.length);
        if (p.partition.points.length >= 6) totals.largePartitions++;
      });
      assert.ok(evaluated <= without);
      const built = constructedCost(dag, true, MAX_POINTS);
      const selected = selectionCost(dag, true, MAX_POINTS);
      assert.ok(Math.abs(built - selected) <= 1e-9 * Math.max(built, 1e-300), `constructed ${built} vs selection ${selected}`);
      totals.cases++;
      totals.partitions += pruned.length;
      totals.evaluated += evaluated;
      totals.withoutPruning += without;
    }),
    { numRuns: 300 },
  );
  assert.ok(totals.cases >= 100, `${totals.cases} cases kept`);
  assert.ok(totals.evaluated <= totals.withoutPruning);
});

after(() => {
  console.log(
    `selection exactness: ${totals.cases} DAGs, ${totals.partitions} partitions (${totals.largePartitions} with 6 or more interesting points, up to ${totals.maxPoints}); ` +
      `plans costed with pruning ${totals.evaluated}, without ${totals.withoutPruning}`,
  );
});
