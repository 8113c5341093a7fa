/**
 * A proof of the e-graph (a flat explanation: whole terms, one union per
 * step) as a derivation a person reads: DML terms, each step with the rules
 * that justify it, their descriptions and the facts conditional rules
 * relied on. The relational (SPORES) forms in between have no DML form, so
 * the derivation is condensed to its LA terms: a step goes from one DML
 * term to the next and names the rules applied on the way; a detour that
 * comes back to an earlier term is cut out, and consecutive steps that only
 * re-associate or commute become one step.
 */
import type { FlatExplanationStep, Term } from "../egraph";
import { becauseFact } from "./because-fact";
import { dmlText, withNames, type TermName } from "./dml-text";
import { isReassociation } from "./reassociation";
import { RelationalText } from "./relational-text";
import { ruleDescription } from "./rule-descriptions";
import type { RuleSpec } from "./rule-spec";
import { optimizerRuleSpecs } from "./rules";
import { BIND_NORMAL_FORM_RULES, LA_TO_RA_RULES, UNBIND_RULES } from "./rules-la-to-ra";
import { RELATIONAL_TO_LA_RULES } from "./rules-relational-to-la";
import type { LeafText } from "./term-to-dml";

export { dmlText, withNames, type TermName } from "./dml-text";

export interface DerivationStep {
  /** The rule that names the step (the first identity among `rules`, else the first rule). */
  rule: string;
  /** Every rule applied between `before` and `after`, in order, without repeats. */
  rules: string[];
  /** The naming rules with their descriptions (`sum-of-add: sum distributes over +`), or "re-associate/commute". */
  description: string;
  /** The facts the step's conditional rules relied on (`ncol(v) = 1`), without repeats. */
  because: string[];
  /** The step only re-associates or commutes (notation detours aside): consecutive such steps are one. */
  reassociation: boolean;
  before: string;
  after: string;
}

/** At most this many facts a step (a condensed step may rest on many): the rest are counted. */
export const MAX_FACTS_PER_STEP = 4;

export const REASSOCIATION = "re-associate/commute";

/**
 * What a rule does for a reader: an identity (algebra), a translation
 * between LA and the relational form, or bookkeeping of that form.
 */
type RuleRole = "identity" | "translation" | "bookkeeping";

const TRANSLATION = new Set([...LA_TO_RA_RULES, ...RELATIONAL_TO_LA_RULES].map((r) => r.name));
const BOOKKEEPING = new Set([...BIND_NORMAL_FORM_RULES, ...UNBIND_RULES].map((r) => r.name).concat("congruence"));

function ruleRole(rule: string): RuleRole {
  if (BOOKKEEPING.has(rule)) return "bookkeeping";
  return TRANSLATION.has(rule) ? "translation" : "identity";
}

let specsByName: Map<string, RuleSpec> | undefined;

function ruleSpec(name: string): RuleSpec | undefined {
  specsByName ??= new Map(optimizerRuleSpecs().map((spec) => [spec.name, spec]));
  return specsByName.get(name);
}

function isReassociationRule(name: string): boolean {
  const spec = ruleSpec(name);
  return spec !== undefined && isReassociation(spec);
}

/**
 * The LA-level derivation of a flat explanation (empty when the two sides
 * are the same term); `name` prints the values of the block's variables by
 * their names.
 */
export function laDerivation(steps: readonly FlatExplanationStep[], leafText: LeafText, name?: TermName): DerivationStep[] {
  if (steps.length === 0) return [];
  const named = (term: Term) => (name ? withNames(term, name) : term);
  const print = (term: Term) => dmlText(named(term), leafText);
  // Facts print in DML, or in index notation where the matched sub-term is relational.
  const relational = new RelationalText(leafText);
  const fact = (step: FlatExplanationStep) => {
    const spec = ruleSpec(step.rule);
    return spec ? becauseFact(spec, step.before, step.after, (term) => relational.print(named(term))) : undefined;
  };
  const start = print(steps[0]!.before) ?? "(relational form)";
  // The DML terms met on the way, each with the rules (and facts) that led to it from the previous one.
  const checkpoints: Checkpoint[] = [{ text: start, rules: [], facts: [] }];
  let pending: Checkpoint = { text: "", rules: [], facts: [] };
  steps.forEach((step, k) => {
    pending.rules.push(step.rule);
    const because = fact(step);
    if (because !== undefined) pending.facts.push(because);
    const last = k === steps.length - 1;
    const text = print(step.after) ?? (last ? "(relational form)" : undefined);
    if (text === undefined) return;
    const earlier = checkpoints.findIndex((c) => c.text === text);
    if (earlier >= 0) {
      // Back at a term seen before: the detour proves nothing.
      checkpoints.length = earlier + 1;
    } else {
      checkpoints.push({ ...pending, text });
    }
    pending = { text: "", rules: [], facts: [] };
  });
  // A term reached by translations alone (into index form and back) is a detour of notation: go on to the next one.
  for (let k = checkpoints.length - 2; k >= 1; k--) {
    const next = checkpoints[k + 1]!;
    if (checkpoints[k]!.rules.every((r) => ruleRole(r) !== "identity") || next.rules.every((r) => ruleRole(r) !== "identity")) {
      next.rules = [...checkpoints[k]!.rules, ...next.rules];
      next.facts = [...checkpoints[k]!.facts, ...next.facts];
      checkpoints.splice(k, 1);
    }
  }
  const derivation: DerivationStep[] = [];
  for (let k = 1; k < checkpoints.length; k++) {
    const { rules, facts } = checkpoints[k]!;
    const step = { rules: [...new Set(rules)], facts: [...new Set(facts)], before: checkpoints[k - 1]!.text, after: checkpoints[k]!.text };
    const previous = derivation.at(-1);
    if (isReassociationStep(step.rules) && previous?.reassociation) {
      // Fold into the previous re-association.
      previous.rules = [...new Set([...previous.rules, ...step.rules])];
      previous.because = [...new Set([...previous.because, ...step.facts])];
      previous.after = step.after;
      continue;
    }
    derivation.push(derivationStep(step.rules, step.facts, step.before, step.after));
  }
  return derivation;
}

interface Checkpoint {
  text: string;
  rules: string[];
  facts: string[];
}

/** Re-associations and commutations only, with any translations and bookkeeping on the way. */
function isReassociationStep(rules: readonly string[]): boolean {
  return rules.some(isReassociationRule) && rules.every((r) => isReassociationRule(r) || ruleRole(r) !== "identity");
}

function derivationStep(rules: string[], facts: string[], before: string, after: string): DerivationStep {
  if (isReassociationStep(rules)) return { rule: rules.find(isReassociationRule)!, rules, description: REASSOCIATION, because: facts, reassociation: true, before, after };
  return { ...describe(rules), rules, because: facts, reassociation: false, before, after };
}

/** The step's name and description: its identities if it has any, else its translations, else its bookkeeping. */
function describe(rules: readonly string[]): { rule: string; description: string } {
  for (const role of ["identity", "translation", "bookkeeping"] as const) {
    const chosen = rules.filter((r) => ruleRole(r) === role);
    if (chosen.length === 0) continue;
    // One entry per description (the rules of a pair, e.g. `sum-of-add` and `add-of-sums`, say the same).
    const byDescription = new Map<string, string>();
    for (const r of chosen) {
      const description = ruleDescription(r) ?? r;
      if (!byDescription.has(description)) byDescription.set(description, r);
    }
    const description = [...byDescription].map(([text, r]) => (text === r ? r : `${r}: ${text}`)).join("; ");
    return { rule: chosen[0]!, description };
  }
  return { rule: "", description: "" };
}
