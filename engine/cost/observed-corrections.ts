/**
 * The calibration feedback: how much slower (or faster) than the cost
 * model's estimate each operation class (operation-class.ts) ran on this
 * machine, from the measured times of runs, and the bounded correction of
 * the estimates it gives.
 *
 * An observation is one operation of one run: its measured seconds over its
 * estimated seconds (over all its executions in that run), the estimate
 * computed with the machine constants in effect. Per class the last
 * OBSERVATIONS_KEPT observations are kept; the class' correction is their
 * median, applied only once MIN_OBSERVATIONS are there and clamped to
 * [1 / MAX_CORRECTION, MAX_CORRECTION]. So one outlier (a run disturbed by
 * another program, a cold cache) never moves a correction: it takes more
 * than half of the kept observations, and the clamp bounds what even a
 * consistent miss can do (the calibration command is the way to change the
 * constants themselves). Each observation is clamped to
 * [1 / MAX_OBSERVED_RATIO, MAX_OBSERVED_RATIO] on the way in.
 *
 * Observations are relative to the constants they were made with: a set
 * carries the key of those constants (`constantsKey`) and is void for any
 * other constants (after `npx dml bench calibrate` measured new ones).
 */
import { MACHINE_CONSTANT_INFO, type MachineConstants } from "./machine-constants";
import { isOperationClass, OPERATION_CLASSES, type OperationClass } from "./operation-class";

export const OBSERVATIONS_KEPT = 25;
export const MIN_OBSERVATIONS = 3;
export const MAX_CORRECTION = 10;
const MAX_OBSERVED_RATIO = 1000;

export interface ObservedTimes {
  /** The constants the estimates were made with (constantsKey). */
  constantsKey: string;
  /** Per class, measured / estimated of the latest observations, oldest first. */
  ratios: Partial<Record<OperationClass, number[]>>;
}

export interface Observation {
  operationClass: OperationClass;
  estimatedSeconds: number;
  measuredSeconds: number;
}

/** Per class, the factor its estimates are multiplied by (classes without enough observations are absent). */
export type Corrections = ReadonlyMap<OperationClass, number>;

export const NO_CORRECTIONS: Corrections = new Map();

/** The key of a set of constants: their values in a fixed order. */
export function constantsKey(constants: MachineConstants): string {
  return MACHINE_CONSTANT_INFO.map(({ name }) => constants[name]).join(",");
}

export function emptyObservedTimes(constants: MachineConstants): ObservedTimes {
  return { constantsKey: constantsKey(constants), ratios: {} };
}

/**
 * `observed` with `observations` added (a new set when it was made with other
 * constants); observations without a positive estimate or measurement are skipped.
 */
export function addObservations(observed: ObservedTimes, constants: MachineConstants, observations: readonly Observation[]): ObservedTimes {
  const key = constantsKey(constants);
  const ratios: Partial<Record<OperationClass, number[]>> = observed.constantsKey === key ? { ...observed.ratios } : {};
  for (const o of observations) {
    if (!(o.estimatedSeconds > 0) || !(o.measuredSeconds > 0) || !Number.isFinite(o.measuredSeconds / o.estimatedSeconds)) continue;
    const ratio = clamp(o.measuredSeconds / o.estimatedSeconds, 1 / MAX_OBSERVED_RATIO, MAX_OBSERVED_RATIO);
    ratios[o.operationClass] = [...(ratios[o.operationClass] ?? []), ratio].slice(-OBSERVATIONS_KEPT);
  }
  return { constantsKey: key, ratios };
}

/** The corrections for estimates made with `constants` (none when the observations were made with others). */
export function corrections(observed: ObservedTimes, constants: MachineConstants): Corrections {
  const factors = new Map<OperationClass, number>();
  if (observed.constantsKey !== constantsKey(constants)) return factors;
  for (const cls of OPERATION_CLASSES) {
    const factor = correctionOf(observed.ratios[cls] ?? []);
    if (factor !== undefined) factors.set(cls, factor);
  }
  return factors;
}

/** The median of the kept observations, clamped; undefined below MIN_OBSERVATIONS. */
export function correctionOf(ratios: readonly number[]): number | undefined {
  const kept = ratios.slice(-OBSERVATIONS_KEPT).filter((r) => Number.isFinite(r) && r > 0);
  if (kept.length < MIN_OBSERVATIONS) return undefined;
  return clamp(median(kept), 1 / MAX_CORRECTION, MAX_CORRECTION);
}

/** An estimate with its class' correction applied (unchanged without a class or a correction). */
export function correctedSeconds(seconds: number, cls: OperationClass | undefined, factors: Corrections): number {
  return cls === undefined ? seconds : seconds * (factors.get(cls) ?? 1);
}

/** Reads observations out of parsed JSON; anything malformed is dropped (never throws). */
export function observedFromJson(parsed: unknown): ObservedTimes | undefined {
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined;
  const body = parsed as Record<string, unknown>;
  if (typeof body.constantsKey !== "string") return undefined;
  const ratios: Partial<Record<OperationClass, number[]>> = {};
  const given = typeof body.ratios === "object" && body.ratios !== null ? (body.ratios as Record<string, unknown>) : {};
  for (const [cls, list] of Object.entries(given)) {
    if (!isOperationClass(cls) || !Array.isArray(list)) continue;
    const valid = list.filter((r): r is number => typeof r === "number" && Number.isFinite(r) && r > 0).map((r) => clamp(r, 1 / MAX_OBSERVED_RATIO, MAX_OBSERVED_RATIO));
    if (valid.length > 0) ratios[cls] = valid.slice(-OBSERVATIONS_KEPT);
  }
  return { constantsKey: body.constantsKey, ratios };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : Math.sqrt(sorted[mid - 1]! * sorted[mid]!);
}

function clamp(x: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, x));
}
