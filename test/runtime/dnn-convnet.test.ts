// One training step of a tiny convolutional network written in DML with the deep-learning
// builtins (conv2d -> bias_add -> relu -> max_pool -> affine -> softmax cross-entropy, and the
// backward pass with conv2d_backward_filter / max_pool_backward), on 4 images of 1x8x8:
// the printed losses before and after the step and a gradient checksum match numpy.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { describe, it } from "node:test";
import { baselinePython } from "../../cli/baseline-python";
import { createSession } from "../../engine/runtime/interpreter";

const SCRIPT = `
N = 4; C = 1; H = 8; W = 8; F = 3; Hf = 3; Wf = 3; K = 2; lr = 0.1
X = sin(matrix(seq(1, N * C * H * W), rows=N, cols=C * H * W))
Y = matrix("1 0 0 1 1 0 0 1", rows=N, cols=K)
W1 = 0.3 * cos(matrix(seq(1, F * C * Hf * Wf), rows=F, cols=C * Hf * Wf))
b1 = 0.01 * seq(1, F)
Hout = as.integer(floor((H + 2 - Hf) / 1 + 1))
Wout = Hout
Hp = Hout / 2
D = F * Hp * Hp
W2 = 0.2 * sin(matrix(seq(1, D * K), rows=D, cols=K))
b2 = matrix(0, rows=1, cols=K)

forward = function(matrix[double] X, matrix[double] Y, matrix[double] W1, matrix[double] b1, matrix[double] W2, matrix[double] b2,
    int N, int C, int H, int W, int F, int Hf, int Wf)
  return (double loss, matrix[double] out, matrix[double] act, matrix[double] pool, matrix[double] probs) {
  out = conv2d(X, W1, input_shape=[N, C, H, W], filter_shape=[F, C, Hf, Wf], stride=[1, 1], padding=[1, 1])
  out = bias_add(out, b1)
  act = max(out, 0)
  pool = max_pool(act, input_shape=[N, F, H, W], pool_size=[2, 2], stride=[2, 2], padding=[0, 0])
  scores = pool %*% W2 + b2
  e = exp(scores - rowMaxs(scores))
  probs = e / rowSums(e)
  loss = -sum(Y * log(probs)) / N
}

[loss, out, act, pool, probs] = forward(X, Y, W1, b1, W2, b2, N, C, H, W, F, Hf, Wf)
dscores = (probs - Y) / N
dW2 = t(pool) %*% dscores
db2 = colSums(dscores)
dpool = dscores %*% t(W2)
dact = max_pool_backward(act, dpool, input_shape=[N, F, H, W], pool_size=[2, 2], stride=[2, 2], padding=[0, 0])
dout = dact * (out > 0)
dW1 = conv2d_backward_filter(X, dout, input_shape=[N, C, H, W], filter_shape=[F, C, Hf, Wf], stride=[1, 1], padding=[1, 1])
dX = conv2d_backward_data(W1, dout, input_shape=[N, C, H, W], filter_shape=[F, C, Hf, Wf], stride=[1, 1], padding=[1, 1])
db1 = rowSums(matrix(colSums(dout), rows=F, cols=Hout * Wout))
W1 = W1 - lr * dW1
b1 = b1 - lr * db1
W2 = W2 - lr * dW2
b2 = b2 - lr * db2
[loss2, out, act, pool, probs] = forward(X, Y, W1, b1, W2, b2, N, C, H, W, F, Hf, Wf)
print("loss " + loss)
print("loss after one step " + loss2)
print("checksum " + (sum(dW1 * dW1) + sum(abs(dX)) + sum(db1)))
`;

