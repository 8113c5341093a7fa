/**
 * Grouped-sum options (grouped-sums.ts) as source edits, costed
 * (grouped-sum-cost.ts): the temporary `NAME = X %*% Y + Y %*% Z` goes
 * before the first statement holding a use (CSE) or before the loop (LSE),
 * and each expression holding uses is printed again as a sum, its grouped
 * products replaced by `left %*% NAME %*% right` (`P %*% NAME + NAME %*%
 * Q`), its other products as they were. Applying one gives DML equal to
 * the original (the runtime checks it: test/redundancy/grouped-sums.test.ts).
 */
import type { MachineConstants } from "../cost";
import type { Range } from "../syntax";
import type { Atom } from "./chain-terms";
import { chainText, productText, sumText } from "./chain-print";
import { baseName, type FreshNames } from "./fresh-names";
import { groupedSumCost, regroupedFactors } from "./grouped-sum-cost";
import type { FoundGroupedSum, GroupedTerm } from "./grouped-sums";
import { NAME_PLACEHOLDER } from "./occurrence-edits";
import type { Region } from "./program-chains";
import type { RedundancyOccurrence, RedundancyOption } from "./redundancy-types";

const MAX_NAME_LENGTH = 24;

export function groupedSumOption(found: FoundGroupedSum, names: FreshNames, constants: MachineConstants): RedundancyOption {
  const cost = groupedSumCost(found, constants);
  const atom: Atom = { key: `⟨${found.key}⟩`, text: NAME_PLACEHOLDER, invariantLoops: 0, symmetric: false, ...(cost.size ? { size: cost.size } : {}) };
  const regions: Region[] = [];
  for (const use of found.uses) if (!regions.includes(use.region)) regions.push(use.region);
  const occurrences: RedundancyOccurrence[] = regions.map((region) => {
    const uses = found.uses.filter((u) => u.region === region);
    const terms: { negative: boolean; text: string }[] = [];
    region.sums.sum.forEach((product, index) => {
      const use = uses.find((u) => u.products.includes(index));
      if (!use) terms.push({ negative: product.negative, text: productText(product, product.factors.map((factor) => ({ factor, text: factor.atom.text })), (i) => product.scalars[i]!.text) });
      else if (use.products[0] === index) terms.push({ negative: false, text: chainText(regroupedFactors(use, atom).map((factor) => ({ factor, text: factor.atom.text }))) });
    });
    const text = sumText(terms);
    return { range: region.sums.root.range, replacement: terms.length > 1 || terms[0]?.negative ? `(${text})` : text, transposed: uses.some((u) => u.transposed) };
  });
  const expression = sumExpression(found.terms);
  const first = Math.min(...found.uses.map((u) => u.region.statementIndex));
  const insertBefore: Range = found.kind === "lse" ? found.loop!.statement.range : found.block.info.block.statements[first]!.range;
  const start = occurrences[0]?.range.start ?? insertBefore.start;
  const base = found.terms.map((t) => baseName(t.factors)).join("_");
  return {
    id: `${found.kind}-sum:${expression.replace(/\s+/g, "")}@${start.line + 1}:${start.character + 1}`,
    kind: found.kind,
    key: found.key,
    expression,
    name: names.take(base.length > MAX_NAME_LENGTH ? base.slice(0, MAX_NAME_LENGTH) : base),
    insertBefore,
    occurrences,
    explicit: false,
    ...(found.kind === "lse" ? { loop: found.loop!.statement.range, iterations: { ...found.loop!.iterations } } : {}),
    evaluationCost: cost.evaluation,
    saving: cost.saving,
    costed: cost.costed,
    estimator: cost.estimator,
    length: found.terms.length,
    groupedUses: found.uses.length,
    conflicts: [],
  };
}

/** The sum as DML: its terms with their signs and scalar factors. */
function sumExpression(terms: readonly GroupedTerm[]): string {
  return sumText(
    terms.map((t) => ({
      negative: t.negative,
      text: productText({ negative: t.negative, scalars: t.scalars, factors: t.factors }, t.factors.map((factor) => ({ factor, text: factor.atom.text })), (i) => t.scalars[i]!.text),
    })),
  );
}
