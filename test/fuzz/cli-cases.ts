/**
 * The hostile command lines of the `cli` fuzz harness, drawn with fast-check
 * from a seed: each case is a descriptor (what to do) that `materialize`
 * turns into files in the fixture folder and the `dml` arguments.
 *
 * - Mutated real scripts (examples/*.dml): token deletions, duplications,
 *   swaps, numeric literals replaced by 0, -1, 1e-308, 1e308 or NaN,
 *   truncation at a character, and the text re-encoded with a BOM, CRLF line
 *   ends or unicode inserted.
 * - Extremes: nesting 10,000 deep (brackets, operator chains, blocks, `^`,
 *   prefix operators), 200,000-line scripts, 5 MB lines, negative or tiny
 *   dims, call trees, source() of cycles, diamonds, missing files, folders,
 *   devices, FIFOs, binaries and huge files, bad `dml lsp` transports.
 */
import fc from "fast-check";
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

export type Command = "check" | "explain" | "run";

export type Mutation =
  | { op: "delete" | "duplicate"; at: number }
  | { op: "swap"; at: number; with: number }
  | { op: "literal"; at: number; value: string }
  | { op: "truncate"; at: number };

export type Encoding = "plain" | "bom" | "crlf" | "unicode";

export type CaseDescriptor =
  | { kind: "mutated"; example: number; mutations: Mutation[]; encoding: Encoding; command: Command }
  | { kind: "extreme"; name: ExtremeName; command: Command };

export const EXTREMES = [
  "brackets-10000",
  "chain-10000",
  "chain-3000",
  "blocks-10000",
  "power-10000",
  "prefix-10000",
  "calls-10000",
  "lines-200000",
  "line-5mb",
  "unicode",
  "dims",
  "call-tree",
  "source-cycle",
  "source-self",
  "source-diamond",
  "source-missing",
  "source-folder",
  "source-device",
  "source-fifo",
  "source-binary",
  "source-huge",
  "source-syntax",
  "lsp-socket",
] as const;
export type ExtremeName = (typeof EXTREMES)[number];

/** Extremes whose input is huge: their time is measured apart, with its own bound. */
export const HUGE_EXTREMES: ReadonlySet<ExtremeName> = new Set(["lines-200000", "line-5mb"]);

/** Extremes that run only as real subprocesses (big files or the process's own binary: time and RSS are measured by the OS). */
export const SUBPROCESS_EXTREMES: ReadonlySet<ExtremeName> = new Set(["lines-200000", "line-5mb", "source-huge", "lsp-socket"]);

const LITERALS = ["0", "-1", "1e-308", "1e308", "NaN"];

const fraction = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constantFrom("delete" as const, "duplicate" as const), at: fraction }),
  fc.record({ op: fc.constant("swap" as const), at: fraction, with: fraction }),
  { weight: 2, arbitrary: fc.record({ op: fc.constant("literal" as const), at: fraction, value: fc.constantFrom(...LITERALS) }) },
  fc.record({ op: fc.constant("truncate" as const), at: fraction }),
);
const command: fc.Arbitrary<Command> = fc.oneof({ weight: 14, arbitrary: fc.constant("check" as const) }, { weight: 3, arbitrary: fc.constant("explain" as const) }, { weight: 3, arbitrary: fc.constant("run" as const) });

export function caseArbitrary(exampleCount: number): fc.Arbitrary<CaseDescriptor> {
  return fc.oneof(
    {
      weight: 9,
      arbitrary: fc.record({
        kind: fc.constant("mutated" as const),
        example: fc.nat({ max: exampleCount - 1 }),
        mutations: fc.array(mutation, { minLength: 1, maxLength: 3 }),
        encoding: fc.oneof({ weight: 7, arbitrary: fc.constant("plain" as const) }, fc.constantFrom("bom" as const, "crlf" as const, "unicode" as const)),
        command,
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("extreme" as const), name: fc.constantFrom(...EXTREMES), command }) },
  );
}

