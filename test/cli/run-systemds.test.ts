// `dml run --engine systemds` for real, with stand-ins: a fixture release whose
// bin/systemds is a shell script, and a `java` on PATH that is a shell script
// printing its arguments and the script it was given. They check that output
// is streamed while the process runs, that the exit code is passed on, the
// messages when SystemDS cannot start, option parsing, the check before the
// run and --rewritten (a copy is run, the script is untouched).
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, test } from "node:test";
import { chooseEngine } from "../../cli/run-systemds";
import { systemdsCommand } from "../../cli/systemds-command";
import { systemdsLayout } from "../../cli/systemds-layout";
import { findJava, findSparkSubmit } from "../../cli/java-tools";
import { startSystemds } from "../../cli/systemds-process";
import { UsageError } from "../../cli/usage";
import { repoRoot } from "../repo-root";
import { strToU8, zipSync } from "fflate";

const temp = (name: string) => mkdtempSync(path.join(os.tmpdir(), `dml-run-systemds-${name}-`));

function file(at: string, text = "", executable = false): string {
  mkdirSync(path.dirname(at), { recursive: true });
  writeFileSync(at, text);
  if (executable) chmodSync(at, 0o755);
  return at;
}

/** A release folder: scripts/builtin/, its jar, and a bin/systemds that prints, pauses, prints again and exits 3. */
function fixtureRelease(): string {
  const root = temp("release");
  file(path.join(root, "scripts", "builtin", "twice.dml"), "m_twice = function(Matrix[Double] X) return (Matrix[Double] Y) { Y = 2 * X }\n");
  file(path.join(root, "systemds-3.2.0.jar"), "not really a jar");
  file(
    path.join(root, "bin", "systemds"),
    '#!/bin/sh\necho "launcher: $*"\necho "root=$SYSTEMDS_ROOT quiet=$SYSDS_QUIET"\necho "first line"\nsleep 0.4\necho "second line"\necho "warning on stderr" >&2\nexit 3\n',
    true,
  );
  return root;
}

/** A folder with a `java` that prints its arguments, then the text of the script after -f, then a line on stderr; exits $FAKE_EXIT. */
function fakeJavaFolder(): string {
  const bin = temp("bin");
  file(
    path.join(bin, "java"),
    '#!/bin/sh\nfor a in "$@"; do echo "arg: $a"; done\nprev=""\nfor a in "$@"; do\n  if [ "$prev" = "-f" ]; then echo "--- script"; cat "$a"; echo "--- end"; fi\n  prev="$a"\ndone\necho "java on stderr" >&2\nexit ${FAKE_EXIT:-0}\n',
    true,
  );
  return bin;
}

const fakeBin = fakeJavaFolder();
const home = temp("home");

function dml(args: string[], env: Record<string, string>, cwd = repoRoot) {
  return spawnSync(process.execPath, [path.join(repoRoot, "bin", "dml.js"), "run", ...args], {
    cwd,
    encoding: "utf8",
    env: { PATH: `${fakeBin}:/usr/bin:/bin`, HOME: home, ...env },
  });
}

function userScript(text: string): string {
  return file(path.join(temp("user"), "driver.dml"), text);
}

