/**
 * Patterns as s-expressions, `(* ?a (+ ?b ?c))`, and e-matching (after egg's
 * pattern.rs / machine.rs): a pattern is compiled once (variables numbered),
 * searched in the classes that hold a node with the root operator, and a
 * variable used twice must bind the same class.
 */
import { internOp, opNumber, PACKED_WIDTH } from "./intern";
import type { ClassId, ENode, Term } from "./types";

/** A variable, or an operator node with its number (`opNumber`, looked up once when the pattern is parsed: matching compares it per node). */
export type PatternNode = { kind: "var"; index: number } | { kind: "node"; op: string; opId: number; children: PatternNode[] };

export interface Pattern {
  readonly text: string;
  readonly root: PatternNode;
  /** Variable names by index (without the `?`). */
  readonly vars: readonly string[];
}

/** A match's bindings: class per variable (read in place from its match list's bindings, not copied). */
export class Subst {
  constructor(
    private readonly names: readonly string[],
    private readonly bindings: ArrayLike<ClassId>,
    private readonly offset = 0,
  ) {}

  /** The class of every variable, in the pattern's order. */
  get classes(): ClassId[] {
    return Array.from({ length: this.names.length }, (_, k) => this.bindings[this.offset + k]!);
  }

  get(name: string): ClassId {
    const index = variableIndex(this.names).get(name);
    if (index === undefined) throw new Error(`pattern variable ?${name.startsWith("?") ? name.slice(1) : name} is not bound`);
    return this.bindings[this.offset + index]!;
  }
}

/** Each pattern's variable index by name, with and without its `?` (built once per variable list: conditions look up names at every match). */
const variableIndexes = new WeakMap<readonly string[], Map<string, number>>();

function variableIndex(names: readonly string[]): Map<string, number> {
  let index = variableIndexes.get(names);
  if (index === undefined) {
    index = new Map();
    // The first of two equal names wins, as indexOf does.
    for (const [k, name] of names.entries()) {
      if (!index.has(name)) index.set(name, k);
      if (!index.has(`?${name}`)) index.set(`?${name}`, k);
    }
    variableIndexes.set(names, index);
  }
  return index;
}

/** The arrays of a match list without matches (shared: never written, a push allocates its own). */
const NO_MATCHES = new Int32Array(0);
/** Matches a list has room for at its first match. */
const FIRST_CAPACITY = 16;

/**
 * The matches of one pattern, flat: match m is rooted at `roots[m]` and binds
 * the pattern's variables to `bindings[m * width ... m * width + width - 1]`.
 */
export class MatchList {
  /** Root class of each match (valid below `size`). Allocated at the first match: most searches find none. */
  roots = NO_MATCHES;
  /** Index of the matched top node in the root class's node list (-1 for a variable pattern); see `matchedNode`. */
  nodes = NO_MATCHES;
  /** Bindings, `width` per match (valid below `size * width`). */
  bindings = NO_MATCHES;
  private count = 0;

  constructor(readonly pattern: Pattern) {}

  get size(): number {
    return this.count;
  }

  get width(): number {
    return this.pattern.vars.length;
  }

  push(root: ClassId, bindings: ArrayLike<ClassId>, node = -1): void {
    const width = this.pattern.vars.length;
    if (this.count === this.roots.length) {
      const capacity = Math.max(FIRST_CAPACITY, this.roots.length * 2);
      const roots = new Int32Array(capacity);
      roots.set(this.roots);
      this.roots = roots;
      const nodes = new Int32Array(capacity);
      nodes.set(this.nodes);
      this.nodes = nodes;
      const all = new Int32Array(capacity * Math.max(1, width));
      all.set(this.bindings);
      this.bindings = all;
    }
    this.roots[this.count] = root;
    this.nodes[this.count] = node;
    const base = this.count * width;
    for (let k = 0; k < width; k++) this.bindings[base + k] = bindings[k]!;
    this.count++;
  }

  /** The id match `m`'s top node was added under (explanations start there), else its root class; valid until the next rebuild. */
  matchedNode(egraph: MatchableGraph, m: number): ClassId {
    const root = this.roots[m]!;
    const index = this.nodes[m]!;
    if (index < 0) return root;
    const node = egraph.classOf(root).nodes[index] as (ENode & { owner?: ClassId }) | undefined;
    return node?.owner ?? root;
  }

  subst(m: number): Subst {
    return new Subst(this.pattern.vars, this.bindings, m * this.width);
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
      return operatorNode(e, []);
    }
    return operatorNode(e[0] as string, e.slice(1).map(convert));
  };
  return { text, root: convert(readSExpr(text)), vars };
}

function operatorNode(op: string, children: PatternNode[]): PatternNode {
  const interned = internOp(op);
  return { kind: "node", op: interned, opId: opNumber(interned), children };
}

