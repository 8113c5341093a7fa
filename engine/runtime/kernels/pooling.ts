/**
 * 2-D max and average pooling over images in NCHW rows, and their
 * gradients, as SystemDS's LibMatrixDNNPooling computes them:
 *
 * - a window covers the image cells of rows p*strideH - padH .. +R-1 and
 *   columns q*strideW - padW .. +S-1; padding cells are in no window;
 * - max pooling starts from -Double.MAX_VALUE (a window of padding only
 *   gives that value), average pooling divides the window's sum by R*S
 *   (padding counts as 0);
 * - the max-pool gradient goes to the first maximum of the window in row-major
 *   order; the average-pool gradient is spread evenly, dout/(R*S) per cell.
 */
import { windowBounds, type DnnGeometry } from "./dnn-geometry";

export type PoolKind = "max" | "avg";

/** SystemDS's start value of max pooling (Java's -Double.MAX_VALUE). */
const MAX_POOL_START = -Number.MAX_VALUE;

function bounds(g: DnnGeometry) {
  const rows = windowBounds(g.P, g.H, g.R, g.strideH, g.padH);
  const cols = windowBounds(g.Q, g.W, g.S, g.strideW, g.padW);
  return { hl: rows.start, hu: rows.end, wl: cols.start, wu: cols.end };
}

/** max_pool / avg_pool(X): N x C*P*Q. */
export function poolForward(kind: PoolKind, x: Float64Array, g: DnnGeometry): Float64Array {
  const { N, C, H, W, P, Q } = g;
  const out = new Float64Array(N * C * P * Q);
  const { hl, hu, wl, wu } = bounds(g);
  const scale = 1 / (g.R * g.S);
  let o = 0;
  for (let n = 0; n < N; n++)
    for (let c = 0; c < C; c++) {
      const image = (n * C + c) * H * W;
      for (let p = 0; p < P; p++)
        for (let q = 0; q < Q; q++) {
          let acc = kind === "max" ? MAX_POOL_START : 0;
          for (let h = hl[p]!; h < hu[p]!; h++) {
            const line = image + h * W;
            for (let w = wl[q]!; w < wu[q]!; w++) acc = kind === "max" ? Math.max(acc, x[line + w]!) : acc + x[line + w]!;
          }
          out[o++] = kind === "max" ? acc : acc * scale;
        }
    }
  return out;
}

/** max_pool_backward(X, dout): N x C*H*W, each dout cell added at its window's first maximum of X. */
export function maxPoolBackward(x: Float64Array, dout: Float64Array, g: DnnGeometry): Float64Array {
  const { N, C, H, W, P, Q } = g;
  const dx = new Float64Array(N * C * H * W);
  const { hl, hu, wl, wu } = bounds(g);
  let o = 0;
  for (let n = 0; n < N; n++)
    for (let c = 0; c < C; c++) {
      const image = (n * C + c) * H * W;
      for (let p = 0; p < P; p++)
        for (let q = 0; q < Q; q++, o++) {
          let best = -1;
          let max = MAX_POOL_START;
          for (let h = hl[p]!; h < hu[p]!; h++)
            for (let w = wl[q]!; w < wu[q]!; w++) {
              const at = image + h * W + w;
              if (max < x[at]!) {
                max = x[at]!;
                best = at;
              }
            }
          if (best >= 0) dx[best]! += dout[o]!;
        }
    }
  return dx;
}

/** avg_pool_backward(dout): N x C*H*W, each dout cell spread over its window as dout/(R*S). */
export function avgPoolBackward(dout: Float64Array, g: DnnGeometry): Float64Array {
  const { N, C, H, W, P, Q } = g;
  const dx = new Float64Array(N * C * H * W);
  const { hl, hu, wl, wu } = bounds(g);
  const scale = 1 / (g.R * g.S);
  let o = 0;
  for (let n = 0; n < N; n++)
    for (let c = 0; c < C; c++) {
      const image = (n * C + c) * H * W;
      for (let p = 0; p < P; p++)
        for (let q = 0; q < Q; q++, o++) {
          const share = dout[o]! * scale;
          for (let h = hl[p]!; h < hu[p]!; h++) for (let w = wl[q]!; w < wu[q]!; w++) dx[image + h * W + w]! += share;
        }
    }
  return dx;
}
