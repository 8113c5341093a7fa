/**
 * The Variables view (Explorer): the runtime session's variables after the
 * latest run, each with its kind and size; a scalar shows its value.
 */
import * as vscode from "vscode";
import { formatCount, formatDims, formatSparsity } from "../../engine/cost";
import type { VariablePreview } from "../../engine/runtime/interpreter";

export class VariablesView implements vscode.TreeDataProvider<VariablePreview> {
  private variables: VariablePreview[] = [];
  private readonly changed = new vscode.EventEmitter<VariablePreview | undefined>();
  readonly onDidChangeTreeData = this.changed.event;

  update(variables: VariablePreview[]): void {
    this.variables = variables;
    this.changed.fire(undefined);
  }

  getChildren(element?: VariablePreview): VariablePreview[] {
    return element ? [] : this.variables;
  }

  getTreeItem(v: VariablePreview): vscode.TreeItem {
    const item = new vscode.TreeItem(v.name, vscode.TreeItemCollapsibleState.None);
    item.description = describe(v);
    item.iconPath = new vscode.ThemeIcon(v.kind === "matrix" ? "symbol-array" : v.kind === "scalar" ? "symbol-number" : "symbol-structure");
    item.tooltip = `${v.name}: ${v.kind} ${describe(v)}`;
    return item;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

export function describe(v: VariablePreview): string {
  if (v.kind === "scalar") return `${v.valueType ?? ""} = ${v.value ?? ""}`.trim();
  if (v.kind === "matrix") {
    const cells = (v.rows ?? 0) * (v.cols ?? 0);
    return `${formatDims(v.rows, v.cols)}, nnz ${formatCount(v.nnz)}${cells > 0 && v.nnz !== undefined ? ` (sparsity ${formatSparsity(v.nnz, cells)})` : ""}`;
  }
  return `${v.kind} ${formatDims(v.rows, v.cols)}`;
}
