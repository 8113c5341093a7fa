/** Turns the declarative rule specs into the generic e-graph's rewrites, with conditions reading the class invariants. */
import { parsePattern, type Pattern, type Rewrite, type Subst, type ClassId, type EGraphApi } from "../egraph";
import type { AttributeData, LaData, OptimizerData, RaData } from "./analysis";
import type { AttributeTable } from "./attributes";
import type { Match, RuleSpec } from "./rule-spec";

class SubstMatch implements Match {
  constructor(
    readonly egraph: EGraphApi<OptimizerData>,
    readonly attributes: AttributeTable,
    readonly root: ClassId,
    private readonly subst: Subst,
  ) {}
  cls(name: string): ClassId {
    return this.subst.get(name);
  }
  data(name: string): OptimizerData {
    return this.egraph.data(this.subst.get(name));
  }
  attribute(name: string): number {
    return (this.data(name) as AttributeData).attribute;
  }
  la(name: string): LaData {
    return this.data(name) as LaData;
  }
  ra(name: string): RaData {
    return this.data(name) as RaData;
  }
}

/** Parsed patterns by text: rules are compiled for every saturation, their patterns never change. */
const patterns = new Map<string, Pattern>();

function pattern(text: string): Pattern {
  let parsed = patterns.get(text);
  if (parsed === undefined) {
    parsed = parsePattern(text);
    patterns.set(text, parsed);
  }
  return parsed;
}

export function compileRules(specs: readonly RuleSpec[], attributes: AttributeTable): Rewrite<OptimizerData>[] {
  return specs.map((spec) => {
    const searcher = pattern(spec.lhs);
    const when = spec.when;
    const condition = when ? (egraph: EGraphApi<OptimizerData>, id: ClassId, subst: Subst) => when(new SubstMatch(egraph, attributes, id, subst)) : undefined;
    const rhs = spec.rhs;
    const applier =
      typeof rhs === "string"
        ? pattern(rhs)
        : (egraph: EGraphApi<OptimizerData>, id: ClassId, subst: Subst): ClassId[] => {
            const built = rhs(new SubstMatch(egraph, attributes, id, subst));
            return built === undefined ? [] : [built];
          };
    const rewrite: Rewrite<OptimizerData> = { name: spec.name, searcher, applier, ...(condition ? { condition } : {}) };
    return rewrite;
  });
}
