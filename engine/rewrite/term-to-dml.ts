/**
 * An extracted LA term back to DML: an expression AST printed by the
 * syntax stage's printer (which parenthesizes by precedence). Opaque leaves
 * print as DML text given by the caller.
 */
import type { Term } from "../egraph";
import { type Argument, type Expression, type Range, parse, printExpression } from "../syntax";
import { aggregateBuiltinName, type AggregateDirection, type AggregateFunction } from "../program";
import { fillDims, literalValue, outerOperator } from "./la-ops";

const NOWHERE: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

const BINARY: Record<string, Expression["kind"] extends never ? never : string> = {
  mm: "%*%", "+": "+", "-": "-", "*": "*", "/": "/", "^": "^",
  "<": "<", "<=": "<=", ">": ">", ">=": ">=", "==": "==", "!=": "!=", "&": "&", "|": "|",
};

/** DML text of a leaf (`var:X`, `dag:7`), or undefined if it cannot be printed. */
export type LeafText = (op: string) => string | undefined;

export class UnprintableTermError extends Error {}

export function termToDml(term: Term, leafText: LeafText): string {
  return printExpression(termToExpression(term, leafText));
}

export function termToExpression(term: Term, leafText: LeafText): Expression {
  const kids = () => term.children.map((c) => termToExpression(c, leafText));
  const literal = literalValue(term.op);
  if (literal !== undefined) return numberExpression(literal);
  if (term.op.startsWith("var:")) return { kind: "identifier", name: term.op.slice(4), range: NOWHERE };
  if (term.children.length === 0) {
    const text = leafText(term.op);
    if (text === undefined) throw new UnprintableTermError(`cannot print leaf ${term.op}`);
    return parseExpression(text);
  }
  const fill = fillDims(term.op);
  if (fill) return call("matrix", kids(), [undefined], [["rows", numberExpression(fill.rows)], ["cols", numberExpression(fill.cols)]]);
  if (term.op === "reshape" && term.children.length === 3) {
    const [data, rows, cols] = kids() as [Expression, Expression, Expression];
    return call("matrix", [data], [undefined], [["rows", rows], ["cols", cols]]);
  }
  if (term.op === "roll" && term.children.length === 2) return call("roll", kids());
  const outer = outerOperator(term.op);
  if (outer !== undefined && term.children.length === 2) return call("outer", [...kids(), { kind: "string", value: outer, range: NOWHERE }]);
  const binary = BINARY[term.op];
  if (binary !== undefined && term.children.length === 2) {
    const subtracted = term.op === "+" ? negatedTerm(term.children[1]!) : undefined;
    if (subtracted) {
      // a + (-c) * b prints as a - c * b.
      return { kind: "binary", op: "-", left: termToExpression(term.children[0]!, leafText), right: termToExpression(subtracted, leafText), range: NOWHERE };
    }
    const [left, right] = kids() as [Expression, Expression];
    return { kind: "binary", op: binary as never, left, right, range: NOWHERE };
  }
  if (term.children.length === 2 && (term.op === "min" || term.op === "max")) return call(term.op, kids());
  if (term.op === "neg") return { kind: "unary", op: "-", operand: kids()[0]!, range: NOWHERE };
  if (term.op === "not") return { kind: "unary", op: "!", operand: kids()[0]!, range: NOWHERE };
  if (term.op.startsWith("agg:")) {
    const [, fn, direction] = term.op.split(":") as [string, string, string];
    const name = aggregateBuiltinName(fn as AggregateFunction, direction as AggregateDirection);
    if (!name) throw new UnprintableTermError(`cannot print aggregate ${term.op}`);
    return call(name, kids());
  }
  if (term.children.length === 1 && /^[A-Za-z][A-Za-z.]*$/.test(term.op)) return call(term.op, kids());
  throw new UnprintableTermError(`cannot print ${term.op}`);
}

/** `b` when `term` is (* lit:-c b) or (* b lit:-c) with c > 0, as (* lit:c b); `x` for (neg x). */
function negatedTerm(term: Term): Term | undefined {
  if (term.op === "neg") return term.children[0];
  if (term.op !== "*" || term.children.length !== 2) return undefined;
  const [a, b] = term.children as [Term, Term];
  const ca = literalValue(a.op);
  if (ca !== undefined && ca < 0) return ca === -1 ? b : { op: "*", children: [{ op: `lit:${-ca}`, children: [] }, b] };
  const cb = literalValue(b.op);
  if (cb !== undefined && cb < 0) return cb === -1 ? a : { op: "*", children: [a, { op: `lit:${-cb}`, children: [] }] };
  return undefined;
}

function numberExpression(value: number): Expression {
  const positive: Expression = { kind: "number", text: numberText(Math.abs(value)), value: Math.abs(value), isInteger: false, range: NOWHERE };
  return value < 0 || Object.is(value, -0) ? { kind: "unary", op: "-", operand: positive, range: NOWHERE } : positive;
}

function numberText(value: number): string {
  return Number.isInteger(value) && Math.abs(value) < 1e15 ? String(value) : String(value);
}

function call(name: string, args: Expression[], _names: (string | undefined)[] = [], named: [string, Expression][] = []): Expression {
  const list: Argument[] = args.map((value) => ({ value, range: NOWHERE }));
  for (const [argName, value] of named) list.push({ name: argName, value, range: NOWHERE });
  return { kind: "call", callee: { kind: "identifier", name, range: NOWHERE }, args: list, range: NOWHERE };
}

/** Parses one DML expression (the text of an opaque node or a filled template). */
export function parseExpression(text: string): Expression {
  const parsed = parse(`tmp_expression_ = ${text}`);
  const statement = parsed.program.body[0];
  if (parsed.diagnostics.some((d) => d.severity === "error") || statement?.kind !== "assign") {
    throw new UnprintableTermError(`not a DML expression: ${text}`);
  }
  return statement.value;
}
