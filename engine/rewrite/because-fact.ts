/**
 * The fact a conditional rule relied on at one step of a proof, for a
 * reader: the rule's `because` text ("ncol(?v) = 1") with each pattern
 * variable replaced by the sub-term it matched ("ncol(v) = 1"). The match is
 * a pure term match of the rule's left-hand side against the step's terms
 * (no e-graph): the step changed one sub-term, the rule's match is that
 * sub-term or one of its ancestors, and a step may run a rule backwards
 * (its `before` is then the right-hand side, its `after` the left). The
 * e-graph records the class a rule matched, not the term: a step's terms
 * are the forms the classes were first added as, so the match is tried
 * with both sides of the rule first, then with its left-hand side alone.
 */
import { parsePattern, type Pattern, type PatternNode, type Term } from "../egraph";
import type { RuleSpec } from "./rule-spec";

const patterns = new Map<string, Pattern>();

function cachedPattern(text: string): Pattern {
  let pattern = patterns.get(text);
  if (pattern === undefined) patterns.set(text, (pattern = parsePattern(text)));
  return pattern;
}

/**
 * `spec.because` about the sub-terms the rule matched in the step from
 * `before` to `after`, each printed by `print`; undefined when the rule has
 * no `because` or its left-hand side matches neither side at the changed place.
 */
export function becauseFact(spec: RuleSpec, before: Term, after: Term, print: (term: Term) => string): string | undefined {
  if (spec.because === undefined) return undefined;
  const lhs = cachedPattern(spec.lhs);
  const rhs = typeof spec.rhs === "string" ? cachedPattern(spec.rhs) : undefined;
  // The pairs of sub-terms from the top down to the deepest place where the two sides differ.
  const places = changedPlaces(before, after);
  for (let k = places.length - 1; k >= 0; k--) {
    const [b, a] = places[k]!;
    const bindings = ruleMatch(lhs, rhs, b, a) ?? ruleMatch(lhs, rhs, a, b);
    if (bindings) return substitute(spec.because, bindings, print);
  }
  // A union records the class the rule matched, whose first node may be another form than the left-hand side's:
  // then the left-hand side alone, deepest place first, tells the bindings.
  for (let k = places.length - 1; k >= 0; k--) {
    const [b, a] = places[k]!;
    const bindings = matchTerm(lhs, b) ?? matchTerm(lhs, a);
    if (bindings) return substitute(spec.because, bindings, print);
  }
  return undefined;
}

/**
 * The bindings of the rule applied from `from` to `to`: the left-hand side
 * matches `from` and, when the right-hand side is a pattern, it matches `to`
 * with the same bindings (a general left-hand side such as `(b _ _ ?x)`
 * also matches the right-hand side's instance: only both together tell the
 * direction).
 */
function ruleMatch(lhs: Pattern, rhs: Pattern | undefined, from: Term, to: Term): Map<string, Term> | undefined {
  const bindings = matchTerm(lhs, from);
  if (!bindings || !rhs) return bindings;
  return matchTerm(rhs, to, bindings);
}

/** The sub-term pairs along the path to the change: descend while the operators agree and exactly one child differs. */
function changedPlaces(before: Term, after: Term): [Term, Term][] {
  const places: [Term, Term][] = [[before, after]];
  let [b, a] = [before, after];
  while (b.op === a.op && b.children.length === a.children.length) {
    const differing = b.children.flatMap((child, k) => (sameTerm(child, a.children[k]!) ? [] : [k]));
    if (differing.length !== 1) break;
    const k = differing[0]!;
    [b, a] = [b.children[k]!, a.children[k]!];
    places.push([b, a]);
  }
  return places;
}

function sameTerm(x: Term, y: Term): boolean {
  if (x === y) return true;
  return x.op === y.op && x.children.length === y.children.length && x.children.every((c, k) => sameTerm(c, y.children[k]!));
}

/** The sub-term each pattern variable matched (by name, extending `given`), or undefined when the pattern does not match the term. */
export function matchTerm(pattern: Pattern, term: Term, given: ReadonlyMap<string, Term> = new Map()): Map<string, Term> | undefined {
  const bindings = new Map(given);
  const match = (node: PatternNode, t: Term): boolean => {
    if (node.kind === "var") {
      const name = pattern.vars[node.index]!;
      const bound = bindings.get(name);
      if (bound !== undefined) return sameTerm(bound, t);
      bindings.set(name, t);
      return true;
    }
    return node.op === t.op && node.children.length === t.children.length && node.children.every((c, k) => match(c, t.children[k]!));
  };
  return match(pattern.root, term) ? bindings : undefined;
}

/** The `because` text with `?name` replaced by the printed sub-term bound to it (an unknown name stays as written). */
function substitute(text: string, bindings: ReadonlyMap<string, Term>, print: (term: Term) => string): string {
  return text.replace(/\?([A-Za-z_][A-Za-z0-9_]*)/g, (whole, name: string) => {
    const bound = bindings.get(name);
    return bound === undefined ? whole : print(bound);
  });
}
