/**
 * What one document's analyses keep between edits (an editor's): the block
 * DAGs (engine/program/block-dag-cache.ts) and the block sizes
 * (sizes/block-sizes-cache.ts), so an edit rebuilds and re-sizes only the
 * blocks it changed and those whose inputs changed.
 */
import { BlockDagCache } from "../program";
import { BlockSizesCache } from "../stats/sizes/block-sizes-cache";

export class AnalysisCache {
  readonly dags = new BlockDagCache();
  readonly sizes = new BlockSizesCache();
}