describe("a launcher's output is streamed and its exit code passed on", () => {
  test("startSystemds: the first line arrives while the process still runs; the exit code is the launcher's", async () => {
    const root = fixtureRelease();
    const location = { kind: "release" as const, location: root, origin: "test", jar: path.join(root, "systemds-3.2.0.jar") };
    const tools = { env: { PATH: fakeBin }, platform: process.platform };
    const built = systemdsCommand(location, systemdsLayout(location), { script: "/w/x.dml", parameters: new Map([["k", "5"]]), exec: "singlenode", workingDirectory: os.tmpdir() }, { java: findJava(tools), sparkSubmit: findSparkSubmit(tools), platform: process.platform, env: {} });
    assert.ok("command" in built);
    const started = Date.now();
    const chunks: { text: string; at: number }[] = [];
    let stderr = "";
    const running = startSystemds(built.command, { stdout: (text) => chunks.push({ text, at: Date.now() - started }), stderr: (text) => (stderr += text) });
    const exit = await running.done;
    const ended = Date.now() - started;
    assert.deepEqual(exit, { exitCode: 3 });
    const stdout = chunks.map((c) => c.text).join("");
    assert.equal(stdout, `launcher: ${root}/systemds-3.2.0.jar -f /w/x.dml -nvargs k=5\nroot=${root} quiet=1\nfirst line\nsecond line\n`);
    assert.equal(stderr, "warning on stderr\n");
    const first = chunks.find((c) => c.text.includes("first line"))!;
    assert.ok(ended - first.at >= 250, `"first line" came ${first.at} ms after the start, the process ended at ${ended} ms: not streamed`);
  });

  test("stop() ends a running launcher and the process it started (its own process group); the signal is reported", async () => {
    const bin = temp("sleeper");
    const sleeper = file(path.join(bin, "systemds"), "#!/bin/sh\necho started\nsleep 30 &\nwait\n", true);
    const running = startSystemds({ program: sleeper, args: [], env: {}, cwd: bin, via: "launcher", notes: [] }, { stdout: () => stop(), stderr: () => undefined }, { ownProcessGroup: true });
    let stopped = false;
    const stop = () => {
      if (!stopped) running.stop();
      stopped = true;
    };
    const started = Date.now();
    const exit = await running.done;
    assert.ok(Date.now() - started < 10_000);
    assert.deepEqual(exit, { exitCode: 128 + os.constants.signals.SIGTERM, signal: "SIGTERM" });
  });

  test("a program that cannot start is a problem, not an exception", async () => {
    const exit = await startSystemds({ program: path.join(temp("none"), "java"), args: [], env: {}, cwd: os.tmpdir(), via: "java", notes: [] }, { stdout: () => undefined, stderr: () => undefined }).done;
    assert.ok("problem" in exit);
    assert.match(exit.problem, /^cannot start .*java: no such program$/);
  });
});

