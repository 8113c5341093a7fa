/** Public surface of the program stage: AST → statement blocks with their variable sets. */
export type {
  BasicBlock,
  BlockCut,
  ForBlock,
  FunctionBlock,
  IfBlock,
  ProgramBlocks,
  SimpleStatement,
  StatementBlock,
  VariableSets,
  WhileBlock,
} from "./statement-block";
export { formStatementBlocks, type FormBlocksOptions } from "./blocks";
export { printBlocks, type PrintBlocksOptions } from "./print-blocks";
export { blockCut } from "./control-statements";
export { expressionReads, statementReads, statementWrites, type VariableOptions } from "./variables";
export { collectUserFunctions, isUserFunctionCall, type UserFunctions } from "./user-functions";
export { BUILTIN_CONSTANTS, unboundBuiltinConstants } from "./builtin-constants";
export type {
  AggregateDirection,
  AggregateFunction,
  BlockDag,
  DagNode,
  DagOp,
  DagOpKind,
  DagSink,
  DagType,
  DataType,
  ElementwiseBinaryOp,
  ElementwiseUnaryOp,
  ValueType,
} from "./dag-types";
export { buildBlockDag, buildPredicateDag, buildStatementsDag } from "./dag-build";
export { createDagContext, typeFromSpec, type DagContext, type DagContextOptions, type FunctionSignature } from "./dag-context";
export { buildProgramDags, type BlockDagInfo, type ProgramDagOptions, type ProgramDags } from "./dag-program";
export { blockLiveness, type BlockLiveness } from "./dag-liveness";
export { printDag, printType } from "./dag-print";
export { nodesReachableFrom } from "./dag-reachable";
export { ALL_BUILTINS, BUILTINS, builtinNames, lookupBuiltin } from "./builtins";
export type { ArgumentMixing, BuiltinKind, BuiltinParam, BuiltinResultType, BuiltinSignature, UnknownNamePolicy } from "./builtins";
export { checkDiagnostics, semanticDiagnostics, type SemanticOptions } from "./semantic-diagnostics";
export { fileSourceReader } from "./source-reader";
export type { SourceReader } from "./function-scope";
