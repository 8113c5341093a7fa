/**
 * SystemDS's builtin constants (`parser/BuiltinConstant.java`: `Inf`, `NaN`,
 * `pi`, case-sensitive). Its parser replaces every plain use of these names in
 * an expression by the double constant, and the validator rejects an
 * assignment to them ("Cannot assign a value to the builtin constant").
 *
 * Here a use of such a name is no variable read unless the program binds the
 * name somewhere (assignment or multi-assignment target, loop variable,
 * function parameter or result). A script that does is invalid for SystemDS,
 * but while the user is typing it, showing the data flow they wrote is more
 * useful than hiding it.
 */
import type { DataIdentifier, Program } from "../syntax";
import { forEachStatement } from "./statement-walk";

export const BUILTIN_CONSTANTS: readonly string[] = ["Inf", "NaN", "pi"];

/** The builtin constants that `program` never binds: reads of these names are constants. */
export function unboundBuiltinConstants(program: Program): ReadonlySet<string> {
  const bound = new Set<string>();
  const bind = (target: DataIdentifier) => {
    if (target.kind === "identifier") bound.add(target.name);
    else if (target.kind === "index") bound.add(target.target.name);
  };
  forEachStatement(program.body, (statement) => {
    switch (statement.kind) {
      case "assign":
        bind(statement.target);
        break;
      case "multiAssign":
        statement.targets.forEach(bind);
        break;
      case "for":
        bound.add(statement.variable.name);
        break;
      case "function":
      case "externalFunction":
        for (const p of [...statement.params, ...statement.returns]) bound.add(p.name.name);
        break;
      default:
        break;
    }
  });
  return new Set(BUILTIN_CONSTANTS.filter((name) => !bound.has(name)));
}
