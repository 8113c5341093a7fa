/**
 * ReMac's dynamic program over a cost graph (paper section 4.3).
 *
 * Building phase: per chain, one input per interval of its matrices and,
 * under it, one operator per split point (`O(I_l, I_r)` with the cost of
 * that multiplication, as often as the chain runs); an interval that is a
 * window of an option also gets the option's reduced cost: its temporary's
 * evaluations apportioned over all its uses (the CSE cost split between
 * the occurrences; the LSE cost divided by the iterations).
 *
 * Probing phase: bottom-up, each interval's minimal accumulated cost
 * without candidate costs (equations 7 and 8) and its candidate set
 * (equation 9): accumulated costs that contain reduced costs of some
 * options, each labelled with those options. A candidate no cheaper than
 * the minimum without candidates is useless and dropped (a group whose
 * candidates are all useless is discarded); at most MAX_CANDIDATES per
 * interval are carried upward (the rest are counted as truncated).
 *
 * The top: what each chain's root carries tells, per option, how much its
 * whole group saves when every chain uses its best candidate with it
 * (`gain`). Groups with no useful candidate anywhere are discarded.
 */
import { DEFAULT_MACHINE_CONSTANTS, type MachineConstants } from "../cost";
import { factorSize, isSelfTransposeProduct, multiplySeconds, productSize, SELF_TRANSPOSE_FACTOR } from "./chain-cost";
import type { MatrixSize } from "./chain-terms";
import { chainSketchSizes } from "./chain-sketches";
import type { CostedOption } from "./plan-costs";
import type { Chain } from "./program-chains";

export const MAX_CANDIDATES = 12;

interface Accumulated {
  /** Ids of the options whose reduced costs it contains, sorted. */
  options: string[];
  cost: number;
}

export interface ProbeResult {
  /** Options with a useful candidate at some chain root, with their estimated group gain (seconds per run). */
  gains: Map<string, number>;
  /** A bound on carried candidates stopped the probing somewhere. */
  truncated: boolean;
  /** Cost-graph operators built. */
  operators: number;
}

export function probeCostGraph(options: readonly CostedOption[], constants: MachineConstants = DEFAULT_MACHINE_CONSTANTS): ProbeResult {
  // Building phase: reduced costs per chain interval.
  const reduced = new Map<Chain, Map<string, { id: string; cost: number }[]>>();
  for (const o of options) {
    if (!o.costed || o.setup === undefined || o.uses === 0) continue;
    const share = o.setup / o.uses;
    for (const [chain, windows] of o.windows) {
      const perChain = reduced.get(chain) ?? new Map<string, { id: string; cost: number }[]>();
      for (const w of windows) {
        const key = `${w.start}-${w.end}`;
        perChain.set(key, [...(perChain.get(key) ?? []), { id: o.id, cost: share * chain.region.block.runs }]);
      }
      reduced.set(chain, perChain);
    }
  }
  let truncated = false;
  let operators = 0;
  const gains = new Map<string, number>();
  for (const [chain, alternatives] of reduced) {
    const factors = chain.product.factors;
    const n = factors.length;
    const sizes = factors.map(factorSize);
    if (sizes.some((s) => s === undefined)) continue;
    const runs = chain.region.block.runs;
    const sketched = chainSketchSizes(factors, constants); // MNC sizes of sub-chains with local data
    const size: MatrixSize[][] = Array.from({ length: n }, () => new Array<MatrixSize>(n));
    const table: Accumulated[][][] = Array.from({ length: n }, () => new Array<Accumulated[]>(n));
    for (let i = 0; i < n; i++) {
      size[i]![i] = sizes[i]!;
      table[i]![i] = [{ options: [], cost: 0 }];
    }
    // Probing phase, bottom-up over interval lengths.
    for (let len = 2; len <= n; len++) {
      for (let i = 0; i + len - 1 < n; i++) {
        const j = i + len - 1;
        size[i]![j] = sketched ? sketched.size(i, j) : productSize(size[i]![i]!, size[i + 1]![j]!);
        const best = new Map<string, Accumulated>();
        const offer = (a: Accumulated) => {
          const key = a.options.join("|");
          const before = best.get(key);
          if (!before || a.cost < before.cost) best.set(key, a);
        };
        for (let k = i; k < j; k++) {
          operators++;
          const own = multiplySeconds(size[i]![k]!, size[k + 1]![j]!, sketched ? sketched.size(i, j) : productSize(size[i]![k]!, size[k + 1]![j]!), constants) * runs * (isSelfTransposeProduct(factors, i, k, j) ? SELF_TRANSPOSE_FACTOR : 1);
          for (const l of table[i]![k]!) for (const r of table[k + 1]![j]!) offer({ options: union(l.options, r.options), cost: own + l.cost + r.cost });
        }
        for (const alt of alternatives.get(`${i}-${j}`) ?? []) offer({ options: [alt.id], cost: alt.cost });
        const base = best.get("")!;
        const candidates = [...best.values()].filter((a) => a.options.length > 0 && a.cost < base.cost).sort((a, b) => a.cost - b.cost);
        if (candidates.length > MAX_CANDIDATES) truncated = true;
        table[i]![j] = [base, ...candidates.slice(0, MAX_CANDIDATES)];
      }
    }
    const root = table[0]![n - 1]!;
    const base = root[0]!.cost;
    const bestWith = new Map<string, number>();
    for (const a of root.slice(1)) for (const id of a.options) bestWith.set(id, Math.min(bestWith.get(id) ?? Number.POSITIVE_INFINITY, a.cost));
    for (const [id, cost] of bestWith) gains.set(id, (gains.get(id) ?? 0) + (base - cost));
  }
  return { gains, truncated, operators };
}

function union(a: readonly string[], b: readonly string[]): string[] {
  if (a.length === 0) return b as string[];
  if (b.length === 0) return a as string[];
  return [...new Set([...a, ...b])].sort();
}
