/**
 * The oracle API: evaluate an LA DAG, or a DML expression, on given input
 * values, so the optimizer can check a rewrite on real numbers. Errors are
 * thrown as DmlRuntimeError (with the range of the failing node).
 */
import type { BlockDag } from "../../program";
import type { Range } from "../../syntax";
import { DEFAULT_MEMORY_BUDGET } from "./context";
import { MemoryMeter } from "./memory-meter";
import { DmlRuntimeError } from "./errors";
import { DagEvaluator } from "./evaluate-dag";
import { createSession } from "./session";
import type { Value } from "./values";

export interface OracleOptions {
  params?: ReadonlyMap<string, string>;
  memoryBudget?: number;
  /** The text the DAG's ranges point into (for messages). */
  sourceText?: string;
}

/** Evaluates `dag` with its `input` nodes bound from `inputs`; returns the value of every output and of every sink (by sink index). */
export function evaluateDag(dag: BlockDag, inputs: ReadonlyMap<string, Value>, options: OracleOptions = {}): { outputs: Map<string, Value>; sinks: Value[] } {
  const printed: string[] = [];
  const evaluator = new DagEvaluator(dag, {
    env: new Map(inputs),
    params: options.params ?? new Map(),
    sourceText: options.sourceText ?? "",
    memoryBudget: options.memoryBudget ?? DEFAULT_MEMORY_BUDGET,
    memory: new MemoryMeter(options.memoryBudget ?? DEFAULT_MEMORY_BUDGET),
    print: (line) => printed.push(line),
    callUser: (name: string, _args: Value[], _names: (string | undefined)[], range: Range) => {
      throw new DmlRuntimeError(`the oracle cannot call user function ${name}`, range);
    },
  });
  const outputs = evaluator.run();
  return { outputs, sinks: dag.sinks.map((s) => evaluator.node(s.node)) };
}

/** Evaluates one DML expression (e.g. "t(X) %*% (X %*% v)") with the given variables. */
export function evaluateExpression(expression: string, inputs: ReadonlyMap<string, Value>, options: OracleOptions = {}): Value {
  const session = createSession({ ...(options.params ? { params: options.params } : {}), ...(options.memoryBudget ? { memoryBudget: options.memoryBudget } : {}), print: () => {} });
  for (const [name, value] of inputs) session.env.set(name, value);
  const result = session.runCell(`oracle_result_ = ${expression}`);
  if (!result.ok) throw result.error ?? new DmlRuntimeError(result.errors.join("\n"), undefined);
  return session.env.get("oracle_result_")!;
}