export function parseTerm(text: string): Term {
  const convert = (e: SExpr): Term => {
    if (typeof e === "string") {
      if (e.startsWith("?")) throw new Error(`a term has no variables: ${text}`);
      return { op: internOp(e), children: [] };
    }
    return { op: internOp(e[0] as string), children: e.slice(1).map(convert) };
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
  /** The nodes as integers: op number, arity, first and second child, per node (see EGraph.packedNodes). */
  packedNodes(id: ClassId): Int32Array;
}

const neverStop = () => false;

function patternSize(p: PatternNode): number {
  return p.kind === "var" ? 1 : 1 + p.children.reduce((n, c) => n + patternSize(c), 0);
}

/**
 * E-matching of one pattern, reusable across root classes. The pattern
 * nodes still to match sit on one preallocated stack with the class each
 * must match in (no allocation per step: matching is the hot loop);
 * `found` gets the bindings array itself (copy what you keep).
 */
class Matcher {
  private readonly bindings: ClassId[];
  private readonly patterns: PatternNode[];
  private readonly classes: Int32Array;
  private top = 0;
  /** Index, in the root class's node list, of the node the pattern's root matched (-1 for a variable root). */
  rootNode = -1;

  constructor(
    private readonly egraph: MatchableGraph,
    private readonly pattern: Pattern,
    private readonly found: (bindings: readonly ClassId[]) => void,
    private readonly stop: () => boolean,
  ) {
    const size = patternSize(pattern.root);
    this.bindings = new Array<ClassId>(pattern.vars.length).fill(-1);
    this.patterns = new Array<PatternNode>(size);
    this.classes = new Int32Array(size);
  }

  run(id: ClassId): void {
    this.patterns[0] = this.pattern.root;
    this.classes[0] = this.egraph.find(id);
    this.top = 1;
    this.step(0);
  }

  private step(k: number): void {
    if (k === this.top) {
      this.found(this.bindings);
      return;
    }
    const p = this.patterns[k]!;
    const cls = this.classes[k]!;
    if (p.kind === "var") {
      const bound = this.bindings[p.index]!;
      if (bound === -1) {
        this.bindings[p.index] = cls;
        this.step(k + 1);
        this.bindings[p.index] = -1;
      } else if (bound === cls) {
        this.step(k + 1);
      }
      return;
    }
    const arity = p.children.length;
    const op = p.opId;
    const packed = this.egraph.packedNodes(cls);
    const base = this.top;
    const bindings = this.bindings;
    nodes: for (let at = 0; at < packed.length; at += PACKED_WIDTH) {
      if (packed[at] !== op || packed[at + 1] !== arity) continue;
      if (k === 0) this.rootNode = at / PACKED_WIDTH;
      // Variable children bind here (no stack entry); node children wait on the stack.
      let top = base;
      let newlyBound = 0;
      for (let j = 0; j < arity; j++) {
        const child = p.children[j]!;
        const stored = j < 2 ? packed[at + 2 + j]! : this.egraph.classOf(cls).nodes[at / PACKED_WIDTH]!.children[j]!;
        const childClass = this.egraph.find(stored);
        if (child.kind === "var") {
          const bound = bindings[child.index]!;
          if (bound === -1) {
            bindings[child.index] = childClass;
            newlyBound |= 1 << j;
          } else if (bound !== childClass) {
            this.unbind(p, newlyBound);
            continue nodes;
          }
        } else {
          this.patterns[top] = child;
          this.classes[top] = childClass;
          top++;
        }
      }
      this.top = top;
      this.step(k + 1);
      this.top = base;
      this.unbind(p, newlyBound);
      if (this.stop()) return;
    }
  }

  private unbind(p: PatternNode & { kind: "node" }, newlyBound: number): void {
    for (let j = 0; newlyBound !== 0; j++, newlyBound >>= 1) {
      if (newlyBound & 1) this.bindings[(p.children[j] as { index: number }).index] = -1;
    }
  }
}

/** Calls `found` with every binding of `pattern` rooted at class `id` (the array is reused: copy what you keep). */
export function matchClass(egraph: MatchableGraph, pattern: Pattern, id: ClassId, found: (bindings: readonly ClassId[]) => void, stop: () => boolean = neverStop): void {
  new Matcher(egraph, pattern, found, stop).run(id);
}

/**
 * Matches of `pattern` in `candidates` (the classes with a node of its root
 * operator; all classes for a variable). With a `limit`, the search stops
 * once it has found more than `limit` substitutions (egg's search_with_limit).
 */
export function searchPattern(egraph: MatchableGraph, pattern: Pattern, candidates: Iterable<ClassId>, limit = Infinity): MatchList {
  const matches = new MatchList(pattern);
  const stop = () => matches.size > limit;
  let root = -1;
  const matcher: Matcher = new Matcher(egraph, pattern, (b) => matches.push(root, b, matcher.rootNode), stop);
  for (const id of candidates) {
    root = id;
    matcher.run(id);
    if (stop()) break;
  }
  return matches;
}
