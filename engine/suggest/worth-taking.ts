/**
 * Which rewrites are worth offering (besides being equal and cheaper):
 * - a different expression, not the same one respelled: both sides are
 *   parsed and compared as trees, so spacing, parentheses that do not change
 *   the tree and semicolons do not count;
 * - a saving a person notices: at least a share of the original's estimated
 *   time AND at least an absolute amount;
 * - no data-dependent value written into the code: a number in the rewrite
 *   that the original does not spell out as a literal must not be a size or
 *   value the analysis derived from data, parameters or variables (`30` for
 *   `ncol(X)`), nor a constant folded from them (`1e-12` for `tol^2`); only
 *   the small constants rules introduce (`2 * a * b`, `1 - p`) are free.
 */
import { walkExpression } from "../program";
import { astEquals, type Expression } from "../syntax";
import { parseExpression, UnprintableTermError } from "../rewrite";

export interface SavingThresholds {
  /** The least share of the original's estimated time a suggestion must save (default 0.2: 20 %). */
  minSaving: number;
  /** The least estimated time it must save, in milliseconds (default 1). */
  minSavingMs: number;
}

export const DEFAULT_SAVING_THRESHOLDS: Readonly<SavingThresholds> = { minSaving: 0.2, minSavingMs: 1 };

/** Whether a plan costing `after` seconds instead of `before` saves enough of both kinds. */
export function savesEnough(before: number, after: number, thresholds: SavingThresholds = DEFAULT_SAVING_THRESHOLDS): boolean {
  if (!Number.isFinite(before) || !Number.isFinite(after)) return false;
  const saved = before - after;
  return saved > 0 && saved >= thresholds.minSaving * before && saved * 1000 >= thresholds.minSavingMs;
}

/** Whether two DML expressions parse to the same tree (or either does not parse: then they are not known to differ). */
export function sameExpression(a: string, b: string): boolean {
  const left = tryParse(a);
  const right = tryParse(b);
  if (!left || !right) return a.replace(/[\s;]+/g, "") === b.replace(/[\s;]+/g, "");
  return astEquals(left, right);
}

/** Constants rewrite rules bring in themselves (expansions, complements, halves). */
const RULE_CONSTANTS = new Set([0, 1, 2, -1, -2, 0.5, -0.5]);

/**
 * Which numbers a rewrite of `original` may write: those the original
 * spells out as literals, and the few constants rules introduce unless one
 * is among `dataValues` (sizes and known values behind the original's
 * names and size expressions). The cheapest plan is extracted with this
 * (statement-plan.ts), so constant folding (`/ 2000` as `* 5.0E-4`) does not
 * cost a statement its rewrite. `original` is its text or its parsed tree.
 */
export function writableNumbers(original: string | Expression, dataValues: ReadonlySet<number>): (value: number) => boolean {
  const before = typeof original === "string" ? tryParse(original) : original;
  const spelled = new Set(before ? numbersIn(before) : []);
  return (value) => spelled.has(value) || (!dataValues.has(value) && RULE_CONSTANTS.has(value));
}

/** The numbers of `rewritten` that bake data-dependent values into the code: those `writableNumbers` does not allow. */
export function bakedNumbers(original: string, rewritten: string, dataValues: ReadonlySet<number>): number[] {
  return unwritableNumbers(rewritten, writableNumbers(original, dataValues));
}

/** The numbers of `rewritten` that `writable` does not allow (each once). */
export function unwritableNumbers(rewritten: string, writable: (value: number) => boolean): number[] {
  const after = tryParse(rewritten);
  if (!after) return [];
  return [...new Set(numbersIn(after).filter((v) => !writable(v)))];
}

function tryParse(text: string): Expression | undefined {
  try {
    return parseExpression(text.trim().replace(/;+$/, ""));
  } catch (error) {
    if (error instanceof UnprintableTermError) return undefined;
    throw error;
  }
}

/** Every number literal of an expression (a negated literal counts as its negative too). */
function numbersIn(expression: Expression): number[] {
  const found: number[] = [];
  walkExpression(expression, (node) => {
    if (node.kind === "number") found.push(node.value);
    if (node.kind === "unary" && node.op === "-" && node.operand.kind === "number") found.push(-node.operand.value);
  });
  return found;
}
