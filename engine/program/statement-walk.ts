/** A pre-order walk over statements, into if/else, loop and function bodies. */
import type { Statement } from "../syntax";

/** Where a statement stands: inside an if branch or a loop body (it may not run), inside a function body. */
export interface StatementPlace {
  inBranchOrLoop: boolean;
  inFunction: boolean;
}

const TOP_LEVEL: StatementPlace = { inBranchOrLoop: false, inFunction: false };

export function forEachStatement(body: readonly Statement[], visit: (statement: Statement, place: StatementPlace) => void, place: StatementPlace = TOP_LEVEL): void {
  for (const statement of body) {
    visit(statement, place);
    switch (statement.kind) {
      case "if": {
        const branch = { ...place, inBranchOrLoop: true };
        forEachStatement(statement.thenBody, visit, branch);
        if (statement.elseBody) forEachStatement(statement.elseBody, visit, branch);
        break;
      }
      case "for":
      case "while":
        forEachStatement(statement.body, visit, { ...place, inBranchOrLoop: true });
        break;
      case "function":
        forEachStatement(statement.body, visit, { ...place, inFunction: true });
        break;
      default:
        break;
    }
  }
}
