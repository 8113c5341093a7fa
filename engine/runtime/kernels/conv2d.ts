/**
 * 2-D convolution (cross-correlation, as SystemDS's conv2d) over images in
 * NCHW rows, and its two gradients, by im2col and the runtime's GEMM:
 *
 * - forward: out[n, k*P*Q + p*Q + q] = sum over c, r, s of
 *   W[k, c*R*S + r*S + s] * X[n, c, p*strideH - padH + r, q*strideW - padW + s]
 *   (cells outside the image are 0);
 * - backward filter: dW = sum over n of dout_n (K x PQ) times col_n transposed;
 * - backward data: dX_n = col2im(W transposed times dout_n).
 *
 * Images are processed in batches whose unrolled patches (C*R*S x B*P*Q
 * cells) stay below COL_CELLS, so one GEMM covers many images without the
 * patches of all of them in memory at once. Inputs and outputs are dense
 * row-major arrays; the caller checks the dimensions.
 */
import { matrixKernels } from "../wasm";
import type { DnnGeometry } from "./dnn-geometry";

/** Largest number of cells of one batch's unrolled patches (16 MiB of doubles). */
const COL_CELLS = 1 << 21;

function batchSize(g: DnnGeometry): number {
  const perImage = Math.max(1, g.C * g.R * g.S * g.P * g.Q);
  return Math.max(1, Math.min(g.N, Math.floor(COL_CELLS / perImage)));
}

function hasWork(g: DnnGeometry): boolean {
  return g.N > 0 && g.K > 0 && g.C > 0 && g.R > 0 && g.S > 0 && g.P > 0 && g.Q > 0;
}

/** c (m x n) = a (m x k) · b (k x n), row-major. */
function gemm(m: number, k: number, n: number, a: Float64Array, b: Float64Array, c: Float64Array): void {
  matrixKernels().gemm(m, k, n, a, b, c);
}

/**
 * to[at .. at+count-1] = the image line starting at `line` (of `width`
 * cells) read from column `first` in steps of `step`, 0 outside the line.
 */
function copyRow(x: Float64Array, line: number, width: number, first: number, step: number, to: Float64Array, at: number, count: number): void {
  // The outputs whose column falls inside the line: lo .. hi-1.
  const lo = first >= 0 ? 0 : Math.min(count, Math.ceil(-first / step));
  const hi = Math.max(lo, Math.min(count, first >= width ? 0 : Math.floor((width - 1 - first) / step) + 1));
  if (lo > 0) to.fill(0, at, at + lo);
  if (step === 1) to.set(x.subarray(line + first + lo, line + first + hi), at + lo);
  else for (let q = lo, w = line + first + lo * step; q < hi; q++, w += step) to[at + q] = x[w]!;
  if (hi < count) to.fill(0, at + hi, at + count);
}

/**
 * The patches of images n0 .. n0+B-1 as columns: cell (c*R*S + r*S + s,
 * b*P*Q + p*Q + q) is image n0+b's input under filter cell (c, r, s) at output (p, q).
 */
function im2col(x: Float64Array, g: DnnGeometry, n0: number, B: number, col: Float64Array): void {
  const { C, H, W, R, S, P, Q, strideH, strideW, padH, padW } = g;
  const PQ = P * Q;
  const width = B * PQ;
  for (let c = 0; c < C; c++)
    for (let r = 0; r < R; r++)
      for (let s = 0; s < S; s++) {
        const rowStart = ((c * R + r) * S + s) * width;
        for (let b = 0; b < B; b++) {
          const image = (n0 + b) * C * H * W + c * H * W;
          let out = rowStart + b * PQ;
          for (let p = 0; p < P; p++) {
            const h = p * strideH - padH + r;
            if (h < 0 || h >= H) {
              col.fill(0, out, out + Q);
              out += Q;
              continue;
            }
            copyRow(x, image + h * W, W, s - padW, strideW, col, out, Q);
            out += Q;
          }
        }
      }
}

/** The transpose of `im2col`'s result: cell (b*P*Q + p*Q + q, c*R*S + r*S + s). */
function im2colRows(x: Float64Array, g: DnnGeometry, n0: number, B: number, rows: Float64Array): void {
  const { C, H, W, R, S, P, Q, strideH, strideW, padH, padW } = g;
  let out = 0;
  for (let b = 0; b < B; b++) {
    const image = (n0 + b) * C * H * W;
    for (let p = 0; p < P; p++)
      for (let q = 0; q < Q; q++)
        for (let c = 0; c < C; c++)
          for (let r = 0; r < R; r++) {
            const h = p * strideH - padH + r;
            if (h < 0 || h >= H) {
              rows.fill(0, out, out + S);
              out += S;
              continue;
            }
            copyRow(x, image + c * H * W + h * W, W, q * strideW - padW, 1, rows, out, S);
            out += S;
          }
  }
}

