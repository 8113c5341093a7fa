/**
 * Optimizer adversaries (issue 14): long multiplication chains (up to 60
 * matrices), sums of up to 200 terms, element-wise nests 40 deep, NaN / Inf
 * / -0 constants through scalar and matrix operations, and random serialized
 * e-graphs with negative costs and cycles.
 *
 * Properties:
 * - the optimizer's work stays within its count bounds (e-nodes, iterations,
 *   matches applied) and stops by a work bound, never by its time safety
 *   net or an analysis that does not settle; time and memory per case are
 *   reported against bounds;
 * - every extraction (greedy tree, greedy DAG, ILP; of every statement's plan
 *   graph and of every random e-graph) is well-formed: each root's class
 *   chosen, every child class of a chosen node has a chosen node of its own
 *   class, no cycle;
 * - the ILP claims optimality only when its cost is at most every other
 *   extractor's on the same graph, and on tiny graphs equals the brute-force
 *   optimum; it stays within 10 % of its time limit.
 */
import fc from "fast-check";
import { extractGreedyDag, extractGreedyTree, ilpExtractor, type Extraction, type ExtractionGraph } from "../../engine/extract";
import { DEFAULT_SATURATION } from "../../engine/rewrite";
import { analyzeText } from "../../engine/analysis/program-analysis";
import { optimizeBlock } from "../../engine/suggest";
import type { FuzzFailure, FuzzHarness, FuzzMeasure, FuzzResult, FuzzRunOptions } from "./harness";
import { bruteForceOptimum, randomGraph, serializedEGraphs } from "./optimizer.egraphs";

/** The work bounds every block must keep (the optimizer's defaults). */
const NODE_LIMIT = DEFAULT_SATURATION.nodeLimit;
const ITERATION_LIMIT = DEFAULT_SATURATION.iterationLimit + DEFAULT_SATURATION.liftingIterationLimit;
const APPLY_LIMIT = DEFAULT_SATURATION.applyLimit;
/**
 * E-nodes a block may hold when it stops: the node limit is checked after
 * each match applied, and constant folding and congruence of that one
 * match add at most a few nodes; the block's own DAG and its seeds (chain
 * orders, sum-product forms) come before saturation and are bounded by the
 * cases' sizes (a 200-term sum is about 600 DAG nodes).
 */
const NODE_BOUND = NODE_LIMIT + 2_000;
/** Time bound per optimizer case (a safety bound on this machine: the work bounds are counts). */
const CASE_MS_BOUND = 20_000;
/** Resident memory bound of the whole run. */
const RSS_MB_BOUND = 1_500;
/** The ILP's time limit in the e-graph cases, and the overshoot allowed (10 %). */
const ILP_LIMIT_MS = 2_000;
const ILP_OVERSHOOT = 1.1;
/** Plan graphs up to this many nodes are also extracted by the ILP. */
const ILP_PLAN_NODES = 400;

type CaseKind = "chain" | "sum" | "nest" | "nonfinite" | "egraph-tiny" | "egraph";
const KINDS: readonly CaseKind[] = ["chain", "sum", "nest", "nonfinite", "egraph-tiny", "egraph", "egraph-tiny", "egraph"];

const sparsity = fc.constantFrom(1, 1, 0.5, 0.1, 0.01);

/** A chain of 3 to 60 matrices of random, agreeing dims. */
const chainScripts: fc.Arbitrary<string> = fc
  .integer({ min: 3, max: 60 })
  .chain((n) => fc.tuple(fc.array(fc.integer({ min: 1, max: 300 }), { minLength: n + 1, maxLength: n + 1 }), fc.array(sparsity, { minLength: n, maxLength: n })))
  .map(([dims, sparsities]) => {
    const lines = sparsities.map((s, k) => `A${k} = rand(rows=${dims[k]}, cols=${dims[k + 1]}, sparsity=${s})`);
    lines.push(`R = ${sparsities.map((_, k) => `A${k}`).join(" %*% ")}`);
    lines.push("print(sum(R))");
    return lines.join("\n");
  });

