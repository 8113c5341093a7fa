/**
 * The estimated cost of the script with a combination of options applied
 * (cost-model seconds per run of the script). Every matrix expression is
 * costed as written (each written chain in its cheapest order, sums of the
 * parts) unless an applied option has a window in it; then it is costed as
 * its expanded sum of chains with those windows as ready operands. Each
 * expression counts as often as its block runs (the product of its loops'
 * iterations). An applied option adds its temporary's evaluation: once per
 * run of its block (CSE) or once per entry to the loop it is hoisted out
 * of (LSE). A combination is feasible when no two of its windows overlap
 * in a chain.
 */
import type { Expression } from "../syntax";
import { DEFAULT_MACHINE_CONSTANTS, operationCost, type MachineConstants } from "../cost";
import { isSymmetricChain } from "./window-key";
import type { Factor, MatrixSize } from "./chain-terms";
import { chainCost, type ChainCost, type Interval, type SparsityEstimate } from "./chain-cost";
import type { Chain, ProgramChains, Region } from "./program-chains";
import type { FoundOption } from "./window-search";
import { applicationOrder, pairKey, type OptionOrder } from "./option-order";

export interface CostedOption {
  id: string;
  found: FoundOption;
  /** One evaluation of the expression; undefined when a size is unknown. */
  evaluation?: number;
  /** Its evaluations per run of the script. */
  setup?: number;
  /** Executions of its occurrences per run of the script. */
  uses: number;
  /** Evaluations of its temporary per run of the script (once per run of its block, or per entry to the loop it is hoisted out of). */
  setupRuns: number;
  /** Its windows per chain. */
  windows: Map<Chain, Interval[]>;
  /** Every region it touches has a known cost. */
  costed: boolean;
  /** Source offsets of its occurrences' ranges (set once its edits are known). */
  spans: [number, number][];
  /** Transposing the temporary where it is used transposed (`t(HAtAd)`), per run of the script: 0 when it is symmetric or never used so. */
  transposes: number;
  /** MNC estimated some product of its expression or of a chain it changes (sketches of local data); else every non-zero count is the uniform estimate. */
  estimator: SparsityEstimate;
}

export class PlanCosts {
  readonly written = new Map<Region, number | undefined>();
  evaluations = 0;
  private readonly chainCosts = new Map<string, number>();

  constructor(
    readonly program: ProgramChains,
    readonly constants: MachineConstants = DEFAULT_MACHINE_CONSTANTS,
  ) {
    for (const region of program.regions) this.written.set(region, writtenCost(region, constants));
  }

  option(id: string, found: FoundOption): CostedOption {
    const windows = new Map<Chain, Interval[]>();
    let uses = 0;
    for (const w of found.occurrences) {
      const list = windows.get(w.chain) ?? [];
      list.push({ start: w.start, end: w.end });
      windows.set(w.chain, list);
      uses += w.chain.region.block.runs;
    }
    const chain = chainCost(found.factors, [], this.constants);
    const evaluation = chain?.seconds;
    let transposes = 0;
    if (chain && !isSymmetricChain(found.factors)) {
      const size = chain.size;
      const cost = operationCost({ kind: "transpose" }, [{ kind: "matrix", ...size }], { kind: "matrix", rows: size.cols, cols: size.rows, nnz: size.nnz }, this.constants);
      const seconds = cost.known ? cost.cost.seconds : 0;
      for (const w of found.occurrences) if (w.transposed) transposes += seconds * w.chain.region.block.runs;
    }
    const runs = found.across?.runs ?? (found.kind === "lse" ? found.loop!.entries : found.block.runs);
    const withWindows = [...windows.keys()].map((c) => ({ region: c.region, cost: chainCost(c.product.factors, windows.get(c)!, this.constants) }));
    const regionsKnown = withWindows.every((c) => this.written.get(c.region) !== undefined && c.cost !== undefined);
    const estimator = [chain, ...withWindows.map((c) => c.cost)].some((c) => c?.estimator === "mnc") ? "mnc" : "uniform";
    return {
      id,
      found,
      ...(evaluation !== undefined ? { evaluation, setup: evaluation * runs } : {}),
      uses,
      setupRuns: runs,
      windows,
      costed: evaluation !== undefined && regionsKnown,
      spans: [],
      transposes,
      estimator,
    };
  }

  /** Which options whose source texts meet can be applied together, and in which order (option-order.ts); without it, such options conflict. */
  order: OptionOrder | undefined = undefined;

  /**
   * Windows of the options never overlap within a chain, and where their
   * occurrences' source texts meet, one nests in the other and applying the
   * outer one first composes them (option-order.ts), in an order that exists.
   */
  feasible(options: readonly CostedOption[]): boolean {
    for (let i = 0; i < options.length; i++) {
      for (let j = i + 1; j < options.length; j++) {
        const a = options[i]!;
        const b = options[j]!;
        if (this.windowsOverlap(a, b)) return false;
        if (spansMeet(a, b) && !this.composes(a, b)) return false;
      }
    }
    return options.length < 2 || this.order === undefined || applicationOrder(options, (o) => o.id, this.order) !== undefined;
  }

