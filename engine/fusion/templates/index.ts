/**
 * The templates OFMC exploration opens and extends, in SystemDS's order of
 * preference (MAgg is formed after selection: magg.ts).
 */
import type { FusionTemplate } from "../types";
import { cellTemplate } from "./cell";
import { outerTemplate } from "./outer";
import { rowTemplate } from "./row";

export const FUSION_TEMPLATES: readonly FusionTemplate[] = [cellTemplate, rowTemplate, outerTemplate];

export { cellTemplate, rowTemplate, outerTemplate };
export { groupMultiAggregates } from "./magg";
export { isColumnRangeSyntax, isMatrixVectorProduct } from "./operation-classes";
export { rowWorkCovered } from "./row-facts";
export { groupRowOutputs } from "./row-multi-output";
