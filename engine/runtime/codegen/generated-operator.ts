/**
 * A fused operator with generated code: the evaluator's `OperatorRun` (its
 * roots' values from its materialized inputs) backed by the kernels its
 * template's generator built from the CPlan.
 */
import type { TemplateType } from "../../fusion";
import type { OperatorRun } from "../interpreter";
import type { KernelProgram } from "./kernel-program";

export interface GeneratedOperator extends OperatorRun {
  readonly template: TemplateType;
  /** The kernels it has run so far (a generator may pick a kernel per input format: dense or CSR main input). */
  readonly programs: readonly KernelProgram[];
}

/** The generator has no kernel for this operator (its nodes then run unfused); the message says why. */
export class UnsupportedOperator extends Error {}
