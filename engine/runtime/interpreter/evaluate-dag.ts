/**
 * Evaluates one block DAG: nodes in id order with the kernels, effect sinks
 * (print, write, stop, ...) in source order among them, then the block's
 * outputs are written to the environment.
 *
 * A node's value is dropped as soon as its last consumer has been computed
 * (outputs are kept), so a block of many statements holds only the
 * intermediates still needed, not all of them. The values held (the block's
 * variables and live nodes, memory-meter.ts) count against the memory
 * budget: an operation whose result would take the total past it is refused
 * before it allocates when its size is known up front (matrix, rand, seq,
 * matmul, element-wise, bind, reshape, read), and right after otherwise.
 */
import { type BlockDag, type DagNode, ALL_INDICES, builtinNames, lookupBuiltin } from "../../program";
import { typeParameterValue } from "../../metadata";
import { cbind, rbind, diag, rand, type RandDistribution, matrixFill, matrixFromValues, reshape, seq, table, transpose, transposedLeftProduct, fastMatmul, usesWasmGemm } from "../kernels";
import { isDense, type Matrix, chooseFormat } from "../matrix";
import { readDataFile, matrixFromData, type ReadParameters } from "../io";
import { BUILTINS, MULTI_RESULT_BUILTINS, type CallArgs } from "./builtins";
import { type EvalContext, sourceSlice } from "./context";
import { csrBytes, denseBytes, Holdings, matrixBytes } from "./memory-meter";
import { at, DmlRuntimeError, fail, internalError } from "./errors";
import { bindDimensionsMessage, elementwiseDimensionsFit, elementwiseDimensionsMessage, matmulDimensionsMessage, missingDataFileMessage, missingParameterMessage, noValueMessage, unknownFunctionMessage } from "./messages";
import { aggregateValue, binary, castValue, indexRange, leftIndexValue, mat, num, rightIndexValue, text, truthy, unary } from "./operations";
import { listAssign, listSlice } from "./builtins-lists";
import { bool, double, int, str, type Value } from "./values";
import { releaseUnreferenced, withLiveEvaluator, type LiveValues } from "./buffer-liveness";

/** The value of a node whose consumers have all been computed. */
const DROPPED = Symbol("dropped");

/**
 * A fused operator as the evaluator runs it: it computes the values of its
 * roots from its materialized inputs in one go; the other nodes it covers
 * are never computed on their own.
 */
export interface OperatorRun {
  readonly roots: readonly number[];
  /** Every node computed inside the operator, roots included. */
  readonly covered: readonly number[];
  /** The materialized values it reads. */
  readonly inputs: readonly number[];
  /** The roots' values, from `valueOf` of its inputs. */
  run(valueOf: (node: number) => Value): ReadonlyMap<number, Value>;
}

/** Told, when profiling, the seconds each node or fused operator took itself (its inputs' own computation excluded). */
export interface OperationTimer {
  computed(what: number | OperatorRun, seconds: number): void;
}

export class DagEvaluator implements LiveValues {
  private readonly values: (Value | typeof DROPPED | undefined)[];
  /** The results of each call, computed once however many of its outputs are used (`[U, S, V] = svd(A)`: three nodes). */
  private readonly callResults = new Map<string, Value[]>();
  /** Consumers of each node not computed yet. */
  private readonly pending: Int32Array;
  /** The nodes of call statements, whose values are dropped (a function without results may be called there). */
  private readonly discarded: Set<number>;
  /** Nodes whose values are kept to the end (the block's outputs and sinks, which callers read after the run). */
  private readonly kept: Set<number>;
  /** What the block's variables and live nodes hold. */
  private readonly held = new Holdings();
  /** The operator that computes each fused root. */
  private readonly operatorOf = new Map<number, OperatorRun>();
  /** Nodes computed inside an operator that are not its roots and nothing outside it needs (never computed here). */
  private readonly inner = new Set<number>();
  /** Transposes `t(X)` read only as the left operand of products: the products read X instead (transposedLeftProduct), and t(X) is formed only when one of them needs it. */
  private readonly absorbed = new Set<number>();
  /** Seconds of the computations nested in the one being timed (see `timed`). */
  private nestedSeconds = 0;
  /** While `run` runs: dropped values' buffers go back to the pool when nothing else refers to them (buffer-liveness.ts). */
  private recycling = false;

