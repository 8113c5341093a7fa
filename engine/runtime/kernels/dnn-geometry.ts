/**
 * The geometry of SystemDS's deep-learning operators (its DnnParameters):
 * N images of C channels of H x W cells, K filters of C x R x S cells (for
 * pooling K = 1 and R x S the pool size), strides and paddings, and the
 * output height P and width Q. Images are rows in NCHW order: row n holds
 * channel c, row h, column w at column c*H*W + h*W + w.
 */
export interface DnnGeometry {
  readonly N: number;
  readonly C: number;
  readonly H: number;
  readonly W: number;
  readonly K: number;
  readonly R: number;
  readonly S: number;
  readonly strideH: number;
  readonly strideW: number;
  readonly padH: number;
  readonly padW: number;
  readonly P: number;
  readonly Q: number;
}

/** floor((size + 2 * pad - filter) / stride) + 1: output height (or width) of a convolution or pooling. */
export function outputExtent(size: number, filter: number, stride: number, pad: number): number {
  return Math.floor((size + 2 * pad - filter) / stride) + 1;
}

/**
 * For each output row p (or column q): the first and one-past-last input
 * row (column) its window covers, clipped to the image (padding cells are
 * outside every window, as in SystemDS's pooling).
 */
export function windowBounds(outputs: number, size: number, filter: number, stride: number, pad: number): { start: Int32Array; end: Int32Array } {
  const start = new Int32Array(outputs);
  const end = new Int32Array(outputs);
  for (let o = 0, at = -pad; o < outputs; o++, at += stride) {
    start[o] = Math.max(at, 0);
    end[o] = Math.min(at + filter, size);
  }
  return { start, end };
}
