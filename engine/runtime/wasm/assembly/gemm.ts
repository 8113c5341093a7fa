// @ts-nocheck — AssemblyScript source (compiled by asc, not by tsc).
/**
 * Dense GEMM C = A·B for row-major f64 matrices, BLIS-style: B is packed once
 * into NR-wide column micro-panels per KC block of its rows (`gemmPackB`),
 * each thread packs MC×KC blocks of its A rows into MR-row micro-panels and
 * runs an MR×NR register-blocked SIMD micro-kernel over them (`gemmRows`).
 * Edge panels are zero-padded; partial tiles go through a small tile buffer.
 * All pointers are byte addresses in linear memory.
 *
 * Two builds (compile-kernels.mjs): RELAXED_SIMD=0, SIMD128 only, a 4×4 tile
 * with multiply + add; RELAXED_SIMD=1, a 6×4 tile with f64x2.relaxed_madd
 * (one FMA instruction where the CPU has FMA), about a third faster.
 */

/** Rows of a micro-tile (f64 lanes per A broadcast). */
const MR: i32 = RELAXED_SIMD ? 6 : 4;
/** Columns of a micro-tile (two f64x2 vectors). */
const NR: i32 = 4;
/** Rows of B (columns of A) per packed block: KC×NR micro-panel of B stays in L1. */
const KC: i32 = 384;
/** Rows of A per packed block: MC×KC doubles stay in L2. */
const MC: i32 = MR * 36;
/** Rows of C per work item of `gemmShared` when threads share a product (a multiple of MR). */
const CHUNK: i32 = MR * 12;

/** Rows of C per work item of `gemmShared`. */
export function gemmChunkRows(): i32 {
  return CHUNK;
}

export function gemmKc(): i32 {
  return KC;
}

/** Bytes of per-thread scratch `gemmRows` needs: one packed A block plus a tile. */
export function gemmScratchBytes(): i32 {
  return (MC * KC + MR * NR) * 8;
}

/** Columns per packed B panel: the packed copy of a k×n B holds k × ceil(n/NR)·NR doubles. */
export function gemmTile(): i32 {
  return NR;
}

/**
 * Packs column panels [p0, p1) of row-major B (k×n) into `dst`: for each KC
 * block of rows, panel p holds kc×NR doubles, row by row, zero beyond n.
 */
export function gemmPackB(b: usize, k: i32, n: i32, dst: usize, p0: i32, p1: i32): void {
  const panels = (n + NR - 1) / NR;
  const nPad = panels * NR;
  for (let k0 = 0; k0 < k; k0 += KC) {
    const kc = min(KC, k - k0);
    const block = dst + (<usize>k0 * <usize>nPad << 3);
    for (let p = p0; p < p1; p++) {
      const j0 = p * NR;
      let out = block + (<usize>(p * kc * NR) << 3);
      let src = b + ((<usize>k0 * <usize>n + <usize>j0) << 3);
      const rowBytes = <usize>n << 3;
      if (j0 + NR <= n) {
        for (let kk = 0; kk < kc; kk++) {
          v128.store(out, v128.load(src));
          v128.store(out, v128.load(src, 16), 16);
          out += NR << 3;
          src += rowBytes;
        }
      } else {
        const w = n - j0;
        for (let kk = 0; kk < kc; kk++) {
          for (let j = 0; j < NR; j++) {
            store<f64>(out + (<usize>j << 3), j < w ? load<f64>(src + (<usize>j << 3)) : 0.0);
          }
          out += NR << 3;
          src += rowBytes;
        }
      }
    }
  }
}

/** Packs rows [i0, i0+mc) × columns [k0, k0+kc) of A (m×k) into MR-row panels, zero rows beyond `rowEnd`. */
function packA(a: usize, k: i32, i0: i32, mc: i32, rowEnd: i32, k0: i32, kc: i32, dst: usize): void {
  for (let ip = 0; ip < mc; ip += MR) {
    const panel = dst + (<usize>(ip * kc) << 3);
    for (let r = 0; r < MR; r++) {
      const row = i0 + ip + r;
      let out = panel + (<usize>r << 3);
      if (row < rowEnd) {
        let src = a + ((<usize>row * <usize>k + <usize>k0) << 3);
        for (let kk = 0; kk < kc; kk++) {
          store<f64>(out, load<f64>(src));
          out += MR << 3;
          src += 8;
        }
      } else {
        for (let kk = 0; kk < kc; kk++) {
          store<f64>(out, 0.0);
          out += MR << 3;
        }
      }
    }
  }
}

/** a·b + c per lane: one fused multiply-add in the relaxed-SIMD build, a multiply and an add otherwise. */
@inline
function madd(a: v128, b: v128, c: v128): v128 {
  if (RELAXED_SIMD) return f64x2.relaxed_madd(a, b, c);
  return f64x2.add(c, f64x2.mul(a, b));
}

/**
 * C[rows, cols] += Apanel·Bpanel for one MR×NR tile: MR×NR/2 f64x2
 * accumulators stay in registers. V8 gives wasm 15 xmm registers: 4×4 uses
 * 8 accumulators + 2 of B + 1 of A + 1 product; the fused 6×4 needs no
 * product register, so 12 + 2 + 1. More would spill. `rows`/`cols` below
 * MR/NR mark an edge tile, written through `tile`.
 */