  /**
   * `operators`: fused operators that compute some of the nodes (their
   * covered nodes must be disjoint). `only`: the nodes to compute (a
   * compiled plan's needed nodes, program/dag-reachable.ts `nodesNeeded`);
   * default every node.
   */
  constructor(
    readonly dag: BlockDag,
    readonly ctx: EvalContext,
    operators: readonly OperatorRun[] = [],
    private readonly timer?: OperationTimer,
    private readonly only?: ReadonlySet<number>,
  ) {
    this.values = new Array(dag.nodes.length);
    this.pending = new Int32Array(dag.nodes.length);
    for (const op of operators) {
      for (const node of op.covered) this.inner.add(node);
      for (const root of op.roots) this.operatorOf.set(root, op);
      if (op.roots.some((root) => this.isNeeded(root))) for (const i of op.inputs) this.pending[i]!++;
    }
    for (const op of operators) for (const root of op.roots) this.inner.delete(root);
    this.kept = new Set([...dag.outputs.values(), ...dag.sinks.map((s) => s.node)]);
    this.discarded = new Set(dag.sinks.filter((s) => s.discarded).map((s) => s.node));
    this.computeNeededInnerNodes();
    for (const n of dag.nodes) if (this.onItsOwn(n.id)) for (const i of n.inputs) this.pending[i]!++;
    this.findAbsorbedTransposes();
    for (const value of ctx.env.values()) this.held.hold(value);
  }

  /**
   * Transposes computed on their own that are no variable and whose every
   * reader is a product taking them as its left operand (`t(X) %*% X`,
   * `t(X) %*% y`): those products are computed from X where a kernel does
   * that (SystemDS's tsmm; one pass over X's rows for a column y), so t(X)
   * is never formed unless one of them needs it (transposedLeftProduct).
   */
  private findAbsorbedTransposes(): void {
    const leftReads = new Int32Array(this.dag.nodes.length);
    for (const n of this.dag.nodes) {
      if (n.op.kind === "matmul" && this.onItsOwn(n.id) && n.inputs[0] !== n.inputs[1]) leftReads[n.inputs[0]!]!++;
    }
    for (const t of this.dag.nodes) {
      if (t.op.kind !== "transpose" || !this.onItsOwn(t.id) || this.kept.has(t.id)) continue;
      // Every consumer is such a product (pending also counts the operators and other nodes that read it).
      if (leftReads[t.id]! > 0 && leftReads[t.id] === this.pending[t.id]) this.absorbed.add(t.id);
    }
  }

  /**
   * A node an operator covers may also be needed outside it (a variable the
   * block assigns, or the input of an operation computed on its own): it is
   * then computed on its own as well, SystemDS's overlapping fusion plans.
   * Consumers come after their inputs, so one pass from the last node finds
   * every such node (and the covered nodes it needs in turn).
   */
  private computeNeededInnerNodes(): void {
    for (const id of this.kept) this.inner.delete(id);
    for (let id = this.dag.nodes.length - 1; id >= 0; id--) {
      if (!this.onItsOwn(id)) continue;
      for (const input of this.dagNode(id).inputs) this.inner.delete(input);
    }
  }

  /** The values this evaluator can still read: its environment, its nodes' values not dropped, its call results. */
  *liveValues(): Iterable<Value> {
    yield* this.ctx.env.values();
    for (const v of this.values) if (v !== undefined && v !== DROPPED) yield v;
    for (const results of this.callResults.values()) yield* results;
  }

  /** Whether the node is computed by itself here: needed, and neither inside an operator nor an operator's root. */
  private onItsOwn(id: number): boolean {
    return !this.inner.has(id) && !this.operatorOf.has(id) && this.isNeeded(id);
  }

  private isNeeded(id: number): boolean {
    return this.only === undefined || this.only.has(id);
  }

  /** Runs the whole block: sinks in order, everything else before the sink that follows it; then the outputs. */
  run(): Map<string, Value> {
    return withLiveEvaluator(this, () => {
      this.recycling = true;
      try {
        return this.runBlock();
      } finally {
        this.recycling = false;
      }
    });
  }

