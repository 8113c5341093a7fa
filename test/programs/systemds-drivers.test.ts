// Issue 17's "done means": driver scripts in the style of SystemDS's
// perftest drivers (read data, call a builtin, write the model) run end to
// end with a SystemDS installation -- here the test installation of
// test/fixtures/systemds, our own builtin scripts in SystemDS's layout --
// through Run Cell's session and through `dml run --systemds`, and their
// models agree with numpy versions of the same algorithms
// (test/fixtures/systemds-drivers/references.py) run on the same files.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { strToU8, zipSync, type Zippable } from "fflate";
import { baselinePython } from "../../cli/baseline-python";
import { executionSession } from "../../engine/execution";
import { folderInstallation } from "../../engine/program/folder-installation";
import { seededRandom } from "../../engine/stats/structure-random";
import { repoRoot } from "../repo-root";
import { at } from "../checked-access";

const installationFolder = path.join(repoRoot, "test", "fixtures", "systemds");
const drivers = path.join(repoRoot, "test", "fixtures", "systemds-drivers");

type Rows = number[][];

function writeMatrix(folder: string, name: string, rows: Rows): string {
  const file = path.join(folder, `${name}.csv`);
  writeFileSync(file, rows.map((r) => r.map((v) => String(v)).join(",")).join("\n") + "\n");
  writeFileSync(`${file}.mtd`, JSON.stringify({ data_type: "matrix", value_type: "double", rows: rows.length, cols: at(rows, 0).length, format: "csv", header: false, sep: "," }));
  return file;
}

/** The data of every driver, in one folder. */
function writeData(): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), "dml-drivers-"));
  const random = seededRandom(17); // numpy reads the very numbers the runtime reads, from the files
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const n = 240;
  const d = 6;
  const centres = [[3, 0, 0, 1, 0, 0], [-3, 1, 0, 0, 0, 2], [0, -3, 2, 0, 1, 0], [0, 2, -3, -1, 0, 0]];
  const X: Rows = [];
  for (let i = 0; i < n; i++) X.push(at(centres, i % 4).map((c) => c + normal()));
  const w = [1.5, -2, 0.5, 3, -1, 0.25];
  const y = X.map((r) => [r.reduce((s, v, j) => s + v * at(w, j), 0.7) + 0.1 * normal()]);
  const Ysvm = X.map((r) => [at(r, 0) - at(r, 1) + 0.5 * at(r, 2) + 0.3 * normal() > 0 ? 1 : -1]);
  const Yclass = X.map((r) => {
    const scores = [at(r, 0) + at(r, 3), at(r, 1) - at(r, 2), 0.5 * at(r, 4)].map((s) => s + 0.5 * normal());
    return [scores.indexOf(Math.max(...scores)) + 1];
  });
  writeMatrix(folder, "X", X);
  writeMatrix(folder, "y", y);
  writeMatrix(folder, "Ysvm", Ysvm);
  writeMatrix(folder, "Yclass", Yclass);
  const images: Rows = [];
  const labels: Rows = [];
  for (let i = 0; i < 4; i++) {
    images.push(Array.from({ length: 144 }, () => random()));
    labels.push([0, 1, 2].map((k) => (k === i % 3 ? 1 : 0)));
  }
  writeMatrix(folder, "images", images);
  writeMatrix(folder, "labels", labels);
  return folder;
}

/** The test installation packed as a SystemDS jar would hold it (`scripts/...` entries). */
function writeJar(): string {
  const entries: Zippable = {};
  const add = (folder: string, prefix: string) => {
    for (const name of readdirSync(folder)) {
      const full = path.join(folder, name);
      if (statSync(full).isDirectory()) add(full, `${prefix}${name}/`);
      else entries[`${prefix}${name}`] = strToU8(readFileSync(full, "utf8"));
    }
  };
  add(path.join(installationFolder, "scripts"), "scripts/");
  const jar = path.join(mkdtempSync(path.join(os.tmpdir(), "dml-jar-")), "systemds-3.2.0.jar");
  writeFileSync(jar, zipSync(entries));
  return jar;
}

function readCsv(file: string): Rows {
  return readFileSync(file, "utf8").trim().split("\n").map((line) => line.split(",").map(Number));
}

