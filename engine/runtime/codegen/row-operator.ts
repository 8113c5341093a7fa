/**
 * The Row template's code generator (SystemDS's SpoofRowwise): one loop
 * over the rows of the main input computing the covered nodes per row
 * (row-kernel-builder.ts), each row-wise root written to the rows of an
 * output array of its own (row-partitioned, so the runner may split the
 * rows over threads)
 * and column aggregates and `t(A) %*% B` accumulated per range. The kernel
 * is built when the operator runs, from the CPlan and the formats and
 * shapes of its inputs (dense and CSR main inputs get separate sources;
 * sizes are passed as scalars, so one source serves every size). An
 * operator that is SystemDS's MMChain `t(X) %*% (w * (X %*% v))` on a large
 * dense X runs the WebAssembly kernel instead (row-mmchain.ts).
 */
import type { FusionDag, FusedOperator } from "../../fusion";
import type { Value } from "../interpreter";
import { bufferPool } from "../matrix";
import { callOperandOrder, nodeLabel } from "../fused";
import { UnsupportedOperator, type GeneratedOperator } from "./generated-operator";
import type { KernelProgram } from "./kernel-program";
import { runKernel } from "./kernel-runner";
import { buildRowKernel, type RowKernelPlan } from "./row-kernel-builder";
import { rootValue } from "./row-results";
import { mmchainShape, runMmchain } from "./row-mmchain";
import { runTransposedProduct, transposedProductShape } from "./row-transposed-product";

/** Node kinds a Row kernel computes (per row or, when they do not depend on the row, once before it runs). */
const ROW_NODE_KINDS: ReadonlySet<string> = new Set(["literal", "binary", "unary", "aggregate", "matmul", "transpose", "call", "cbind", "cast", "index"]);

/** The kernels write row-wise roots into arrays of their own (row-kernel-builder.ts): the call's shared output is empty. */
const NO_OUTPUT = new Float64Array(0);

/**
 * Runs of generated Row operators so far: with a kernel (of which by the WebAssembly MMChain kernel, and by the
 * transposed-product kernels), and refused at run time (UnsupportedOperator: their nodes then run unfused).
 */
const runs = { kernels: 0, mmchain: 0, transposedProduct: 0, unsupported: 0 };

export function rowOperatorRuns(): { kernels: number; mmchain: number; transposedProduct: number; unsupported: number } {
  return { ...runs };
}

export function generateRowOperator(dag: FusionDag, op: FusedOperator): GeneratedOperator {
  checkRowOperator(dag, op);
  const programs: KernelProgram[] = [];
  const chain = mmchainShape(dag, op);
  const transposed = transposedProductShape(dag, op);
  return {
    template: "row",
    programs,
    roots: op.roots,
    covered: op.covered,
    inputs: op.inputs,
    run(valueOf: (node: number) => Value): ReadonlyMap<number, Value> {
      const inputs = new Map<number, Value>(op.inputs.map((node) => [node, valueOf(node)]));
      const chained = chain === undefined ? undefined : runMmchain(chain, inputs);
      if (chain !== undefined && chained !== undefined) {
        runs.kernels++;
        runs.mmchain++;
        return new Map([[chain.root, chained]]);
      }
      const product = transposed === undefined ? undefined : runTransposedProduct(transposed, inputs);
      if (transposed !== undefined && product !== undefined) {
        runs.kernels++;
        runs.transposedProduct++;
        return new Map([[transposed.root, product]]);
      }
      let plan: RowKernelPlan;
      try {
        plan = buildRowKernel(dag, op, inputs);
      } catch (error) {
        if (error instanceof UnsupportedOperator) runs.unsupported++;
        throw error;
      }
      runs.kernels++;
      const program = plan.text.program(plan.skipTest);
      if (!programs.some((p) => p.source === program.source)) programs.push(program);
      const accumulators = plan.text.accInit.length > 0 ? { init: Float64Array.from(plan.text.accInit), combine: plan.text.accCombine } : undefined;
      const acc = runKernel({
        program,
        arrays: plan.text.arrays,
        scalars: Float64Array.from(plan.text.scalars),
        rows: plan.rows,
        output: NO_OUTPUT,
        ...(accumulators === undefined ? {} : { accumulators }),
        workPerRow: plan.workPerRow,
        writes: plan.results.flatMap((r) => (r.kind === "rows" ? [plan.text.arrays.indexOf(r.data)] : [])),
      });
      const results = new Map(plan.results.map((r) => [r.root, rootValue(r, plan.rows, acc)]));
      // A row-wise root's output goes back to the pool unless a value is it (a transposed or sparse result is a copy).
      const kept = new Set([...results.values()].flatMap((v) => (v.kind === "matrix" && v.matrix.format === "dense" ? [v.matrix.data.buffer] : [])));
      for (const r of plan.results) if (r.kind === "rows" && !kept.has(r.data.buffer)) bufferPool.release(r.data);
      return results;
    },
  };
}

/** What can be told before the inputs are known: a Row operator with a main input, over node kinds a Row kernel computes. */
function checkRowOperator(dag: FusionDag, op: FusedOperator): void {
  const fail = (node: number | undefined, why: string): never => {
    const at = node === undefined ? "" : ` at node ${node} (${nodeLabel(dag.nodes[node])})`;
    throw new UnsupportedOperator(`no Row kernel for operator ${op.id}${at}: ${why}`);
  };
  if (op.template !== "row") fail(undefined, `a ${op.template} operator`);
  if (op.binding.mainInput === null) fail(undefined, "a Row operator needs a main input to loop over");
  if (op.roots.length === 0) fail(undefined, "no roots");
  for (const node of op.covered) {
    const n = dag.nodes[node]!;
    const o = n.op;
    if (!ROW_NODE_KINDS.has(o.kind)) fail(node, `a ${o.kind} node cannot be computed row by row`);
    if (o.kind === "aggregate" && (o.fn === "var" || o.fn === "sd")) fail(node, `a ${o.fn} aggregate is not computed in one pass`);
    if (o.kind === "call" && !(o.name === "rowIndexMax" && n.inputs.length === 1) && (o.user || callOperandOrder(n, o.name) === undefined)) {
      fail(node, `the call ${o.name} cannot be computed row by row`);
    }
    if (o.kind === "literal" && typeof o.value !== "number") fail(node, "a non-numeric literal");
  }
}
