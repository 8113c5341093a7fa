/** Public surface of the embedded interpreter: sessions (whole scripts or `# %%` cells), values, runtime errors. */
export { createSession, isolateCell, Session, splitCells, variableInfo, type Cell, type RunResult, type SessionOptions, type VariableInfo } from "./session";
export { DmlRuntimeError, formatRuntimeError } from "./errors";
export { DEFAULT_MEMORY_BUDGET } from "./context";
export { javaDouble, matrixText, scalarText, valueText, type Value, type ScalarValue } from "./values";
export { solve } from "./linear-solve";
export { evaluateDag, evaluateExpression, type OracleOptions } from "./oracle";
