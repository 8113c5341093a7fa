/** Fully parenthesized prefix form of expressions, to assert tree shape in tests. */
import type { Expression, IndexRange, Statement } from "../../engine/syntax/ast";
import { parse } from "../../engine/syntax/parse";

export function sexpr(e: Expression): string {
  switch (e.kind) {
    case "number":
      return e.text;
    case "string":
      return JSON.stringify(e.value);
    case "boolean":
      return e.value ? "TRUE" : "FALSE";
    case "identifier":
      return e.name;
    case "parameter":
      return "$" + e.name;
    case "binary":
      return `(${e.op} ${sexpr(e.left)} ${sexpr(e.right)})`;
    case "unary":
      return `(${e.op} ${sexpr(e.operand)})`;
    case "call":
      return `(call ${e.callee.name}${e.args.map((a) => " " + (a.name ? a.name + "=" : "") + sexpr(a.value)).join("")})`;
    case "index":
      return `(index ${e.target.name} ${range(e.rows)}${e.hasComma ? " , " + range(e.cols) : ""})`;
    case "list":
      return `[${e.items.map(sexpr).join(" ")}]`;
    case "ifdef":
      return `(ifdef ${sexpr(e.parameter)} ${sexpr(e.defaultValue)})`;
    case "error":
      return "<error>";
  }
}

function range(r: IndexRange | undefined): string {
  if (!r) return "_";
  return r.upper ? `${sexpr(r.lower)}:${sexpr(r.upper)}` : sexpr(r.lower);
}

/** The right side of the single assignment `x = <text>`, in prefix form. */
export function rhs(text: string): string {
  const { program, diagnostics } = parse(`x = ${text}\n`);
  const errors = diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0) throw new Error(`unexpected errors for ${text}: ${errors.map((d) => d.message).join("; ")}`);
  const statement = program.body[0] as Statement;
  if (program.body.length !== 1 || statement.kind !== "assign") throw new Error(`not one assignment: ${text}`);
  return sexpr(statement.value);
}
