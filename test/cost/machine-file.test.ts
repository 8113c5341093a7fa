// Machine constants on disk (engine/cost/machine-file.ts): where the file is,
// and that loading never throws: a missing or bad file gives the defaults.
import { strict as assert } from "node:assert";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import {
  DEFAULT_MACHINE_CONSTANTS,
  loadMachineConstants,
  machineFilePath,
  saveMachineConstants,
  type MachineConstants,
} from "../../engine/cost";

const dir = mkdtempSync(path.join(os.tmpdir(), "dml-lens-machine-"));
after(() => rmSync(dir, { recursive: true, force: true }));

function fileWith(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

describe("machine file path", () => {
  test("DML_LENS_MACHINE wins, then XDG_CACHE_HOME, then ~/.cache", () => {
    assert.equal(machineFilePath({ DML_LENS_MACHINE: "/tmp/m.json", XDG_CACHE_HOME: "/x" }, "/home/u"), "/tmp/m.json");
    assert.equal(machineFilePath({ XDG_CACHE_HOME: "/x" }, "/home/u"), "/x/dml-lens/machine.json");
    assert.equal(machineFilePath({}, "/home/u"), "/home/u/.cache/dml-lens/machine.json");
  });

  test("an empty DML_LENS_MACHINE or a relative XDG_CACHE_HOME is ignored", () => {
    assert.equal(machineFilePath({ DML_LENS_MACHINE: "", XDG_CACHE_HOME: "rel" }, "/home/u"), "/home/u/.cache/dml-lens/machine.json");
  });
});

describe("loading never throws", () => {
  test("a missing file gives the defaults and says so", () => {
    const r = loadMachineConstants(path.join(dir, "absent.json"));
    assert.deepEqual(r.constants, DEFAULT_MACHINE_CONSTANTS);
    assert.equal(r.source, "defaults");
    assert.match(r.message ?? "", /no calibration file/);
  });

  test("invalid JSON gives the defaults", () => {
    const r = loadMachineConstants(fileWith("bad.json", "{ not json"));
    assert.deepEqual(r.constants, DEFAULT_MACHINE_CONSTANTS);
    assert.match(r.message ?? "", /not valid JSON/);
  });

  test("JSON that is not an object gives the defaults", () => {
    for (const text of ["[1, 2]", "null", "42"]) {
      const r = loadMachineConstants(fileWith("array.json", text));
      assert.deepEqual(r.constants, DEFAULT_MACHINE_CONSTANTS, text);
      assert.equal(r.source, "defaults");
    }
  });

  test("a directory in place of the file gives the defaults", () => {
    const sub = path.join(dir, "a-dir.json");
    mkdirSync(sub);
    const r = loadMachineConstants(sub);
    assert.equal(r.source, "defaults");
    assert.match(r.message ?? "", /cannot read/);
  });

  test("invalid or missing constants are taken from the defaults, valid ones kept", () => {
    const text = JSON.stringify({ constants: { flopsPerSecond: 2e9, memoryBandwidthBytesPerSecond: -1, sparseFlopsPerSecond: "fast" } });
    const r = loadMachineConstants(fileWith("partial.json", text));
    assert.equal(r.source, "partial");
    assert.equal(r.constants.flopsPerSecond, 2e9);
    assert.equal(r.constants.memoryBandwidthBytesPerSecond, DEFAULT_MACHINE_CONSTANTS.memoryBandwidthBytesPerSecond);
    assert.equal(r.constants.sparseFlopsPerSecond, DEFAULT_MACHINE_CONSTANTS.sparseFlopsPerSecond);
    assert.match(r.message ?? "", /memoryBandwidthBytesPerSecond \(invalid: -1\)/);
    assert.match(r.message ?? "", /diskReadBytesPerSecond \(missing\)/);
  });

  test("a flat, hand-written object of constants is accepted", () => {
    const flat: MachineConstants = { ...DEFAULT_MACHINE_CONSTANTS, flopsPerSecond: 3e9 };
    const r = loadMachineConstants(fileWith("flat.json", JSON.stringify(flat)));
    assert.equal(r.source, "file");
    assert.equal(r.constants.flopsPerSecond, 3e9);
  });
});

describe("saving", () => {
  test("save then load gives the same constants, creating folders", () => {
    const file = path.join(dir, "nested", "deeper", "machine.json");
    const constants: MachineConstants = {
      memoryBandwidthBytesPerSecond: 12e9,
      writeBandwidthBytesPerSecond: 6e9,
      flopsPerSecond: 1.5e9,
      sparseFlopsPerSecond: 0.4e9,
      diskReadBytesPerSecond: 0.5e9,
    };
    assert.deepEqual(saveMachineConstants(constants, file, { gemmSize: 384 }), { ok: true, path: file });
    const r = loadMachineConstants(file);
    assert.equal(r.source, "file");
    assert.deepEqual(r.constants, constants);
    assert.equal(r.message, undefined);
  });

  test("a path that cannot be written is reported, not thrown", () => {
    const blocker = fileWith("blocker", "x");
    const r = saveMachineConstants(DEFAULT_MACHINE_CONSTANTS, path.join(blocker, "machine.json"));
    assert.equal(r.ok, false);
    assert.match(r.message ?? "", /cannot write/);
  });
});
