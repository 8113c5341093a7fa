/**
 * How the editor names a fused operator: its template (`Cell`, `Row`,
 * `MAgg`, `Outer`), its skeleton's variant in words (`full aggregate`,
 * `column aggregate, transposed`), and how it reads its main input
 * (`sparse-safe over X`, `over the rows of X`), together as one phrase:
 * "one Cell operator (full aggregate, sparse-safe over X)".
 */
import type { TemplateType } from "../../engine/fusion";
import type { FusionOperatorView } from "../../engine/suggest";

const TEMPLATE_NAMES: Record<TemplateType, string> = { cell: "Cell", row: "Row", magg: "MAgg", outer: "Outer" };

export function templateName(template: TemplateType): string {
  return TEMPLATE_NAMES[template] ?? String(template);
}

/** Variants written out as a whole (the rest are read word by word). */
const VARIANTS: Record<string, string> = {
  left: "left product",
  right: "right product",
  cellwise: "cell-wise",
  "cell-wise": "cell-wise",
  agg: "full aggregate",
};

/** The words of variant parts (`col` → `column`, `t` → `transposed`, `b1` → `one side matrix`). */
const WORDS: Record<string, string> = {
  agg: "aggregate",
  col: "column",
  t: "transposed",
  b1: "one side matrix",
  b1r: "one side matrix by rows",
  const: "constant size",
};

const MODIFIERS = new Set(["t", "b1", "b1r", "const"]);

/** A skeleton variant (`full-agg`, `col-agg-b1-t`, `right`) in words; unknown parts are kept as written. */
export function variantWords(variant: string): string {
  const whole = VARIANTS[variant.toLowerCase()];
  if (whole !== undefined) return whole;
  const parts = variant.toLowerCase().split(/[-_\s]+/).filter((p) => p.length > 0);
  if (parts.length === 0) return "";
  // `no agg` reads "no aggregation"; a modifier after the aggregation is set off by a comma.
  let words = "";
  for (const [k, part] of parts.entries()) {
    const word = part === "agg" && parts[k - 1] === "no" ? "aggregation" : (WORDS[part] ?? part);
    words += k === 0 ? word : `${MODIFIERS.has(part) ? ", " : " "}${word}`;
  }
  return words;
}

/** How the operator's skeleton reads its main input: `sparse-safe over X`, `over the rows of X`. */
export function readsPhrase(op: Pick<FusionOperatorView, "template" | "mainInput" | "sparseSafe">, quote: (text: string) => string = (t) => t): string {
  if (op.mainInput === null) return "over the cells of its result";
  const main = quote(op.mainInput);
  switch (op.template) {
    case "row":
      return `over the rows of ${main}${op.sparseSafe ? ", sparse-safe" : ""}`;
    case "outer":
      return op.sparseSafe ? `over the non-zeros of ${main}` : `over every cell of ${main}`;
    default:
      return op.sparseSafe ? `sparse-safe over ${main}` : `over every cell of ${main}`;
  }
}

/** "one Cell operator (full aggregate, sparse-safe over X)". */
export function operatorPhrase(op: Pick<FusionOperatorView, "template" | "variant" | "mainInput" | "sparseSafe">, quote?: (text: string) => string): string {
  const variant = variantWords(op.variant);
  return `one ${templateName(op.template)} operator (${variant ? `${variant}, ` : ""}${readsPhrase(op, quote)})`;
}

/** "`a`", "`a` and `b`", "`a`, `b` and `c`", "`a`, `b`, … and 3 more" (at most `max` named). */
export function listWords(items: readonly string[], max = 6): string {
  if (items.length <= 1) return items[0] ?? "";
  if (items.length > max) return `${items.slice(0, max).join(", ")} and ${items.length - max} more`;
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}
