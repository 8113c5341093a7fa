/**
 * Lists as SystemDS runs them (ListObject, ListIndexingCPInstruction,
 * ListAppendRemoveCPInstruction):
 *
 * - `[a, b, c]` (the shape arguments of conv2d and friends) is an unnamed list;
 * - `L[i]`, `L[i:j]` and `L["name"]` are lists again (a slice, names kept);
 *   `as.matrix(L[i])` / `as.scalar(L[i])` take the item out;
 * - `L[i] = x`, `L["name"] = x` replace an item, `L[i:j] = list(...)` a range;
 * - `as.matrix(L)` of a one-item list is its item (a number as 1 x 1), of
 *   a longer list of numbers a column of them;
 * - `[L2, item] = remove(L, i)` gives the list without item i and a one-item list of it.
 *
 * Lists are values: every operation returns a new list.
 */
import { DenseMatrix } from "../matrix";
import { matrixFill } from "../kernels";
import type { CallArgs } from "./builtins";
import { fail } from "./errors";
import { num } from "./operations";
import { describeValue, type Value } from "./values";

type ListValue = Extract<Value, { kind: "list" }>;

/** The 0-based item range [first, last] that index bounds select: positions (1-based) or names. */
function itemRange(list: ListValue, lower: Value, upper: Value): [number, number] {
  const byName = (lower.kind === "scalar" && lower.type === "string") || (upper.kind === "scalar" && upper.type === "string");
  if (byName) return [position(list, lower), position(list, upper)];
  const [lo, hi] = [num(lower, "list index"), num(upper, "list index")];
  for (const i of [lo, hi]) {
    if (!Number.isInteger(i) || i < 1 || i > list.items.length) fail(`list index ${i} is out of range 1..${list.items.length}`);
  }
  if (hi < lo) fail(`list index range ${lo}:${hi} is empty`);
  return [lo - 1, hi - 1];
}

/** The 0-based position of the item named by `key` (a string). */
function position(list: ListValue, key: Value): number {
  if (key.kind !== "scalar" || key.type !== "string") fail(`a list is indexed either by names or by positions, not both`);
  if (!list.names || list.names.every((n) => n === undefined)) fail(`cannot index an unnamed list by the name "${key.value}"`);
  const i = list.names.indexOf(key.value);
  if (i < 0) fail(`the list has no item named "${key.value}" (it has ${list.names.filter((n) => n !== undefined).map((n) => `"${n}"`).join(", ")})`);
  return i;
}

/** `L[lower:upper]` (or `L[i]`, `L["name"]`): the list of those items. */
export function listSlice(list: ListValue, lower: Value, upper: Value): Value {
  const [first, last] = itemRange(list, lower, upper);
  return { kind: "list", items: list.items.slice(first, last + 1), ...(list.names ? { names: list.names.slice(first, last + 1) } : {}) };
}

/** `L[lower:upper] = value`: a list replaces that range item by item; anything else replaces the one item at `lower`. */
export function listAssign(list: ListValue, value: Value, lower: Value, upper: Value): Value {
  const [first, last] = itemRange(list, lower, upper);
  const items = [...list.items];
  const names = list.names ? [...list.names] : undefined;
  if (value.kind === "list") {
    if (value.items.length !== last - first + 1) fail(`list assignment: ${last - first + 1} items are replaced by a list of ${value.items.length}`);
    value.items.forEach((item, k) => {
      items[first + k] = item;
      if (names && value.names?.[k] !== undefined) names[first + k] = value.names[k];
    });
  } else {
    if (last !== first) fail(`list assignment: ${last - first + 1} items can only be replaced by a list, not by a ${describeValue(value)}`);
    items[first] = value;
  }
  return { kind: "list", items, ...(names ? { names } : {}) };
}

/** `as.matrix(L)`: a one-item list's matrix (a number as 1 x 1); a longer list of numbers as a column. */
export function listAsMatrix(list: ListValue): Value {
  if (list.items.length === 1) {
    const item = list.items[0]!;
    if (item.kind === "matrix") return item;
    if (item.kind === "scalar" && item.type !== "string") return { kind: "matrix", matrix: matrixFill(num(item), 1, 1) };
    return fail(`as.matrix: the list's item is a ${describeValue(item)}, not a matrix or a number`);
  }
  if (!list.items.every((v) => v.kind === "scalar" && v.type !== "string")) fail(`as.matrix of a list of ${list.items.length} items needs numbers only`);
  return { kind: "matrix", matrix: DenseMatrix.fromRows(list.items.map((v) => [num(v)]), 1) };
}

/** `[rest, removed] = remove(L, i)`. */
function removeFromList(a: CallArgs): Value[] {
  const [list, index] = a.values;
  if (list?.kind !== "list") fail(`remove: the first argument must be a list, found ${list ? `a ${describeValue(list)}` : "nothing"}`);
  if (!index) fail("remove: missing the position to remove");
  const i = num(index, "remove position");
  if (!Number.isInteger(i) || i < 1 || i > list.items.length) fail(`remove: position ${i} is out of range 1..${list.items.length}`);
  const rest: Value = { kind: "list", items: list.items.filter((_, k) => k !== i - 1), ...(list.names ? { names: list.names.filter((_, k) => k !== i - 1) } : {}) };
  return [rest, { kind: "list", items: [list.items[i - 1]!] }];
}

/** The list builtins of the runtime's table (`[a, b]` is the call `[]`). */
export const LIST_BUILTINS: Record<string, (a: CallArgs) => Value> = {
  "[]": (a) => ({ kind: "list", items: a.values }),
};

/** List builtins with several results, each returning all of them. */
export const LIST_MULTI_BUILTINS: Record<string, (a: CallArgs) => Value[]> = {
  remove: removeFromList,
};
