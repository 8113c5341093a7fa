/**
 * What the main thread sends a parfor worker for one range of iterations,
 * and what the worker answers. The worker parses the units' texts itself
 * (the same parse as the main thread's, so every range and block is the
 * same), finds the loop by its position, and runs iterations
 * first..last of it in the given variables.
 */
import type { Range } from "../../syntax";
import type { WireValue } from "./parfor-values";

/** A source text whose functions may be called: the loop's own (unit 0), sourced files. */
export interface TaskUnit {
  text: string;
  file?: string;
}

/** A callable name and the function it means: `fn` defined in unit `unit`. */
export interface TaskFunction {
  name: string;
  unit: number;
  fn: string;
}

export interface ParforTask {
  units: TaskUnit[];
  /** The interpreter's function table (host.functions), then unit 0's own (which wins). */
  functions: TaskFunction[];
  /** Where the parfor statement starts in unit 0. */
  loopStart: { line: number; character: number };
  /** The loop variable takes from + k·by for k in [firstIndex, lastIndex]. */
  from: number;
  by: number;
  firstIndex: number;
  lastIndex: number;
  variables: [string, WireValue][];
  /** Variables to send back when the range assigned them (locals) ... */
  locals: string[];
  /** ... and always (results). */
  results: string[];
  params: [string, string][];
  scriptPath?: string;
  workspaceRoot?: string;
  memoryBudget: number;
  /** Which plan the worker's blocks run (engine/execution's plan modes). */
  planMode: string;
}

interface TaskError {
  message: string;
  range?: Range;
  file?: string;
}

export interface ParforReply {
  prints: string[];
  /** Each local the range assigned, with its value at the end of the range. */
  locals: [string, WireValue][];
  results: [string, WireValue][];
  error?: TaskError;
}
