/**
 * AST → DML text, in conventional SystemDS formatting: 2-space indentation,
 * braces around every body (an `else if` chain stays `} else if (...) {`),
 * spaces around binary operators except `^`, named arguments and loop options
 * as `name=value`.
 *
 * The AST has no parenthesis nodes, so the printer writes exactly the
 * parentheses that SystemDS's precedence needs (highest first): `^` (right),
 * unary `-`/`+` (operand at the `^` level), `%*%`, `%/%` `%%`, `*` `/`,
 * `+` `-`, comparisons, `!` (operand at the comparison level), `&` `&&`,
 * `|` `||`.
 *
 * A prefix operator may start any operand (`a * -b`, `a == !b`), but as in
 * the ANTLR grammar it parses its operand at its own level, so one standing
 * at the right end of a left operand swallows the operators that follow:
 * `a == !b == c` is `a == !(b == c)` and `-a^b` is `-(a^b)`. Each printed
 * expression therefore reports the lowest operand level of the prefix
 * operators exposed at its right end, and a left operand is parenthesized
 * when the operator after it would be swallowed.
 *
 * Error expressions (placeholders of syntax errors) print as the comment
 * `/*error*\/`: the hole stays visible and re-parses as an error again.
 * Comments of the source are not in the AST and are not printed.
 */
import type * as A from "./ast";
import { encodeString } from "./literals";
import { binaryLevels, Level, prefixOperandLevels } from "./precedence";

const indentUnit = "  ";

/** No prefix operator is exposed: nothing that follows can be swallowed. */
const closed = Infinity;

interface Printed {
  text: string;
  /** The loosest operator at the top of the printed text. */
  level: Level;
  /**
   * The lowest operand level of the prefix operators at the right end of the
   * text that no parenthesis closes: a following binary operator of that
   * level or tighter would become part of their operand.
   */
  exposed: number;
}

function parenthesized(p: Printed): Printed {
  return { text: `(${p.text})`, level: Level.Primary, exposed: closed };
}

function primary(text: string): Printed {
  return { text, level: Level.Primary, exposed: closed };
}

export function printExpression(e: A.Expression): string {
  return print(e).text;
}

function print(e: A.Expression): Printed {
  switch (e.kind) {
    case "number":
      return primary(numberText(e));
    case "string":
      return primary(encodeString(e.value));
    case "boolean":
      return primary(e.value ? "TRUE" : "FALSE");
    case "identifier":
      return primary(e.name);
    case "parameter":
      return primary("$" + e.name);
    case "index":
      return primary(indexText(e));
    case "call":
      return primary(callText(e));
    case "list":
      return primary(`[${e.items.map(printExpression).join(", ")}]`);
    case "ifdef":
      return primary(`ifdef(${printExpression(e.parameter)}, ${printExpression(e.defaultValue)})`);
    case "error":
      return primary("/*error*/");
    case "unary":
      return printUnary(e);
    case "binary":
      return printBinary(e);
  }
}

function printUnary(e: A.UnaryExpression): Printed {
  const operandLevel = prefixOperandLevels[e.op];
  let operand = print(e.operand);
  if (operand.level < operandLevel) operand = parenthesized(operand);
  // `- -a`, never `--a`; likewise `+ +a`.
  const space = operand.text.startsWith(e.op) && e.op !== "!" ? " " : "";
  return { text: e.op + space + operand.text, level: Level.Prefix, exposed: Math.min(operandLevel, operand.exposed) };
}

function printBinary(e: A.BinaryExpression): Printed {
  const level = binaryLevels[e.op];
  const rightAssociative = e.op === "^";
  let left = print(e.left);
  let right = print(e.right);
  // The left operand must bind at least as tightly (strictly for `^`), and no
  // prefix operator at its right end may take the operator as its own.
  const leftMin = rightAssociative ? level + 1 : level;
  if (left.level < leftMin || left.exposed <= level) left = parenthesized(left);
  const rightMin = rightAssociative ? level : level + 1;
  if (right.level < rightMin) right = parenthesized(right);
  const text = rightAssociative ? `${left.text}^${right.text}` : `${left.text} ${e.op} ${right.text}`;
  return { text, level, exposed: right.exposed };
}

function numberText(e: A.NumberLiteral): string {
  if (e.text) return e.text;
  // A node built without its source spelling.
  if (e.isInteger && Number.isFinite(e.value)) return BigInt(Math.trunc(e.value)).toString();
  const text = String(e.value);
  return /[.eE]/.test(text) ? text : text + ".0";
}

