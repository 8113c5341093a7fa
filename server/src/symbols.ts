/**
 * The outline of a DML file: top-level function definitions and the first
 * top-level assignment of each plain variable name.
 */
import { SymbolKind, type DocumentSymbol } from "vscode-languageserver/node";
import type { Identifier, Program, Statement } from "../../engine/syntax";

export function documentSymbols(program: Program): DocumentSymbol[] {
  const symbols: DocumentSymbol[] = [];
  const seen = new Set<string>();

  const addVariable = (target: Identifier, statement: Statement): void => {
    if (seen.has(target.name)) return;
    seen.add(target.name);
    symbols.push({
      name: target.name,
      kind: SymbolKind.Variable,
      range: statement.range,
      selectionRange: target.range,
    });
  };

  for (const statement of program.body) {
    switch (statement.kind) {
      case "function":
      case "externalFunction":
        symbols.push({
          name: statement.name.name,
          detail: signature(statement.params.map((p) => p.name.name), statement.returns.map((r) => r.name.name)),
          kind: SymbolKind.Function,
          range: statement.range,
          selectionRange: statement.name.range,
        });
        break;
      case "assign":
        if (statement.target.kind === "identifier") addVariable(statement.target, statement);
        break;
      case "multiAssign":
        for (const target of statement.targets) {
          if (target.kind === "identifier") addVariable(target, statement);
        }
        break;
      default:
        break;
    }
  }
  return symbols;
}

function signature(params: string[], returns: string[]): string {
  const head = `(${params.join(", ")})`;
  return returns.length > 0 ? `${head} return (${returns.join(", ")})` : head;
}
