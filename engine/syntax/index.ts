/** Public surface of the syntax stage: text → tokens → AST, and AST → text. */
export * from "./ast";
export { parse } from "./parser";
export { printProgram, printStatement, printExpression } from "./printer";
export { astEquals } from "./ast-equals";