function indexText(e: A.IndexExpression): string {
  const rows = e.rows ? indexRangeText(e.rows) : "";
  if (!e.hasComma) return `${e.target.name}[${rows}]`;
  if (!e.rows && !e.cols) return `${e.target.name}[,]`;
  const cols = e.cols ? " " + indexRangeText(e.cols) : " ";
  return `${e.target.name}[${rows},${cols}]`;
}

function indexRangeText(r: A.IndexRange): string {
  return r.upper ? `${printExpression(r.lower)}:${printExpression(r.upper)}` : printExpression(r.lower);
}

function callText(e: A.CallExpression): string {
  return `${e.callee.name}(${e.args.map(argumentText).join(", ")})`;
}

function argumentText(a: A.Argument): string {
  return (a.name !== undefined ? a.name + "=" : "") + printExpression(a.value);
}

// ----------------------------------------------------------------- statements

export function printProgram(program: A.Program): string {
  let out = "";
  let previous: A.Statement | undefined;
  for (const statement of program.body) {
    if (previous) {
      // A blank line around function definitions.
      out += isDefinition(statement) || isDefinition(previous) ? "\n\n" : "\n";
    }
    out += printStatement(statement);
    previous = statement;
  }
  return out === "" ? "" : out + "\n";
}

function isDefinition(s: A.Statement): boolean {
  return s.kind === "function" || s.kind === "externalFunction";
}

export function printStatement(s: A.Statement, indent = ""): string {
  switch (s.kind) {
    case "assign":
      return `${indent}${printExpression(s.target)} ${s.op} ${printExpression(s.value)}`;
    case "multiAssign":
      return `${indent}[${s.targets.map(printExpression).join(", ")}] ${s.op} ${callText(s.call)}`;
    case "callStatement":
      return indent + callText(s.call);
    case "if":
      return indent + ifText(s, indent);
    case "for": {
      const keyword = s.parallel ? "parfor" : "for";
      const options = s.options.map((o) => `, ${o.name}=${printExpression(o.value)}`).join("");
      return `${indent}${keyword} (${s.variable.name} in ${iterableText(s.iterable)}${options}) ${block(s.body, indent)}`;
    }
    case "while":
      return `${indent}while (${printExpression(s.condition)}) ${block(s.body, indent)}`;
    case "function":
      return `${indent}${s.name.name} = function(${parametersText(s.params)})${returnsText(s.returns)} ${block(s.body, indent)}`;
    case "externalFunction": {
      const implementation = s.implementation.map((k) => `${k.name}=${encodeString(k.value)}`).join(", ");
      return `${indent}${s.name.name} = externalFunction(${parametersText(s.params)})${returnsText(s.returns)} implemented in (${implementation})`;
    }
    case "source":
      return `${indent}source(${encodeString(s.path)})${s.namespace ? ` as ${s.namespace.name}` : ""}`;
    case "setwd":
      return `${indent}setwd(${encodeString(s.path)})`;
  }
}

/** `if (...) {...}` without the leading indentation; an else body that is one `if` continues the chain. */
function ifText(s: A.IfStatement, indent: string): string {
  let text = `if (${printExpression(s.condition)}) ${block(s.thenBody, indent)}`;
  if (s.elseBody) {
    const only = s.elseBody.length === 1 ? s.elseBody[0] : undefined;
    text += only?.kind === "if" ? ` else ${ifText(only, indent)}` : ` else ${block(s.elseBody, indent)}`;
  }
  return text;
}

function block(body: A.Statement[], indent: string): string {
  if (body.length === 0) return "{}";
  const inner = indent + indentUnit;
  return `{\n${body.map((s) => printStatement(s, inner) + "\n").join("")}${indent}}`;
}

function iterableText(p: A.IterablePredicate): string {
  if (p.kind === "range") return `${printExpression(p.from)}:${printExpression(p.to)}`;
  const by = p.by ? `, ${printExpression(p.by)}` : "";
  return `${p.callee.name}(${printExpression(p.from)}, ${printExpression(p.to)}${by})`;
}

function parametersText(params: A.Parameter[]): string {
  return params.map(parameterText).join(", ");
}

function parameterText(p: A.Parameter): string {
  const type = p.type.dataType !== undefined ? `${p.type.dataType}[${p.type.valueType}]` : p.type.valueType;
  const value = p.defaultValue ? ` = ${printExpression(p.defaultValue)}` : "";
  return `${type} ${p.name.name}${value}`;
}

function returnsText(returns: A.Parameter[]): string {
  return returns.length > 0 ? ` return (${parametersText(returns)})` : "";
}
