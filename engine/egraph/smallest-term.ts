/** The smallest term (by node count) of every class: a bottom-up fixpoint, as egg's AstSize extractor. */
import type { ClassId, ENode, Term } from "./types";

interface Graph {
  find(id: ClassId): ClassId;
  classes(): Iterable<{ readonly id: ClassId; readonly nodes: readonly ENode[] }>;
}

export function smallestTerms(egraph: Graph): Map<ClassId, Term> {
  const size = new Map<ClassId, number>();
  const best = new Map<ClassId, ENode>();
  const classes = [...egraph.classes()];
  let changed = true;
  while (changed) {
    changed = false;
    for (const eclass of classes) {
      for (const node of eclass.nodes) {
        let total = 1;
        for (const child of node.children) {
          const s = size.get(egraph.find(child));
          if (s === undefined) {
            total = Infinity;
            break;
          }
          total += s;
        }
        if (total < (size.get(eclass.id) ?? Infinity)) {
          size.set(eclass.id, total);
          best.set(eclass.id, node);
          changed = true;
        }
      }
    }
  }
  const terms = new Map<ClassId, Term>();
  const build = (id: ClassId, depth: number): Term => {
    const known = terms.get(id);
    if (known) return known;
    const node = best.get(id);
    if (!node || depth > 200) return { op: `c${id}`, children: [] };
    const term: Term = { op: node.op, children: node.children.map((c) => build(egraph.find(c), depth + 1)) };
    terms.set(id, term);
    return term;
  };
  for (const eclass of classes) build(eclass.id, 0);
  return terms;
}

export function smallestTerm(egraph: Graph, id: ClassId): Term | undefined {
  return smallestTerms(egraph).get(egraph.find(id));
}