const NUMPY = String.raw`
import numpy as np
N, C, H, W, F, Hf, Wf, K, lr = 4, 1, 8, 8, 3, 3, 3, 2, 0.1
X = np.sin(np.arange(1, N * C * H * W + 1, dtype=float)).reshape(N, C, H, W)
Y = np.array([[1, 0], [0, 1], [1, 0], [0, 1]], dtype=float)
W1 = 0.3 * np.cos(np.arange(1, F * C * Hf * Wf + 1, dtype=float)).reshape(F, C, Hf, Wf)
b1 = 0.01 * np.arange(1, F + 1, dtype=float)
D = F * 4 * 4
W2 = 0.2 * np.sin(np.arange(1, D * K + 1, dtype=float)).reshape(D, K)
b2 = np.zeros(K)

def conv(X, Wt):
    Xp = np.pad(X, ((0, 0), (0, 0), (1, 1), (1, 1)))
    out = np.zeros((N, F, H, W))
    for p in range(H):
        for q in range(W):
            out[:, :, p, q] = np.einsum("ncrs,fcrs->nf", Xp[:, :, p:p + Hf, q:q + Wf], Wt)
    return out, Xp

def forward(W1, b1, W2, b2):
    out, Xp = conv(X, W1)
    out = out + b1[None, :, None, None]
    act = np.maximum(out, 0)
    pool = act.reshape(N, F, 4, 2, 4, 2).max(axis=(3, 5))
    scores = pool.reshape(N, D) @ W2 + b2
    e = np.exp(scores - scores.max(axis=1, keepdims=True))
    probs = e / e.sum(axis=1, keepdims=True)
    return -np.sum(Y * np.log(probs)) / N, out, act, pool, probs, Xp

loss, out, act, pool, probs, Xp = forward(W1, b1, W2, b2)
dscores = (probs - Y) / N
dW2 = pool.reshape(N, D).T @ dscores
db2 = dscores.sum(axis=0)
dpool = (dscores @ W2.T).reshape(N, F, 4, 4)
dact = np.zeros_like(act)
for n in range(N):
    for f in range(F):
        for i in range(4):
            for j in range(4):
                win = act[n, f, 2 * i:2 * i + 2, 2 * j:2 * j + 2]
                r, c = divmod(int(win.argmax()), 2)
                dact[n, f, 2 * i + r, 2 * j + c] += dpool[n, f, i, j]
dout = dact * (out > 0)
dW1 = np.zeros_like(W1)
dXp = np.zeros_like(Xp)
for p in range(H):
    for q in range(W):
        dW1 += np.einsum("nf,ncrs->fcrs", dout[:, :, p, q], Xp[:, :, p:p + Hf, q:q + Wf])
        dXp[:, :, p:p + Hf, q:q + Wf] += np.einsum("nf,fcrs->ncrs", dout[:, :, p, q], W1)
dX = dXp[:, :, 1:1 + H, 1:1 + W]
db1 = dout.sum(axis=(0, 2, 3))
loss2 = forward(W1 - lr * dW1, b1 - lr * db1, W2 - lr * dW2, b2 - lr * db2)[0]
print(repr(float(loss)))
print(repr(float(loss2)))
print(repr(float(np.sum(dW1 * dW1) + np.sum(np.abs(dX)) + np.sum(db1))))
`;

describe("a tiny convolutional network in DML", () => {
  it("prints the losses and gradients numpy computes for one forward + backward step", (t) => {
    const python = spawnSync(baselinePython(), ["-c", NUMPY], { encoding: "utf8", timeout: 60_000 });
    if (python.error) return t.skip(`python3 is not available (${python.error.message})`);
    if (/No module named ['"]?numpy/.test(python.stderr)) return t.skip("numpy is not installed (Debian: apt-get install python3-numpy)");
    assert.equal(python.status, 0, python.stderr);
    const expected = python.stdout.trim().split("\n").map(Number);

    const lines: string[] = [];
    const result = createSession({ scriptPath: "/tmp/convnet.dml", print: (line) => lines.push(line) }).runScript(SCRIPT);
    assert.deepEqual(result.errors, []);
    assert.deepEqual(lines.map((l) => l.replace(/ [-0-9.E]+$/, "")), ["loss", "loss after one step", "checksum"]);
    const actual = lines.map((l) => Number(l.split(" ").at(-1)));
    actual.forEach((value, i) => assert.ok(Math.abs(value - expected[i]!) <= 1e-9 * Math.max(1, Math.abs(expected[i]!)), `${lines[i]}: numpy says ${expected[i]}`));
    assert.ok(actual[1]! < actual[0]!, "the step lowers the loss");
  });
});
