/**
 * The text of a derivation, one line a step, as `dml prove`, `dml explain
 * --why` and the editor's "Explain this rewrite" view all show it:
 *
 *   before = after  [rule: description; because FACT]
 *
 * A step that only re-associates or commutes reads `[re-associate/commute]`
 * (its facts, if any, are about notation and left out).
 */
import { MAX_FACTS_PER_STEP, REASSOCIATION, type DerivationStep } from "./derivation";

export function derivationLines(steps: readonly DerivationStep[]): string[] {
  return steps.map((step) => `${step.before} = ${step.after}  [${stepReason(step)}]`);
}

function stepReason(step: DerivationStep): string {
  if (step.reassociation) return REASSOCIATION;
  const shown = step.because.slice(0, MAX_FACTS_PER_STEP).map((fact) => `; because ${fact}`);
  const more = step.because.length - shown.length;
  return `${step.description}${shown.join("")}${more > 0 ? `; and ${more} more fact${more === 1 ? "" : "s"}` : ""}`;
}
