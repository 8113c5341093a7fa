// Candidate selection (engine/fusion/select): plan partitions and
// interesting points on hand-built DAGs, the cost of a plan as construction
// builds it, MPSkipEnum's pruning (FA / FNR first, cut sets, lower bound),
// the plan cache and the approximation past the exact limit.
import { strict as assert } from "node:assert";
import { describe, test } from "node:test";
import { exploreFusionPlans } from "../../engine/fusion/explore";
import { choosePartitionPlans, selectFusionPlan } from "../../engine/fusion/select";
import { APPROXIMATION_ROUNDS } from "../../engine/fusion/select/mp-skip-enum";
import { analyzePartitions } from "../../engine/fusion/select/partitions";
import { ReachabilityGraph } from "../../engine/fusion/select/reachability-graph";
import { constructedCost, DagBuilder, selectionCost, TEST_TEMPLATES } from "./selection-fixtures";
import { lastPlan } from "./plan-text";

/** X*Y shared by abs and a sum; a second, independent chain over Z. */
function sharedProduct() {
  const b = new DagBuilder();
  const x = b.matrix("X", 1000, 100);
  const y = b.matrix("Y", 1000, 100);
  const a = b.binary("*", x, y);
  const abs = b.unary("abs", a);
  const s1 = b.sum(abs);
  const s2 = b.sum(a);
  const z = b.matrix("Z", 1000, 100);
  const zz = b.binary("*", z, z);
  const s3 = b.sum(zz);
  return { dag: b.dag([s1, s2, s3]), x, y, a, abs, s1, s2, z, zz, s3 };
}

describe("plan partitions and interesting points", () => {
  test("connected components of fusion references, with roots, inputs, materialization points and consumer points", () => {
    const { dag, x, y, a, abs, s1, s2, z, zz, s3 } = sharedProduct();
    const memo = exploreFusionPlans(dag, TEST_TEMPLATES);
    const parts = analyzePartitions(dag, memo);
    assert.equal(parts.length, 2);
    const [first, second] = parts.sort((p, q) => p.nodes[0]! - q.nodes[0]!);
    assert.deepEqual(first!.nodes, [a, abs, s1, s2]);
    assert.deepEqual(first!.roots, [s1, s2]);
    assert.deepEqual(first!.inputs, [x, y]);
    assert.deepEqual(first!.materializationPoints, [a]);
    assert.deepEqual(first!.points, [
      { consumer: abs, target: a, kind: "consumer" },
      { consumer: s2, target: a, kind: "consumer" },
    ]);
    assert.deepEqual(second!.nodes, [zz, s3]);
    assert.deepEqual(second!.inputs, [z]);
    assert.deepEqual(second!.points, []);
  });

  test("template switches: a Cell-only consumer (exp) of a node with a Row entry; a consumer that roots Row with the product or Cell without it", () => {
    const b = new DagBuilder();
    const x = b.matrix("X", 1000, 100);
    const v = b.matrix("v", 100, 1);
    const w = b.matrix("w", 1000, 1);
    const xv = b.matmul(x, v);
    const plus = b.binary("+", xv, w);
    const e = b.unary("exp", plus);
    const s = b.sum(e);
    const dag = b.dag([s]);
    const memo = exploreFusionPlans(dag, TEST_TEMPLATES);
    const [part] = analyzePartitions(dag, memo);
    assert.deepEqual(part!.nodes, [xv, plus, e, s]);
    assert.deepEqual(part!.materializationPoints, []);
    assert.deepEqual(part!.points, [
      { consumer: plus, target: xv, kind: "template-switch" },
      { consumer: e, target: plus, kind: "template-switch" },
    ]);
  });

  test("a node that leaves the DAG and is fused is always materialized, and counts as one more consumer", () => {
    const b = new DagBuilder();
    const x = b.matrix("X", 100, 100);
    const a = b.unary("abs", x);
    const s = b.sum(a);
    const dag = b.dag([a, s]);
    const [part] = analyzePartitions(dag, exploreFusionPlans(dag, TEST_TEMPLATES));
    assert.deepEqual(part!.roots, [s]);
    assert.deepEqual(part!.alwaysMaterialized, [a]);
    assert.deepEqual(part!.materializationPoints, [a]);
    assert.deepEqual(part!.points, [{ consumer: s, target: a, kind: "consumer" }]);
  });
});

