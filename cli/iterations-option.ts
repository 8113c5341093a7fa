/**
 * `--iterations N` of `dml explain` and `dml run`: how many times the
 * redundancy elimination (engine/redundancy) expects a loop to run when its
 * bounds do not say (while loops, unknown bounds; a counted while loop at
 * most its count), as the `dmlLens.redundancy.expectedIterations` setting
 * does in the editor.
 */
import type { RedundancySettings } from "../engine/redundancy";
import { UsageError } from "./usage";

export const ITERATIONS_OPTION = "--iterations";
export const ITERATIONS_USAGE = "[--iterations N]";

/** The redundancy settings `--iterations` gives (none when it is absent). */
export function iterationsSetting(command: string, value: string | undefined): RedundancySettings {
  if (value === undefined) return {};
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1) throw new UsageError(`${command}: --iterations needs a positive whole number of loop iterations, not '${value}'`);
  return { expectedIterations: count };
}
