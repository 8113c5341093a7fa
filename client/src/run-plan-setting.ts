/**
 * The `dmlLens.run.plan` setting as a plan mode: "fused" (the default),
 * "rewritten" or "as-written"; anything else (a typo in settings.json) is
 * the default, as VS Code does for a value outside a setting's enum.
 */
import { DEFAULT_PLAN_MODE, isPlanMode, type PlanMode } from "../../engine/execution";

export const RUN_PLAN_SETTING = "dmlLens.run.plan";

export function runPlanSetting(value: unknown): PlanMode {
  return typeof value === "string" && isPlanMode(value) ? value : DEFAULT_PLAN_MODE;
}