describe("plan cost and selection", () => {
  test("the selection's cost is the cost of the operators construction builds from its selected memo table", () => {
    const { dag } = sharedProduct();
    const built = constructedCost(dag, true);
    assert.ok(built > 0);
    assert.ok(Math.abs(built - selectionCost(dag, true)) <= 1e-12 * built, `${built} vs ${selectionCost(dag, true)}`);
  });

  test("a cheap shared product is recomputed (fuse-all) rather than written and read back; an expensive one is materialized", () => {
    const cheap = sharedProduct();
    const memo = exploreFusionPlans(cheap.dag, TEST_TEMPLATES);
    const [choice] = choosePartitionPlans(cheap.dag, memo, TEST_TEMPLATES).filter((c) => c.partition.points.length > 0);
    assert.deepEqual(choice!.materialized, []);
    assert.equal(choice!.evaluated, 2, "FA and FNR only: with one point true, the lower bound (one more write and read of X*Y) reaches FA's cost");

    // exp costs 18 FLOPs per cell: computing it twice costs more than writing and reading it once.
    const b = new DagBuilder();
    const x = b.matrix("X", 1000, 1000);
    const e = b.unary("exp", x);
    const s1 = b.sum(b.unary("abs", e));
    const s2 = b.sum(e);
    const dag = b.dag([s1, s2]);
    const chosen = choosePartitionPlans(dag, exploreFusionPlans(dag, TEST_TEMPLATES), TEST_TEMPLATES);
    assert.equal(chosen.length, 1);
    assert.deepEqual(chosen[0]!.materialized.map((p) => p.target), [e, e]);
    const brute = choosePartitionPlans(dag, exploreFusionPlans(dag, TEST_TEMPLATES), TEST_TEMPLATES, { pruning: false });
    assert.equal(chosen[0]!.cost, brute[0]!.cost);
  });

  test("search stats: partitions, points, plans with and without pruning", () => {
    const { dag } = sharedProduct();
    const memo = exploreFusionPlans(dag, TEST_TEMPLATES);
    const pruned = selectFusionPlan(dag, memo, TEST_TEMPLATES).search;
    const brute = selectFusionPlan(dag, memo, TEST_TEMPLATES, { pruning: false }).search;
    assert.deepEqual(pruned, { partitions: 2, interestingPoints: 2, maxInterestingPoints: 2, plansEvaluated: 3, plansWithoutPruning: 5, cacheHits: 0, approximated: 0 });
    assert.deepEqual(brute, { ...pruned, plansEvaluated: 5 });
  });

  test("a partition of the same shape as one already solved comes from the plan cache", () => {
    const b = new DagBuilder();
    const roots: number[] = [];
    for (const name of ["A", "B"]) {
      const x = b.matrix(`${name}1`, 1000, 100);
      const y = b.matrix(`${name}2`, 1000, 100);
      const p = b.binary("*", x, y);
      roots.push(b.sum(b.unary("abs", p)), b.sum(p));
    }
    const dag = b.dag(roots);
    const memo = exploreFusionPlans(dag, TEST_TEMPLATES);
    const search = selectFusionPlan(dag, memo, TEST_TEMPLATES).search;
    assert.equal(search.partitions, 2);
    assert.equal(search.cacheHits, 1);
    assert.equal(search.plansEvaluated, 2, "only the first partition is searched (FA and FNR, the rest pruned by the lower bound)");
    const choices = choosePartitionPlans(dag, memo, TEST_TEMPLATES);
    assert.equal(choices[0]!.cost, choices[1]!.cost);
  });
});

describe("graceful approximation past the exact limit", () => {
  function fanOut(consumers: number) {
    const b = new DagBuilder();
    const x = b.matrix("X", 1000, 100);
    const y = b.matrix("Y", 1000, 100);
    const a = b.binary("*", x, y);
    const roots: number[] = [];
    for (let k = 0; k < consumers; k++) roots.push(b.sum(b.binary("*", a, b.matrix(`Z${k}`, 1000, 100))));
    return b.dag(roots);
  }

  test("a partition with 17 interesting points is planned by the heuristic and reported", () => {
    const dag = fanOut(17);
    const memo = exploreFusionPlans(dag, TEST_TEMPLATES);
    const search = selectFusionPlan(dag, memo, TEST_TEMPLATES).search;
    assert.equal(search.maxInterestingPoints, 17);
    assert.equal(search.approximated, 1);
    assert.equal(search.plansWithoutPruning, 2 ** 17);
    assert.ok(search.plansEvaluated >= 2 + 17 && search.plansEvaluated <= 2 + APPROXIMATION_ROUNDS * 17, `${search.plansEvaluated}`);
    assert.equal(selectFusionPlan(dag, memo, TEST_TEMPLATES, { pruning: false }).search.approximated, 1, "brute force is bounded by the same limit");
  });

  test("exactLimit sets the limit: 4 points are exact by default and approximated with exactLimit 3", () => {
    const dag = fanOut(4);
    const memo = exploreFusionPlans(dag, TEST_TEMPLATES);
    assert.equal(selectFusionPlan(dag, memo, TEST_TEMPLATES).search.approximated, 0);
    const limited = selectFusionPlan(dag, memo, TEST_TEMPLATES, { exactLimit: 3 }).search;
    assert.equal(limited.approximated, 1);
    assert.equal(limited.maxInterestingPoints, 4);
    // Not a count: the default; past 20: 20 (a limit of 100 would mean 2^100 plans).
    assert.equal(selectFusionPlan(dag, memo, TEST_TEMPLATES, { exactLimit: Number.NaN }).search.approximated, 0);
    assert.equal(selectFusionPlan(fanOut(21), exploreFusionPlans(fanOut(21), TEST_TEMPLATES), TEST_TEMPLATES, { exactLimit: 100 }).search.approximated, 1);
  });
});

