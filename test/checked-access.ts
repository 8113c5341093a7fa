/**
 * Checked access for tests: an element or value the test expects to exist,
 * or a failed assertion that says what was missing (instead of a `!` that
 * lets the test crash later on `undefined`).
 */
import assert from "node:assert/strict";

/** Element `index` of `items` (a negative index counts from the end); fails the test when there is none. */
export function at<T>(items: ArrayLike<T>, index: number): T {
  const position = index < 0 ? items.length + index : index;
  const item = position >= 0 ? items[position] : undefined;
  if (item === undefined) assert.fail(`expected an element at index ${index}, but there are ${items.length} elements`);
  return item;
}

/** `value`, which the test expects to be there (`what` says what it is, for the message). */
export function defined<T>(value: T | undefined, what: string): T {
  if (value === undefined) assert.fail(`expected ${what}, found undefined`);
  return value;
}
