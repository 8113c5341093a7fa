/**
 * Redundancy options built by hand over real script text (for the tests of
 * applying and verifying them without the search): ranges are found by the
 * snippet they cover.
 */
import type { Range } from "../../engine/syntax/ast";
import type { RedundancyKind, RedundancyOption } from "../../engine/redundancy/redundancy-types";

/** The range of the `nth` (0-based) occurrence of `snippet` in `text`, comments left out. */
export function rangeOf(text: string, snippet: string, nth = 0): Range {
  let at = -1;
  for (let k = 0; k <= nth; k++) {
    do at = text.indexOf(snippet, at + 1);
    while (at >= 0 && inComment(text, at));
    if (at < 0) throw new Error(`'${snippet}' occurs fewer than ${nth + 1} times`);
  }
  return { start: positionAt(text, at), end: positionAt(text, at + snippet.length) };
}

function inComment(text: string, offset: number): boolean {
  return text.slice(text.lastIndexOf("\n", offset) + 1, offset).includes("#");
}

function positionAt(text: string, offset: number): Range["start"] {
  const before = text.slice(0, offset);
  const line = before.split("\n").length - 1;
  return { line, character: offset - (before.lastIndexOf("\n") + 1) };
}

export interface OptionSpec {
  kind: RedundancyKind;
  expression: string;
  name: string;
  /** The statement (or loop) the assignment goes before: a snippet its text starts with, and which of them. */
  before: [string, number?];
  /** Each occurrence: the snippet replaced, which one, and its replacement. */
  occurrences: [string, number, string][];
  loop?: [string, number?];
  saving?: number;
}

export function option(text: string, spec: OptionSpec): RedundancyOption {
  const insertBefore = rangeOf(text, spec.before[0], spec.before[1] ?? 0);
  const occurrences = spec.occurrences.map(([snippet, nth, replacement]) => ({ range: rangeOf(text, snippet, nth), replacement, transposed: false }));
  const first = occurrences[0]!.range.start;
  const result: RedundancyOption = {
    id: `${spec.kind}:${spec.expression.replaceAll(" ", "")}@${first.line + 1}:${first.character + 1}`,
    kind: spec.kind,
    key: spec.expression.replaceAll(" ", ""),
    expression: spec.expression,
    name: spec.name,
    insertBefore,
    occurrences,
    explicit: occurrences.every((_o, k) => spec.occurrences[k]![2] === "{name}"),
    evaluationCost: 1e-3,
    saving: spec.saving ?? 1e-3,
    costed: true,
    length: 2,
    conflicts: [],
  };
  if (spec.loop) result.loop = rangeOf(text, spec.loop[0], spec.loop[1] ?? 0);
  return result;
}

/** linreg_gd's two loop-constant products: t(A) %*% A (once explicit, once inside t(g) %*% t(A) %*% A %*% g) and t(A) %*% b. */
export function gdOptions(text: string) {
  const AtA = option(text, {
    kind: "lse",
    expression: "t(A) %*% A",
    name: "AtA",
    before: ["while (i < maxi)"],
    occurrences: [
      ["t(A) %*% A", 0, "{name}"],
      ["t(g) %*% t(A) %*% A %*% g", 0, "t(g) %*% {name} %*% g"],
    ],
    loop: ["while (i < maxi)"],
  });
  const Atb = option(text, { kind: "lse", expression: "t(A) %*% b", name: "Atb", before: ["while (i < maxi)"], occurrences: [["t(A) %*% b", 0, "{name}"]] });
  return { AtA, Atb };
}