describe("structural pruning", () => {
  test("a materialized node splits the partition into independent sub-problems", () => {
    // A = X * Y shared below mid = abs(A) + sqrt(A), mid shared by exp and abs, top = their sum shared by the final product: materializing mid separates the decisions on A from those on top.
    const b = new DagBuilder();
    const x = b.matrix("X", 1000, 100);
    const y = b.matrix("Y", 1000, 100);
    const a = b.binary("*", x, y);
    const a1 = b.unary("abs", a);
    const a2 = b.unary("sqrt", a);
    const mid = b.binary("+", a1, a2);
    const m1 = b.unary("exp", mid);
    const m2 = b.unary("abs", mid);
    const top = b.binary("+", m1, m2);
    const t1 = b.unary("abs", top);
    const s = b.sum(b.binary("*", top, t1));
    const dag = b.dag([s]);
    const memo = exploreFusionPlans(dag, TEST_TEMPLATES);
    const [part] = analyzePartitions(dag, memo);
    assert.deepEqual(part!.points.map((p) => [p.consumer, p.target]), [[a1, a], [a2, a], [m1, mid], [m2, mid], [t1, top], [t1 + 1, top]]);
    const graph = new ReachabilityGraph(dag, part!);
    assert.equal(graph.cutSets.length, 1);
    assert.deepEqual(graph.cutSets[0]!.cut.map((i) => graph.searchSpace[i]!.target), [mid, mid]);
    assert.deepEqual(graph.cutSets[0]!.upper.map((i) => graph.searchSpace[i]!.target), [top, top]);
    assert.deepEqual(graph.cutSets[0]!.lower.map((i) => graph.searchSpace[i]!.target), [a, a]);
    const pruned = choosePartitionPlans(dag, memo, TEST_TEMPLATES)[0]!;
    const brute = choosePartitionPlans(dag, memo, TEST_TEMPLATES, { pruning: false })[0]!;
    assert.equal(pruned.cost, brute.cost);
    assert.equal(brute.evaluated, 64);
    assert.ok(pruned.evaluated < 64, `${pruned.evaluated}`);
  });
});

describe("on DML with the planner's templates", () => {
  const product = (sparsity: number) => `X = rand(rows=2000, cols=2000, sparsity=${sparsity})
U = rand(rows=2000, cols=10)
V = rand(rows=2000, cols=10)
Y = rand(rows=2000, cols=2000)
R = Y + X * (U %*% t(V))
print(sum(R))
`;

  test("Y + X * (U %*% t(V)): the sparse-safe product is its own Outer operator (X sparse or dense, as SystemDS plans it), the rest one Cell operator", () => {
    const sparse = lastPlan(product(0.01));
    const dense = lastPlan(product(1));
    for (const planned of [sparse, dense]) {
      assert.deepEqual(
        planned.plan.operators.map((op) => [op.template, op.covered.map((n) => planned.text(n))]),
        [
          ["outer", ["t(V)", "(U %*% t(V))", "X * (U %*% t(V))"]],
          ["cell", ["Y + X * (U %*% t(V))", "sum(R)"]],
        ],
      );
    }
    for (const planned of [sparse, dense]) {
      assert.ok(planned.plan.cost.fused < planned.plan.cost.unfused);
      const brute = lastPlan(product(planned === sparse ? 0.01 : 1), { pruning: false });
      assert.equal(planned.plan.cost.fused, brute.plan.cost.fused);
      assert.equal(planned.plan.search.plansWithoutPruning, 4);
    }
  });
});