/** A sum of 2 to 200 terms over four square matrices. */
const sumScripts: fc.Arbitrary<string> = fc
  .tuple(
    fc.integer({ min: 2, max: 120 }),
    fc.array(fc.tuple(fc.constantFrom("X", "Y", "Z", "W"), fc.constantFrom("X", "Y", "Z", "W"), fc.constantFrom("plain", "times", "t", "mm", "scaled", "sum")), { minLength: 2, maxLength: 200 }),
    fc.array(sparsity, { minLength: 4, maxLength: 4 }),
  )
  .map(([m, terms, s]) => {
    const term = ([a, b, kind]: [string, string, string]) =>
      kind === "plain" ? a : kind === "times" ? `${a} * ${b}` : kind === "t" ? `t(${a})` : kind === "mm" ? `${a} %*% ${b}` : kind === "scaled" ? `2 * ${a}` : `sum(${a}) * ${b}`;
    const lines = ["X", "Y", "Z", "W"].map((name, k) => `${name} = rand(rows=${m}, cols=${m}, sparsity=${s[k]})`);
    lines.push(`S = ${terms.map(term).join(" + ")}`);
    lines.push("print(sum(S))");
    return lines.join("\n");
  });

/** An element-wise expression nested up to 40 deep. */
const nestScripts: fc.Arbitrary<string> = fc
  .tuple(fc.integer({ min: 1, max: 80 }), fc.array(fc.tuple(fc.constantFrom("+", "-", "*", "neg", "scale", "t"), fc.constantFrom("X", "Y", "2", "0.5")), { minLength: 1, maxLength: 40 }))
  .map(([m, steps]) => {
    let e = "X";
    for (const [op, operand] of steps) {
      if (op === "neg") e = `-(${e})`;
      else if (op === "scale") e = `0.5 * (${e})`;
      else if (op === "t") e = `t(${e})`;
      else e = `(${e}) ${op} ${operand}`;
    }
    return [`X = rand(rows=${m}, cols=${m})`, `Y = rand(rows=${m}, cols=${m}, sparsity=0.1)`, `E = ${e}`, "print(sum(E))"].join("\n");
  });

/** NaN, Inf and -0 constants through scalar and matrix operations. */
const nonFiniteScripts: fc.Arbitrary<string> = fc
  .tuple(
    fc.array(fc.constantFrom("NaN", "0/0", "1/0", "-1/0", "-0", "0 * (1/0)", "(1/0) - (1/0)", "2"), { minLength: 1, maxLength: 4 }),
    fc.array(fc.tuple(fc.constantFrom("+", "-", "*", "/", "^"), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 3 })), { minLength: 1, maxLength: 6 }),
    fc.boolean(),
  )
  .map(([constants, ops, matrices]) => {
    const lines = constants.map((c, k) => `c${k} = ${c}`);
    const name = (k: number) => `c${k % constants.length}`;
    if (matrices) lines.push(...constants.map((_, k) => `M${k} = matrix(c${k}, rows=4, cols=3)`), "X = rand(rows=4, cols=3)");
    ops.forEach(([op, a, b], k) => {
      const left = matrices && k % 2 === 0 ? `M${a % constants.length}` : name(a);
      const right = matrices && k % 3 === 0 ? "X" : name(b);
      lines.push(`r${k} = ${left} ${op} ${right} + ${name(a)} ${op} ${name(b)}`);
    });
    lines.push(`print(sum(${ops.map((_, k) => `sum(r${k})`).join(" + ")}))`);
    return lines.join("\n");
  });

const tinyEGraphs = serializedEGraphs({ maxClasses: 6, maxNodesPerClass: 3, maxChildren: 2, negative: true });
const largeEGraphs = serializedEGraphs({ maxClasses: 60, maxNodesPerClass: 4, maxChildren: 3, negative: true });

/** Shrinking a failure re-runs the case many times: this much time at most (a safety net; the shrunk input so far is reported). */
const SHRINK_MS = 60_000;

