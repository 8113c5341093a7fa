/** Public surface of the embedded interpreter: sessions (whole scripts or `# %%` cells), values, runtime errors. */
export { createSession, Session, variableInfo, type RunResult, type SessionOptions, type VariableInfo } from "./session";
export { isolateCell, splitCells, type Cell } from "../../syntax/cells";
export { DmlRuntimeError, formatRuntimeError } from "./errors";
export { DEFAULT_MEMORY_BUDGET } from "./context";
export { javaDouble, matrixText, scalarText, valueText, type Value, type ScalarValue } from "./values";
export { solve } from "./linear-solve";
export { evaluateDag, evaluateExpression, type OracleOptions } from "./oracle";
export { asWrittenRunner, type BlockRunner } from "./block-runner";
export { DagEvaluator, type OperationTimer, type OperatorRun } from "./evaluate-dag";
export type { EvalContext } from "./context";
