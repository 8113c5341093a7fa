/**
 * The equality-saturation loop (after egg's run.rs): each iteration searches
 * every rule on the rebuilt graph, then applies the matches, then rebuilds.
 * The run is bounded by work, counted: iterations, e-nodes and matches
 * applied (checked between applications, so the graph stays valid:
 * anytime). Counts make the result the same on a fast and a slow machine.
 * A time limit is only a safety net against a run the counts did not
 * bound well; when it fires the report says so (`stopReason: "timeLimit"`,
 * `safetyNet`), since what was found then depends on the machine. Its clock
 * is this process's CPU time by default, so other programs keeping the
 * machine busy do not make it fire: only this run's own work does.
 * SPORES's per-rule sampling of matches (seeded) and egg's backoff
 * scheduler keep expansive rules (AC) from taking over.
 */
import type { EGraph } from "./egraph";
import { MatchList, searchPattern } from "./pattern";
import { applierVariableIndex, compileInstantiate, type Rewrite } from "./rewrite";
import type { ClassId } from "./types";

/**
 * Why a run stopped: saturation, a work bound (iterations, e-nodes, matches
 * applied, or "rebuildLimit": a rebuild's analysis repairs hit their bound,
 * see EGraphOptions.analysisRepairsPerNode), the time safety net, or a cancel.
 */
export type StopReason = "saturated" | "iterationLimit" | "nodeLimit" | "applyLimit" | "rebuildLimit" | "timeLimit" | "cancelled";

export interface RunOptions {
  /** Work bound: iterations (default 30). */
  iterationLimit?: number;
  /** Work bound: e-nodes in the graph (default 10,000). */
  nodeLimit?: number;
  /** Work bound: matches applied over the whole run (default: none). */
  applyLimit?: number;
  /** The safety net: milliseconds on `clock` (default 10,000), far above what the work bounds take. */
  timeLimitMs?: number;
  /** The safety net's clock, ms (default: this process's CPU time, see `processCpuMs`); tests pass a fake one. */
  clock?: () => number;
  scheduler?: "simple" | "backoff";
  /** Per rule and iteration, apply at most this many matches (a seeded uniform sample). */
  matchSampleLimit?: number;
  seed?: number;
  /** Backoff: matches a rule may have before it is banned (doubles with each ban). */
  backoffMatchLimit?: number;
  /** Backoff: iterations of the first ban (doubles with each ban). */
  backoffBanLength?: number;
  shouldStop?: () => boolean;
}

export interface IterationReport {
  nodes: number;
  classes: number;
  applied: Record<string, number>;
  searchMs: number;
  applyMs: number;
  rebuildMs: number;
}

export interface RunReport {
  stopReason: StopReason;
  /** Present when the time safety net stopped the run (what it found then depends on the machine's speed): its limit and the time on its clock. */
  safetyNet?: { limitMs: number; ms: number };
  iterations: IterationReport[];
  ms: number;
  nodes: number;
  classes: number;
  /** Matches applied (union attempts) over the run: the work done, in counts. */
  applied: number;
}

/** The safety-net time limit when none is given: far above what the work bounds normally take. */
export const DEFAULT_TIME_SAFETY_NET_MS = 10_000;

/** CPU time (user + system) this process has used, ms: unlike wall-clock time, it does not grow while other programs run. */
export function processCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

interface RuleState {
  timesBanned: number;
  bannedUntil: number;
}

/** mulberry32: a small seeded generator for match sampling. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Classes indexed by the operators of their nodes. */
function operatorIndex<D>(egraph: EGraph<D>): Map<string, ClassId[]> {
  const index = new Map<string, ClassId[]>();
  egraph.forEachClass((eclass) => {
    const nodes = eclass.nodes;
    let last = "";
    for (let n = 0; n < nodes.length; n++) {
      const op = nodes[n]!.op;
      if (op === last) continue;
      last = op;
      const list = index.get(op);
      if (list === undefined) index.set(op, [eclass.id]);
      else if (list[list.length - 1] !== eclass.id) list.push(eclass.id);
    }
  });
  return index;
}