/** dout rows n0 .. n0+B-1 as one K x B*P*Q matrix (filter k's maps of all B images side by side). */
function gatherDout(dout: Float64Array, g: DnnGeometry, n0: number, B: number, out: Float64Array): void {
  const PQ = g.P * g.Q;
  const KPQ = g.K * PQ;
  for (let k = 0; k < g.K; k++)
    for (let b = 0; b < B; b++) {
      const from = (n0 + b) * KPQ + k * PQ;
      out.set(dout.subarray(from, from + PQ), k * B * PQ + b * PQ);
    }
}

/** conv2d(X, W): N x K*P*Q. */
export function conv2dForward(x: Float64Array, w: Float64Array, g: DnnGeometry): Float64Array {
  const PQ = g.P * g.Q;
  const KPQ = g.K * PQ;
  const out = new Float64Array(g.N * KPQ);
  if (!hasWork(g)) return out;
  const CRS = g.C * g.R * g.S;
  const batch = batchSize(g);
  const col = new Float64Array(CRS * batch * PQ);
  const result = new Float64Array(g.K * batch * PQ);
  for (let n0 = 0; n0 < g.N; n0 += batch) {
    const B = Math.min(batch, g.N - n0);
    const width = B * PQ;
    im2col(x, g, n0, B, col);
    gemm(g.K, CRS, width, w, col.subarray(0, CRS * width), result.subarray(0, g.K * width));
    for (let k = 0; k < g.K; k++)
      for (let b = 0; b < B; b++) out.set(result.subarray(k * width + b * PQ, k * width + (b + 1) * PQ), (n0 + b) * KPQ + k * PQ);
  }
  return out;
}

/** conv2d_backward_filter(X, dout): the gradient of the filters, K x C*R*S. */
export function conv2dBackwardFilter(x: Float64Array, dout: Float64Array, g: DnnGeometry): Float64Array {
  const CRS = g.C * g.R * g.S;
  const dw = new Float64Array(g.K * CRS);
  if (!hasWork(g)) return dw;
  const PQ = g.P * g.Q;
  const batch = batchSize(g);
  const rows = new Float64Array(batch * PQ * CRS);
  const doutBatch = new Float64Array(g.K * batch * PQ);
  const partial = new Float64Array(g.K * CRS);
  for (let n0 = 0; n0 < g.N; n0 += batch) {
    const B = Math.min(batch, g.N - n0);
    const width = B * PQ;
    im2colRows(x, g, n0, B, rows);
    gatherDout(dout, g, n0, B, doutBatch);
    gemm(g.K, width, CRS, doutBatch.subarray(0, g.K * width), rows.subarray(0, width * CRS), partial);
    for (let i = 0; i < dw.length; i++) dw[i]! += partial[i]!;
  }
  return dw;
}

/** conv2d_backward_data(W, dout): the gradient of the images, N x C*H*W. */
export function conv2dBackwardData(w: Float64Array, dout: Float64Array, g: DnnGeometry): Float64Array {
  const { C, H, W, R, S, P, Q, strideH, strideW, padH, padW } = g;
  const CHW = C * H * W;
  const dx = new Float64Array(g.N * CHW);
  if (!hasWork(g)) return dx;
  const CRS = C * R * S;
  const PQ = P * Q;
  const wt = new Float64Array(CRS * g.K);
  for (let k = 0; k < g.K; k++) for (let j = 0; j < CRS; j++) wt[j * g.K + k] = w[k * CRS + j]!;
  const batch = batchSize(g);
  const doutBatch = new Float64Array(g.K * batch * PQ);
  const dcol = new Float64Array(CRS * batch * PQ);
  for (let n0 = 0; n0 < g.N; n0 += batch) {
    const B = Math.min(batch, g.N - n0);
    const width = B * PQ;
    gatherDout(dout, g, n0, B, doutBatch);
    gemm(CRS, g.K, width, wt, doutBatch.subarray(0, g.K * width), dcol.subarray(0, CRS * width));
    // col2im: every patch cell adds its gradient to the input cell it came from.
    for (let c = 0; c < C; c++)
      for (let r = 0; r < R; r++)
        for (let s = 0; s < S; s++) {
          const rowStart = ((c * R + r) * S + s) * width;
          for (let b = 0; b < B; b++) {
            const image = (n0 + b) * CHW + c * H * W;
            let from = rowStart + b * PQ;
            for (let p = 0; p < P; p++) {
              const h = p * strideH - padH + r;
              if (h < 0 || h >= H) {
                from += Q;
                continue;
              }
              const line = image + h * W;
              for (let q = 0, x = s - padW; q < Q; q++, x += strideW, from++) if (x >= 0 && x < W) dx[line + x]! += dcol[from]!;
            }
          }
        }
  }
  return dx;
}