  private runBlock(): Map<string, Value> {
    const sinkNodes = new Set(this.dag.sinks.map((s) => s.node));
    let next = 0;
    // A fused operator computes its inputs when its first root is asked for: they may come after it in id order, and be dropped by then.
    const computed = (id: number) => !sinkNodes.has(id) && !this.inner.has(id) && !this.absorbed.has(id) && this.values[id] === undefined && this.isNeeded(id);
    for (const sink of this.dag.sinks) {
      for (; next < sink.node; next++) if (computed(next)) this.node(next);
      this.node(sink.node);
    }
    for (; next < this.dag.nodes.length; next++) if (computed(next)) this.node(next);
    const outputs = new Map<string, Value>();
    for (const [name, id] of this.dag.outputs) outputs.set(name, this.node(id));
    return outputs;
  }

  node(id: number): Value {
    const known = this.values[id];
    if (known === DROPPED) throw new Error(`node ${id} was used after its last consumer`);
    if (known) return known;
    const n = this.dagNode(id);
    const operator = this.operatorOf.get(id);
    if (operator) return this.runOperator(operator, id);
    if (this.inner.has(id)) throw new Error(`node ${id} is computed inside a fused operator`);
    const value = this.timed(id, () => at(n.range, () => this.compute(n)));
    const added = this.held.newBytes(value);
    if (added > 0) {
      const refusal = this.ctx.memory.refusal(added, this.held.bytes);
      if (refusal) throw new DmlRuntimeError(`'${sourceSlice(this.ctx.sourceText, n.range)}' ${refusal}`, n.range);
    }
    this.values[id] = value;
    this.held.hold(value);
    for (const input of n.inputs) this.consumed(input);
    if (this.pending[id] === 0) this.drop(id);
    return value;
  }

  /** Runs a fused operator: every root gets its value, then its inputs count as consumed once. */
  private runOperator(operator: OperatorRun, asked: number): Value {
    const n = this.dagNode(asked);
    const results = this.timed(operator, () => at(n.range, () => operator.run((node) => this.node(node))));
    for (const root of operator.roots) {
      const value = results.get(root) ?? fail(`a fused operator did not compute node ${root}`);
      const added = this.held.newBytes(value);
      if (added > 0) {
        const refusal = this.ctx.memory.refusal(added, this.held.bytes);
        if (refusal) {
          const { range } = this.dagNode(root);
          throw new DmlRuntimeError(`'${sourceSlice(this.ctx.sourceText, range)}' ${refusal}`, range);
        }
      }
      this.values[root] = value;
      this.held.hold(value);
    }
    for (const input of operator.inputs) this.consumed(input);
    for (const root of operator.roots) if (this.pending[root] === 0) this.drop(root);
    return this.values[asked] as Value;
  }

  /** `a %*% b`, its result's memory reserved first. */
  private product(n: DagNode, a: Matrix, b: Matrix): Matrix {
    if (a.cols !== b.rows) fail(matmulDimensionsMessage(a, b));
    if (usesWasmGemm(a, b)) {
      // The WebAssembly GEMM stages A, B (packed) and C in its heap beside the result.
      const bytes = 2 * (matrixBytes(a) + matrixBytes(b)) + 2 * denseBytes(a.rows, b.cols);
      this.reserve(n, bytes, `a dense ${a.rows} x ${b.cols} matrix (and the WebAssembly GEMM's copies of its operands and result)`);
    } else if (isDense(a) || isDense(b)) this.reserveDense(n, a.rows, b.cols);
    return fastMatmul(a, b);
  }

  /**
   * `t(X) %*% B` whose transpose is absorbed: from X itself where a kernel
   * does that faster (transposedLeftProduct: B = X, or a column B),
   * otherwise the product with t(X), formed once for all its readers.
   */
  private transposedLeftProduct(n: DagNode): Matrix {
    const t = n.inputs[0]!;
    const b = mat(this.inputValue(n, 1));
    if (this.values[t] === undefined) {
      // t(X) not formed: X counts it as a reader still, so X is there.
      const x = mat(this.node(this.dagNode(t).inputs[0]!));
      if (b.rows === x.rows) this.reserveDense(n, x.cols, b.cols);
      const direct = transposedLeftProduct(x, b);
      if (direct !== undefined) return direct;
    }
    // Formed by an earlier product (X may be gone since) or now.
    return this.product(n, mat(this.node(t)), b);
  }

