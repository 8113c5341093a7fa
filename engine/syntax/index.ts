/** Public surface of the syntax stage: text → tokens → AST, and AST → text. */
export * from "./ast";
export { parse, type ParseOptions, type ParseResultWithComments } from "./parse";
export { printProgram, printStatement, printExpression } from "./printer";
export { astEquals } from "./ast-equals";
