/**
 * Optimal DAG-cost extraction as an integer linear program (SPORES, Fig. 11),
 * solved by GLPK (glpk.js, WebAssembly): a 0/1 variable per e-node and per
 * e-class. The model's feasible points are exactly the valid extractions,
 * so its optimum is the cheapest one even with negative node costs:
 * - the roots' classes are chosen;
 * - a chosen class takes exactly one of its nodes (a class not chosen, none);
 * - a chosen node chooses its children's classes;
 * - a class that is not a root is chosen only if some chosen node uses it
 *   (else a negative-cost class no root needs would lower the objective);
 * - no cycle: a level per class, a chosen node's class sits above its
 *   children's (only needed inside strongly connected components).
 * The objective is the sum of the chosen nodes' costs (each once: the DAG
 * cost). The greedy-DAG result bounds the objective and is the fallback.
 * "optimal" is claimed only when GLPK proved the optimum of this model and
 * the extraction read back costs what GLPK's objective says.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { importModule } from "../files";
import { dagCost, reachableChoices, treeCost, validateExtraction } from "./costs";
import { childClass, type Extraction, type ExtractionGraph } from "./extraction-graph";
import { GlpkWorker } from "./glpk-worker";
import { extractGreedyDag } from "./greedy-dag";

export interface IlpOptions {
  /**
   * A safety net, not a budget (default 10 s): GLPK bounds its search only by
   * time, so a solve it stops early is marked `timedOut` (the greedy plan or
   * the best found is used; a faster machine may do better). The call keeps
   * to it: GLPK runs in a worker that is stopped at 95 % of the limit
   * (glpk-worker.ts); only the greedy plan, computed first, can take longer
   * on a huge graph.
   */
  timeLimitMs?: number;
  /** A known extraction (default: greedy DAG): its cost bounds the search and it is returned if the ILP fails. */
  initial?: Extraction;
}

interface Glpk {
  GLP_MIN: number;
  GLP_LO: number;
  GLP_UP: number;
  GLP_DB: number;
  GLP_FX: number;
  GLP_MSG_OFF: number;
  GLP_OPT: number;
  GLP_FEAS: number;
  solve(lp: unknown, options: unknown): { result: { status: number; z: number; vars: Record<string, number> } };
}

type GlpkResult = ReturnType<Glpk["solve"]>["result"];

let solver: Promise<Glpk> | undefined;
let worker: GlpkWorker<GlpkResult> | undefined;

/**
 * Where GLPK is loaded from: the copy the build puts next to the bundles
 * (dist/glpk/, so the packaged extension needs no node_modules), else the
 * glpk.js package found in a node_modules above this file. Its WebAssembly
 * lies next to its module.
 */
function glpkSpecifier(): string {
  const bundled = path.join(__dirname, "glpk", "glpk.mjs");
  if (existsSync(bundled)) return pathToFileURL(bundled).href;
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "node_modules", "glpk.js", "dist", "glpk.js");
    if (existsSync(candidate)) return pathToFileURL(candidate).href;
    if (path.dirname(dir) === dir) return "glpk.js/node";
  }
}

/** GLPK in this thread, loaded once (its constants build the model; it solves when no worker can). */
function glpk(): Promise<Glpk> {
  // importModule, not import(): this code may run in a bundle loaded with V8's code cache (engine/files/code-cache.ts).
  solver ??= (importModule(glpkSpecifier()) as Promise<{ default: () => Promise<unknown> }>).then((m) => m.default() as Promise<Glpk>);
  return solver;
}

/** The GLPK worker, with GLPK loaded (loading it is not counted against the first solve's limit). */
async function loadedWorker(): Promise<GlpkWorker<GlpkResult>> {
  worker ??= new GlpkWorker<GlpkResult>(glpkSpecifier());
  await worker.loaded();
  return worker;
}

/** Solves in the GLPK worker within `hardLimitMs` (undefined: it ran out of time), or in this thread if the worker cannot load GLPK. */
function solveBounded(g: Glpk, lp: unknown, options: unknown, hardLimitMs: number): GlpkResult | undefined {
  worker ??= new GlpkWorker<GlpkResult>(glpkSpecifier());
  const reply = worker.solve(lp, options, hardLimitMs);
  if ("result" in reply) return reply.result;
  if ("timedOut" in reply) return undefined;
  return g.solve(lp, options).result;
}

export async function extractIlp(graph: ExtractionGraph, options: IlpOptions = {}): Promise<Extraction> {
  // GLPK's first load is not counted against the limit; a worker restarted after a timeout loads within it.
  if (worker === undefined) await loadedWorker();
  return solveIlp(await glpk(), graph, options);
}