  /** The DAG's node `id` (ids come from the DAG itself: a missing one is a bug). */
  private dagNode(id: number): DagNode {
    return this.dag.nodes[id] ?? internalError(`node ${id} is not in the block's DAG of ${this.dag.nodes.length} nodes`);
  }

  /** The value of input `k` of `n`. */
  private inputValue(n: DagNode, k: number): Value {
    return this.node(n.inputs[k] ?? internalError(`node ${n.id} (${n.op.kind}) has no input ${k + 1}`));
  }

  /** `compute()`, its own seconds told to the timer (those of inputs it computes on the way are theirs). */
  private timed<T>(what: number | OperatorRun, compute: () => T): T {
    if (!this.timer) return compute();
    const outer = this.nestedSeconds;
    this.nestedSeconds = 0;
    const start = performance.now();
    try {
      return compute();
    } finally {
      const total = (performance.now() - start) / 1000;
      this.timer.computed(what, total - this.nestedSeconds);
      this.nestedSeconds = outer + total;
    }
  }

  /** One consumer of `id` is computed; the last one drops its value. */
  private consumed(id: number): void {
    if (--this.pending[id]! > 0) return;
    // An absorbed transpose no product needed formed: its input is read no more on its behalf.
    if (this.absorbed.has(id) && this.values[id] === undefined) for (const input of this.dagNode(id).inputs) this.consumed(input);
    this.drop(id);
  }

  private drop(id: number): void {
    const value = this.values[id];
    if (this.kept.has(id) || value === undefined || value === DROPPED) return;
    this.values[id] = DROPPED;
    this.held.drop(value);
    if (this.recycling) releaseUnreferenced([value]);
  }

  /**
   * Refuses, before it allocates, an operation whose result needs `bytes`
   * beside what the run holds; `shape` says what it would build ("a dense 10 x 5 matrix").
   */
  private reserve(n: DagNode, bytes: number, shape: string): void {
    const refusal = this.ctx.memory.refusal(bytes, this.held.bytes);
    if (refusal) throw new DmlRuntimeError(`'${sourceSlice(this.ctx.sourceText, n.range)}' would build ${shape}: it ${refusal}`, n.range);
  }

  /** `reserve` for a dense rows x cols result. */
  private reserveDense(n: DagNode, rows: number, cols: number): void {
    this.reserve(n, denseBytes(rows, cols), `a dense ${rows} x ${cols} matrix`);
  }

  /**
   * The results of a function call (user, or resolved by the interpreter),
   * computed once per call however many of its outputs are used (`[C, Y] =
   * kmeans(...)` has two nodes); undefined when nothing resolves `name`.
   */
  private functionResults(n: DagNode, name: string, user: boolean): Value[] | undefined {
    const key = callKey(n, name);
    const cached = this.callResults.get(key);
    if (cached) return cached;
    if (!user && !this.ctx.callBuiltin) return undefined;
    const a = this.named(n);
    const held = this.held.bytes;
    this.ctx.memory.suspend(held);
    let results: Value[] | undefined;
    try {
      results = user ? this.ctx.callUser(name, a.values, a.names, n.range) : this.ctx.callBuiltin!(name, a.values, a.names, n.range);
    } finally {
      this.ctx.memory.resume(held);
    }
    if (results) this.callResults.set(key, results);
    return results;
  }

  private isAll(id: number): boolean {
    const op = this.dagNode(id).op;
    return op.kind === "literal" && op.value === ALL_INDICES;
  }

  private bounds(ids: number[]): (number | undefined)[] {
    return ids.map((id) => (this.isAll(id) ? undefined : num(this.node(id), "index")));
  }

  /** The row bounds of a list index as values (positions or names); an omitted one is the whole list. */
  private listBounds(list: Extract<Value, { kind: "list" }>, ids: number[]): [Value, Value] {
    const [lower, upper] = ids.map((id) => (this.isAll(id) ? undefined : this.node(id)));
    return [lower ?? int(1), upper ?? int(list.items.length)];
  }

  private named(n: DagNode): CallArgs {
    return { values: n.inputs.map((i) => this.node(i)), names: n.argNames ?? n.inputs.map(() => undefined) };
  }

