/** Command-line plumbing shared by the subcommands: usage errors and option parsing. */

/** A mistake in how `dml` was called; `main` prints it with a hint and exits 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

export interface ParsedArgs {
  positionals: string[];
  flags: Set<string>;
  values: Map<string, string>;
}

/**
 * Splits `args` into positionals, boolean `flags` and options that take a
 * value (`--name N` or `--name=N`). `--` ends the options. Unknown options are
 * usage errors.
 */
export function parseArgs(
  command: string,
  args: readonly string[],
  spec: { flags?: readonly string[]; values?: readonly string[] },
): ParsedArgs {
  const known = new Set(spec.flags ?? []);
  const takesValue = new Set(spec.values ?? []);
  const parsed: ParsedArgs = { positionals: [], flags: new Set(), values: new Map() };
  let optionsEnded = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (optionsEnded || !arg.startsWith("-") || arg === "-") {
      parsed.positionals.push(arg);
      continue;
    }
    if (arg === "--") {
      optionsEnded = true;
      continue;
    }
    const eq = arg.indexOf("=");
    const name = eq >= 0 ? arg.slice(0, eq) : arg;
    if (known.has(name) && eq < 0) {
      parsed.flags.add(name);
    } else if (takesValue.has(name)) {
      const value = eq >= 0 ? arg.slice(eq + 1) : args[++i];
      if (value === undefined) throw new UsageError(`${command}: ${name} needs a value`);
      parsed.values.set(name, value);
    } else {
      throw new UsageError(`${command}: unknown option ${arg}`);
    }
  }
  return parsed;
}
