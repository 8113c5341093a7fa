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
export { printDag, printType, dagOpLabel } from "./dag-print";
export { dagNode } from "./dag-node";
export { nodesNeeded, nodesReachableFrom } from "./dag-reachable";
export { ALL_BUILTINS, BUILTINS, builtinNames, lookupBuiltin } from "./builtins";
export type { ArgumentMixing, BuiltinKind, BuiltinParam, BuiltinResultType, BuiltinSignature, UnknownNamePolicy } from "./builtins";
export { checkDiagnostics, semanticDiagnostics, type SemanticOptions } from "./semantic-diagnostics";
export { fileSourceReader, SourceFiles, sourceProblemMessage, diskSourceAccess, fileSystemSourceAccess, sourceReaderOver, readSourceText, resolveSourcePath } from "./source-reader";
export type { SourceReader } from "./function-scope";
export type { ArgumentDataType, SystemdsInstallation } from "./systemds-installation";
export type { DimensionForm, IndexAccess, ParforAnalysis, ResultVariable } from "./parfor-dependencies";
export type { FoundInstallation } from "./find-installation";
export type { LoadedSource, SourceFileAccess } from "./source-reader";
export type { NameOccurrence } from "./variable-occurrences";
export { ALL_INDICES } from "./dag-expressions";
export { APPEND_NAMES } from "./dag-call-types";
export { BlockDagCache } from "./block-dag-cache";
export { CALL_PARAMETERS, boundArguments, callParameterInput } from "./builtin-call-parameters";
export { LayeredEnv } from "./layered-env";
export { aggregateBuiltinName } from "./dag-calls";
export { analyzeParfor, dependencyCheckOff } from "./parfor-dependencies";
export { binaryType, unaryType } from "./dag-typing";
export { calledNames } from "./called-names";
export { childExpressions, statementExpressions, walkExpression } from "./expression-walk";
export { describeInstallation } from "./systemds-installation";
export { didYouMean } from "./edit-distance";
export { evaluatePoly, linearIn, polyOf } from "./affine-index";
export { expressionReadOccurrences, statementReadOccurrences, statementWriteOccurrences } from "./variable-occurrences";
export { findInstallation, noInstallationText } from "./find-installation";
export { forEachStatement } from "./statement-walk";
export { loopIterations, type KnownConstants, type LoopIterations } from "./loop-iterations";
export { needsInstallationMessage, notInInstallationMessage } from "./installation-messages";
export { pipSystemdsJar, usualSitePackages } from "./pip-installation";
export { pythonMayKnowMore, pythonSitePackages } from "./python-site-packages";
export { resolveBuiltinScript } from "./builtin-script";
