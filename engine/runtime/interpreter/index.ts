/** Public surface of the embedded interpreter: sessions (whole scripts or `# %%` cells), values, runtime errors. */
export { createSession, Session, variableInfo, type RunResult, type SessionOptions, type VariableInfo } from "./session";
export { isolateCell, splitCells, type Cell } from "../../syntax";
export { DmlRuntimeError, formatRuntimeError, locate } from "./errors";
export { DEFAULT_MEMORY_BUDGET, sourceSlice } from "./context";
export { javaDouble, matrixText, scalarText, valueText, type Value, type ScalarValue, double, matrixValue } from "./values";
export { solve } from "./linear-solve";
export { evaluateDag, evaluateExpression, type OracleOptions } from "./oracle";
export { asWrittenRunner, type BlockRunner } from "./block-runner";
export { DagEvaluator, type OperationTimer, type OperatorRun } from "./evaluate-dag";
export type { EvalContext } from "./context";
export type { DefinedFunction, InterpreterHost, Unit } from "./interpreter";
export type { DensityGrid, VariablePreview } from "./variable-preview";
export { BUILTINS } from "./builtins";
export { Interpreter } from "./interpreter";
export { MemoryMeter } from "./memory-meter";
export { aggregateValue, binary, castValue, mat, num, unary } from "./operations";
export { metadataErrorMessage, missingDataFileMessage, missingParameterMessage } from "./messages";
export { previewVariable } from "./variable-preview";
