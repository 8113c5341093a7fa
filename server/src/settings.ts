/**
 * The server's settings: `initializationOptions.optimizer` at start, then
 * `dmlLens.optimizer` of each `workspace/didChangeConfiguration`. A value of
 * the wrong type or outside its choices is ignored (the previous value
 * stays) and reported, so a typo in settings.json never breaks the server.
 */
import { SPARSITY_ESTIMATORS, type SparsityEstimator } from "../../engine/analysis";
import type { ExtractionStrategy } from "./optimizer-thread";
import { DEFAULT_SATURATION } from "../../engine/rewrite";
import { DEFAULT_SAVING_THRESHOLDS } from "../../engine/suggest";
import { DEFAULT_EXPECTED_ITERATIONS } from "../../engine/redundancy";

/** The unit in which hints, quick fixes and hovers state a rewrite's cost. */
export type CostUnit = "time" | "flops" | "bytes";

export interface ServerSettings {
  enabled: boolean;
  /** The optimizer's time safety net per block, ms of CPU time (its work is bounded by `nodeLimit`; when this fires, the status bar and hovers say so). */
  budgetMs: number;
  /** The optimizer's work bound: e-nodes per block (the same suggestions on any machine). */
  nodeLimit: number;
  /** The least share of a statement's estimated time a suggestion must save (0.2: 20 %). */
  minSaving: number;
  /** The least estimated time a suggestion must save, ms. */
  minSavingMs: number;
  /** Pause after the last change before optimizing, ms. */
  debounceMs: number;
  /** Dims of assigned matrices as inlay hints. */
  inlayHints: boolean;
  /** Pause after the last change before the full analysis, ms (longer for slow documents: their recent analysis time, at most 200 ms; none after a quiet spell for documents that analyze within it). */
  analysisDelayMs: number;
  /** Window in which keystrokes share one syntax check, ms. */
  syntaxWindowMs: number;
  /** How the cheapest plan is extracted from the saturated e-graph. */
  extraction: ExtractionStrategy;
  /** Which estimate an inexact nnz is. */
  sparsityEstimator: SparsityEstimator;
  /** A size-assumptions file (dml-lens.json format) to use instead of the workspace's dml-lens.json; relative to the workspace folder; "" for the default. */
  sizeAssumptionsFile: string;
  costUnit: CostUnit;
  /** `dmlLens.analysis.readableFolders`: folders analysis may read besides the workspace folders (absolute, or relative to the first workspace folder). */
  readableFolders: string[];
  /** `dmlLens.redundancy.expectedIterations`: how often the redundancy elimination expects a loop to run when its bounds do not say (while loops, unknown bounds). */
  expectedIterations: number;
}

export const DEFAULT_SETTINGS: Readonly<ServerSettings> = {
  enabled: true,
  budgetMs: DEFAULT_SATURATION.timeLimitMs,
  nodeLimit: DEFAULT_SATURATION.nodeLimit,
  minSaving: DEFAULT_SAVING_THRESHOLDS.minSaving,
  minSavingMs: DEFAULT_SAVING_THRESHOLDS.minSavingMs,
  debounceMs: 250,
  inlayHints: true,
  analysisDelayMs: 50,
  syntaxWindowMs: 15,
  extraction: "greedy",
  sparsityEstimator: "mnc",
  sizeAssumptionsFile: "",
  costUnit: "time",
  readableFolders: [],
  expectedIterations: DEFAULT_EXPECTED_ITERATIONS,
};

type Check = (value: unknown) => string | undefined;

const boolean: Check = (v) => (typeof v === "boolean" ? undefined : "true or false");
const milliseconds: Check = (v) => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? undefined : "a number of milliseconds, at least 0");
const positive: Check = (v) => (typeof v === "number" && Number.isFinite(v) && v > 0 ? undefined : "a positive number of milliseconds");
const oneOf = (choices: readonly string[]): Check => (v) => (typeof v === "string" && choices.includes(v) ? undefined : `one of ${choices.map((c) => `"${c}"`).join(", ")}`);
const count: Check = (v) => (typeof v === "number" && Number.isInteger(v) && v > 0 ? undefined : "a positive whole number");
const share: Check = (v) => (typeof v === "number" && v >= 0 && v < 1 ? undefined : "a share from 0 up to (not including) 1, e.g. 0.2");
const string: Check = (v) => (typeof v === "string" ? undefined : "a string");
const strings: Check = (v) => (Array.isArray(v) && v.every((x) => typeof x === "string") ? undefined : "a list of folder paths");

type Section = "optimizer" | "analysis" | "redundancy";

/** The settings of `dmlLens.analysis` and `dmlLens.redundancy` (the rest are `dmlLens.optimizer`'s). */
const SECTION_OF: Partial<Record<keyof ServerSettings, Section>> = { readableFolders: "analysis", expectedIterations: "redundancy" };

const CHECKS: Record<keyof ServerSettings, Check> = {
  enabled: boolean,
  budgetMs: positive,
  nodeLimit: count,
  minSaving: share,
  minSavingMs: milliseconds,
  debounceMs: milliseconds,
  inlayHints: boolean,
  analysisDelayMs: milliseconds,
  syntaxWindowMs: milliseconds,
  extraction: oneOf(["greedy", "ilp"]),
  sparsityEstimator: oneOf(SPARSITY_ESTIMATORS),
  sizeAssumptionsFile: string,
  costUnit: oneOf(["time", "flops", "bytes"]),
  readableFolders: strings,
  expectedIterations: (v) => (typeof v === "number" && Number.isInteger(v) && v > 0 ? undefined : "a positive whole number of iterations"),
};

/** `current` with the valid fields of `optimizer` (`dmlLens.optimizer`), `analysis` (`dmlLens.analysis`) and `redundancy` (`dmlLens.redundancy`); a message for each field left out. */
export function mergeSettings(current: ServerSettings, optimizer: unknown, analysis?: unknown, redundancy?: unknown): { settings: ServerSettings; problems: string[] } {
  const settings = { ...current };
  const problems: string[] = [];
  for (const [section, given] of [["optimizer", optimizer], ["analysis", analysis], ["redundancy", redundancy]] as const) {
    if (given === undefined || given === null) continue;
    if (typeof given !== "object" || Array.isArray(given)) {
      problems.push(`dmlLens.${section} must be an object`);
      continue;
    }
    for (const [key, value] of Object.entries(given)) {
      if (!(key in CHECKS) || (SECTION_OF[key as keyof ServerSettings] ?? "optimizer") !== section) {
        problems.push(`unknown setting dmlLens.${section}.${key}`);
        continue;
      }
      const field = key as keyof ServerSettings;
      const expected = CHECKS[field](value);
      if (expected) problems.push(`dmlLens.${section}.${key} must be ${expected}, not ${JSON.stringify(value)}; keeping ${JSON.stringify(settings[field])}`);
      else (settings as Record<string, unknown>)[field] = value;
    }
  }
  return { settings, problems };
}
