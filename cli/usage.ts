/** Command-line plumbing shared by the subcommands: usage errors and option parsing. */

/** A mistake in how `dml` was called; `main` prints it with a hint and exits 2. */
export class UsageError extends Error {
  override name = "UsageError";
  /** Whether `main` adds "Run 'dml --help' for usage." (not for a bad --systemds path, where usage is not the problem). */
  readonly hint: boolean;
  constructor(message: string, options: { hint?: boolean } = {}) {
    super(message);
    this.hint = options.hint ?? true;
  }
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

/**
 * `name=value` or `$name=value` as a `$name` parameter, when what stands
 * before the first `=` is a parameter name of DML (a letter then letters,
 * digits or `_`, or digits for `$1`); otherwise undefined (a file name).
 */
export function parameterArgument(arg: string): { name: string; value: string } | undefined {
  const match = /^\$?([A-Za-z][A-Za-z0-9_]*|[0-9]+)=/.exec(arg);
  return match ? { name: match[1]!, value: arg.slice(match[0].length) } : undefined;
}

/** The `name=value` arguments after FILE (explain, run); anything else is a usage error. */
export function parameterArguments(command: string, args: readonly string[]): Map<string, string> {
  const parameters = new Map<string, string>();
  for (const arg of args) {
    const parameter = parameterArgument(arg);
    if (!parameter) throw new UsageError(`${command}: expected name=value (a $name parameter), not '${arg}'`);
    parameters.set(parameter.name, parameter.value);
  }
  return parameters;
}