  private compute(n: DagNode): Value {
    const op = n.op;
    const input = (k: number) => this.inputValue(n, k);
    switch (op.kind) {
      case "literal":
        if (typeof op.value === "string") return str(op.value);
        if (typeof op.value === "boolean") return bool(op.value);
        return n.type.valueType === "double" || !Number.isInteger(op.value) ? double(op.value) : int(op.value);
      case "input": {
        const v = this.ctx.env.get(op.name);
        if (v === undefined) fail(noValueMessage(op.name, new Set([...this.ctx.env.keys(), ...this.dag.outputs.keys()])));
        return v;
      }
      case "parameter": {
        const name = op.name.replace(/^\$/, "");
        const given = this.ctx.params.get(name);
        if (given !== undefined) {
          const c = typeParameterValue(given);
          return c.type === "int" ? int(c.value as number) : c.type === "double" ? double(c.value as number) : c.type === "boolean" ? bool(c.value as boolean) : str(String(c.value));
        }
        if (n.inputs.length > 0) return input(0);
        return fail(missingParameterMessage(name));
      }
      case "matmul": {
        if (this.absorbed.has(n.inputs[0]!)) return { kind: "matrix", matrix: this.transposedLeftProduct(n) };
        return { kind: "matrix", matrix: this.product(n, mat(input(0)), mat(input(1))) };
      }
      case "binary": {
        const a = input(0);
        const b = input(1);
        if (a.kind === "matrix" && b.kind === "matrix" && !elementwiseDimensionsFit(a.matrix, b.matrix)) fail(elementwiseDimensionsMessage(op.op, a.matrix, b.matrix));
        if (a.kind === "matrix" || b.kind === "matrix") {
          const rows = Math.max(a.kind === "matrix" ? a.matrix.rows : 1, b.kind === "matrix" ? b.matrix.rows : 1);
          const cols = Math.max(a.kind === "matrix" ? a.matrix.cols : 1, b.kind === "matrix" ? b.matrix.cols : 1);
          this.reserveDense(n, rows, cols);
        }
        return binary(op.op, a, b);
      }
      case "unary":
        return unary(op.op, input(0));
      case "aggregate":
        return aggregateValue(op.fn, op.direction, input(0));
      case "transpose":
        return { kind: "matrix", matrix: transpose(mat(input(0))) };
      case "index": {
        const target = input(0);
        if (target.kind === "list") return listSlice(target, ...this.listBounds(target, n.inputs.slice(1, 3)));
        return rightIndexValue(target, indexRange(this.bounds(n.inputs.slice(1, 5))));
      }
      case "leftIndex": {
        const target = input(0);
        if (target.kind === "list") return listAssign(target, input(1), ...this.listBounds(target, n.inputs.slice(2, 4)));
        return leftIndexValue(target, input(1), indexRange(this.bounds(n.inputs.slice(2, 6))));
      }
      case "cbind":
      case "rbind": {
        const parts = n.inputs.map((i) => mat(this.node(i)));
        const across = (m: Matrix) => (op.kind === "cbind" ? m.rows : m.cols);
        if (parts.some((m) => across(m) !== across(parts[0]!))) fail(bindDimensionsMessage(op.kind, parts));
        const rows = op.kind === "cbind" ? parts[0]!.rows : parts.reduce((sum, m) => sum + m.rows, 0);
        const cols = op.kind === "rbind" ? parts[0]!.cols : parts.reduce((sum, m) => sum + m.cols, 0);
        this.reserve(n, parts.reduce((sum, m) => sum + matrixBytes(m), 0), `a ${rows} x ${cols} matrix`);
        return { kind: "matrix", matrix: op.kind === "cbind" ? cbind(...parts) : rbind(...parts) };
      }
      case "diag":
        return { kind: "matrix", matrix: diag(mat(input(0))) };
      case "table":
        return this.table(n);
      case "seq": {
        const [from, to, by] = n.inputs.map((i) => num(this.node(i), "seq"));
        const length = seqLength(from!, to!, by);
        if (length !== undefined) this.reserveDense(n, length, 1);
        return { kind: "matrix", matrix: seq(from!, to!, by) };
      }
      case "matrix":
        return this.matrix(n);
      case "rand":
        return this.rand(n);
      case "read":
        return this.read(n);
      case "cast":
        return castValue(op.to, input(0));
      case "nrow":
      case "ncol":
      case "length": {
        const v = input(0);
        if (v.kind === "list") return int(v.items.length);
        if (v.kind === "frame") return int(op.kind === "nrow" ? v.frame.rows : op.kind === "ncol" ? v.frame.columns.length : v.frame.rows * v.frame.columns.length);
        const m = mat(v);
        return int(op.kind === "nrow" ? m.rows : op.kind === "ncol" ? m.cols : m.rows * m.cols);
      }
      case "call":
        return this.call(n, op.name, op.user, op.output);
    }
  }