function microKernel(ap: usize, bp: usize, kc: i32, c: usize, ldcBytes: usize, rows: i32, cols: i32, tile: usize): void {
  let c00 = f64x2.splat(0.0);
  let c01 = f64x2.splat(0.0);
  let c10 = f64x2.splat(0.0);
  let c11 = f64x2.splat(0.0);
  let c20 = f64x2.splat(0.0);
  let c21 = f64x2.splat(0.0);
  let c30 = f64x2.splat(0.0);
  let c31 = f64x2.splat(0.0);
  let c40 = f64x2.splat(0.0);
  let c41 = f64x2.splat(0.0);
  let c50 = f64x2.splat(0.0);
  let c51 = f64x2.splat(0.0);
  for (let kk = 0; kk < kc; kk++) {
    const b0 = v128.load(bp);
    const b1 = v128.load(bp, 16);
    const a0 = v128.load64_splat(ap, 0);
    c00 = madd(a0, b0, c00);
    c01 = madd(a0, b1, c01);
    const a1 = v128.load64_splat(ap, 8);
    c10 = madd(a1, b0, c10);
    c11 = madd(a1, b1, c11);
    const a2 = v128.load64_splat(ap, 16);
    c20 = madd(a2, b0, c20);
    c21 = madd(a2, b1, c21);
    const a3 = v128.load64_splat(ap, 24);
    c30 = madd(a3, b0, c30);
    c31 = madd(a3, b1, c31);
    if (MR == 6) {
      const a4 = v128.load64_splat(ap, 32);
      c40 = madd(a4, b0, c40);
      c41 = madd(a4, b1, c41);
      const a5 = v128.load64_splat(ap, 40);
      c50 = madd(a5, b0, c50);
      c51 = madd(a5, b1, c51);
    }
    ap += MR << 3;
    bp += NR << 3;
  }
  if (rows == MR && cols == NR) {
    let p = c;
    v128.store(p, f64x2.add(v128.load(p), c00));
    v128.store(p, f64x2.add(v128.load(p, 16), c01), 16);
    p += ldcBytes;
    v128.store(p, f64x2.add(v128.load(p), c10));
    v128.store(p, f64x2.add(v128.load(p, 16), c11), 16);
    p += ldcBytes;
    v128.store(p, f64x2.add(v128.load(p), c20));
    v128.store(p, f64x2.add(v128.load(p, 16), c21), 16);
    p += ldcBytes;
    v128.store(p, f64x2.add(v128.load(p), c30));
    v128.store(p, f64x2.add(v128.load(p, 16), c31), 16);
    if (MR == 6) {
      p += ldcBytes;
      v128.store(p, f64x2.add(v128.load(p), c40));
      v128.store(p, f64x2.add(v128.load(p, 16), c41), 16);
      p += ldcBytes;
      v128.store(p, f64x2.add(v128.load(p), c50));
      v128.store(p, f64x2.add(v128.load(p, 16), c51), 16);
    }
    return;
  }
  v128.store(tile, c00, 0);
  v128.store(tile, c01, 16);
  v128.store(tile, c10, 32);
  v128.store(tile, c11, 48);
  v128.store(tile, c20, 64);
  v128.store(tile, c21, 80);
  v128.store(tile, c30, 96);
  v128.store(tile, c31, 112);
  if (MR == 6) {
    v128.store(tile, c40, 128);
    v128.store(tile, c41, 144);
    v128.store(tile, c50, 160);
    v128.store(tile, c51, 176);
  }
  for (let r = 0; r < rows; r++) {
    const row = c + <usize>r * ldcBytes;
    for (let j = 0; j < cols; j++) {
      const at = row + (<usize>j << 3);
      store<f64>(at, load<f64>(at) + load<f64>(tile + (<usize>(r * NR + j) << 3)));
    }
  }
}

/**
 * Rows [r0, r1) of C (m×n) = A (m×k) · B, with B already packed by
 * `gemmPackB` at `bPacked`; `scratch` holds `gemmScratchBytes()` bytes.
 */
export function gemmRows(a: usize, bPacked: usize, c: usize, k: i32, n: i32, r0: i32, r1: i32, scratch: usize): void {
  if (r1 <= r0 || n <= 0) return;
  const ldc = <usize>n << 3;
  memory.fill(c + <usize>r0 * ldc, 0, <usize>(r1 - r0) * ldc);
  const panels = (n + NR - 1) / NR;
  const nPad = panels * NR;
  const tile = scratch + (<usize>(MC * KC) << 3);
  for (let k0 = 0; k0 < k; k0 += KC) {
    const kc = min(KC, k - k0);
    const block = bPacked + (<usize>k0 * <usize>nPad << 3);
    for (let i0 = r0; i0 < r1; i0 += MC) {
      const mc = min(MC, r1 - i0);
      packA(a, k, i0, mc, r1, k0, kc, scratch);
      for (let p = 0; p < panels; p++) {
        const bp = block + (<usize>(p * kc * NR) << 3);
        const j0 = p * NR;
        const cols = min(NR, n - j0);
        for (let ip = 0; ip < mc; ip += MR) {
          const row = i0 + ip;
          microKernel(
            scratch + (<usize>(ip * kc) << 3),
            bp,
            kc,
            c + <usize>row * ldc + (<usize>j0 << 3),
            ldc,
            min(MR, r1 - row),
            cols,
            tile,
          );
        }
      }
    }
  }
}

/**
 * All rows of C (m×n) = A·B, shared by the threads that call it at the same
 * time: each takes CHUNK-row blocks from the i32 counter at `counter` (zero
 * before the first call) until none is left, so a thread that runs slower
 * (a busy core) simply takes fewer blocks.
 */
export function gemmShared(a: usize, bPacked: usize, c: usize, m: i32, k: i32, n: i32, counter: usize, scratch: usize): void {
  const chunks = (m + CHUNK - 1) / CHUNK;
  for (;;) {
    const i = atomic.add<i32>(counter, 1);
    if (i >= chunks) return;
    const r0 = i * CHUNK;
    gemmRows(a, bPacked, c, k, n, r0, min(m, r0 + CHUNK), scratch);
  }
}