/**
 * One case drawn from `arbitrary` with `seed` and checked; a failing one is
 * shrunk by fast-check to a smaller input that still fails. Returns the
 * (shrunk) input as text and its problems (none when the case passed).
 */
function checkShrinking<T>(arbitrary: fc.Arbitrary<T>, seed: number, check: (value: T) => string[], show: (value: T) => string): { input: string; problems: string[] } {
  const guarded = (value: T): string[] => {
    try {
      return check(value);
    } catch (error) {
      return [`threw: ${(error as Error).stack ?? String(error)}`];
    }
  };
  const outcome = fc.check(fc.property(arbitrary, (value) => guarded(value).length === 0), { seed, numRuns: 1, interruptAfterTimeLimit: SHRINK_MS, markInterruptAsFailure: false });
  if (!outcome.failed || outcome.counterexample === null) return { input: "", problems: [] };
  const [shrunk] = outcome.counterexample;
  return { input: show(shrunk), problems: guarded(shrunk) };
}

/**
 * Problems of an extraction, checked here independently of the engine's
 * own validator: a root without a chosen node, a chosen node of another
 * class, a chosen node with a child class that has no chosen node, a cycle
 * among the chosen nodes.
 */
export function extractionProblems(graph: ExtractionGraph, choices: ReadonlyMap<string, string>): string[] {
  const problems: string[] = [];
  for (const root of graph.roots) if (!choices.has(root)) problems.push(`root class ${root} has no chosen node`);
  for (const [cls, id] of choices) {
    const node = graph.nodes.get(id);
    if (!node) {
      problems.push(`class ${cls} chose unknown node ${id}`);
      continue;
    }
    if (node.eclass !== cls) problems.push(`class ${cls} chose node ${id} of class ${node.eclass}`);
    for (const child of node.children) {
      const childClass = graph.nodes.get(child)?.eclass;
      if (childClass === undefined || !choices.has(childClass)) problems.push(`node ${id} (class ${cls}) has child class ${childClass} without a chosen node`);
    }
  }
  // Cycle check on the chosen nodes (iterative depth-first search with colours).
  const colour = new Map<string, 1 | 2>();
  for (const start of choices.keys()) {
    if (colour.has(start)) continue;
    const stack: [string, number][] = [[start, 0]];
    colour.set(start, 1);
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      const node = graph.nodes.get(choices.get(frame[0])!);
      const children = node?.children ?? [];
      if (frame[1] >= children.length) {
        colour.set(frame[0], 2);
        stack.pop();
        continue;
      }
      const child = graph.nodes.get(children[frame[1]++]!)?.eclass;
      if (child === undefined || !choices.has(child)) continue;
      const c = colour.get(child);
      if (c === 1) {
        problems.push(`cycle through class ${child}`);
        return problems;
      }
      if (c === undefined) {
        colour.set(child, 1);
        stack.push([child, 0]);
      }
    }
  }
  return problems;
}

interface Tally {
  failures: FuzzFailure[];
  maxNodes: number;
  maxIterations: number;
  maxApplied: number;
  maxCaseMs: number;
  maxRssMb: number;
  safetyNets: number;
  rebuildLimits: number;
  blocks: number;
  extractions: number;
  ilpRuns: number;
  ilpProven: number;
  ilpTimedOut: number;
  maxIlpRatio: number;
  bruteForceChecks: number;
  caseKinds: Map<CaseKind, number>;
}

type IlpSolve = (graph: ExtractionGraph) => Extraction;