/** ILP extraction as a synchronous function (the solver loaded first), e.g. for the optimizer's per-statement plans. */
export async function ilpExtractor(options: Omit<IlpOptions, "initial"> = {}): Promise<(graph: ExtractionGraph) => Extraction> {
  const g = await glpk();
  await loadedWorker();
  return (graph) => solveIlp(g, graph, options);
}

/**
 * GLPK's own time limit: this share of ours, less the time spent before the
 * solve (building the model); it then returns the best plan it found.
 */
const SOLVER_SHARE = 0.85;
/** The hard limit: past this share of ours the worker is stopped (what is left reads the result back). */
const HARD_SHARE = 0.95;

function solveIlp(g: Glpk, graph: ExtractionGraph, options: IlpOptions): Extraction {
  const start = performance.now();
  const initial = options.initial ?? extractGreedyDag(graph);
  const timeLimitMs = options.timeLimitMs ?? 10_000;
  const fallback = (timedOut: boolean): Extraction => ({ ...initial, ms: performance.now() - start, method: initial.method, timedOut, ...(timedOut ? { timeLimitMs } : {}) });
  // The greedy plan (the bound and the fallback) can take the whole limit on a large graph: then there is no time to solve.
  if (performance.now() - start >= timeLimitMs * SOLVER_SHARE) return fallback(true);
  const { classes, nodes } = prune(graph);
  if (nodes.length === 0) return fallback(false);
  const classIndex = new Map(classes.map((c, k) => [c, k]));
  const rootSet = new Set(graph.roots);
  for (const root of graph.roots) if (!classIndex.has(root)) return fallback(false);
  // Only an edge inside a strongly connected component can close a cycle: levels are needed there only.
  const component = stronglyConnected(classes, nodes);
  const componentSize = new Map<number, number>();
  for (const c of component.values()) componentSize.set(c, (componentSize.get(c) ?? 0) + 1);
  type Row = { name: string; vars: { name: string; coef: number }[]; bnds: { type: number; lb: number; ub: number } };
  const subjectTo: Row[] = [];
  const bounds: { name: string; type: number; lb: number; ub: number }[] = [];
  const binaries: string[] = [];
  const atMost = (ub: number) => ({ type: g.GLP_UP, lb: 0, ub });
  classes.forEach((_, k) => binaries.push(`c${k}`));
  /** For each class, the nodes that use it as a child. */
  const users = new Map<string, { name: string; coef: number }[]>(classes.map((c) => [c, []]));
  nodes.forEach((node, k) => {
    binaries.push(`n${k}`);
    const own = classIndex.get(node.eclass)!;
    for (const [j, child] of node.childClasses.entries()) {
      const h = classIndex.get(child)!;
      users.get(child)!.push({ name: `n${k}`, coef: 1 });
      // A chosen node chooses each child's class...
      subjectTo.push({ name: `child${k}_${j}`, vars: [{ name: `n${k}`, coef: 1 }, { name: `c${h}`, coef: -1 }], bnds: atMost(0) });
      const scc = component.get(node.eclass)!;
      if (scc !== component.get(child)) continue;
      // ...and sits above it: l_own - l_child >= 1 when chosen (vacuous when not).
      const levelBound = componentSize.get(scc)! + 1;
      subjectTo.push({
        name: `level${k}_${j}`,
        vars: [{ name: `l${own}`, coef: 1 }, { name: `l${h}`, coef: -1 }, { name: `n${k}`, coef: -levelBound }],
        bnds: { type: g.GLP_LO, lb: 1 - levelBound, ub: 0 },
      });
    }
  });
  const membersOf = new Map<string, { name: string; coef: number }[]>(classes.map((c) => [c, []]));
  nodes.forEach((n, i) => membersOf.get(n.eclass)!.push({ name: `n${i}`, coef: 1 }));
  classes.forEach((cls, k) => {
    // A chosen class takes exactly one member; a class not chosen takes none.
    subjectTo.push({ name: `member${k}`, vars: [...membersOf.get(cls)!, { name: `c${k}`, coef: -1 }], bnds: { type: g.GLP_FX, lb: 0, ub: 0 } });
    if (rootSet.has(cls)) {
      // A row, not a column bound: glpk.js resets the bounds of binary columns to [0, 1].
      subjectTo.push({ name: `root${k}`, vars: [{ name: `c${k}`, coef: 1 }], bnds: { type: g.GLP_LO, lb: 1, ub: 1 } });
    } else {
      // Chosen only when some chosen node uses it: c <= sum of its users.
      subjectTo.push({ name: `used${k}`, vars: [{ name: `c${k}`, coef: 1 }, ...users.get(cls)!.map((u) => ({ name: u.name, coef: -1 }))], bnds: atMost(0) });
    }
    const size = componentSize.get(component.get(cls)!)!;
    if (size > 1) bounds.push({ name: `l${k}`, type: g.GLP_DB, lb: 0, ub: size + 1 });
  });
  const objective = nodes.map((n, k) => ({ name: `n${k}`, coef: n.cost }));
  if (Number.isFinite(initial.dagCost)) {
    // The greedy plan is feasible, so the optimum costs at most as much (a small tolerance keeps it feasible, negative costs too).
    subjectTo.push({ name: "bound", vars: objective, bnds: atMost(initial.dagCost + 1e-9 * Math.abs(initial.dagCost) + 1e-9) });
  }
  const lp = { name: "extract", objective: { direction: g.GLP_MIN, name: "cost", vars: objective }, subjectTo, bounds, binaries };
  // GLPK's limit is what is left of ours after building the model, less a share for reading the result back.
  const solverMs = timeLimitMs * SOLVER_SHARE - (performance.now() - start);
  if (solverMs <= 0) return fallback(true);
  let result: GlpkResult | undefined;
  try {
    result = solveBounded(g, lp, { msglev: g.GLP_MSG_OFF, tmlim: Math.max(solverMs / 1000, 0.001), presol: true }, timeLimitMs * HARD_SHARE - (performance.now() - start));
  } catch {
    return fallback(false);
  }
  if (result === undefined) return fallback(true);
  const elapsed = performance.now() - start;
  const proven = result.status === g.GLP_OPT;
  if (!proven && result.status !== g.GLP_FEAS) return fallback(elapsed >= solverMs);
  const choices = new Map<string, string>();
  nodes.forEach((node, k) => {
    if ((result.vars[`n${k}`] ?? 0) > 0.5 && !choices.has(node.eclass)) choices.set(node.eclass, node.id);
  });
  const chosen = reachableChoices(graph, choices);
  if (validateExtraction(graph, chosen).length > 0) return fallback(false);
  const cost = dagCost(graph, chosen);
  if (cost > initial.dagCost) return fallback(!proven);
  // The model's objective is the DAG cost of its choice: a proof holds only for the extraction it describes.
  const optimal = proven && Math.abs(cost - result.z) <= 1e-6 * Math.max(1, Math.abs(cost));
  return { choices: chosen, dagCost: cost, treeCost: treeCost(graph, chosen), ms: performance.now() - start, method: "ilp", optimal, timedOut: !proven, ...(!proven ? { timeLimitMs } : {}) };
}

