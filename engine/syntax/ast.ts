/**
 * The DML abstract syntax tree. Every node carries the source range it was
 * parsed from (0-based lines and characters, end exclusive, as in LSP).
 *
 * The tree keeps what the program means, not how it was spelled: no
 * parenthesis nodes (the printer re-creates the ones precedence needs),
 * string values decoded, braces of single-statement bodies dropped.
 * Fields named `range` and `text` are source locations/slices; structural
 * equality (`astEquals`) ignores them.
 */

export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

// ---------------------------------------------------------------- expressions

export type BinaryOperator =
  | "^"
  | "%*%"
  | "%/%"
  | "%%"
  | "*"
  | "/"
  | "+"
  | "-"
  | ">"
  | ">="
  | "<"
  | "<="
  | "=="
  | "!="
  | "&"
  | "&&"
  | "|"
  | "||";

export type UnaryOperator = "-" | "+" | "!";

export interface NumberLiteral {
  kind: "number";
  /** Source spelling, e.g. `1e3`, `5.`, `7L`. */
  text: string;
  value: number;
  /** INT token (`1`, `7L`); `1e3` and `5.` are doubles. */
  isInteger: boolean;
  range: Range;
}

export interface StringLiteral {
  kind: "string";
  /** Decoded value (escapes resolved). */
  value: string;
  range: Range;
}

export interface BooleanLiteral {
  kind: "boolean";
  value: boolean;
  range: Range;
}

/** A variable or function name; may carry a namespace (`ns::f`). */
export interface Identifier {
  kind: "identifier";
  name: string;
  range: Range;
}

/** `$name` or `$1`; `name` is written without the `$`. */
export interface CommandLineParameter {
  kind: "parameter";
  name: string;
  positional: boolean;
  range: Range;
}

/** One dimension of an index: `i` or `a:b`. */
export interface IndexRange {
  lower: Expression;
  upper?: Expression;
}

/**
 * `X[rows, cols]`. An omitted part is `undefined`: `X[, j]` has no rows,
 * `X[i]` has no cols and `hasComma` false, `X[]` has neither.
 */
export interface IndexExpression {
  kind: "index";
  target: Identifier;
  rows?: IndexRange;
  cols?: IndexRange;
  hasComma: boolean;
  range: Range;
}

export interface Argument {
  /** Set for named arguments `name = value` (dotted names allowed). */
  name?: string;
  value: Expression;
  range: Range;
}

/** `f(args)` or `ns::f(args)`. Only names can be called. */
export interface CallExpression {
  kind: "call";
  callee: Identifier;
  args: Argument[];
  range: Range;
}

export interface BinaryExpression {
  kind: "binary";
  op: BinaryOperator;
  left: Expression;
  right: Expression;
  range: Range;
}

export interface UnaryExpression {
  kind: "unary";
  op: UnaryOperator;
  operand: Expression;
  range: Range;
}

/** `[e1, e2, ...]`, e.g. `stride=[1,1]`. */
export interface ExpressionList {
  kind: "list";
  items: Expression[];
  range: Range;
}

/** `ifdef($p, default)`; only ever the whole right side of an assignment. */
export interface IfdefExpression {
  kind: "ifdef";
  parameter: DataIdentifier;
  defaultValue: Expression;
  range: Range;
}

/** A syntax error placeholder, so that a broken expression keeps its place. */
export interface ErrorExpression {
  kind: "error";
  range: Range;
}

export type Expression =
  | NumberLiteral
  | StringLiteral
  | BooleanLiteral
  | Identifier
  | CommandLineParameter
  | IndexExpression
  | CallExpression
  | BinaryExpression
  | UnaryExpression
  | ExpressionList
  | IfdefExpression
  | ErrorExpression;

/** What may stand on the left of `=`: a name, an indexed name, or (an error) a `$param`. */
export type DataIdentifier = Identifier | IndexExpression | CommandLineParameter;

// ----------------------------------------------------------------- statements

export type AssignmentOperator = "=" | "<-" | "+=";

/** `target = value`, `target <- value`, `target += value`, `target = ifdef(...)`. */
export interface AssignmentStatement {
  kind: "assign";
  target: DataIdentifier;
  op: AssignmentOperator;
  value: Expression;
  range: Range;
}

/** `[a, b] = f(args)`. */
export interface MultiAssignmentStatement {
  kind: "multiAssign";
  targets: DataIdentifier[];
  op: "=" | "<-";
  call: CallExpression;
  range: Range;
}

/** `print(x)`, `write(X, f)`, `foo(a)` without a target. */
export interface CallStatement {
  kind: "callStatement";
  call: CallExpression;
  range: Range;
}

export interface IfStatement {
  kind: "if";
  condition: Expression;
  thenBody: Statement[];
  /** `undefined` when there is no `else`; `else if` is an else body of one `if`. */
  elseBody?: Statement[];
  range: Range;
}

/** `from:to` or `seq(from, to[, by])`. */
export type IterablePredicate =
  | { kind: "range"; from: Expression; to: Expression; range: Range }
  | {
      kind: "seq";
      /** The called name; SystemDS requires it to be `seq`. */
      callee: Identifier;
      from: Expression;
      to: Expression;
      by?: Expression;
      range: Range;
    };

/** `name = value` after the iterable of a `for`/`parfor`. */
export interface LoopOption {
  name: string;
  value: Expression;
  /** The value as written; parfor takes its options as raw text. */
  text: string;
  range: Range;
}

export interface ForStatement {
  kind: "for";
  parallel: boolean;
  variable: Identifier;
  iterable: IterablePredicate;
  options: LoopOption[];
  body: Statement[];
  range: Range;
}

export interface WhileStatement {
  kind: "while";
  condition: Expression;
  body: Statement[];
  range: Range;
}

/** `int`, `Double`, `matrix[double]`, `Frame[Unknown]`, spelled as written. */
export interface TypeSpec {
  dataType?: string;
  valueType: string;
  range: Range;
}

export interface Parameter {
  type: TypeSpec;
  name: Identifier;
  defaultValue?: Expression;
  range: Range;
}

export interface FunctionDefinition {
  kind: "function";
  name: Identifier;
  params: Parameter[];
  returns: Parameter[];
  body: Statement[];
  range: Range;
}

/** `f = externalFunction(...) return (...) implemented in (k="v", ...)`: parsed, unsupported. */
export interface ExternalFunctionDefinition {
  kind: "externalFunction";
  name: Identifier;
  params: Parameter[];
  returns: Parameter[];
  implementation: { name: string; value: string; range: Range }[];
  range: Range;
}

/** `source("f.dml") as ns`; without `as ns` (older scripts) the functions join the default namespace. */
export interface SourceStatement {
  kind: "source";
  path: string;
  namespace?: Identifier;
  range: Range;
}

export interface SetwdStatement {
  kind: "setwd";
  path: string;
  range: Range;
}

export type Statement =
  | AssignmentStatement
  | MultiAssignmentStatement
  | CallStatement
  | IfStatement
  | ForStatement
  | WhileStatement
  | FunctionDefinition
  | ExternalFunctionDefinition
  | SourceStatement
  | SetwdStatement;

/** A whole file: statements and function definitions in source order. */
export interface Program {
  kind: "program";
  body: Statement[];
  range: Range;
}

// ---------------------------------------------------------------- diagnostics

export type Severity = "error" | "warning" | "information" | "hint";

export interface Diagnostic {
  severity: Severity;
  message: string;
  range: Range;
  /** A stable machine-readable id, e.g. `syntax`, `chained-assignment`. */
  code?: string;
}

export interface ParseResult {
  program: Program;
  diagnostics: Diagnostic[];
}
