/** A pre-order walk over statements, into if/else, loop and function bodies. */
import type { Statement } from "../syntax/ast";

export function forEachStatement(body: readonly Statement[], visit: (statement: Statement) => void): void {
  for (const statement of body) {
    visit(statement);
    switch (statement.kind) {
      case "if":
        forEachStatement(statement.thenBody, visit);
        if (statement.elseBody) forEachStatement(statement.elseBody, visit);
        break;
      case "for":
      case "while":
      case "function":
        forEachStatement(statement.body, visit);
        break;
      default:
        break;
    }
  }
}
