/**
 * The second names SystemDS gives some builtins (Builtins.java: `inverse`
 * for inv, `pmin`/`pmax` for min/max, `centralMoment` for moment, ...),
 * for the ones the DAG keeps as runtime calls. `aliasEntries(table)` gives
 * each alias the function of its builtin, when the runtime has that builtin.
 * (`castAsScalar`, `as.boolean`, `ceiling`, `isNA`, `isNaN`, `avg`, `ctable`
 * and `append` become DAG operators or are in the table under both names.)
 */
export const BUILTIN_ALIASES: Readonly<Record<string, string>> = {
  inverse: "inv",
  pmin: "min",
  pmax: "max",
  centralMoment: "moment",
  groupedAggregate: "aggregate",
};

export function aliasEntries<F>(table: Readonly<Record<string, F>>): Record<string, F> {
  const entries: Record<string, F> = {};
  for (const [alias, name] of Object.entries(BUILTIN_ALIASES)) {
    if (!Object.hasOwn(table, alias) && Object.hasOwn(table, name)) entries[alias] = table[name]!;
  }
  return entries;
}
