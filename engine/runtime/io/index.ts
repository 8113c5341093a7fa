/**
 * Public surface of the runtime's local data I/O: readers and writers of
 * csv, Matrix Market, text (i j v) and libsvm matrices, csv frames and
 * scalar files, with `.mtd` sidecars read and written through the metadata
 * stage (engine/metadata). Readers hand over the neutral MatrixData /
 * FrameData forms, which the runtime's matrix and frame types wrap.
 */
export type { DenseMatrixData, CsrMatrixData, MatrixData } from "./matrix-data";
export {
  denseMatrixData,
  matrixDataNnz,
  matrixDataGet,
  forEachNonZero,
  toDenseMatrixData,
  toCsrMatrixData,
} from "./matrix-data";
export type { FrameData, FrameColumn, FrameColumnType } from "./frame-data";
export { defaultColumnNames, schemaName, parseFrameSchema, columnTypeFromName, frameCell } from "./frame-data";
export type { ScalarValue } from "./scalar-text";
export { parseScalarText, formatScalarText } from "./scalar-text";
export type { DataValue } from "./data-value";

export { DataFileError, catchDataFileError } from "./data-file-error";
export type { DataFileErrorCode, DataFileErrorInit, DataFileWarning, DataReadResult } from "./data-file-error";
export { MAX_DENSE_CELLS } from "./dense-buffer";

export { checkDataFile, readDataFile, readMatrixFile, readFrameFile, type CheckFileOptions, type LoadedData, type ReadFileOptions } from "./data-file-reader";
export { mergeReadParameters, type ReadParameters, type MergedReadParameters } from "./read-parameters";
export { writeDataFile, type WriteFileOptions, type WrittenData } from "./data-file-writer";
export { nodeDataSink, memoryDataSink, type DataSink } from "./data-sink";

export { parseCsvMatrix, type CsvReadOptions } from "./csv-matrix-reader";
export { parseCsvFrame, type CsvFrameReadOptions } from "./csv-frame-reader";
export { parseMatrixMarket, readMatrixMarketTextHeader, type MatrixMarketReadOptions, type MatrixMarketData } from "./matrix-market-reader";
export { parseTextCell, type TextCellReadOptions } from "./text-cell-reader";
export { parseLibsvm, splitLibsvmLabel, type LibsvmReadOptions } from "./libsvm-reader";

export { csvMatrixChunks, type CsvWriteOptions } from "./csv-matrix-writer";
export { csvFrameChunks, type CsvFrameWriteOptions } from "./csv-frame-writer";
export { matrixMarketChunks, type MatrixMarketLayout, type MatrixMarketWriteOptions } from "./matrix-market-writer";
export { textCellChunks } from "./text-cell-writer";
export { libsvmChunks, type LibsvmWriteOptions } from "./libsvm-writer";
export { joinChunks } from "./text-chunks";

export { formatFrame, formatDecimal, type FrameFormatOptions } from "./frame-format";

export { matrixFromData, dataFromMatrix } from "./matrix-adapter";
export { parseNumber } from "./text-values";