/** Runs the extractors on one graph and checks their results; returns the problems found. */
function checkExtractors(graph: ExtractionGraph, tally: Tally, ilp: IlpSolve | undefined, bruteForce: boolean, ilpLimitMs: number): string[] {
  const problems: string[] = [];
  const results: Extraction[] = [];
  for (const extract of [extractGreedyTree, extractGreedyDag]) {
    try {
      results.push(extract(graph));
    } catch {
      // no finite acyclic extraction found by this extractor: checked against brute force below
    }
  }
  let ilpResult: Extraction | undefined;
  if (ilp && results.length > 0) {
    const start = performance.now();
    ilpResult = ilp(graph);
    const ms = performance.now() - start;
    tally.ilpRuns++;
    if (ilpResult.optimal) tally.ilpProven++;
    if (ilpResult.timedOut) tally.ilpTimedOut++;
    tally.maxIlpRatio = Math.max(tally.maxIlpRatio, ms / ilpLimitMs);
    results.push(ilpResult);
  }
  for (const r of results) {
    tally.extractions++;
    for (const p of extractionProblems(graph, r.choices)) problems.push(`${r.method}: ${p}`);
  }
  if (ilpResult?.optimal) {
    for (const other of results) if (ilpResult.dagCost > other.dagCost + 1e-9 * Math.max(1, Math.abs(other.dagCost))) problems.push(`ILP claims optimal at DAG cost ${ilpResult.dagCost} but ${other.method} found ${other.dagCost}`);
  }
  if (bruteForce) {
    tally.bruteForceChecks++;
    const optimum = bruteForceOptimum(graph);
    if (optimum === undefined && results.length > 0) problems.push(`an extraction was returned but brute force finds no valid one`);
    if (optimum !== undefined && results.length === 0) problems.push(`no extractor found an extraction; brute force finds one of cost ${optimum}`);
    if (optimum !== undefined && ilpResult?.optimal && Math.abs(ilpResult.dagCost - optimum) > 1e-9) problems.push(`ILP claims optimal at ${ilpResult.dagCost}; brute force finds ${optimum}`);
    for (const r of results) if (optimum !== undefined && r.dagCost < optimum - 1e-9) problems.push(`${r.method} reports cost ${r.dagCost}, below the brute-force optimum ${optimum}`);
  }
  return problems;
}

const WORK_BOUND_STOPS = new Set(["saturated", "iterationLimit", "nodeLimit", "applyLimit", "nothing to optimize"]);

/** One optimizer case: every block of the script optimized (with verification) and its plans' extractions checked. */
function optimizerCase(text: string, tally: Tally, ilp: IlpSolve): string[] {
  const start = performance.now();
  const problems: string[] = [];
  const analysis = analyzeText(text);
  for (const info of analysis.dags.blocks) {
    const sizes = analysis.sizes.blocks.get(info.block);
    if (!sizes) continue;
    const result = optimizeBlock({ block: info.block, dag: info.dag, stats: sizes.nodes, sourceText: text }, { keepPlanGraphs: true });
    tally.blocks++;
    tally.maxNodes = Math.max(tally.maxNodes, result.nodes);
    tally.maxIterations = Math.max(tally.maxIterations, result.work.iterations);
    tally.maxApplied = Math.max(tally.maxApplied, result.work.applied);
    if (result.safetyNet) {
      tally.safetyNets++;
      problems.push(`the time safety net stopped the ${result.safetyNet.what} after ${Math.round(result.safetyNet.ms)} ms (the work bounds should have)`);
    }
    if (result.stopReason === "rebuildLimit") tally.rebuildLimits++;
    if (!WORK_BOUND_STOPS.has(result.stopReason)) problems.push(`saturation stopped by ${result.stopReason}`);
    if (result.nodes > NODE_BOUND) problems.push(`${result.nodes} e-nodes, above ${NODE_BOUND}`);
    for (const graph of result.planGraphs ?? []) {
      const small = graph.nodes.size <= ILP_PLAN_NODES;
      problems.push(...checkExtractors(graph, tally, small ? ilp : undefined, false, ILP_LIMIT_MS));
    }
  }
  tally.maxCaseMs = Math.max(tally.maxCaseMs, performance.now() - start);
  return problems;
}