  /**
   * A `call` node: a user function, a native builtin of the runtime, or a
   * function the interpreter resolves (a DML-bodied builtin's script, SystemDS's
   * builtin namespace, a function of an earlier run). A builtin that SystemDS
   * runs from a script (`lm`, `kmeans`, `scale`, ...) is never taken by a
   * native builtin of the same name.
   */
  private call(n: DagNode, name: string, user: boolean, output: number): Value {
    const results = user || !isNativeBuiltin(name) ? this.functionResults(n, name, user) : undefined;
    if (results) return results[output] ?? (output === 0 && this.discarded.has(n.id) ? bool(true) : fail(`function ${name} has no result ${output + 1}`));
    const builtin = Object.prototype.hasOwnProperty.call(BUILTINS, name) ? BUILTINS[name] : undefined;
    const multi = Object.hasOwn(MULTI_RESULT_BUILTINS, name) ? MULTI_RESULT_BUILTINS[name] : undefined;
    if (!builtin && !multi && !lookupBuiltin(name)) throw new DmlRuntimeError(unknownFunctionMessage(name, [...(this.ctx.functionNames?.() ?? []), ...builtinNames()]), n.range);
    if (multi) return this.multiResultCall(n, name, multi, output);
    if (!builtin) throw new DmlRuntimeError(`builtin ${name} is not supported by the embedded runtime yet`, n.range);
    if (output > 0) throw new DmlRuntimeError(`builtin ${name} with several results is not supported by the embedded runtime yet`, n.range);
    const args = this.named(n);
    const estimate = builtinResultSize(name, args.values);
    if (estimate) this.reserveDense(n, estimate.rows, estimate.cols);
    return builtin(args, this.ctx);
  }

  /** Result `output` of a multi-result builtin; the nodes of one call share one computation. */
  private multiResultCall(n: DagNode, name: string, builtin: (a: CallArgs, ctx: EvalContext) => Value[], output: number): Value {
    const key = callKey(n, name);
    let results = this.callResults.get(key);
    if (!results) {
      const args = this.named(n);
      const input = args.values[0];
      // The results, and the decomposition's working copies of the input, as dense matrices.
      if (input?.kind === "matrix") this.reserve(n, 8 * decompositionCells(name, input.matrix.rows, input.matrix.cols), `the results of ${name} of a ${input.matrix.rows} x ${input.matrix.cols} matrix`);
      results = builtin(args, this.ctx);
      this.callResults.set(key, results);
    }
    return results[output] ?? fail(`builtin ${name} has ${results.length} results, not ${output + 1}`);
  }

  private arg(n: DagNode, name: string, position: number): Value | undefined {
    const names = n.argNames ?? [];
    const i = names.indexOf(name);
    if (i >= 0) return this.inputValue(n, i);
    let p = 0;
    for (let k = 0; k < n.inputs.length; k++) {
      if (names[k] !== undefined) continue;
      if (p === position) return this.inputValue(n, k);
      p++;
    }
    return undefined;
  }

