/**
 * The outline of a DML file: top-level function definitions and the first
 * top-level assignment of each plain variable name; in a script with
 * `# %%` cells, each cell (named by its marker's title) holds those that
 * start in it.
 */
import { SymbolKind, type DocumentSymbol } from "vscode-languageserver/node";
import { splitCells, type Identifier, type Program, type Statement } from "../../engine/syntax";

export function documentSymbols(program: Program, text: string): DocumentSymbol[] {
  const symbols = topLevelSymbols(program);
  const lines = text.split("\n");
  const cells = splitCells(text).filter((cell) => /^\s*#\s*%%/.test(lines[cell.startLine] ?? ""));
  if (cells.length === 0) return symbols;
  const outside = symbols.filter((symbol) => symbol.range.start.line < cells[0]!.startLine);
  return [
    ...outside,
    ...cells.map((cell): DocumentSymbol => {
      const title = lines[cell.startLine]!.replace(/^\s*#\s*%%\s*/, "").trim();
      const end = { line: cell.endLine, character: lines[cell.endLine]?.length ?? 0 };
      return {
        name: title === "" ? `cell ${cell.index}` : `cell ${cell.index}: ${title}`,
        kind: SymbolKind.Namespace,
        range: { start: { line: cell.startLine, character: 0 }, end },
        selectionRange: { start: { line: cell.startLine, character: 0 }, end: { line: cell.startLine, character: lines[cell.startLine]!.length } },
        children: symbols.filter((symbol) => symbol.range.start.line >= cell.startLine && symbol.range.start.line <= cell.endLine),
      };
    }),
  ];
}

function topLevelSymbols(program: Program): DocumentSymbol[] {
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
