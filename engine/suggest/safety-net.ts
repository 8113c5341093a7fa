/**
 * What to say where a time safety net (saturation's on CPU time, the ILP's
 * on the wall clock) stopped the optimizer's work
 * (explain, hover, status bar): its suggestions may then differ from those
 * of a faster or less busy machine.
 */
import type { BlockOptimization } from "./optimize-block";

export function safetyNetNote(net: NonNullable<BlockOptimization["safetyNet"]>): string {
  const what = net.what === "saturation" ? "optimizer" : "optimizer's ILP extraction";
  return `${what} stopped by its time safety net after ${Math.round(net.ms)} ms${net.what === "saturation" ? " of CPU time" : ""}; results may differ from a faster machine`;
}
