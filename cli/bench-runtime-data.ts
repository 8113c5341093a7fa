/**
 * The data of `dml bench runtime`, made the same way in JS and in numpy so
 * that both sides time the same numbers: value i of stream `seed` is the
 * lowbias32 hash of (i·0x9E3779B1 + seed·0x85EBCA77) mod 2³², divided by 2³²
 * (uniform in [0, 1)). The sparse matrix has `perRow` entries in each row,
 * one per band of cols/perRow columns (so columns are distinct and sorted),
 * at an offset inside the band and with a value taken from two streams.
 * `numpyDataSource` is the same in Python, used by bench-runtime-numpy.ts.
 */

export function hashUniform(i: number, seed: number): number {
  let x = (Math.imul(i, 0x9e3779b1) + Math.imul(seed, 0x85ebca77)) >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d) >>> 0;
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b) >>> 0;
  x ^= x >>> 16;
  return (x >>> 0) / 4294967296;
}

/** Fills `into` with stream `seed`. */
export function fillUniform(into: Float64Array, seed: number): Float64Array {
  for (let i = 0; i < into.length; i++) into[i] = hashUniform(i, seed);
  return into;
}

/** Column of entry t of row r of the bench's sparse matrix. */
export function sparseColumn(r: number, t: number, cols: number, perRow: number, seed: number): number {
  const band = Math.floor(cols / perRow);
  return t * band + Math.floor(hashUniform(r * perRow + t, seed) * band);
}

/** The Python twin of the functions above (numpy, uint32 arithmetic wraps as Math.imul does). */
export const numpyDataSource = `
import numpy as np
def hash_uniform(idx, seed):
    x = idx.astype(np.uint32) * np.uint32(0x9E3779B1) + np.uint32((seed * 0x85EBCA77) & 0xFFFFFFFF)
    x ^= x >> np.uint32(16)
    x *= np.uint32(0x7FEB352D)
    x ^= x >> np.uint32(15)
    x *= np.uint32(0x846CA68B)
    x ^= x >> np.uint32(16)
    return x.astype(np.float64) / 4294967296.0
def uniform(n, seed):
    out = np.empty(n)
    step = 1 << 22
    for s in range(0, n, step):
        e = min(n, s + step)
        out[s:e] = hash_uniform(np.arange(s, e, dtype=np.uint64), seed)
    return out
def sparse_csr(rows, cols, per_row, col_seed, val_seed):
    import scipy.sparse as sp
    band = cols // per_row
    idx = np.arange(rows * per_row, dtype=np.uint64)
    t = (idx % per_row).astype(np.int64)
    col = t * band + np.floor(hash_uniform(idx, col_seed) * band).astype(np.int64)
    vals = hash_uniform(idx, val_seed)
    indptr = np.arange(0, rows * per_row + 1, per_row, dtype=np.int32)
    return sp.csr_matrix((vals, col.astype(np.int32), indptr), shape=(rows, cols))
`;