  private table(n: DagNode): Value {
    const operand = (v: Value) => (v.kind === "matrix" ? v.matrix : num(v, "table"));
    const a = operand(this.arg(n, "A", 0) ?? fail("table: missing first argument"));
    const b = operand(this.arg(n, "B", 1) ?? fail("table: missing second argument"));
    // table(A, B, odim1, odim2) takes dims in place of the weights: 4 arguments, or 5 with weights.
    const fourArgs = n.inputs.length === 4 && !(n.argNames ?? []).includes("W");
    const w = fourArgs ? undefined : this.arg(n, "W", 2);
    const rows = this.arg(n, "odim1", fourArgs ? 2 : 3);
    const cols = this.arg(n, "odim2", fourArgs ? 3 : 4);
    const dims = rows && cols ? { rows: dimension(rows, "table", "odim1"), cols: dimension(cols, "table", "odim2") } : undefined;
    // The result's rows are the largest category of A (or odim1): its row pointers and the counts take 8 bytes a row.
    const resultRows = dims?.rows ?? largest(a);
    const cells = typeof a !== "number" ? a.rows * a.cols : typeof b !== "number" ? b.rows * b.cols : 1;
    if (Number.isFinite(resultRows) && resultRows > 0) this.reserve(n, 8 * (resultRows + 1) + 20 * cells, `a ${resultRows}-row contingency table`);
    return { kind: "matrix", matrix: table(a, b, w ? operand(w) : 1, dims) };
  }

  private matrix(n: DagNode): Value {
    const data = this.arg(n, "data", 0) ?? fail("matrix: missing data");
    const rowsV = this.arg(n, "rows", 1);
    const colsV = this.arg(n, "cols", 2);
    const byRowV = this.arg(n, "byrow", 3);
    const byRow = byRowV ? truthy(byRowV) : true;
    if (data.kind === "matrix") {
      const cells = data.matrix.rows * data.matrix.cols;
      const rows = rowsV ? dimension(rowsV, "matrix", "rows") : colsV ? cells / dimension(colsV, "matrix", "cols") : data.matrix.rows;
      const cols = colsV ? dimension(colsV, "matrix", "cols") : cells / rows;
      this.reserve(n, matrixBytes(data.matrix), `a ${rows} x ${cols} matrix`);
      return { kind: "matrix", matrix: reshape(data.matrix, rows, cols, byRow) };
    }
    if (data.kind === "scalar" && data.type === "string") {
      const values = data.value.trim().split(/[\s,]+/).filter((s) => s !== "").map(Number);
      const rows = rowsV ? dimension(rowsV, "matrix", "rows") : colsV ? values.length / dimension(colsV, "matrix", "cols") : values.length;
      const cols = colsV ? dimension(colsV, "matrix", "cols") : values.length / rows;
      return { kind: "matrix", matrix: matrixFromValues(values, rows, cols, byRow) };
    }
    const rows = dimension(rowsV ?? fail("matrix: missing rows"), "matrix", "rows");
    const cols = dimension(colsV ?? fail("matrix: missing cols"), "matrix", "cols");
    this.reserveDense(n, rows, cols);
    return { kind: "matrix", matrix: matrixFill(num(data), rows, cols) };
  }

  private rand(n: DagNode): Value {
    const get = (name: string) => this.arg(n, name, -1);
    const rows = dimension(get("rows") ?? fail("rand: missing rows"), "rand", "rows");
    const cols = dimension(get("cols") ?? fail("rand: missing cols"), "rand", "cols");
    const sparsity = get("sparsity");
    const s = sparsity ? num(sparsity) : 1;
    if (!(s >= 0 && s <= 1)) fail(`rand: sparsity must be between 0 and 1, got ${s}`);
    const nnz = Math.round(s * rows * cols);
    if (chooseFormat(rows, cols, nnz) === "dense") this.reserveDense(n, rows, cols);
    else this.reserve(n, csrBytes(rows, Math.ceil(s * rows * cols * 1.1) + 16), `a sparse ${rows} x ${cols} matrix with about ${nnz} non-zeros`);
    const opt = (name: string) => {
      const v = get(name);
      return v ? num(v) : undefined;
    };
    const pdf = get("pdf");
    const options = { rows, cols, min: opt("min"), max: opt("max"), sparsity: s, seed: opt("seed"), lambda: opt("lambda"), pdf: pdf ? (text(pdf) as RandDistribution) : undefined };
    return { kind: "matrix", matrix: rand(options) };
  }

