/**
 * The setting `dmlLens.systemds.home` as a path. Kept apart from
 * systemds-setting.ts so the client reads it without the engine.
 */
import path from "node:path";

export const SYSTEMDS_HOME_SETTING = "dmlLens.systemds.home";
/** The setting's value as a path to look at; a message when it is not a string. */
export function settingPath(value: unknown, workspaceFolder: string | undefined): { path?: string; problem?: string } {
  if (value === undefined || value === null || value === "") return {};
  if (typeof value !== "string") return { problem: `${SYSTEMDS_HOME_SETTING} must be a path (a string), not ${JSON.stringify(value)}` };
  const trimmed = value.trim();
  if (trimmed === "") return {};
  const absolute = trimmed.startsWith("~") || path.isAbsolute(trimmed) || workspaceFolder === undefined ? trimmed : path.resolve(workspaceFolder, trimmed);
  return { path: absolute };
}