/** The tokens of a script, whitespace included, so that joining them gives the text back. */
export function tokenize(text: string): string[] {
  return text.match(/\s+|[A-Za-z_][A-Za-z0-9_.]*|[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?|"(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?|#[^\n]*|./gs) ?? [];
}

/** The script with the mutations applied, in order (positions are fractions of the current length). */
export function mutate(text: string, mutations: readonly Mutation[]): string {
  let current = text;
  for (const m of mutations) {
    if (m.op === "truncate") {
      current = current.slice(0, Math.floor(m.at * current.length));
      continue;
    }
    const tokens = tokenize(current);
    const meaningful = tokens.map((t, i) => [t, i] as const).filter(([t]) => !/^\s+$/.test(t));
    if (meaningful.length === 0) continue;
    const pick = (f: number) => meaningful[Math.floor(f * meaningful.length)]![1];
    const i = pick(m.at);
    if (m.op === "delete") tokens.splice(i, 1);
    else if (m.op === "duplicate") tokens.splice(i, 0, tokens[i]!);
    else if (m.op === "swap") {
      const j = pick(m.with);
      [tokens[i], tokens[j]] = [tokens[j]!, tokens[i]!];
    } else if (m.op === "literal") {
      const numbers = tokens.map((t, k) => [t, k] as const).filter(([t]) => /^[0-9]/.test(t));
      if (numbers.length === 0) continue;
      tokens[numbers[Math.floor(m.at * numbers.length)]![1]] = m.value;
    }
    current = tokens.join("");
  }
  return current;
}

export function encode(text: string, encoding: Encoding): string {
  if (encoding === "bom") return "\uFEFF" + text;
  if (encoding === "crlf") return text.replace(/\r?\n/g, "\r\n");
  if (encoding === "unicode") return `# ünïcødé ∑ 𝔁 😀\nμ = "😀 ∂x/∂y"\n` + text.replace(/\n/, "\n# → \u00e9\u0301 \u200b\n");
  return text;
}

export interface MaterializedCase {
  /** The `dml` arguments (paths absolute). */
  args: string[];
  /** The script's text as written (for the failure report). */
  text: string;
  /** Run as a real `node dist/cli.js` subprocess. */
  subprocess: boolean;
}

/** Command-line options that keep explain and run within a case's bounds (work limits; run's wall-clock one is a safety net). */
export function commandArgs(commandName: Command, file: string): string[] {
  if (commandName === "explain") return ["explain", file, "--node-limit", "300"];
  if (commandName === "run") return ["run", file, "--time-limit", "3", "--memory-budget", String(256 * 1024 * 1024)];
  return ["check", file];
}

/** The fixture folder: library files for the source() cases, a FIFO and a folder. */
export function prepareFixture(root: string, repoRoot: string): void {
  mkdirSync(path.join(root, "lib", "folder.dml"), { recursive: true });
  const lib = (name: string, text: string) => writeFileSync(path.join(root, "lib", name), text);
  lib("a.dml", 'source("b.dml") as b\nfa = function(double x) return (double y) { y = x + 1 }\n');
  lib("b.dml", 'source("a.dml") as a\nfb = function(double x) return (double y) { y = x * 2 }\n');
  lib("top.dml", 'source("left.dml") as l\nsource("right.dml") as r\n');
  lib("left.dml", 'source("base.dml") as base\n');
  lib("right.dml", 'source("base.dml") as base\n');
  lib("base.dml", "one = function() return (double y) { y = 1 }\n");
  lib("broken.dml", "f = function( return (double y) { y = 1 }\n");
  writeFileSync(path.join(root, "lib", "binary.dml"), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1, 2, 3]));
  const fifo = path.join(root, "lib", "pipe.dml");
  if (!existsSync(fifo)) {
    try {
      execFileSync("mkfifo", [fifo]);
    } catch {
      // no mkfifo (not POSIX): the FIFO case then sources a missing file
    }
  }
  // The examples read data relative to their folder: the mutated copies sit next to a copy of it.
  cpSync(path.join(repoRoot, "examples", "data"), path.join(root, "data"), { recursive: true });
}

export function exampleScripts(repoRoot: string): { name: string; text: string }[] {
  const folder = path.join(repoRoot, "examples");
  return readdirSync(folder)
    .filter((f) => f.endsWith(".dml"))
    .sort()
    .map((name) => ({ name, text: readFileSync(path.join(folder, name), "utf8") }));
}