function reference(algorithm: string, data: string): Record<string, unknown> {
  const run = spawnSync(baselinePython(), [path.join(drivers, "references.py"), algorithm, data], { encoding: "utf8", timeout: 120_000 });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

function assertClose(actual: Rows, expected: Rows, tolerance: number, what: string): void {
  assert.equal(actual.length, expected.length, `${what}: rows`);
  assert.equal(at(actual, 0).length, at(expected, 0).length, `${what}: columns`);
  const scale = Math.max(1, ...expected.flat().map(Math.abs));
  actual.forEach((row, i) =>
    row.forEach((v, j) => {
      const reference = at(at(expected, i), j);
      assert.ok(Math.abs(v - reference) <= tolerance * scale, `${what}[${i + 1},${j + 1}] = ${v}, numpy ${reference}`);
    }),
  );
}

/** Eigenvectors are defined up to their sign: each column's largest entry made positive. */
function signNormalised(columns: Rows, alsoApplyTo?: Rows): { m: Rows; other?: Rows } {
  const m = columns.map((r) => [...r]);
  const other = alsoApplyTo?.map((r) => [...r]);
  for (let j = 0; j < at(m, 0).length; j++) {
    const largest = m.reduce((best, r) => (Math.abs(at(r, j)) > Math.abs(best) ? at(r, j) : best), 0);
    if (largest < 0) {
      for (const r of m) r[j] = -at(r, j);
      if (other) for (const r of other) r[j] = -at(r, j);
    }
  }
  return other ? { m, other } : { m };
}

interface Driver {
  script: string;
  params: (data: string, out: string) => Record<string, string>;
  check: (out: string, numpy: Record<string, unknown>, printed: string[]) => void;
}

const DRIVERS: Record<string, Driver> = {
  linreg_cg: {
    script: "linreg_cg.dml",
    params: (data, out) => ({ X: `${data}/X.csv`, Y: `${data}/y.csv`, icpt: "1", reg: "0.001", maxi: "0", B: `${out}/B.csv` }),
    check: (out, numpy, printed) => {
      assertClose(readCsv(`${out}/B.csv`), numpy.B as Rows, 1e-9, "B");
      assert.match(printed.join("\n"), /coefficients: 7, sum /);
    },
  },
  linreg: {
    script: "linreg.dml",
    params: (data, out) => ({ X: `${data}/X.csv`, Y: `${data}/y.csv`, B: `${out}/B.csv` }),
    check: (out, numpy) => assertClose(readCsv(`${out}/B.csv`), numpy.B as Rows, 1e-9, "B"),
  },
  kmeans: {
    script: "kmeans.dml",
    params: (data, out) => ({ X: `${data}/X.csv`, k: "4", C: `${out}/C.csv`, Yout: `${out}/Y.csv` }),
    check: (out, numpy) => {
      assertClose(readCsv(`${out}/C.csv`), numpy.C as Rows, 1e-9, "C");
      assert.deepEqual(readCsv(`${out}/Y.csv`).map((r) => r[0]), numpy.Y as number[]);
    },
  },
  pca: {
    script: "pca.dml",
    params: (data, out) => ({ X: `${data}/X.csv`, K: "2", M: `${out}/M.csv`, Xout: `${out}/Xout.csv` }),
    check: (out, numpy) => {
      const ours = signNormalised(readCsv(`${out}/M.csv`), readCsv(`${out}/Xout.csv`));
      const theirs = signNormalised(numpy.M as Rows, numpy.Xout as Rows);
      assertClose(ours.m, theirs.m, 1e-8, "M");
      assertClose(ours.other!, theirs.other!, 1e-8, "Xout");
    },
  },
  l2svm: {
    script: "l2svm.dml",
    params: (data, out) => ({ X: `${data}/X.csv`, Y: `${data}/Ysvm.csv`, model: `${out}/w.csv` }),
    check: (out, numpy) => assertClose(readCsv(`${out}/w.csv`), numpy.model as Rows, 1e-8, "w"),
  },
  multilogreg: {
    script: "multilogreg.dml",
    params: (data, out) => ({ X: `${data}/X.csv`, Y: `${data}/Yclass.csv`, B: `${out}/B.csv` }),
    check: (out, numpy) => assertClose(readCsv(`${out}/B.csv`), numpy.B as Rows, 1e-8, "B"),
  },
  lenet_step: {
    script: "lenet_step.dml",
    params: (data, out) => ({ X: `${data}/images.csv`, Y: `${data}/labels.csv`, H: "12", W1: `${out}/W1.csv`, W2: `${out}/W2.csv` }),
    check: (out, numpy, printed) => {
      const loss = Number(/loss (\S+)/.exec(printed.join("\n"))?.[1]);
      assert.ok(Math.abs(loss - (numpy.loss as number)) <= 1e-10 * Math.abs(numpy.loss as number), `loss ${loss}, numpy ${numpy.loss}`);
      assertClose(readCsv(`${out}/W1.csv`), numpy.W1 as Rows, 1e-10, "W1");
      assertClose(readCsv(`${out}/W2.csv`), numpy.W2 as Rows, 1e-10, "W2");
    },
  },
};

const python = (() => {
  try {
    return baselinePython();
  } catch {
    return undefined;
  }
})();
const numpyMissing = python === undefined || spawnSync(python, ["-c", "import numpy"], { timeout: 20_000 }).status !== 0;
const skip = numpyMissing ? "python3 with numpy is not installed (the references are numpy programs)" : false;

describe("SystemDS-style driver scripts with a SystemDS installation agree with numpy", { skip }, () => {
  const data = numpyMissing ? "" : writeData();
  const installation = folderInstallation(installationFolder, "test")!;

  for (const [name, driver] of Object.entries(DRIVERS)) {
    it(`${name}: Run Cell's session`, () => {
      const out = mkdtempSync(path.join(os.tmpdir(), `dml-${name}-`));
      const printed: string[] = [];
      const scriptPath = path.join(drivers, driver.script);
      const { session } = executionSession({ scriptPath, params: driver.params(data, out), installation, print: (line) => printed.push(line) });
      const result = session.runScript(readFileSync(scriptPath, "utf8"));
      assert.deepEqual(result.errors, []);
      driver.check(out, reference(name, data), printed);
    });

    // The folder for most drivers; the jar for two (a builtin that calls another, and nn layers sourced from the jar).
    const where = name === "linreg" || name === "lenet_step" ? "a jar" : "a source tree";
    it(`${name}: dml run --systemds with ${where}`, () => {
      const out = mkdtempSync(path.join(os.tmpdir(), `dml-${name}-cli-`));
      const args = Object.entries(driver.params(data, out)).map(([key, value]) => `${key}=${value}`);
      const systemds = where === "a jar" ? writeJar() : installationFolder;
      const run = spawnSync(process.execPath, [path.join(repoRoot, "bin", "dml.js"), "run", path.join(drivers, driver.script), "--systemds", systemds, ...args], { encoding: "utf8", timeout: 300_000 });
      assert.equal(run.status, 0, run.stderr + run.stdout);
      driver.check(out, reference(name, data), run.stdout.split("\n"));
    });
  }
});
