/**
 * Redundancy options checked before they are offered or executed: each is
 * applied to the text (engine/redundancy/apply-redundancy.ts) and the
 * original and edited scripts are run on random data (verify-script-edit.ts).
 * An option that cannot be applied or whose edited script differs is dropped
 * with the reason. Bounded by a count of options checked.
 */
import { applyRedundancy, type AppliedOption, type RedundancyOption } from "../redundancy";
import type { TextEdit } from "../syntax";
import type { ProgramAnalysis } from "../analysis";
import { verifyScriptEdit, type ScriptVerifyOptions } from "./verify-script-edit";

/** Options checked per call; the rest are dropped as not checked. */
export const MAX_VERIFIED_OPTIONS = 12;

export interface VerifiedOption {
  option: RedundancyOption;
  applied: AppliedOption;
  /** The edits on the original text that apply it alone. */
  edits: TextEdit[];
}

export interface DroppedOption {
  id: string;
  reason: string;
}

export interface RedundancyVerdicts {
  verified: VerifiedOption[];
  dropped: DroppedOption[];
}

/** Each option applied alone and checked by the runtime (`analysis` is that of `text`, as findRedundancy's). */
export function verifyRedundancyOptions(text: string, analysis: ProgramAnalysis, options: readonly RedundancyOption[], verify: ScriptVerifyOptions & { maxOptions?: number } = {}): RedundancyVerdicts {
  const verified: VerifiedOption[] = [];
  const dropped: DroppedOption[] = [];
  const limit = verify.maxOptions ?? MAX_VERIFIED_OPTIONS;
  for (const [k, option] of options.entries()) {
    if (k >= limit) {
      dropped.push({ id: option.id, reason: `not checked: only the first ${limit} options are checked` });
      continue;
    }
    // The analysis's parse of the text: a parse of a long document costs more than the rest of an application (the server checks one option per task).
    const application = applyRedundancy(text, [option], analysis.parsed);
    const refused = application.refused[0];
    if (refused !== undefined) {
      dropped.push({ id: option.id, reason: `cannot apply it: ${refused.reason}` });
      continue;
    }
    const verdict = verifyScriptEdit(text, application.edits, analysis, verify);
    if (!verdict.verified) {
      dropped.push({ id: option.id, reason: `the runtime check failed: ${verdict.reason}` });
      continue;
    }
    verified.push({ option, applied: application.applied[0]!, edits: application.edits });
  }
  return { verified, dropped };
}
