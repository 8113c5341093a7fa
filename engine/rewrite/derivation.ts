/**
 * A proof of the e-graph (a flat explanation: whole terms, one union per
 * step) as a derivation a person reads: DML terms, each step with the rules
 * that justify it and their descriptions. The relational (SPORES) forms in
 * between have no DML form, so the derivation is condensed to its LA terms:
 * a step goes from one DML term to the next and names the rules applied on
 * the way; a detour that comes back to an earlier term is cut out.
 */
import type { FlatExplanationStep, Term } from "../egraph";
import { opFamily } from "./la-ops";
import { ruleDescription } from "./rule-descriptions";
import { BIND_NORMAL_FORM_RULES, LA_TO_RA_RULES, UNBIND_RULES } from "./rules-la-to-ra";
import { RELATIONAL_TO_LA_RULES } from "./rules-relational-to-la";
import { termToDml, type LeafText } from "./term-to-dml";

export interface DerivationStep {
  /** The rule that names the step (the first identity among `rules`, else the first rule). */
  rule: string;
  /** Every rule applied between `before` and `after`, in order, without repeats. */
  rules: string[];
  description: string;
  before: string;
  after: string;
}

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

/** The DML text of a term, or undefined when it has relational parts or a leaf without text. */
export function dmlText(term: Term, leafText: LeafText): string | undefined {
  if (!isLinearAlgebra(term)) return undefined;
  try {
    return termToDml(term, leafText);
  } catch {
    return undefined;
  }
}

function isLinearAlgebra(term: Term): boolean {
  return opFamily(term.op) === "la" && term.children.every(isLinearAlgebra);
}

/** A variable's name for a term that is exactly its value (e.g. the value of `Y` in `Y = X * 2`), or undefined. */
export type TermName = (term: Term) => string | undefined;

/** The term with every sub-term that `name` names replaced by that variable. */
export function withNames(term: Term, name: TermName): Term {
  const named = name(term);
  if (named !== undefined) return { op: `var:${named}`, children: [] };
  return term.children.length === 0 ? term : { op: term.op, children: term.children.map((c) => withNames(c, name)) };
}

/**
 * The LA-level derivation of a flat explanation (empty when the two sides
 * are the same term); `name` prints the values of the block's variables by
 * their names.
 */
export function laDerivation(steps: readonly FlatExplanationStep[], leafText: LeafText, name?: TermName): DerivationStep[] {
  if (steps.length === 0) return [];
  const print = (term: Term) => dmlText(name ? withNames(term, name) : term, leafText);
  const start = print(steps[0]!.before) ?? "(relational form)";
  // The DML terms met on the way, each with the rules that led to it from the previous one.
  const checkpoints: { text: string; rules: string[] }[] = [{ text: start, rules: [] }];
  let pending: string[] = [];
  steps.forEach((step, k) => {
    pending.push(step.rule);
    const last = k === steps.length - 1;
    const text = print(step.after) ?? (last ? "(relational form)" : undefined);
    if (text === undefined) return;
    const earlier = checkpoints.findIndex((c) => c.text === text);
    if (earlier >= 0) {
      // Back at a term seen before: the detour proves nothing.
      checkpoints.length = earlier + 1;
      pending = [];
      return;
    }
    checkpoints.push({ text, rules: pending });
    pending = [];
  });
  // A term reached by translations alone (into index form and back) is a detour of notation: go on to the next one.
  for (let k = checkpoints.length - 2; k >= 1; k--) {
    const next = checkpoints[k + 1]!;
    if (checkpoints[k]!.rules.every((r) => ruleRole(r) !== "identity") || next.rules.every((r) => ruleRole(r) !== "identity")) {
      next.rules = [...checkpoints[k]!.rules, ...next.rules];
      checkpoints.splice(k, 1);
    }
  }
  const derivation: DerivationStep[] = [];
  for (let k = 1; k < checkpoints.length; k++) {
    const rules = [...new Set(checkpoints[k]!.rules)];
    derivation.push({ ...describe(rules), rules, before: checkpoints[k - 1]!.text, after: checkpoints[k]!.text });
  }
  return derivation;
}

/** The step's name and description: its identities if it has any, else its translations, else its bookkeeping. */
function describe(rules: readonly string[]): { rule: string; description: string } {
  for (const role of ["identity", "translation", "bookkeeping"] as const) {
    const chosen = rules.filter((r) => ruleRole(r) === role);
    if (chosen.length === 0) continue;
    const descriptions = [...new Set(chosen.map((r) => ruleDescription(r) ?? r))].join("; ");
    return { rule: chosen[0]!, description: descriptions };
  }
  return { rule: "", description: "" };
}

/** One line per step: `before = after  [description]`. */
export function printDerivation(steps: readonly DerivationStep[]): string[] {
  return steps.map((s) => `${s.before} = ${s.after}  [${s.description}]`);
}