async function run(options: FuzzRunOptions): Promise<FuzzResult> {
  const ilp = await ilpExtractor({ timeLimitMs: ILP_LIMIT_MS });
  const tally: Tally = {
    failures: [],
    maxNodes: 0,
    maxIterations: 0,
    maxApplied: 0,
    maxCaseMs: 0,
    maxRssMb: 0,
    safetyNets: 0,
    rebuildLimits: 0,
    blocks: 0,
    extractions: 0,
    ilpRuns: 0,
    ilpProven: 0,
    ilpTimedOut: 0,
    maxIlpRatio: 0,
    bruteForceChecks: 0,
    caseKinds: new Map(),
  };
  let cases = 0;
  let stoppedByDeadline = false;
  for (let i = 0; i < options.cases; i++) {
    if (Date.now() > options.deadlineMs) {
      stoppedByDeadline = true;
      break;
    }
    const kind = KINDS[i % KINDS.length]!;
    const seed = options.seed + i;
    const { input, problems } = kind === "egraph" || kind === "egraph-tiny"
      ? checkShrinking(kind === "egraph" ? largeEGraphs : tinyEGraphs, seed, (json) => checkExtractors(randomGraph(json), tally, ilp, kind === "egraph-tiny", ILP_LIMIT_MS), (json) => JSON.stringify(json))
      : checkShrinking(kind === "chain" ? chainScripts : kind === "sum" ? sumScripts : kind === "nest" ? nestScripts : nonFiniteScripts, seed, (text) => optimizerCase(text, tally, ilp), (text) => text);
    tally.maxRssMb = Math.max(tally.maxRssMb, process.memoryUsage().rss / 2 ** 20);
    tally.caseKinds.set(kind, (tally.caseKinds.get(kind) ?? 0) + 1);
    cases++;
    if (problems.length > 0) tally.failures.push({ input, problem: `${kind} case (seed ${seed}, shrunk): ${problems.slice(0, 5).join("; ")}` });
    if (cases % 25 === 0) options.log(`optimizer: ${cases} cases, ${tally.failures.length} failures`);
  }
  const measures: FuzzMeasure[] = [
    ...[...tally.caseKinds].map(([kind, n]) => ({ name: `${kind} cases`, value: n, unit: "cases" })),
    { name: "blocks optimized", value: tally.blocks, unit: "blocks" },
    { name: "max e-nodes per block", value: tally.maxNodes, unit: "e-nodes", bound: NODE_BOUND },
    { name: "max saturation iterations per block", value: tally.maxIterations, unit: "iterations", bound: ITERATION_LIMIT },
    { name: "max matches applied per block", value: tally.maxApplied, unit: "matches", bound: APPLY_LIMIT },
    { name: "time safety net firings", value: tally.safetyNets, unit: "blocks", bound: 0 },
    { name: "analysis rebuild cut-offs", value: tally.rebuildLimits, unit: "blocks", bound: 0 },
    { name: "max time per optimizer case", value: Math.round(tally.maxCaseMs), unit: "ms", bound: CASE_MS_BOUND },
    { name: "peak resident memory", value: Math.round(tally.maxRssMb), unit: "MB", bound: RSS_MB_BOUND },
    { name: "extractions checked", value: tally.extractions, unit: "extractions" },
    { name: "ILP runs", value: tally.ilpRuns, unit: "runs" },
    { name: "ILP proven optimal", value: tally.ilpProven, unit: "runs" },
    { name: "ILP stopped by its time limit", value: tally.ilpTimedOut, unit: "runs" },
    { name: "max ILP time / its limit", value: Number(tally.maxIlpRatio.toFixed(3)), unit: "ratio", bound: ILP_OVERSHOOT },
    { name: "brute-force optimum checks", value: tally.bruteForceChecks, unit: "graphs" },
  ];
  return { cases, failures: tally.failures, measures, stoppedByDeadline };
}

export const harness: FuzzHarness = {
  name: "optimizer",
  title: "Optimizer adversaries: 60-matrix chains, 200-term sums, 40-deep nests, NaN/Inf/-0 constants, negative-cost cyclic e-graphs; work bounds hold, extractions well-formed, ILP optimality only when proven",
  ciCases: 24,
  reportCases: 300,
  run,
};
