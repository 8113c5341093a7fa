/**
 * Rules as small declarative pattern pairs with an optional condition on the
 * class invariants of the matched variables, and (where a rule needs a fresh
 * attribute or a dimension) a custom right-hand side.
 */
import type { ClassId, EGraphApi } from "../egraph";
import type { AttributeData, LaData, OptimizerData, RaData } from "./analysis";
import type { AttributeTable } from "./attributes";

export type OptimizerGraph = EGraphApi<OptimizerData>;

/** What a condition or a custom right-hand side sees of one match. */
export interface Match {
  readonly egraph: OptimizerGraph;
  readonly attributes: AttributeTable;
  /** The matched class. */
  readonly root: ClassId;
  /** The class bound to `?name`. */
  cls(name: string): ClassId;
  data(name: string): OptimizerData;
  /** The attribute id bound to `?name` (-1 for `_`). */
  attribute(name: string): number;
  la(name: string): LaData;
  ra(name: string): RaData;
}

/** A custom right-hand side: the class to merge with the match, or undefined to skip. */
export type Build = (m: Match) => ClassId | undefined;

export interface RuleSpec {
  name: string;
  lhs: string;
  rhs: string | Build;
  when?: (m: Match) => boolean;
  /**
   * The fact a conditional rule relies on, for explanations, as DML over the
   * pattern's variables: "ncol(?v) = 1" reads "because ncol(v) = 1" once
   * `?v` is replaced by the DML text of the sub-term it matched.
   */
  because?: string;
}

export function rule(name: string, lhs: string, rhs: string | Build, when?: (m: Match) => boolean, because?: string): RuleSpec {
  const spec: RuleSpec = { name, lhs, rhs };
  if (when) spec.when = when;
  if (because !== undefined) spec.because = because;
  return spec;
}

export function attributeOf(data: OptimizerData): number {
  return (data as AttributeData).attribute;
}
