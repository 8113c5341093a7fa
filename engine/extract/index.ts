/** Public surface of extraction: greedy tree, greedy DAG and ILP extraction over serialized-format e-graphs. */
export { childClass, type Extraction, type ExtractionGraph, type ExtractionNode } from "./extraction-graph";
export { dagCost, reachableChoices, treeCost, validateExtraction } from "./costs";
export { extractGreedyDag } from "./greedy-dag";
export { extractGreedyTree } from "./greedy-tree";
export { extractIlp, ilpExtractor, type IlpOptions } from "./ilp";
export { extractionGraphOf, type ExtractionGraphOptions } from "./from-egraph";
export { parseSerializedEGraph, SerializedEGraphError, toSerializedEGraph } from "./serialized";
export { UnextractableClassError } from "./unextractable-class-error";
