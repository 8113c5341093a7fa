/**
 * Variables a session keeps but its program never reads again, computed
 * once, when the run ends, instead of in every iteration of the loop that
 * assigns them. In a session every variable outlives the run (later cells,
 * the variables view), so a loop temporary such as l2svm's `tmp_Xw` is
 * live at the program's end, and a plan that kept it would write its
 * 1e6-row vector in every iteration only for the last one to be seen.
 * SystemDS, which runs programs that end, removes such a variable
 * (rmvar); a session computes its last value from the values it was
 * computed from, which the block captured when it ran.
 *
 * While pending, the variable is not in the environment (no statement of
 * the program reads it: liveness says so; a later run that reads it
 * computes it first); the values it captured stay readable (they are live
 * values for the buffer recycling, buffer-liveness.ts). A session computes
 * them when the run ends, or when they are read (session.ts,
 * `deferredVariables`).
 */
import { nodesReachableFrom, type BlockDag } from "../../program";
import type { LiveValues } from "./buffer-liveness";
import type { EvalContext } from "./context";
import { DagEvaluator } from "./evaluate-dag";
import type { Value } from "./values";

/** One variable's value, to compute later: node `node` of `dag`, from the block's live-in values as they were when it ran. */
export class DeferredValue {
  private readonly ctx: EvalContext;

  constructor(
    private readonly dag: BlockDag,
    private readonly name: string,
    private readonly node: number,
    ctx: EvalContext,
  ) {
    const inputs = new Map<string, Value>();
    for (const input of dag.inputs.keys()) {
      const value = ctx.env.get(input);
      if (value !== undefined) inputs.set(input, value);
    }
    this.ctx = { ...ctx, env: inputs };
  }

  /** The values it is computed from. */
  inputs(): Iterable<Value> {
    return this.ctx.env.values();
  }

  /** Computes the value: the node and what it reads, as written. */
  compute(): Value {
    const dag: BlockDag = { ...this.dag, outputs: new Map([[this.name, this.node]]), sinks: [] };
    const value = new DagEvaluator(dag, this.ctx, [], undefined, nodesReachableFrom(this.dag, [this.node])).run().get(this.name);
    if (value === undefined) throw new Error(`the deferred value of ${this.name} was not computed`);
    return value;
  }
}

/** The pending deferred variables of one environment (a session's run of its program). */
export class DeferredValues implements LiveValues {
  private readonly pending = new Map<string, DeferredValue>();

  constructor(readonly env: Map<string, Value>) {}

  get size(): number {
    return this.pending.size;
  }

  /** `name` is assigned `value` later: until then it is not in the environment. */
  defer(name: string, value: DeferredValue): void {
    this.env.delete(name);
    this.pending.set(name, value);
  }

  /** `name` was assigned again (or dropped): its deferred value is no longer its value. */
  forget(name: string): void {
    this.pending.delete(name);
  }

  /** Computes `name` now if it is pending (a read the liveness did not foresee never sees it missing). */
  force(name: string): void {
    const deferred = this.pending.get(name);
    if (deferred === undefined) return;
    this.pending.delete(name);
    this.env.set(name, deferred.compute());
  }

  /**
   * Computes every pending variable (the run ends), each into the
   * environment; one whose computation fails is left unset, like a
   * variable a failed block did not assign. Returns the values set.
   */
  forceAll(): Map<string, Value> {
    const set = new Map<string, Value>();
    for (const [name, deferred] of [...this.pending]) {
      this.pending.delete(name);
      try {
        const value = deferred.compute();
        this.env.set(name, value);
        set.set(name, value);
      } catch {
        this.env.delete(name);
      }
    }
    return set;
  }

  *liveValues(): Iterable<Value> {
    for (const deferred of this.pending.values()) yield* deferred.inputs();
  }
}
