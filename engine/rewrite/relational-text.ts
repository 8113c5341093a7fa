/**
 * Terms with relational (SPORES) parts in a readable index notation, for
 * the full derivation of `dml prove --relational`: a bound matrix is
 * `X[i1,i2]` (`v[i1,]` for a column vector, a scalar is itself), `r+` and
 * `r*` are + and * of the cells, `rsum` is `Σ_i1(...)`, and an unbind is
 * `unbind[i1,i2](...)` (the matrix of those cells). Index names are given
 * in order of appearance and kept for the whole derivation.
 */
import { printTerm, type Term } from "../egraph";
import { dmlText } from "./dml-text";
import { BIND, NO_ATTRIBUTE, opFamily, RA_ADD, RA_MUL, RA_SUM, UNBIND_MATRIX, UNBIND_SCALAR } from "./la-ops";
import type { LeafText } from "./term-to-dml";

export class RelationalText {
  private readonly indexNames = new Map<string, string>();

  constructor(private readonly leafText: LeafText) {}

  print(term: Term): string {
    if (isPureLinearAlgebra(term)) return dmlText(term, this.leafText) ?? printTerm(term);
    const family = opFamily(term.op);
    if (family === "attribute") return this.index(term.op);
    if (family === "la") {
      // An LA operator over relational parts: those parts print as opaque leaves of the DML printer.
      const children = term.children.map((c) => (isPureLinearAlgebra(c) ? c : { op: `var:${this.atom(c)}`, children: [] }));
      return dmlText({ op: term.op, children }, this.leafText) ?? printTerm(term);
    }
    const [first, second, third] = term.children;
    switch (term.op) {
      case BIND: {
        const [i, j, x] = [first!, second!, third!];
        if (i.op === NO_ATTRIBUTE && j.op === NO_ATTRIBUTE) return this.print(x);
        const rows = i.op === NO_ATTRIBUTE ? "" : this.index(i.op);
        const cols = j.op === NO_ATTRIBUTE ? "" : this.index(j.op);
        return `${this.atom(x)}[${rows},${cols}]`;
      }
      case RA_ADD:
        return `${this.print(first!)} + ${this.print(second!)}`;
      case RA_MUL:
        return `${this.factor(first!)} * ${this.factor(second!)}`;
      case RA_SUM:
        return `Σ_${this.index(first!.op)}(${this.print(second!)})`;
      case UNBIND_MATRIX:
        return `unbind[${[first!, second!].map((a) => (a.op === NO_ATTRIBUTE ? "" : this.index(a.op))).join(",")}](${this.print(third!)})`;
      case UNBIND_SCALAR:
        return `unbind(${this.print(third!)})`;
      default:
        return printTerm(term);
    }
  }

  /** An operand of *: in parentheses unless it is an atom or another product. */
  private factor(term: Term): string {
    const text = this.print(term);
    const indexed = term.op === BIND && term.children.some((c, k) => k < 2 && c.op !== NO_ATTRIBUTE);
    return isAtom(text) || indexed || term.op === RA_MUL ? text : `(${text})`;
  }

  /** A term as an operand that binds tighter than anything: in parentheses unless it is a name, a number or a call. */
  private atom(term: Term): string {
    const text = this.print(term);
    return isAtom(text) ? text : `(${text})`;
  }

  private index(op: string): string {
    let name = this.indexNames.get(op);
    if (name === undefined) {
      name = `i${this.indexNames.size + 1}`;
      this.indexNames.set(op, name);
    }
    return name;
  }
}

function isPureLinearAlgebra(term: Term): boolean {
  return opFamily(term.op) === "la" && term.children.every(isPureLinearAlgebra);
}

/** A name or a number, optionally followed by bracketed groups and nothing else: `X`, `f(...)`, `t(B)[i1,i2]`, `Σ_i1(...)`, `unbind[i1,i2](...)`. */
function isAtom(text: string): boolean {
  const name = /^-?[\wΣ.]+/.exec(text);
  if (!name) return false;
  let k = name[0].length;
  while (k < text.length) {
    const open = text[k];
    if (open !== "(" && open !== "[") return false;
    let depth = 0;
    for (; k < text.length; k++) {
      const c = text[k];
      if (c === "(" || c === "[") depth++;
      else if (c === ")" || c === "]") depth--;
      if (depth === 0) break;
    }
    if (depth !== 0) return false;
    k++;
  }
  return true;
}