export function runRewrites<D>(egraph: EGraph<D>, rules: readonly Rewrite<D>[], options: RunOptions = {}): RunReport {
  const start = performance.now();
  const iterationLimit = options.iterationLimit ?? 30;
  const nodeLimit = options.nodeLimit ?? 10_000;
  const applyLimit = options.applyLimit ?? Infinity;
  const timeLimitMs = options.timeLimitMs ?? DEFAULT_TIME_SAFETY_NET_MS;
  const clock = options.clock ?? processCpuMs;
  const clockStart = clock();
  const deadline = clockStart + timeLimitMs;
  let appliedTotal = 0;
  const backoff = (options.scheduler ?? "backoff") === "backoff";
  const matchLimit = options.backoffMatchLimit ?? 1000;
  const banLength = options.backoffBanLength ?? 5;
  const next = random(options.seed ?? 1);
  const states: RuleState[] = rules.map(() => ({ timesBanned: 0, bannedUntil: 0 }));
  const variableIndexes = rules.map((rule) => (typeof rule.applier === "function" ? undefined : applierVariableIndex(rule.searcher, rule.applier)));
  const builders = rules.map((rule) => (typeof rule.applier === "function" ? undefined : compileInstantiate<D>(rule.applier)));
  const iterations: IterationReport[] = [];
  let timedOut = false;
  const outOfTime = () => {
    if (clock() > deadline) timedOut = true;
    return timedOut || (options.shouldStop?.() ?? false);
  };
  let stopReason: StopReason | undefined;
  const sampleLimit = options.matchSampleLimit;
  /** Search every candidate class (after an iteration that changed nothing). */
  let exhaustive = false;
  egraph.rebuild();
  // A graph whose analysis did not settle (before this run, or in it) is not searched further.
  if (egraph.analysisCutoffs > 0) stopReason = "rebuildLimit";

  for (let iteration = 0; stopReason === undefined; iteration++) {
    if (iteration >= iterationLimit) {
      stopReason = "iterationLimit";
      break;
    }
    const versionBefore = egraph.version;
    const t0 = performance.now();
    const index = operatorIndex(egraph);
    let allClasses: ClassId[] | undefined;
    const found: (MatchList | undefined)[] = [];
    let banned = false;
    let truncated = false;
    for (const [k, rule] of rules.entries()) {
      const state = states[k]!;
      if (backoff && iteration < state.bannedUntil) {
        banned = true;
        continue;
      }
      const root = rule.searcher.root;
      const candidates = root.kind === "var" ? (allClasses ??= [...egraph.classes()].map((c) => c.id)) : (index.get(root.op) ?? []);
      const threshold = matchLimit << state.timesBanned;
      let matches: MatchList;
      if (sampleLimit !== undefined && !exhaustive) {
        // Sampling: search the candidate classes in a random order until the sample is full.
        matches = searchPattern(egraph, rule.searcher, randomOrder(candidates, next), sampleLimit);
        if (matches.size > sampleLimit) {
          truncated = true;
          matches = sample(matches, sampleLimit, next);
        }
      } else {
        matches = searchPattern(egraph, rule.searcher, candidates, backoff ? threshold : Infinity);
        if (backoff && matches.size > threshold) {
          state.bannedUntil = iteration + (banLength << state.timesBanned);
          state.timesBanned++;
          banned = true;
          continue;
        }
        if (sampleLimit !== undefined && matches.size > sampleLimit) matches = sample(matches, sampleLimit, next);
      }
      found[k] = matches;
      // Every 8 rules: reading the clock (a process CPU-time system call) after each of a hundred rules costs more than most searches.
      if ((k & 7) === 7 && outOfTime()) break;
    }
    if (timedOut) {
      // The safety net fired mid-search: the matches found so far are not applied (a partial search is machine-dependent anyway).
      stopReason = "timeLimit";
      break;
    }
    const t1 = performance.now();
    const applied: Record<string, number> = {};
    apply: for (const [k, rule] of rules.entries()) {
      const matches = found[k];
      if (!matches) continue;
      const applier = rule.applier;
      const variableIndex = typeof applier === "function" ? [] : variableIndexes[k]!;
      const scratch: ClassId[] = new Array<ClassId>(variableIndex.length);
      const width = matches.width;
      let count = 0;
      for (let m = 0; m < matches.size; m++) {
        if (appliedTotal >= applyLimit) {
          stopReason = "applyLimit";
          if (count > 0) applied[rule.name] = count;
          break apply;
        }
        appliedTotal++;
        const root = matches.roots[m]!;
        const subst = rule.condition || typeof applier === "function" ? matches.subst(m) : undefined;
        if (rule.condition && !rule.condition(egraph, root, subst!)) continue;
        if (typeof applier === "function") {
          for (const target of applier(egraph, root, subst!)) if (egraph.union(root, target, rule.name)) count++;
        } else {
          for (let v = 0; v < variableIndex.length; v++) scratch[v] = matches.bindings[m * width + variableIndex[v]!]!;
          // The proof edge joins the matched node itself and the built one (explanations follow it).
          if (egraph.union(matches.matchedNode(egraph, m), builders[k]!(egraph, scratch), rule.name)) count++;
        }
        if (egraph.nodeCount > nodeLimit) {
          stopReason = "nodeLimit";
          if (count > 0) applied[rule.name] = count;
          break apply;
        }
        if ((m & 63) === 63 && outOfTime()) {
          if (count > 0) applied[rule.name] = count;
          stopReason = timedOut ? "timeLimit" : "cancelled";
          break apply;
        }
      }
      if (count > 0) applied[rule.name] = count;
    }
    const t2 = performance.now();
    egraph.rebuild();
    const t3 = performance.now();
    iterations.push({ nodes: egraph.nodeCount, classes: egraph.classCount, applied, searchMs: t1 - t0, applyMs: t2 - t1, rebuildMs: t3 - t2 });
    if (stopReason !== undefined) break;
    if (egraph.analysisCutoffs > 0) stopReason = "rebuildLimit";
    else if (options.shouldStop?.()) stopReason = "cancelled";
    else if (timedOut || clock() > deadline) stopReason = "timeLimit";
    else if (egraph.nodeCount > nodeLimit) stopReason = "nodeLimit";
    else if (egraph.version === versionBefore && !banned && (!truncated || exhaustive)) stopReason = "saturated";
    else if (egraph.version === versionBefore) {
      // Nothing changed but some rules sat out a ban or saw only a sample: let them back in now
      // (egg does the same), and search every class once to tell saturation from bad luck.
      for (const state of states) state.bannedUntil = Math.min(state.bannedUntil, iteration + 1);
      exhaustive = true;
      continue;
    }
    exhaustive = false;
  }
  const ms = performance.now() - start;
  const report: RunReport = { stopReason: stopReason!, iterations, ms, nodes: egraph.nodeCount, classes: egraph.classCount, applied: appliedTotal };
  if (stopReason === "timeLimit") report.safetyNet = { limitMs: timeLimitMs, ms: clock() - clockStart };
  return report;
}

/** The candidates in a seeded pseudo-random order (a random start and a stride coprime to their count). */
function* randomOrder(candidates: readonly ClassId[], next: () => number): Generator<ClassId> {
  const n = candidates.length;
  if (n === 0) return;
  const start = Math.floor(next() * n);
  let stride = 1 + Math.floor(next() * Math.max(1, n - 1));
  while (gcd(stride, n) !== 1) stride++;
  for (let i = 0, at = start; i < n; i++, at = (at + stride) % n) yield candidates[at]!;
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

/** A uniform sample of `limit` matches (deterministic for the generator's seed), in their original order. */
function sample(matches: MatchList, limit: number, next: () => number): MatchList {
  const order = Array.from({ length: matches.size }, (_, m) => m);
  for (let i = 0; i < limit; i++) {
    const j = i + Math.floor(next() * (order.length - i));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const chosen = order.slice(0, limit).sort((a, b) => a - b);
  const result = new MatchList(matches.pattern);
  const width = matches.width;
  for (const m of chosen) result.push(matches.roots[m]!, matches.bindings.subarray(m * width, (m + 1) * width), matches.nodes[m]!);
  return result;
}