  private read(n: DagNode): Value {
    const file = text(this.arg(n, "file", 0) ?? fail("read: missing file name"));
    const params: ReadParameters = {};
    const get = (name: string) => this.arg(n, name, -1);
    const format = get("format");
    if (format) params.format = text(format) as NonNullable<ReadParameters["format"]>;
    const dataType = get("data_type");
    if (dataType) params.dataType = text(dataType) as NonNullable<ReadParameters["dataType"]>;
    const header = get("header");
    if (header) params.header = truthy(header);
    const sep = get("sep");
    if (sep) params.sep = text(sep);
    // rows=-1 / cols=-1: unknown, as in SystemDS.
    const rows = get("rows");
    if (rows && num(rows) !== -1) params.rows = dimension(rows, "read", "rows");
    const cols = get("cols");
    if (cols && num(cols) !== -1) params.cols = dimension(cols, "read", "cols");
    const result = readDataFile(file, {
      ...(this.ctx.scriptPath ? { scriptPath: this.ctx.scriptPath } : {}),
      ...(this.ctx.workspaceRoot ? { workspaceRoot: this.ctx.workspaceRoot } : {}),
      params,
      memoryRefusal: (bytes) => this.ctx.memory.refusal(bytes, this.held.bytes),
    });
    // A missing file in the words the static checks use.
    if (!result.ok) throw new DmlRuntimeError(result.error.code === "not-found" ? missingDataFileMessage(file, result.error.candidates ?? []) : result.error.message, n.range);
    const value = result.value.value;
    if (value.kind === "matrix") return { kind: "matrix", matrix: matrixFromData(value.data) };
    if (value.kind === "frame") return { kind: "frame", frame: value.frame };
    const s = value.scalar;
    return s.type === "boolean" ? bool(s.value) : s.type === "string" ? str(s.value) : s.type === "int" ? int(s.value) : double(s.value);
  }
}

/** A dimension argument (rows=, cols=) as a count: a finite, non-negative integer, else a runtime error naming the function and the argument. */
function dimension(value: Value, fn: string, name: string): number {
  const x = num(value, `${fn} ${name}`);
  if (!Number.isFinite(x) || !Number.isInteger(x) || x < 0) fail(`${fn}: ${name} must be a non-negative integer, got ${value.kind === "scalar" ? text(value) : x}`);
  return x;
}

/** The largest value of a table operand (its categories), 0 for an empty one. */
function largest(x: Matrix | number): number {
  if (typeof x === "number") return x;
  let max = x.rows * x.cols > (isDense(x) ? 0 : x.nnz()) ? 0 : -Infinity;
  const values = isDense(x) ? x.data : x.values.subarray(0, x.nnz());
  for (let k = 0; k < values.length; k++) if (values[k]! > max) max = values[k]!;
  return Math.max(0, Math.floor(max));
}

/** A builtin the runtime implements and SystemDS has built in (not one it runs from a script). */
function isNativeBuiltin(name: string): boolean {
  return Object.prototype.hasOwnProperty.call(BUILTINS, name) && lookupBuiltin(name)?.kind !== "dml";
}

/** The dense result size of builtins whose result is larger than their inputs (outer: a column times a row). */
function builtinResultSize(name: string, values: readonly Value[]): { rows: number; cols: number } | undefined {
  if (name === "outer" && values[0]?.kind === "matrix" && values[1]?.kind === "matrix") return { rows: values[0].matrix.rows, cols: values[1].matrix.cols };
  return undefined;
}

/** Cells a decomposition of an m x n matrix allocates: its results and about two copies of the input. */
function decompositionCells(name: string, m: number, n: number): number {
  const p = Math.min(m, n);
  const results = name === "eigen" ? n + n * n : name === "svd" ? m * p + p * p + n * p : name === "lu" ? 3 * n * n : 2 * m * n;
  return results + 2 * m * n;
}

/** The length seq(from, to, by) would have, when its arguments make sense (else the kernel says why not). */
function seqLength(from: number, to: number, by: number | undefined): number | undefined {
  const incr = by ?? (from <= to ? 1 : -1);
  if (!Number.isFinite(from) || !Number.isFinite(to) || !Number.isFinite(incr) || incr === 0 || (from < to && incr < 0) || (from > to && incr > 0)) return undefined;
  return 1 + Math.floor(to / incr - from / incr);
}

/** One call in the source (its place, its arguments): the nodes of its several results share the key. */
function callKey(n: DagNode, name: string): string {
  return `${name}@${n.range.start.line}:${n.range.start.character}(${n.inputs.join(",")})`;
}
