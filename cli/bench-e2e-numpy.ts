/**
 * The numpy / scipy side of `dml bench e2e`: each algorithm of examples/
 * written in numpy following the script's loop statement by statement (same
 * parameters, same stopping rules, same initial values: ALS-CG's U and V and
 * kmeans' centroids come from our session's first cell through raw files).
 * The data is read before the clock starts; each function returns the
 * numbers the DML script prints, in its order, to check that both sides
 * computed the same thing. ALS-CG comes twice: straightforward (X dense,
 * W * (U @ V.T) as a dense product) and sparse-aware (scipy.sparse, the
 * masked products only at X's non-zeros, the unweighted loss expanded).
 */
import { numpyEnvironmentSource, runPythonJson, type NumpyEnvironment, type PythonRun } from "./bench-python";

export type NumpyCase =
  | { name: string; kind: "als_dense" | "als_sparse"; mtx: string; U: string; V: string; rank: number; lambda: number; maxi: number }
  | { name: string; kind: "l2svm"; X: string; Y: string; rows: number; cols: number; reg: number; tol: number; maxi: number }
  | { name: string; kind: "glm_logit"; X: string; Y: string; rows: number; cols: number; reg: number; maxi: number }
  | { name: string; kind: "mlogreg"; X: string; Y: string; rows: number; cols: number; reg: number; maxi: number; maxii: number }
  | { name: string; kind: "kmeans"; X: string; C: string; rows: number; cols: number; k: number; tol: number; maxi: number };

export interface NumpyTiming {
  ms: number;
  /** The numbers the script prints, in order. */
  values: number[];
}

export interface NumpyE2e {
  environment: NumpyEnvironment;
  cases: Record<string, NumpyTiming | { error: string }>;
}

