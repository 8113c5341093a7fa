/** What a data file holds: a matrix, a frame or a scalar (lists are not read from files here). */
import type { FrameData } from "./frame-data";
import type { MatrixData } from "./matrix-data";
import type { ScalarValue } from "./scalar-text";

export type DataValue = { kind: "matrix"; data: MatrixData } | { kind: "frame"; frame: FrameData } | { kind: "scalar"; scalar: ScalarValue };
