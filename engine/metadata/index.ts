/**
 * Public surface of input metadata: what the analysis knows about the data a
 * script reads (`.mtd` sidecars, Matrix Market headers, `read()` arguments,
 * small-file scans) and what the user declares (`@size` annotations, the
 * workspace file `dml-lens.json`, `$param` values).
 */
export type { MetadataDiagnostic } from "./diagnostics";
export { formatMetadataDiagnostic } from "./diagnostics";
export type { JsonValue, JsonMember, JsonParseResult } from "./json-with-positions";
export { parseJson } from "./json-with-positions";
export type { MtdMetadata, DataTypeName, ValueTypeName, FileFormatName, PrivacyLevel } from "./mtd-types";
export { MTD_KEYS, dataTypeFromString, valueTypeFromString, fileFormatFromString } from "./mtd-types";
export { parseMtd, readMtd, mtdPathOf, type MtdParseResult, type MtdFileResult } from "./mtd-reader";
export { formatMtd, formatCreated, type MtdWriteInput } from "./mtd-writer";
export {
  parseMatrixMarketHeader,
  readMatrixMarketHeader,
  looksLikeMatrixMarket,
  type MatrixMarketHeader,
  type MatrixMarketHeaderResult,
  type MatrixMarketFormat,
  type MatrixMarketField,
  type MatrixMarketSymmetry,
} from "./matrix-market";
export { DEFAULT_SCAN_LIMIT_BYTES, scanCsv, scanMatrixMarketNnz, scanTextCellNnz, type CsvScan, type CsvScanOptions } from "./data-scan";
export {
  typeParameterValue,
  parameterConstant,
  parseParameterArguments,
  mergeParameterValues,
  constantText,
  javaDoubleText,
  parseJavaDouble,
  type ParameterValues,
  type DmlConstant,
} from "./parameters";
export { evaluateConstant, type ConstantEnvironment, type ConstantResult } from "./constant-eval";
export { parseSizeAnnotation, type SizeDeclaration, type ParsedSizeAnnotation } from "./size-annotation-syntax";
export { collectSizeAnnotations, sizeAnnotationFor, type SizeAnnotation, type SizeAnnotations } from "./size-annotations";
export {
  loadWorkspaceConfig,
  parseWorkspaceConfig,
  workspaceParameters,
  workspaceInputFor,
  WORKSPACE_FILE_NAMES,
  type WorkspaceConfig,
  type WorkspaceInput,
  type InputKey,
} from "./workspace-config";
export { resolveDataPath, type DataPathResolution } from "./path-resolution";
export { readArguments, READ_PARAMETERS, type ReadArguments } from "./read-arguments";
export { resolveReadMetadata, type ReadMetadata, type ReadMetadataContext, type MetadataSource } from "./read-metadata";
