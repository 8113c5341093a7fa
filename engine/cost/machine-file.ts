/**
 * Where calibrated machine constants are stored, and loading / saving them.
 *
 * The file is, in this order of precedence:
 * 1. the path in the environment variable `DML_LENS_MACHINE`, if set and not empty;
 * 2. `$XDG_CACHE_HOME/dml-lens/machine.json`, if XDG_CACHE_HOME is set to an absolute path;
 * 3. `~/.cache/dml-lens/machine.json`.
 *
 * Its shape (written by `npx dml bench calibrate`):
 *   { "version": 1, "measuredAt": "2025-…Z", "constants": { "memoryBandwidthBytesPerSecond": n, ... },
 *     "notes": { ... } }
 * A flat object of constants (without "constants") is accepted too, so a
 * user can write the file by hand.
 *
 * Loading never throws: a missing, unreadable or malformed file gives the
 * defaults, and any missing or invalid (non-positive, non-numeric) constant
 * is taken from the defaults; `message` then says what happened. The file
 * is read and written through a FileSystem (the disk by default).
 */
import os from "node:os";
import path from "node:path";
import { dmlLensCacheDir, fileKind, type FileSystem, nodeFileSystem, writeTextFile } from "../files";
import { DEFAULT_MACHINE_CONSTANTS, isValidConstant, MACHINE_CONSTANT_INFO, type MachineConstants } from "./machine-constants";

export const MACHINE_FILE_ENV = "DML_LENS_MACHINE";
const MACHINE_FILE_VERSION = 1;

export interface LoadedMachineConstants {
  constants: MachineConstants;
  /** "file": every constant came from the file; "partial": some did; "defaults": none did. */
  source: "file" | "partial" | "defaults";
  path: string;
  /** What went wrong or was filled in, when `source` is not "file". */
  message?: string;
}

type Env = Readonly<Record<string, string | undefined>>;

/** The machine file path for this environment (see the file comment). */
export function machineFilePath(env: Env = process.env, homeDir: string = os.homedir()): string {
  const explicit = env[MACHINE_FILE_ENV];
  if (explicit !== undefined && explicit !== "") return path.resolve(explicit);
  return path.join(dmlLensCacheDir(env, homeDir), "machine.json");
}

/** Loads the constants from `file` (default: `machineFilePath()`); never throws. */
export function loadMachineConstants(file: string = machineFilePath(), fs: FileSystem = nodeFileSystem): LoadedMachineConstants {
  const text = fs.readFile(file);
  if (text === undefined) {
    const kind = fileKind(fs, file);
    const why = kind === "missing" ? "no calibration file" : kind === "file" ? "cannot read the calibration file" : "cannot read the calibration file (it is not a regular file)";
    return defaultsBecause(file, `${why} at ${file}; using default machine constants (run \`npx dml bench calibrate\`)`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return defaultsBecause(file, `${file} is not valid JSON (${(error as Error).message}); using default machine constants`);
  }
  return constantsFromJson(parsed, file);
}

/** Reads constants out of a parsed machine file; invalid or missing ones are defaults. */
function constantsFromJson(parsed: unknown, file: string): LoadedMachineConstants {
  if (!isObject(parsed)) return defaultsBecause(file, `${file} does not hold a JSON object; using default machine constants`);
  const body = isObject(parsed.constants) ? parsed.constants : parsed;
  const constants: MachineConstants = { ...DEFAULT_MACHINE_CONSTANTS };
  const defaulted: string[] = [];
  for (const { name } of MACHINE_CONSTANT_INFO) {
    const value = body[name];
    if (isValidConstant(value)) constants[name] = value;
    else defaulted.push(value === undefined ? `${name} (missing)` : `${name} (invalid: ${JSON.stringify(value)})`);
  }
  if (defaulted.length === 0) return { constants, source: "file", path: file };
  const source = defaulted.length === MACHINE_CONSTANT_INFO.length ? "defaults" : "partial";
  return { constants, source, path: file, message: `${file}: default used for ${defaulted.join(", ")}` };
}

export interface SaveResult {
  ok: boolean;
  path: string;
  message?: string;
}

/** Writes the constants (with optional notes) to `file` atomically; never throws. */
export function saveMachineConstants(
  constants: MachineConstants,
  file: string = machineFilePath(),
  notes: Readonly<Record<string, string | number | boolean | null>> = {},
  fs: FileSystem = nodeFileSystem,
): SaveResult {
  const body = {
    version: MACHINE_FILE_VERSION,
    measuredAt: new Date().toISOString(),
    constants,
    notes,
  };
  try {
    writeTextFile(fs, file, JSON.stringify(body, null, 2) + "\n", { atomic: true });
    return { ok: true, path: file };
  } catch (error) {
    return { ok: false, path: file, message: `cannot write ${file}: ${(error as Error).message}` };
  }
}

function defaultsBecause(file: string, message: string): LoadedMachineConstants {
  return { constants: { ...DEFAULT_MACHINE_CONSTANTS }, source: "defaults", path: file, message };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
