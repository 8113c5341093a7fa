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
 * Which matches each iteration applies is the scheduler's choice
 * (scheduler.ts): SPORES's per-rule sampling of matches (seeded) and egg's
 * backoff keep expansive rules (AC) from taking over.
 */
import { backoffScheduler } from "./backoff-scheduler";
import type { EGraph } from "./egraph";
import { searchPattern, type MatchList } from "./pattern";
import { applierVariableIndex, compileInstantiate, type Rewrite } from "./rewrite";
import { samplingScheduler } from "./sampling-scheduler";
import { simpleScheduler, type RuleSearch, type Scheduler } from "./scheduler";
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
  /**
   * Which matches each iteration applies (default "backoff"): a name, with
   * the options below, or a Scheduler of one's own (one per run; the
   * options below are then not used).
   */
  scheduler?: "simple" | "backoff" | Scheduler;
  /** Per rule and iteration, apply at most this many matches (a seeded uniform sample; samplingScheduler around the named one). */
  matchSampleLimit?: number;
  /** The sample's seed (default 1). */
  seed?: number;
  /** Backoff: matches a rule may have before it is banned (doubles with each ban; default 1000). */
  backoffMatchLimit?: number;
  /** Backoff: iterations of the first ban (doubles with each ban; default 5). */
  backoffBanLength?: number;
  shouldStop?: () => boolean;
}

export interface IterationReport {
  nodes: number;
  classes: number;
  applied: Record<string, number>;
  /** Matches each rule applied (union attempts, effective or not): where the work went, in counts. */
  matched: Record<string, number>;
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

/** The scheduler the options name: simple or backoff, inside a sampler when `matchSampleLimit` is given. */
export function schedulerOf(options: RunOptions): Scheduler {
  if (typeof options.scheduler === "object") return options.scheduler;
  const base =
    options.scheduler === "simple"
      ? simpleScheduler()
      : backoffScheduler({
          ...(options.backoffMatchLimit !== undefined ? { matchLimit: options.backoffMatchLimit } : {}),
          ...(options.backoffBanLength !== undefined ? { banLength: options.backoffBanLength } : {}),
        });
  if (options.matchSampleLimit === undefined) return base;
  return samplingScheduler({ sampleLimit: options.matchSampleLimit, ...(options.seed !== undefined ? { seed: options.seed } : {}) }, base);
}

/** The counted limits and the safety net of one run, and whether it should stop. */
class RunLimits {
  readonly iterationLimit: number;
  readonly nodeLimit: number;
  readonly applyLimit: number;
  readonly timeLimitMs: number;
  private readonly clock: () => number;
  private readonly clockStart: number;
  private readonly deadline: number;
  /** Set once the clock passed the deadline. */
  timedOut = false;

  constructor(private readonly options: RunOptions) {
    this.iterationLimit = options.iterationLimit ?? 30;
    this.nodeLimit = options.nodeLimit ?? 10_000;
    this.applyLimit = options.applyLimit ?? Infinity;
    this.timeLimitMs = options.timeLimitMs ?? DEFAULT_TIME_SAFETY_NET_MS;
    this.clock = options.clock ?? processCpuMs;
    this.clockStart = this.clock();
    this.deadline = this.clockStart + this.timeLimitMs;
  }

  /** The safety net fired or the caller cancelled (reads the clock). */
  outOfTime(): boolean {
    return this.pastDeadline() || this.cancelled();
  }

  /** Whether the safety net fired (reads the clock). */
  pastDeadline(): boolean {
    if (this.clock() > this.deadline) this.timedOut = true;
    return this.timedOut;
  }

  cancelled(): boolean {
    return this.options.shouldStop?.() ?? false;
  }

