/**
 * The optimizer's rule sets (SPORES): LA→RA, RA identities, RA→LA,
 * black-box functions. Fusion is not a rule: the fusion planner
 * (engine/fusion) decides which operations run fused, on the block as
 * written and on the extracted plans.
 */
import { RELATIONAL_RULES } from "./rules-relational";
import { RELATIONAL_TO_LA_RULES } from "./rules-relational-to-la";
import { FUNCTION_RULES } from "./rules-functions";
import { REORGANIZE_RULES } from "./rules-reorganize";
import { CELLWISE_RULES } from "./rules-cellwise";
import { AGGREGATE_RULES } from "./rules-aggregates";
import { BIND_NORMAL_FORM_RULES, LA_TO_RA_RULES, UNBIND_RULES } from "./rules-la-to-ra";
import type { RuleSpec } from "./rule-spec";

export function optimizerRuleSpecs(): RuleSpec[] {
  return [
    ...LA_TO_RA_RULES,
    ...BIND_NORMAL_FORM_RULES,
    ...UNBIND_RULES,
    ...RELATIONAL_RULES,
    ...RELATIONAL_TO_LA_RULES,
    ...FUNCTION_RULES,
    ...REORGANIZE_RULES,
    ...CELLWISE_RULES,
    ...AGGREGATE_RULES,
  ];
}

/**
 * The non-expansive rules that turn relational forms back into LA (lifting,
 * bind normal form, unbinding, the commuted operand orders the lifting
 * patterns expect, and the function spellings): a first phase of saturation
 * lifts what the seeds put in the e-graph before AC rules grow it.
 */
export function liftingRuleSpecs(): RuleSpec[] {
  const commute = RELATIONAL_RULES.filter((r) => r.name === "multiply-commute" || r.name === "add-commute");
  return [...BIND_NORMAL_FORM_RULES, ...UNBIND_RULES, ...commute, ...RELATIONAL_TO_LA_RULES, ...FUNCTION_RULES];
}
