/**
 * The ILP extractor's model: with negative node costs a class takes exactly
 * one node and a class no chosen node uses is not counted, so the ILP's
 * "optimal" is the brute-force optimum of tiny graphs, never below a valid
 * extraction's cost and never above greedy's; its time limit holds.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { readFileSync } from "node:fs";
import path from "node:path";
import { extractGreedyDag, extractGreedyTree, extractIlp, ilpExtractor, parseSerializedEGraph, validateExtraction, type ExtractionGraph } from "../../engine/extract";
import { bruteForceOptimum, randomGraph, serializedEGraphs } from "../fuzz/optimizer.egraphs";
import { repoRoot } from "../repo-root";

function graph(nodes: Record<string, [cls: string, cost: number, children: string[]]>, roots: string[]): ExtractionGraph {
  const json: Record<string, unknown> = {};
  for (const [id, [eclass, cost, children]] of Object.entries(nodes)) json[id] = { op: id, eclass, cost, children };
  return parseSerializedEGraph({ nodes: json, root_eclasses: roots });
}

test("a negative-cost class no root uses is not counted", async () => {
  // r uses a; u (cost -100) is used by nothing.
  const g = graph({ r: ["R", 1, ["a"]], a: ["A", 2, []], u: ["U", -100, []] }, ["R"]);
  const ilp = await extractIlp(g);
  assert.equal(ilp.method, "ilp");
  assert.equal(ilp.optimal, true);
  assert.equal(ilp.dagCost, 3);
  assert.deepEqual([...ilp.choices.keys()].sort(), ["A", "R"]);
});

test("a class takes exactly one node, even when a second one has negative cost", async () => {
  // Class A: a1 (cost 5) and a2 (cost -4, needs B: cost 10). The best is a1 alone: 1 + 5 = 6, not 1 + 5 - 4.
  const g = graph({ r: ["R", 1, ["a1"]], a1: ["A", 5, []], a2: ["A", -4, ["b"]], b: ["B", 10, []] }, ["R"]);
  const ilp = await extractIlp(g);
  assert.equal(ilp.optimal, true);
  assert.equal(ilp.dagCost, 6);
  assert.equal(ilp.choices.get("A"), "a1");
  assert.equal(bruteForceOptimum(g), 6);
});

test("negative costs inside a cycle: the extraction is acyclic and its cost is the brute-force optimum", async () => {
  const g = graph({ r: ["R", 0, ["a1"]], a1: ["A", -5, ["b1"]], a2: ["A", 3, []], b1: ["B", -5, ["a1"]], b2: ["B", 2, []] }, ["R"]);
  const ilp = await extractIlp(g);
  assert.deepEqual(validateExtraction(g, ilp.choices), []);
  assert.equal(ilp.optimal, true);
  assert.equal(ilp.dagCost, bruteForceOptimum(g));
  assert.equal(ilp.dagCost, -3);
});

test("random tiny graphs with negative costs and cycles: ILP's optimum equals brute force and is at most every greedy's", async () => {
  const solve = await ilpExtractor({ timeLimitMs: 2000 });
  const shape = { maxClasses: 5, maxNodesPerClass: 3, maxChildren: 2, negative: true };
  let solved = 0;
  let feasible = 0;
  for (const json of fc.sample(serializedEGraphs(shape), { numRuns: 150, seed: 1414 })) {
    const g = randomGraph(json);
    const optimum = bruteForceOptimum(g);
    let ilp;
    try {
      ilp = solve(g);
    } catch (error) {
      // greedy (the ILP's starting point) found no acyclic extraction; then none exists
      assert.equal(optimum, undefined, `${JSON.stringify(json)}: ${(error as Error).message}`);
      continue;
    }
    feasible++;
    assert.deepEqual(validateExtraction(g, ilp.choices), [], JSON.stringify(json));
    if (ilp.optimal) {
      assert.equal(ilp.dagCost, optimum, JSON.stringify(json));
      solved++;
    }
    assert.ok(ilp.dagCost <= extractGreedyDag(g).dagCost, JSON.stringify(json));
    assert.ok(ilp.dagCost >= optimum!, JSON.stringify(json));
  }
  assert.ok(feasible >= 50, `only ${feasible} of 150 graphs have an extraction`);
  assert.equal(solved, feasible, "every tiny graph with an extraction is solved to proven optimality");
});

// The 10 % target is measured by the optimizer fuzz harness's report run
// (`npm run fuzz -- --only optimizer --report`: "max ILP time / its limit");
// here, on a CI machine shared with other test files, the limit must hold
// with a margin for scheduling: half the limit again.
test("the extraction-gym graphs: ILP's proven optimum is at most greedy's; the 3 s limit holds", async () => {
  await extractIlp(parseSerializedEGraph({ nodes: { a: { op: "a", eclass: "A", children: [] } }, root_eclasses: ["A"] }));
  const dir = path.join(repoRoot, "examples", "egraphs");
  for (const name of ["egg/math_associate_adds.json", "tensat/vgg.json", "egg/diff_power_harder.json", "crafted/lots_of_paths_through_cycle.json"]) {
    const g = parseSerializedEGraph(JSON.parse(readFileSync(path.join(dir, name), "utf8")));
    const start = performance.now();
    const ilp = await extractIlp(g, { timeLimitMs: 3000 });
    const ms = performance.now() - start;
    assert.ok(ms <= 4500, `${name}: ${Math.round(ms)} ms for a 3000 ms limit`);
    assert.deepEqual(validateExtraction(g, ilp.choices), [], name);
    const others = [extractGreedyDag(g), extractGreedyTree(g)];
    for (const other of others) assert.ok(ilp.dagCost <= other.dagCost + 1e-9, `${name}: ILP ${ilp.dagCost} above ${other.method} ${other.dagCost}`);
    if (!ilp.optimal) assert.equal(ilp.timedOut, true, name);
  }
});

test("found by the optimizer harness: two roots, a negative node that reuses the other root (old model claimed 13 optimal)", async () => {
  const g = parseSerializedEGraph({
    nodes: {
      "0.0": { op: "f0", cost: 13, eclass: "c0", children: [] },
      "1.0": { op: "f0", cost: 0, eclass: "c1", children: [] },
      "2.0": { op: "f0", cost: 0, eclass: "c2", children: [] },
      "2.1": { op: "f1", cost: -1, eclass: "c2", children: ["0.0"] },
    },
    root_eclasses: ["c0", "c2"],
  });
  const ilp = await extractIlp(g);
  assert.equal(ilp.optimal, true);
  assert.equal(ilp.dagCost, 12);
  assert.equal(bruteForceOptimum(g), 12);
  assert.equal(ilp.choices.get("c2"), "2.1");
  assert.equal(ilp.choices.has("c1"), false);
});
