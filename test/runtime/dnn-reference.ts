// numpy references of SystemDS's deep-learning builtins for the DNN tests, written
// the plain way (explicit loops over output positions, numpy slicing for windows),
// run in one python3 process; `undefined` with the reason when python3 or numpy is missing.
import { spawnSync } from "node:child_process";
import { baselinePython } from "../../cli/baseline-python";

/** One reference case: a geometry and its random inputs, all row-major. */
export interface DnnCase {
  N: number; C: number; H: number; W: number;
  K: number; R: number; S: number; stride: [number, number]; pad: [number, number];
  poolR: number; poolS: number; poolStride: [number, number]; poolPad: [number, number];
  X: number[]; Wt: number[]; dconv: number[]; dpool: number[]; bias: number[];
}

export type DnnResults = Record<"conv" | "dW" | "dX" | "maxp" | "avgp" | "dmax" | "davg" | "biasAdd" | "biasMul", number[]>;

const SOURCE = String.raw`
import sys, json
import numpy as np
out = []
for c in json.load(sys.stdin):
    N, C, H, W, K, R, S = (c[k] for k in ("N", "C", "H", "W", "K", "R", "S"))
    sh, sw = c["stride"]; ph, pw = c["pad"]
    X = np.array(c["X"], dtype=float).reshape(N, C, H, W)
    F = np.array(c["Wt"], dtype=float).reshape(K, C, R, S)
    P = (H + 2 * ph - R) // sh + 1; Q = (W + 2 * pw - S) // sw + 1
    Xp = np.pad(X, ((0, 0), (0, 0), (ph, ph), (pw, pw)))
    conv = np.zeros((N, K, P, Q))
    dout = np.array(c["dconv"], dtype=float).reshape(N, K, P, Q)
    dF = np.zeros_like(F); dXp = np.zeros_like(Xp)
    for p in range(P):
        for q in range(Q):
            patch = Xp[:, :, p * sh:p * sh + R, q * sw:q * sw + S]
            conv[:, :, p, q] = np.einsum("ncrs,kcrs->nk", patch, F)
            dF += np.einsum("nk,ncrs->kcrs", dout[:, :, p, q], patch)
            dXp[:, :, p * sh:p * sh + R, q * sw:q * sw + S] += np.einsum("nk,kcrs->ncrs", dout[:, :, p, q], F)
    dX = dXp[:, :, ph:ph + H, pw:pw + W]
    R2, S2 = c["poolR"], c["poolS"]; sh2, sw2 = c["poolStride"]; ph2, pw2 = c["poolPad"]
    P2 = (H + 2 * ph2 - R2) // sh2 + 1; Q2 = (W + 2 * pw2 - S2) // sw2 + 1
    maxp = np.full((N, C, P2, Q2), -sys.float_info.max); avgp = np.zeros((N, C, P2, Q2))
    dpool = np.array(c["dpool"], dtype=float).reshape(N, C, P2, Q2)
    dmax = np.zeros_like(X); davg = np.zeros_like(X)
    for p in range(P2):
        for q in range(Q2):
            h0, h1 = max(p * sh2 - ph2, 0), min(p * sh2 - ph2 + R2, H)
            w0, w1 = max(q * sw2 - pw2, 0), min(q * sw2 - pw2 + S2, W)
            if h1 <= h0 or w1 <= w0:
                continue
            win = X[:, :, h0:h1, w0:w1]
            maxp[:, :, p, q] = win.max(axis=(2, 3))
            avgp[:, :, p, q] = win.sum(axis=(2, 3)) / (R2 * S2)
            first = win.reshape(N, C, -1).argmax(axis=2)
            for n in range(N):
                for ch in range(C):
                    i, j = divmod(int(first[n, ch]), w1 - w0)
                    dmax[n, ch, h0 + i, w0 + j] += dpool[n, ch, p, q]
            davg[:, :, h0:h1, w0:w1] += dpool[:, :, p, q][:, :, None, None] / (R2 * S2)
    b = np.array(c["bias"], dtype=float)
    rows = conv.reshape(N, K, P * Q)
    out.append({
        "conv": conv.ravel().tolist(), "dW": dF.ravel().tolist(), "dX": dX.ravel().tolist(),
        "maxp": maxp.ravel().tolist(), "avgp": avgp.ravel().tolist(), "dmax": dmax.ravel().tolist(), "davg": davg.ravel().tolist(),
        "biasAdd": (rows + b[None, :, None]).ravel().tolist(), "biasMul": (rows * b[None, :, None]).ravel().tolist(),
    })
json.dump(out, sys.stdout)
`;

export function numpyReference(cases: DnnCase[]): { results: DnnResults[] } | { skip: string } {
  const python = baselinePython();
  const run = spawnSync(python, ["-c", SOURCE], { input: JSON.stringify(cases), encoding: "utf8", maxBuffer: 256 * 1024 * 1024, timeout: 120_000 });
  if (run.error) return { skip: (run.error as NodeJS.ErrnoException).code === "ENOENT" ? "python3 is not installed" : `python3 failed: ${run.error.message}` };
  if (/No module named ['"]?numpy/.test(run.stderr)) return { skip: "numpy is not installed (Debian: apt-get install python3-numpy)" };
  if (run.status !== 0) throw new Error(`the numpy reference failed:\n${run.stderr}`);
  return { results: JSON.parse(run.stdout) as DnnResults[] };
}