const program = `${numpyEnvironmentSource}
def raw(path, rows, cols):
    return np.fromfile(path, dtype="<f8").reshape(rows, cols)

def als_dense(X, U, V, lam, maxi, rank):
    W = (X != 0).astype(np.float64)
    out = []
    out.append(np.sum(W * (X - U @ V.T) ** 2) + lam * (np.sum(U ** 2) + np.sum(V ** 2)))
    for it in range(maxi):
        G = (W * (U @ V.T - X)) @ V + lam * U
        R = -G; S = R; nR = np.sum(R ** 2); inner = 0
        while inner < rank and nR > 1e-12:
            HS = (W * (S @ V.T)) @ V + lam * S
            alpha = nR / np.sum(S * HS)
            U = U + alpha * S; R = R - alpha * HS
            old = nR; nR = np.sum(R ** 2); S = R + (nR / old) * S; inner += 1
        G = (W * (U @ V.T - X)).T @ U + lam * V
        R = -G; S = R; nR = np.sum(R ** 2); inner = 0
        while inner < rank and nR > 1e-12:
            HS = (W * (U @ S.T)).T @ U + lam * S
            alpha = nR / np.sum(S * HS)
            V = V + alpha * S; R = R - alpha * HS
            old = nR; nR = np.sum(R ** 2); S = R + (nR / old) * S; inner += 1
        out.append(np.sum(W * (X - U @ V.T) ** 2) + lam * (np.sum(U ** 2) + np.sum(V ** 2)))
    out.append(np.sum((X - U @ V.T) ** 2))
    return out

def als_sparse(X, U, V, lam, maxi, rank):
    import scipy.sparse as sp
    rows = np.repeat(np.arange(X.shape[0]), np.diff(X.indptr)); cols = X.indices
    def at_nnz(A, B):
        # (A @ B.T) at X's non-zeros, as a CSR matrix of X's pattern
        return sp.csr_matrix((np.einsum("ij,ij->i", A[rows], B[cols]), X.indices, X.indptr), shape=X.shape)
    def loss(U, V):
        return np.sum((X.data - at_nnz(U, V).data) ** 2) + lam * (np.sum(U ** 2) + np.sum(V ** 2))
    out = [loss(U, V)]
    for it in range(maxi):
        G = (at_nnz(U, V) - X) @ V + lam * U
        R = -G; S = R; nR = np.sum(R ** 2); inner = 0
        while inner < rank and nR > 1e-12:
            HS = at_nnz(S, V) @ V + lam * S
            alpha = nR / np.sum(S * HS)
            U = U + alpha * S; R = R - alpha * HS
            old = nR; nR = np.sum(R ** 2); S = R + (nR / old) * S; inner += 1
        G = (at_nnz(U, V) - X).T @ U + lam * V
        R = -G; S = R; nR = np.sum(R ** 2); inner = 0
        while inner < rank and nR > 1e-12:
            HS = at_nnz(U, S).T @ U + lam * S
            alpha = nR / np.sum(S * HS)
            V = V + alpha * S; R = R - alpha * HS
            old = nR; nR = np.sum(R ** 2); S = R + (nR / old) * S; inner += 1
        out.append(loss(U, V))
    # sum((X - U V^T)^2) expanded: sum(X^2) - 2 sum(X .* U V^T) + sum((U^T U) .* (V^T V))
    out.append(np.sum(X.data ** 2) - 2 * np.sum(X.data * at_nnz(U, V).data) + np.sum((U.T @ U) * (V.T @ V)))
    return out

def l2svm(X, Y, lam, tol, maxi):
    Y = 2.0 * (Y == Y.max()) - 1
    n, d = X.shape
    w = np.zeros((d, 1)); Xw = np.zeros((n, 1)); g_old = X.T @ Y; s = g_old
    it = 0; cont = True; out = []
    while cont and it < maxi:
        Xd = X @ s
        wd = lam * np.sum(w * s); dd = lam * np.sum(s * s)
        step = 0.0; inner = 0; c1 = True
        while c1 and inner < 20:
            tmp = Xw + step * Xd
            o = 1 - Y * tmp; sv = (o > 0); o = o * sv
            g = wd + step * dd - np.sum(o * Y * Xd); h = dd + np.sum(Xd * sv * Xd)
            step = step - g / h; c1 = g * g / h >= 1e-10; inner += 1
        w = w + step * s; Xw = Xw + step * Xd
        o = 1 - Y * Xw; sv = (o > 0); o = sv * o
        obj = 0.5 * np.sum(o * o) + lam / 2 * np.sum(w * w)
        g_new = X.T @ (o * Y) - lam * w
        out.append(obj)
        tmp = np.sum(s * g_old); cont = step * tmp >= tol * obj
        be = np.sum(g_new * g_new) / np.sum(g_old * g_old); s = be * s + g_new; g_old = g_new; it += 1
    out.append(np.sum((X @ w) * Y > 0) / n)
    return out

def glm_logit(X, y, lam, maxi):
    y = (y == y.max()).astype(np.float64)
    d = X.shape[1]; beta = np.zeros((d, 1)); out = []
    for it in range(maxi):
        eta = X @ beta; mu = 1 / (1 + np.exp(-eta)); w = mu * (1 - mu)
        grad = X.T @ (mu - y) + lam * beta
        s = np.zeros((d, 1)); r = -grad; p = r; rr = np.sum(r ** 2); k = 0
        while k < d and rr > 1e-14:
            q = X.T @ (w * (X @ p)) + lam * p
            a = rr / np.sum(p * q); s = s + a * p; r = r - a * q
            rr_old = rr; rr = np.sum(r ** 2); p = r + (rr / rr_old) * p; k += 1
        beta = beta + s
        out.append(-2 * np.sum(y * np.log(mu + 1e-15) + (1 - y) * np.log(1 - mu + 1e-15)))
    out.append(np.sum(((X @ beta) > 0) == y) / X.shape[0])
    return out

def mlogreg(X, Y, lam, maxi, maxii):
    Y = Y - Y.min() + 1
    n, d = X.shape; k = int(Y.max())
    Yhot = np.zeros((n, k)); Yhot[np.arange(n), Y[:, 0].astype(np.int64) - 1] = 1
    B = np.zeros((d, k - 1)); out = []
    for it in range(maxi):
        LT = np.hstack([X @ B, np.zeros((n, 1))])
        E = np.exp(LT - LT.max(axis=1, keepdims=True)); P = E / E.sum(axis=1, keepdims=True)
        Grad = X.T @ (P[:, :k - 1] - Yhot[:, :k - 1]) + lam * B
        S = np.zeros((d, k - 1)); R = -Grad; Q = R; rr = np.sum(R ** 2); inner = 0
        while inner < maxii and rr > 1e-12:
            Pk = P[:, :k - 1]; XQ = X @ Q
            HQ = X.T @ (Pk * XQ - Pk * np.sum(Pk * XQ, axis=1, keepdims=True)) + lam * Q
            alpha = rr / np.sum(Q * HQ); S = S + alpha * Q; R = R - alpha * HQ
            rr_old = rr; rr = np.sum(R ** 2); Q = R + (rr / rr_old) * Q; inner += 1
        B = B + S
        out.append(-np.sum(Yhot * np.log(P + 1e-15)) + 0.5 * lam * np.sum(B ** 2))
    LT = np.hstack([X @ B, np.zeros((n, 1))])
    out.append(np.sum(np.argmax(LT, axis=1) + 1 == Y[:, 0]) / n)
    return out

def kmeans(X, C, k, tol, maxi):
    n, d = X.shape
    P = np.full((n, k), 1.0 / k)
    X2 = np.sum(X ** 2, axis=1, keepdims=True)
    it = 0; obj_old = np.inf; converged = False; out = []
    while not converged and it < maxi:
        D = -2 * (X @ C.T) + np.sum(C ** 2, axis=1)[None, :]
        minD = D.min(axis=1, keepdims=True)
        P = (D <= minD).astype(np.float64); P = P / P.sum(axis=1, keepdims=True)
        obj = np.sum(X2) + np.sum(minD)
        C = (P.T @ X) / (P.sum(axis=0)[:, None] + 1e-15)
        converged = (obj_old - obj) < tol * obj; obj_old = obj
        out.append(obj); it += 1
    return out

def load(c):
    k = c["kind"]
    if k in ("als_dense", "als_sparse"):
        import scipy.io
        X = scipy.io.mmread(c["mtx"]).tocsr(); X.sort_indices()
        m, n = X.shape; r = c["rank"]
        U = raw(c["U"], m, r); V = raw(c["V"], n, r)
        if k == "als_dense":
            Xd = X.toarray()
            return lambda: als_dense(Xd, U, V, c["lambda"], c["maxi"], r)
        return lambda: als_sparse(X, U, V, c["lambda"], c["maxi"], r)
    X = raw(c["X"], c["rows"], c["cols"])
    if k == "kmeans":
        C = raw(c["C"], c["k"], c["cols"])
        return lambda: kmeans(X, C, c["k"], c["tol"], c["maxi"])
    Y = raw(c["Y"], c["rows"], 1)
    if k == "l2svm":
        return lambda: l2svm(X, Y, c["reg"], c["tol"], c["maxi"])
    if k == "glm_logit":
        return lambda: glm_logit(X, Y, c["reg"], c["maxi"])
    return lambda: mlogreg(X, Y, c["reg"], c["maxi"], c["maxii"])

results = {}
for c in json.loads(sys.argv[1]):
    try:
        run = load(c)
        t = time.perf_counter()
        values = run()
        ms = (time.perf_counter() - t) * 1e3
        results[c["name"]] = {"ms": ms, "values": [float(v) for v in values]}
    except Exception as e:
        results[c["name"]] = {"error": type(e).__name__ + ": " + str(e)}
print(json.dumps({"environment": environment(), "cases": results}))
`;

export function runNumpyE2e(cases: readonly NumpyCase[], timeoutMs: number): PythonRun<NumpyE2e> {
  return runPythonJson<NumpyE2e>(program, cases, timeoutMs);
}
