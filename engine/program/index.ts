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
