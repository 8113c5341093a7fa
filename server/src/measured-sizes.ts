/**
 * Sizes the client's runtime measured after a run (`dmlLens/measuredSizes`),
 * by document. Bounded: at most MAX_DOCUMENTS documents (the one measured
 * longest ago goes first) and MAX_VARIABLES variables each (the first ones
 * kept); the server drops a document's sizes when it closes it.
 */
import type { MeasuredSize } from "../../engine/analysis";

export const MAX_MEASURED_DOCUMENTS = 64;
export const MAX_MEASURED_VARIABLES = 10_000;

export interface MeasuredSizes {
  get(uri: string): ReadonlyMap<string, MeasuredSize> | undefined;
  /** Adds the valid entries (a name, whole numbers from 0); others are ignored. */
  add(uri: string, variables: readonly unknown[]): void;
  delete(uri: string): void;
  readonly documents: number;
}

function isCount(n: unknown): n is number {
  return typeof n === "number" && Number.isInteger(n) && n >= 0;
}

export function boundedMeasuredSizes(maxDocuments = MAX_MEASURED_DOCUMENTS, maxVariables = MAX_MEASURED_VARIABLES): MeasuredSizes {
  const byDocument = new Map<string, Map<string, MeasuredSize>>();
  return {
    get: (uri) => byDocument.get(uri),
    add(uri, variables) {
      const sizes = byDocument.get(uri) ?? new Map<string, MeasuredSize>();
      byDocument.delete(uri); // re-inserted as the newest
      for (const v of variables) {
        const { name, rows, cols, nnz } = (v ?? {}) as { name?: unknown; rows?: unknown; cols?: unknown; nnz?: unknown };
        if (typeof name !== "string" || !isCount(rows) || !isCount(cols) || !isCount(nnz)) continue;
        if (sizes.size >= maxVariables && !sizes.has(name)) continue;
        sizes.set(name, { rows, cols, nnz });
      }
      byDocument.set(uri, sizes);
      while (byDocument.size > maxDocuments) byDocument.delete(byDocument.keys().next().value!);
    },
    delete: (uri) => void byDocument.delete(uri),
    get documents() {
      return byDocument.size;
    },
  };
}
