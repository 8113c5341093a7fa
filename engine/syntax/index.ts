/** Public surface of the syntax stage: text → tokens → AST, and AST → text. */
export * from "./ast";
export { parse, type ParseOptions, type ParseResultWithComments } from "./parse";
export { printProgram, printStatement, printExpression } from "./printer";
export { astEquals } from "./ast-equals";
export type { Cell } from "./cells";
export type { TextEdit } from "./ranges";
export { Level, binaryLevels, prefixOperandLevels } from "./precedence";
export { applyEdits, lineStarts, positionBefore, positionOffsets, rangeContains, rangeTexts, sameRange, shiftRange, textInRange, withoutTrailingSpaces } from "./ranges";
export { cellAt, isolateCell, splitCells } from "./cells";
export { keywordNames } from "./tokens";
/** The lexer and the token types the editor colours by (named ...Token: the AST has nodes of the same names). */
export {
  dmlLexer,
  BinaryOperator as BinaryOperatorToken,
  DoubleLiteral as DoubleLiteralToken,
  Identifier as IdentifierToken,
  IntegerLiteral as IntegerLiteralToken,
  Keyword as KeywordToken,
  NamedParameter as NamedParameterToken,
  PositionalParameter as PositionalParameterToken,
  StringLiteral as StringLiteralToken,
  ValueTypeKeyword as ValueTypeKeywordToken,
} from "./tokens";
