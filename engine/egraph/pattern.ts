/**
 * Patterns as s-expressions, `(* ?a (+ ?b ?c))`, and e-matching (after egg's
 * pattern.rs / machine.rs): a pattern is compiled once (variables numbered),
 * searched in the classes that hold a node with the root operator, and a
 * variable used twice must bind the same class.
 */
import { internOp } from "./intern";
import type { ClassId, ENode, Term } from "./types";

export type PatternNode = { kind: "var"; index: number } | { kind: "node"; op: string; children: PatternNode[] };

export interface Pattern {
  readonly text: string;
  readonly root: PatternNode;
  /** Variable names by index (without the `?`). */
  readonly vars: readonly string[];
}

/** A match's bindings: class per variable. */
export class Subst {
  constructor(
    private readonly names: readonly string[],
    readonly classes: readonly ClassId[],
  ) {}

  get(name: string): ClassId {
    const index = this.names.indexOf(name.startsWith("?") ? name.slice(1) : name);
    if (index < 0) throw new Error(`pattern variable ?${name} is not bound`);
    return this.classes[index]!;
  }
}

/**
 * The matches of one pattern, flat: match m is rooted at `roots[m]` and binds
 * the pattern's variables to `bindings[m * width ... m * width + width - 1]`.
 */
export class MatchList {
  readonly roots: ClassId[] = [];
  readonly bindings: ClassId[] = [];

  constructor(readonly pattern: Pattern) {}

  get size(): number {
    return this.roots.length;
  }

  get width(): number {
    return this.pattern.vars.length;
  }

  push(root: ClassId, bindings: readonly ClassId[]): void {
    this.roots.push(root);
    for (let k = 0; k < bindings.length; k++) this.bindings.push(bindings[k]!);
  }

  subst(m: number): Subst {
    return new Subst(this.pattern.vars, this.bindings.slice(m * this.width, (m + 1) * this.width));
  }
}

type SExpr = string | SExpr[];

function tokenize(text: string): string[] {
  return text.replace(/\(/g, " ( ").replace(/\)/g, " ) ").trim().split(/\s+/).filter((t) => t.length > 0);
}

function readSExpr(text: string): SExpr {
  const tokens = tokenize(text);
  let at = 0;
  const read = (): SExpr => {
    const token = tokens[at++];
    if (token === undefined) throw new Error(`unexpected end of pattern: ${text}`);
    if (token === ")") throw new Error(`unexpected ')' in pattern: ${text}`);
    if (token !== "(") return token;
    const list: SExpr[] = [];
    while (tokens[at] !== ")") {
      if (at >= tokens.length) throw new Error(`missing ')' in pattern: ${text}`);
      list.push(read());
    }
    at++;
    if (list.length === 0 || typeof list[0] !== "string") throw new Error(`a list must start with an operator: ${text}`);
    return list;
  };
  const result = read();
  if (at !== tokens.length) throw new Error(`trailing input in pattern: ${text}`);
  return result;
}

export function parsePattern(text: string): Pattern {
  const vars: string[] = [];
  const convert = (e: SExpr): PatternNode => {
    if (typeof e === "string") {
      if (e.startsWith("?")) {
        const name = e.slice(1);
        let index = vars.indexOf(name);
        if (index < 0) index = vars.push(name) - 1;
        return { kind: "var", index };
      }
      return { kind: "node", op: internOp(e), children: [] };
    }
    return { kind: "node", op: internOp(e[0] as string), children: e.slice(1).map(convert) };
  };
  return { text, root: convert(readSExpr(text)), vars };
}

export function parseTerm(text: string): Term {
  const convert = (e: SExpr): Term => {
    if (typeof e === "string") {
      if (e.startsWith("?")) throw new Error(`a term has no variables: ${text}`);
      return { op: e, children: [] };
    }
    return { op: e[0] as string, children: e.slice(1).map(convert) };
  };
  return convert(readSExpr(text));
}

export function printTerm(term: Term): string {
  return term.children.length === 0 ? term.op : `(${term.op} ${term.children.map(printTerm).join(" ")})`;
}

/** What matching needs of an e-graph. */
export interface MatchableGraph {
  find(id: ClassId): ClassId;
  classOf(id: ClassId): { readonly nodes: readonly ENode[] };
}

const neverStop = () => false;

/**
 * Calls `found` with every binding of `pattern` rooted at class `id` (the
 * array is reused: copy what you keep). The pattern nodes still to match sit
 * on one shared stack with the class each must match in (no closure per
 * step: matching is the hot loop).
 */
export function matchClass(egraph: MatchableGraph, pattern: Pattern, id: ClassId, found: (bindings: readonly ClassId[]) => void, stop: () => boolean = neverStop): void {
  const bindings: ClassId[] = new Array<ClassId>(pattern.vars.length).fill(-1);
  const patterns: PatternNode[] = [pattern.root];
  const classes: ClassId[] = [egraph.find(id)];
  const step = (k: number): void => {
    if (k === patterns.length) {
      found(bindings);
      return;
    }
    const p = patterns[k]!;
    const cls = classes[k]!;
    if (p.kind === "var") {
      const bound = bindings[p.index]!;
      if (bound === -1) {
        bindings[p.index] = cls;
        step(k + 1);
        bindings[p.index] = -1;
      } else if (bound === cls) {
        step(k + 1);
      }
      return;
    }
    const arity = p.children.length;
    const nodes = egraph.classOf(cls).nodes;
    for (let n = 0; n < nodes.length; n++) {
      const node = nodes[n]!;
      if (node.op !== p.op || node.children.length !== arity) continue;
      for (let j = 0; j < arity; j++) {
        patterns.push(p.children[j]!);
        classes.push(egraph.find(node.children[j]!));
      }
      step(k + 1);
      patterns.length -= arity;
      classes.length -= arity;
      if (stop()) return;
    }
  };
  step(0);
}

/**
 * Matches of `pattern` in `candidates` (the classes with a node of its root
 * operator; all classes for a variable). With a `limit`, the search stops
 * once it has found more than `limit` substitutions (egg's search_with_limit).
 */
export function searchPattern(egraph: MatchableGraph, pattern: Pattern, candidates: Iterable<ClassId>, limit = Infinity): MatchList {
  const matches = new MatchList(pattern);
  const stop = () => matches.size > limit;
  for (const id of candidates) {
    matchClass(egraph, pattern, id, (b) => matches.push(id, b), stop);
    if (stop()) break;
  }
  return matches;
}