/** The files and arguments of one case; the script is written to `scriptPath`. */
export function materialize(descriptor: CaseDescriptor, examples: readonly { name: string; text: string }[], fixture: string, scriptPath: string): MaterializedCase {
  if (descriptor.kind === "mutated") {
    const text = encode(mutate(examples[descriptor.example]!.text, descriptor.mutations), descriptor.encoding);
    writeFileSync(scriptPath, text);
    return { args: commandArgs(descriptor.command, scriptPath), text, subprocess: false };
  }
  if (descriptor.name === "lsp-socket") {
    const args = ["lsp", "--socket=abc"];
    return { args, text: "(dml lsp --socket=abc)", subprocess: true };
  }
  const text = extremeText(descriptor.name, fixture);
  writeFileSync(scriptPath, text);
  // Not `explain` of a huge input: the optimizer on 200,000 straight-line statements runs out of a 4 GB heap
  // (issue 14 item 2, the optimizer's part, another helper's); check and run cover the huge inputs here.
  const commandName = HUGE_EXTREMES.has(descriptor.name) && descriptor.command === "explain" ? "check" : descriptor.command;
  return { args: commandArgs(commandName, scriptPath), text, subprocess: SUBPROCESS_EXTREMES.has(descriptor.name) };
}

function extremeText(name: Exclude<ExtremeName, "lsp-socket">, fixture: string): string {
  const lib = (file: string) => path.join(fixture, "lib", file).replace(/\\/g, "/");
  const src = (file: string, ns = "s") => `source("${file}") as ${ns}\nprint("after source")\n`;
  switch (name) {
    case "brackets-10000":
      return "x = " + "(".repeat(10000) + "1" + ")".repeat(10000) + "\nprint(x)\n";
    case "chain-10000":
      return "x = 1\ny = " + Array.from({ length: 10000 }, () => "x").join(" + ") + "\nprint(y)\n";
    case "chain-3000":
      return "X = rand(rows=3, cols=3)\nY = " + Array.from({ length: 3000 }, () => "X").join(" %*% ") + "\nprint(sum(Y))\n";
    case "blocks-10000":
      return "x = 1\n" + "if (x > 0) {\n".repeat(10000) + "x = 2\n" + "}\n".repeat(10000) + "print(x)\n";
    case "power-10000":
      return "x = " + Array.from({ length: 10000 }, () => "1").join("^") + "\nprint(x)\n";
    case "prefix-10000":
      return "x = " + "-".repeat(10000) + "1\nprint(x)\n";
    case "calls-10000":
      return "x = " + "abs(".repeat(10000) + "1" + ")".repeat(10000) + "\nprint(x)\n";
    case "lines-200000":
      return Array.from({ length: 200000 }, (_, i) => `x${i % 1000} = ${i} + 1`).join("\n") + "\nprint(x1)\n";
    case "line-5mb":
      return "s = \"" + "a".repeat(5 * 1024 * 1024) + "\"\nprint(nchar(s))\n";
    case "unicode":
      return "\uFEFF# ∑ 𝔁 😀\r\nx = 1 # é\r\ns = \"😀 \u0301 \u200b\"\r\nprint(s + x)\r\n";
    case "dims":
      return "A = matrix(0, rows=-5, cols=3)\nB = matrix(0, rows=5, cols=1e-308)\nC = rand(rows=-1, cols=2)\nD = rand(rows=NaN, cols=2)\nprint(sum(A))\n";
    case "call-tree": {
      const lines: string[] = [];
      for (let i = 0; i < 25; i++) lines.push(`f${i} = function(double x) return (double y) {\n  y = f${i + 1}(x * 3 + 1) + f${i + 1}(x * 3 + 2) + f${i + 1}(x * 3 + 3)\n}`);
      lines.push("f25 = function(double x) return (double y) { y = x }", "if (FALSE) { y = f0(1) }", "print(1)", "");
      return lines.join("\n");
    }
    case "source-cycle":
      return src(lib("a.dml"));
    case "source-self":
      return 'source("case.dml") as me\nprint(1)\n';
    case "source-diamond":
      return src(lib("top.dml")) + src(lib("left.dml"), "l") + src(lib("base.dml"), "b") + "print(b::one())\n";
    case "source-missing":
      return src("no/such/lib.dml");
    case "source-folder":
      return src(lib("folder.dml"));
    case "source-device":
      return src("/dev/zero");
    case "source-fifo":
      return src(lib("pipe.dml"));
    case "source-binary":
      return src(lib("binary.dml"));
    case "source-huge":
      return src("/proc/self/exe");
    case "source-syntax":
      return src(lib("broken.dml"));
  }
}