interface PrunedNode {
  id: string;
  eclass: string;
  childClasses: string[];
  cost: number;
}

/** The classes the roots can reach through finite-cost nodes, and those nodes (self-loops dropped). */
function prune(graph: ExtractionGraph): { classes: string[]; nodes: PrunedNode[] } {
  const seen = new Set<string>();
  const stack = [...graph.roots];
  const nodes: PrunedNode[] = [];
  while (stack.length > 0) {
    const cls = stack.pop()!;
    if (seen.has(cls)) continue;
    seen.add(cls);
    for (const id of graph.classes.get(cls) ?? []) {
      const node = graph.nodes.get(id)!;
      if (!Number.isFinite(node.cost)) continue;
      const childClasses = [...new Set(node.children.map((c) => childClass(graph, c)))];
      if (childClasses.includes(cls)) continue;
      nodes.push({ id, eclass: cls, childClasses, cost: node.cost });
      for (const child of childClasses) stack.push(child);
    }
  }
  return { classes: [...seen], nodes };
}

/** Tarjan's strongly connected components of the class graph (class → its nodes' child classes): class → component id. */
function stronglyConnected(classes: readonly string[], nodes: readonly PrunedNode[]): Map<string, number> {
  const edges = new Map<string, string[]>(classes.map((c) => [c, []]));
  for (const node of nodes) edges.get(node.eclass)!.push(...node.childClasses);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const component = new Map<string, number>();
  let counter = 0;
  let components = 0;
  for (const start of classes) {
    if (index.has(start)) continue;
    // Iterative DFS: (class, next edge position).
    const work: [string, number][] = [[start, 0]];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const [v, at] = frame;
      const out = edges.get(v)!;
      if (at < out.length) {
        frame[1]++;
        const w = out[at]!;
        if (!index.has(w)) {
          index.set(w, counter);
          low.set(w, counter++);
          stack.push(w);
          onStack.add(w);
          work.push([w, 0]);
        } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1]![0];
        low.set(parent, Math.min(low.get(parent)!, low.get(v)!));
      }
      if (low.get(v) === index.get(v)) {
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          component.set(w, components);
        } while (w !== v);
        components++;
      }
    }
  }
  return component;
}
