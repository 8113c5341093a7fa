/**
 * The MNC sketch an atom of a chain carries: the one the analysis's stats
 * have for its value, when that sketch has structure (built from a local
 * file's data, from a constant of known structure, or propagated from
 * those: origin "data" or "derived") and has the atom's dims. A sketch
 * spread from metadata alone is not carried: it would only repeat the
 * uniform estimate.
 */
import type { MncSketch } from "../stats/estimators";
import type { NodeStats } from "../stats/sizes/node-stats";

export function atomSketch(stats: NodeStats | undefined): MncSketch | undefined {
  const sketch = stats?.sketch?.mnc;
  if (!sketch || sketch.origin === "metadata" || stats.rows !== sketch.rows || stats.cols !== sketch.cols) return undefined;
  return sketch;
}