describe("dml run --engine systemds", () => {
  test("through a release's bin/systemds: stdout and stderr passed through, exit code 3 passed on", () => {
    const root = fixtureRelease();
    const script = userScript('print("hi " + $k)\n');
    const r = dml(["--engine", "systemds", script, "k=5"], { SYSTEMDS_ROOT: root });
    assert.equal(r.status, 3, r.stderr);
    assert.equal(r.stdout, `launcher: ${root}/systemds-3.2.0.jar -f ${script} -nvargs k=5\nroot=${root} quiet=1\nfirst line\nsecond line\n`);
    assert.equal(r.stderr, `dml run: on SystemDS 3.2.0 (release ${root}, from SYSTEMDS_ROOT)\nwarning on stderr\n`);
  });

  test("a jar with java from PATH: the java command, the script's text reaches it, its exit code is dml's", () => {
    const jarFolder = temp("jar");
    const jar = path.join(jarFolder, "SystemDS.jar");
    writeFileSync(jar, zipSync({ "scripts/builtin/twice.dml": strToU8("m_twice = function(Matrix[Double] X) return (Matrix[Double] Y) { Y = 2 * X }\n") }));
    const script = userScript('x = 1\nprint("x " + $name)\n');
    const r = dml(["--engine=systemds", "--systemds", jar, "--stats", script, "name=a b"], { FAKE_EXIT: "7" });
    assert.equal(r.status, 7, r.stderr);
    assert.equal(
      r.stdout,
      `arg: -cp\narg: ${jar}\narg: org.apache.sysds.api.DMLScript\narg: -f\narg: ${script}\narg: -exec\narg: singlenode\narg: -stats\narg: -nvargs\narg: name=a b\n--- script\nx = 1\nprint("x " + $name)\n--- end\n`,
    );
    assert.equal(r.stderr, `dml run: on SystemDS (jar ${jar}, from --systemds)\njava on stderr\n`);
  });

  test("--print-command prints the command line (quoted) and runs nothing", () => {
    const root = fixtureRelease();
    const script = userScript('print("hi")\n');
    const r = dml(["--engine", "systemds", "--print-command", "--launcher", "java", script, "X=my data.csv"], { SYSTEMDS_ROOT: root });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, `${fakeBin}/java -cp ${root}/systemds-3.2.0.jar org.apache.sysds.api.DMLScript -f ${script} -exec singlenode -nvargs 'X=my data.csv'\n`);
    // for a cluster: spark-submit by name, even where it is not installed
    const spark = dml(["--engine", "systemds", "--print-command", "--exec", "spark", script, "X=hdfs:/data/X"], { SYSTEMDS_ROOT: root });
    assert.equal(spark.status, 0, spark.stderr);
    assert.equal(spark.stdout, `SYSTEMDS_ROOT=${root} SYSDS_QUIET=1 SYSDS_DISTRIBUTED=1 ${root}/bin/systemds ${root}/systemds-3.2.0.jar -f ${script} -exec spark -nvargs X=hdfs:/data/X\n`);
    const configured = dml(["--engine", "systemds", "--print-command", "--launcher", "java", "--config", "hdfs:/conf/SystemDS-config.xml", script], { SYSTEMDS_ROOT: root });
    assert.match(configured.stdout, / -config hdfs:\/conf\/SystemDS-config\.xml\n$/);
    const viaSubmit = dml(["--engine", "systemds", "--print-command", "--launcher", "java", "--exec", "spark", script, "X=hdfs:/data/X"], { SYSTEMDS_ROOT: root });
    assert.equal(viaSubmit.stdout, `spark-submit --class org.apache.sysds.api.DMLScript ${root}/systemds-3.2.0.jar -f ${script} -exec spark -nvargs X=hdfs:/data/X\n`);
  });

  test("--rewritten runs a copy with the verified rewrites applied; the script itself is unchanged", () => {
    const root = fixtureRelease();
    const text = "A = rand(rows=2000, cols=2000, seed=1)\nB = rand(rows=2000, cols=2000, seed=2)\nv = rand(rows=2000, cols=1, seed=3)\ny = A %*% B %*% v\nprint(sum(y))\n";
    const script = userScript(text);
    const r = dml(["--engine", "systemds", "--launcher", "java", "--rewritten", script], { SYSTEMDS_ROOT: root });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /--- script\n[\s\S]*y = A %\*% \(B %\*% v\)\n[\s\S]*--- end\n$/);
    const copy = /running a copy with 1 rewrite applied: (\S+) \(/.exec(r.stderr)?.[1];
    assert.ok(copy, r.stderr);
    assert.notEqual(copy, script);
    assert.equal(readFileSync(script, "utf8"), text);
    assert.match(r.stdout, new RegExp(`arg: -f\\narg: ${copy.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\n`));
  });

  test("--rewritten also applies ReMac's chosen, verified redundancy options: t(A) %*% A and t(A) %*% b hoisted out of the loop", () => {
    const root = fixtureRelease();
    const text = "A = rand(rows=500, cols=8, min=-1, max=1, seed=1)\nb = rand(rows=500, cols=1, seed=2)\nx = matrix(0, rows=8, cols=1)\nfor (i in 1:30) {\n  x = x - 0.0001 * (t(A) %*% (A %*% x - b))\n}\nprint(sum(x))\n";
    const script = userScript(text);
    const r = dml(["--engine", "systemds", "--launcher", "java", "--rewritten", script], { SYSTEMDS_ROOT: root });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /running a copy with \d+ rewrites? and 2 redundancy options \(`AtA = t\(A\) %\*% A`, `Atb = t\(A\) %\*% b`\) applied/);
    assert.match(r.stdout, /--- script\n[\s\S]*AtA = t\(A\) %\*% A\nAtb = t\(A\) %\*% b\nfor \(i in 1:30\) \{\n  x = x - 0\.0001 \* \(AtA %\*% x - Atb\)\n\}[\s\S]*--- end\n$/);
    assert.equal(readFileSync(script, "utf8"), text);
    const bad = dml(["--engine", "systemds", "--launcher", "java", "--rewritten", "--iterations", "0", script], { SYSTEMDS_ROOT: root });
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--iterations needs a positive whole number/);
  });

  test("the check's errors stop the run (exit 1), as for the embedded runtime; --no-check runs anyway", () => {
    const root = fixtureRelease();
    const script = userScript("y = x + 1\n");
    const r = dml(["--engine", "systemds", "--launcher", "java", script], { SYSTEMDS_ROOT: root });
    assert.equal(r.status, 1);
    assert.match(r.stderr, new RegExp(`^${script.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:1:5: error: `));
    assert.equal(r.stdout, "");
    const unchecked = dml(["--engine", "systemds", "--launcher", "java", "--no-check", script], { SYSTEMDS_ROOT: root });
    assert.equal(unchecked.status, 0, unchecked.stderr);
  });

  test("with -exec spark an input file missing here is not an error (it is on the cluster); with singlenode it is", () => {
    const root = fixtureRelease();
    const script = userScript('X = read("hdfs:/data/X.csv", format="csv", rows=10, cols=2)\nprint(sum(X))\n');
    const spark = dml(["--engine", "systemds", "--print-command", "--exec", "spark", script], { SYSTEMDS_ROOT: root });
    assert.equal(spark.status, 0, spark.stderr);
    const local = dml(["--engine", "systemds", "--print-command", script], { SYSTEMDS_ROOT: root });
    assert.equal(local.status, 1);
    assert.match(local.stderr, /:1:5: error: .*hdfs:\/data\/X\.csv/);
  });

  test("no installation: exit 2 and how to point to one", () => {
    const script = userScript('print("hi")\n');
    const r = dml(["--engine", "systemds", script], {});
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--engine systemds: no SystemDS installation \(set SYSTEMDS_ROOT or give --systemds PATH/);
  });

  test("no java: exit 2 with the reason; an unbuilt source tree: exit 2 with how to build it", () => {
    const root = fixtureRelease();
    const script = userScript('print("hi")\n');
    const noJava = dml(["--engine", "systemds", "--launcher", "java", script], { SYSTEMDS_ROOT: root, PATH: temp("empty") });
    assert.equal(noJava.status, 2);
    assert.match(noJava.stderr, /^dml run: no Java found: JAVA_HOME is not set and there is no 'java' on PATH/m);
    const tree = temp("tree");
    file(path.join(tree, "pom.xml"), "<project><version>3.3.0-SNAPSHOT</version></project>");
    file(path.join(tree, "scripts", "builtin", "twice.dml"), "m_twice = function(Matrix[Double] X) return (Matrix[Double] Y) { Y = 2 * X }\n");
    const unbuilt = dml(["--engine", "systemds", "--systemds", tree, script], {});
    assert.equal(unbuilt.status, 2);
    assert.match(unbuilt.stderr, /dml run: the SystemDS source tree .* is not built: .*mvn clean package -P distribution/);
  });

  test("a value -nvargs cannot pass: exit 2 with SystemDS's rule", () => {
    const root = fixtureRelease();
    const script = userScript("print($e)\n");
    const r = dml(["--engine", "systemds", script, "e=a=b"], { SYSTEMDS_ROOT: root });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /dml run: \$e = 'a=b' holds '='/);
  });
});

