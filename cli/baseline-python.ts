/**
 * The python that runs the numpy/scipy baselines: Debian's (`/usr/bin/python3`
 * with python3-numpy), which the project names as its baseline, when it can
 * import numpy; else the first `python3` on the PATH.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const DEBIAN_PYTHON = "/usr/bin/python3";

let chosen: string | undefined;

export function baselinePython(): string {
  if (chosen === undefined) {
    const debian = existsSync(DEBIAN_PYTHON) && spawnSync(DEBIAN_PYTHON, ["-c", "import numpy"], { timeout: 10_000 }).status === 0;
    chosen = debian ? DEBIAN_PYTHON : "python3";
  }
  return chosen;
}
