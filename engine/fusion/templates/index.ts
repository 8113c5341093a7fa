/** The templates OFMC exploration opens and extends (MAgg is formed after selection: magg.ts). */
import type { FusionTemplate } from "../types";

export const FUSION_TEMPLATES: readonly FusionTemplate[] = [];