  /** Some window of one overlaps a window of the other in a chain. */
  windowsOverlap(a: CostedOption, b: CostedOption): boolean {
    for (const [chain, list] of a.windows) {
      const other = b.windows.get(chain);
      if (other && list.some((w) => other.some((v) => v.start <= w.end && w.start <= v.end))) return true;
    }
    return false;
  }

  /** The options, in an order they can be applied in (outer options before the ones nested in them). */
  ordered(options: readonly CostedOption[]): CostedOption[] {
    return (this.order && applicationOrder(options, (o) => o.id, this.order)) ?? [...options];
  }

  private composes(a: CostedOption, b: CostedOption): boolean {
    if (this.order === undefined || this.order.conflicting.has(pairKey(a.id, b.id))) return false;
    return this.order.before.get(a.id)?.has(b.id) === true || this.order.before.get(b.id)?.has(a.id) === true;
  }

  /** Estimated seconds per run of the script with these (costed, feasible) options applied. */
  total(options: readonly CostedOption[]): number {
    this.evaluations++;
    const forced = new Map<Chain, Interval[]>();
    for (const o of options) for (const [chain, list] of o.windows) forced.set(chain, [...(forced.get(chain) ?? []), ...list]);
    let total = 0;
    for (const region of this.program.regions) {
      const written = this.written.get(region);
      if (written === undefined) continue;
      const chains = region.block.chains.filter((c) => c.region === region);
      const touched = chains.some((c) => forced.has(c));
      let cost = written;
      if (touched) {
        cost = 0;
        for (const c of chains) cost += this.chainSeconds(c, forced.get(c) ?? []);
      }
      total += cost * region.block.runs;
    }
    for (const o of options) total += (o.setup ?? 0) + o.transposes;
    return total;
  }

  /** Variables with MNC sketches in the chains whose products MNC estimated, sorted. */
  sketchedNames(): string[] {
    const names = new Set<string>();
    for (const chain of this.program.chains) {
      if (chainCost(chain.product.factors, [], this.constants)?.estimator !== "mnc") continue;
      for (const f of chain.product.factors) if (f.atom.sketch && f.atom.name !== undefined) names.add(f.atom.name);
    }
    return [...names].sort();
  }

  private chainSeconds(chain: Chain, forced: readonly Interval[]): number {
    const key = `${chain.id}:${forced.map((w) => `${w.start}-${w.end}`).sort().join(",")}`;
    let seconds = this.chainCosts.get(key);
    if (seconds === undefined) {
      seconds = chainCost(chain.product.factors, forced, this.constants)?.seconds ?? Number.POSITIVE_INFINITY;
      this.chainCosts.set(key, seconds);
    }
    return seconds;
  }
}

/** The region as written: each written chain in its cheapest order, sums and scalings of parts; undefined when a size is unknown. */
function spansMeet(a: CostedOption, b: CostedOption): boolean {
  return a.spans.some((s) => b.spans.some((t) => s[0] < t[1] && t[0] < s[1]));
}

function writtenCost(region: Region, constants: MachineConstants): number | undefined {
  const sums = region.sums.sums;
  const parents = region.sums.parents;
  // A part's size and, when MNC estimated it, its sketch (so the product it enters is estimated by MNC too).
  const costOf = (e: Expression): ChainCost | undefined => {
    const p = sums.get(e)?.[0];
    return p ? chainCost(p.factors, [], constants) : undefined;
  };
  const childrenOf = new Map<Expression, Expression[]>();
  for (const [child, parent] of parents) childrenOf.set(parent, [...(childrenOf.get(parent) ?? []), child]);
  const isProduct = (e: Expression) => e.kind === "binary" && e.op === "%*%" && sums.has(e) && parents.get(e.left) === e;
  const cost = (e: Expression): number | undefined => {
    if (!sums.has(e)) return 0;
    const children = childrenOf.get(e) ?? [];
    if (children.length === 0) return 0;
    if (isProduct(e)) {
      const operands: Expression[] = [];
      const flatten = (x: Expression) => {
        if (x.kind === "binary" && x.op === "%*%" && parents.get(x.left) === x) {
          flatten(x.left);
          flatten(x.right);
        } else operands.push(x);
      };
      flatten(e);
      let total = 0;
      const factors: Factor[] = [];
      for (const op of operands) {
        const c = cost(op);
        const part = costOf(op);
        if (c === undefined || !part) return undefined;
        total += c;
        factors.push({ atom: { key: "", text: "", size: part.size, ...(part.sketch ? { sketch: part.sketch } : {}), invariantLoops: 0, symmetric: false }, transposed: false, leaf: -1 });
      }
      const chain = chainCost(factors, [], constants);
      return chain === undefined ? undefined : total + chain.seconds;
    }
    let total = 0;
    for (const child of children) {
      const c = cost(child);
      if (c === undefined) return undefined;
      total += c;
    }
    return total;
  };
  return cost(region.sums.root);
}
