/**
 * The operators' helpers (`H` in a kernel's source, binary-helpers.ts) as
 * source text for the kernel worker threads: functions cannot be sent to a
 * thread, their text can. A helper whose text refers to something outside
 * the helpers themselves (a module-private function or constant) would not
 * compile alone in a worker, so each helper's text is checked here, on the
 * calling thread, by compiling the whole text in an empty scope and comparing
 * every helper with the original on fixed probe arguments. A kernel whose
 * source uses a helper that failed the check runs on the calling thread.
 */
import { BINARY_HELPERS } from "../kernels";

/** Arguments every helper is compared on (signs, zeros, non-integers, non-finite, beyond int32). */
const PROBES: readonly (readonly [number, number])[] = [
  [7, 3],
  [-7, 3],
  [7, -3],
  [5.5, 2],
  [0, 0],
  [1, 0],
  [Number.NaN, 2],
  [Number.POSITIVE_INFINITY, 3],
  [2 ** 40 + 5, 3],
  [-(2 ** 33), 7],
];

export interface HelpersSource {
  /** `(function () { ...; return { name: fn, ... }; })` when compiled and called: the helpers that work alone. */
  readonly text: string;
  /** Names of the helpers available in worker threads. */
  readonly available: ReadonlySet<string>;
}

let cached: HelpersSource | undefined;

/** The helpers' source for workers (computed once). */
export function helpersSource(): HelpersSource {
  cached ??= buildHelpersSource(BINARY_HELPERS as unknown as Record<string, (a: number, b: number) => number>);
  return cached;
}

/** The source of `helpers` that compiles alone and gives the same results as the functions themselves. */
export function buildHelpersSource(helpers: Readonly<Record<string, (a: number, b: number) => number>>): HelpersSource {
  let names = Object.keys(helpers);
  // Drop failing helpers until the rest compile and agree (a helper can fail because another one is missing).
  for (;;) {
    const text = sourceOf(helpers, names);
    const compiled = compileAlone(text);
    const passing = names.filter((name) => compiled !== undefined && agrees(helpers[name]!, compiled[name]));
    if (passing.length === names.length) return { text, available: new Set(names) };
    names = passing;
  }
}

/** Each helper's function text under its key, in one scope so that helpers may call each other by name. */
function sourceOf(helpers: Readonly<Record<string, (a: number, b: number) => number>>, names: readonly string[]): string {
  const declarations = names.map((name) => `const ${name} = (${helpers[name]!.toString()});`);
  const members = names.map((name) => `${JSON.stringify(name)}: ${name}`);
  return `(function () {\n"use strict";\n${declarations.join("\n")}\nreturn { ${members.join(", ")} };\n})`;
}

/** The helpers object the text gives in an empty scope, or undefined when it does not compile. */
function compileAlone(text: string): Record<string, unknown> | undefined {
  try {
    return new Function(`return ${text}();`)() as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

function agrees(original: (a: number, b: number) => number, copy: unknown): boolean {
  if (typeof copy !== "function") return false;
  try {
    return PROBES.every(([a, b]) => Object.is(original(a, b), (copy as (a: number, b: number) => number)(a, b)));
  } catch {
    return false;
  }
}
