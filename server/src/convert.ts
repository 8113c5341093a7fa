/** Conversions from the engine's plain data to LSP types. */
import {
  DiagnosticSeverity,
  type Diagnostic as LspDiagnostic,
} from "vscode-languageserver/node";
import type { Diagnostic, Severity } from "../../engine/syntax";

const severities: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

export function toLspDiagnostic(diagnostic: Diagnostic): LspDiagnostic {
  const converted: LspDiagnostic = {
    severity: severities[diagnostic.severity] ?? DiagnosticSeverity.Error,
    message: diagnostic.message,
    range: diagnostic.range,
    source: "dml",
  };
  if (diagnostic.code !== undefined) converted.code = diagnostic.code;
  return converted;
}