  /** Time on the clock since the run started. */
  elapsedMs(): number {
    return this.clock() - this.clockStart;
  }
}

/** A rule compiled for the run: its pattern applier built once. */
interface CompiledRule<D> {
  rule: Rewrite<D>;
  /** For a pattern applier: the searcher's variable index of each applier variable. */
  variableIndex: number[];
  build: ((egraph: EGraph<D>, bindings: readonly ClassId[]) => ClassId) | undefined;
}

function compile<D>(rule: Rewrite<D>): CompiledRule<D> {
  const applier = rule.applier;
  if (typeof applier === "function") return { rule, variableIndex: [], build: undefined };
  return { rule, variableIndex: applierVariableIndex(rule.searcher, applier), build: compileInstantiate<D>(applier) };
}

export function runRewrites<D>(egraph: EGraph<D>, rules: readonly Rewrite<D>[], options: RunOptions = {}): RunReport {
  const start = performance.now();
  const limits = new RunLimits(options);
  const scheduler = schedulerOf(options);
  const compiled = rules.map(compile);
  const iterations: IterationReport[] = [];
  let appliedTotal = 0;
  let stopReason: StopReason | undefined;
  egraph.rebuild();
  // A graph whose analysis did not settle (before this run, or in it) is not searched further.
  if (egraph.analysisCutoffs > 0) stopReason = "rebuildLimit";

  for (let iteration = 0; stopReason === undefined; iteration++) {
    if (iteration >= limits.iterationLimit) {
      stopReason = "iterationLimit";
      break;
    }
    const versionBefore = egraph.version;
    const t0 = performance.now();
    const found = searchRules(egraph, rules, scheduler, iteration, limits, limits.applyLimit - appliedTotal);
    if (limits.timedOut) {
      // The safety net fired mid-search: the matches found so far are not applied (a partial search is machine-dependent anyway).
      stopReason = "timeLimit";
      break;
    }
    const t1 = performance.now();
    const applying = applyMatches(egraph, compiled, found, limits, appliedTotal);
    stopReason = applying.stop;
    appliedTotal += applying.matches;
    const applied = applying.unions;
    const t2 = performance.now();
    egraph.rebuild();
    const t3 = performance.now();
    iterations.push({ nodes: egraph.nodeCount, classes: egraph.classCount, applied, matched: applying.matchesPerRule, searchMs: t1 - t0, applyMs: t2 - t1, rebuildMs: t3 - t2 });
    if (stopReason !== undefined) break;
    if (egraph.analysisCutoffs > 0) stopReason = "rebuildLimit";
    else if (limits.cancelled()) stopReason = "cancelled";
    else if (limits.pastDeadline()) stopReason = "timeLimit";
    else if (egraph.nodeCount > limits.nodeLimit) stopReason = "nodeLimit";
    // Nothing changed: saturation, unless the scheduler held matches back (it lets them back in for the next iteration).
    else if (egraph.version === versionBefore && scheduler.canStop(iteration)) stopReason = "saturated";
  }
  const ms = performance.now() - start;
  const report: RunReport = { stopReason: stopReason!, iterations, ms, nodes: egraph.nodeCount, classes: egraph.classCount, applied: appliedTotal };
  if (stopReason === "timeLimit") report.safetyNet = { limitMs: limits.timeLimitMs, ms: limits.elapsedMs() };
  return report;
}

/**
 * The search phase: each rule's matches as the scheduler picks them
 * (undefined for a rule that sits out); stops early when out of time, and
 * once it has found more matches than `applicable`, those the run may
 * still apply: the apply phase takes them rule by rule in this order and
 * stops at its bound within the matches found so far, so the rules after
 * would be searched for nothing (the run ends with this iteration, and
 * what it applies is the same).
 */
function searchRules<D>(egraph: EGraph<D>, rules: readonly Rewrite<D>[], scheduler: Scheduler, iteration: number, limits: RunLimits, applicable: number): (MatchList | undefined)[] {
  const index = operatorIndex(egraph);
  let allClasses: ClassId[] | undefined;
  const found: (MatchList | undefined)[] = [];
  let matchesFound = 0;
  for (const [k, rule] of rules.entries()) {
    const root = rule.searcher.root;
    // Built on demand: a rule that sits out never lists them.
    const candidates = () => (root.kind === "var" ? (allClasses ??= [...egraph.classes()].map((c) => c.id)) : (index.get(root.op) ?? []));
    const search: RuleSearch = {
      index: k,
      name: rule.name,
      get candidates() {
        return candidates();
      },
      matches: (limit = Infinity, order?: Iterable<ClassId>) => searchPattern(egraph, rule.searcher, order ?? candidates(), limit),
    };
    const matches = scheduler.search(iteration, search);
    if (matches === undefined) continue;
    found[k] = matches;
    matchesFound += matches.size;
    if (matchesFound > applicable) break;
    if (limits.cancelled()) break;
    // The clock every 8 rules and after the last: reading it (a process CPU-time system call) after each of a hundred rules costs more than most searches.
    if (((k & 7) === 7 || k === rules.length - 1) && limits.pastDeadline()) break;
  }
  return found;
}

/** What one apply phase did: matches applied, effective unions per rule, and the limit that stopped it, if any. */
interface ApplyResult {
  matches: number;
  unions: Record<string, number>;
  matchesPerRule: Record<string, number>;
  stop: StopReason | undefined;
}

/**
 * The apply phase: unions each match's class with its right-hand side
 * (`appliedBefore` matches were applied earlier in the run); stops when a
 * limit is hit between two applications (the graph stays valid).
 */
function applyMatches<D>(egraph: EGraph<D>, rules: readonly CompiledRule<D>[], found: readonly (MatchList | undefined)[], limits: RunLimits, appliedBefore: number): ApplyResult {
  const result: ApplyResult = { matches: 0, unions: {}, matchesPerRule: {}, stop: undefined };
  for (const [k, { rule, variableIndex, build }] of rules.entries()) {
    const matches = found[k];
    if (!matches) continue;
    const applier = rule.applier;
    const scratch: ClassId[] = new Array<ClassId>(variableIndex.length);
    const width = matches.width;
    let count = 0;
    const matchesBefore = result.matches;
    for (let m = 0; m < matches.size && result.stop === undefined; m++) {
      if (appliedBefore + result.matches >= limits.applyLimit) {
        result.stop = "applyLimit";
        break;
      }
      result.matches++;
      const root = matches.roots[m]!;
      const subst = rule.condition || typeof applier === "function" ? matches.subst(m) : undefined;
      if (rule.condition && !rule.condition(egraph, root, subst!)) continue;
      if (typeof applier === "function") {
        for (const target of applier(egraph, root, subst!)) if (egraph.union(root, target, rule.name)) count++;
      } else {
        for (let v = 0; v < variableIndex.length; v++) scratch[v] = matches.bindings[m * width + variableIndex[v]!]!;
        // The proof edge joins the matched node itself and the built one (explanations follow it).
        if (egraph.union(matches.matchedNode(egraph, m), build!(egraph, scratch), rule.name)) count++;
      }
      if (egraph.nodeCount > limits.nodeLimit) result.stop = "nodeLimit";
      else if ((m & 63) === 63 && limits.outOfTime()) result.stop = limits.timedOut ? "timeLimit" : "cancelled";
    }
    if (count > 0) result.unions[rule.name] = count;
    if (result.matches > matchesBefore) result.matchesPerRule[rule.name] = (result.matchesPerRule[rule.name] ?? 0) + result.matches - matchesBefore;
    if (result.stop !== undefined) break;
  }
  return result;
}