describe("dml run's options", () => {
  test("--engine picks the engine (default embedded) and is taken out of the arguments", () => {
    assert.deepEqual(chooseEngine(["x.dml", "--engine", "systemds", "k=1"]), { engine: "systemds", args: ["x.dml", "k=1"] });
    assert.deepEqual(chooseEngine(["--engine=embedded", "x.dml"]), { engine: "embedded", args: ["x.dml"] });
    assert.deepEqual(chooseEngine(["x.dml"]), { engine: "embedded", args: ["x.dml"] });
    assert.throws(() => chooseEngine(["x.dml", "--engine", "spark"]), (e: Error) => e instanceof UsageError && e.message === "dml run: --engine must be embedded or systemds, found 'spark'");
    assert.throws(() => chooseEngine(["x.dml", "--engine"]), /--engine needs a value/);
    assert.throws(() => chooseEngine(["x.dml", "--exec=spark"]), /dml run: --exec works with --engine systemds only/);
  });

  test("usage errors exit 2 with a message", () => {
    const script = userScript('print("hi")\n');
    const cases: [string[], RegExp][] = [
      [["--engine", "systemds", "--cell", "1", script], /--cell works with --engine embedded only/],
      [["--engine", "systemds", "--exec", "cluster", script], /--exec must be one of singlenode, hybrid, spark, found 'cluster'/],
      [["--engine", "systemds", "--memory", "lots", script], /--memory needs a Java heap size such as 4g or 512m, found 'lots'/],
      [["--engine", "systemds", "--launcher", "bash", script], /--launcher must be auto, java or script, found 'bash'/],
      [["--stats", script], /--stats works with --engine systemds only/],
      [["--engine", "systemds"], /no FILE given/],
    ];
    for (const [args, message] of cases) {
      const r = dml(args, {});
      assert.equal(r.status, 2, args.join(" "));
      assert.match(r.stderr, message);
      assert.match(r.stderr, /Run 'dml --help' for usage/);
    }
  });
});
