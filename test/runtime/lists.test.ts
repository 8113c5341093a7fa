// Lists as SystemDS runs them: literals [a, b], list(...), slices L[i], L[i:j], L["name"],
// item assignment, length, append, nested lists, as.matrix/as.scalar of items, remove;
// and contains(), string append, Rand and the builtin aliases.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { printed, runError } from "./run-script";
import { LIST_MULTI_BUILTINS } from "../../engine/runtime/interpreter/builtins-lists";
import type { Value } from "../../engine/runtime/interpreter/values";

describe("lists", () => {
  it("a list literal [a, b, c] is a list of its values", () => {
    assert.equal(printed("s = [1, 2, 3]\nprint(length(s))\nprint(as.scalar(s[2]))"), "3\n2");
    assert.equal(printed("n = 4\ns = [n, n * 2]\nM = as.matrix(s)\nprint(sum(M) + nrow(M))"), "14.0");
  });

  it("L[i] and L[i:j] are lists again; as.matrix / as.scalar take an item out", () => {
    const L = 'L = list(7, "a", matrix(2, rows=2, cols=3))\n';
    assert.equal(printed(`${L}x = L[1]\nprint(length(x))\nprint(as.scalar(x) + 1)`), "1\n8");
    assert.equal(printed(`${L}S = L[2:3]\nprint(length(S))\nM = as.matrix(S[2])\nprint(sum(M))`), "2\n12.0");
    assert.equal(printed(`${L}print(as.scalar(L[2]))`), "a");
    assert.equal(printed(`${L}M = as.matrix(L[1])\nprint(nrow(M) * ncol(M))\nprint(sum(M))`), "1\n7.0");
  });

  it("named lists are indexed by name; names survive slicing and assignment", () => {
    const L = "L = list(W=matrix(1, rows=2, cols=2), b=3, lr=0.5)\n";
    assert.equal(printed(`${L}print(as.scalar(L["b"]))\nprint(sum(as.matrix(L["W"])))`), "3\n4.0");
    assert.equal(printed(`${L}S = L[2:3]\nprint(as.scalar(S["lr"]))`), "0.5");
    assert.equal(printed(`${L}L["b"] = 10\nprint(as.scalar(L["b"]))\nprint(length(L))`), "10\n3");
  });

  it("L[i] = x replaces an item (any type), L[i:j] = list(...) a range", () => {
    assert.equal(printed("L = list(1, 2, 3)\nL[2] = matrix(5, rows=1, cols=4)\nprint(sum(as.matrix(L[2])))\nprint(as.scalar(L[3]))"), "20.0\n3");
    assert.equal(printed('L = list(1, 2, 3)\nL[1:2] = list("x", "y")\nprint(as.scalar(L[1]) + as.scalar(L[2]) + as.scalar(L[3]))'), "xy3");
    assert.equal(printed("L = list(1, 2)\nfor (i in 1:2) { L[i] = as.scalar(L[i]) * 10 }\nprint(as.scalar(L[1]) + as.scalar(L[2]))"), "30");
  });

  it("lists nest, and grow by append in a loop", () => {
    assert.equal(printed("inner = list(1, 2)\nL = list(inner, 3)\nI = as.list(L[1])\nprint(length(L))\nprint(length(L[1]))"), "2\n1");
    assert.equal(printed("L = list()\nfor (i in 1:4) { L = append(L, matrix(i, rows=1, cols=1)) }\nprint(length(L))\nprint(as.scalar(as.matrix(L[4])))"), "4\n4.0");
  });

  it("as.matrix of a list of numbers is a column; of several matrices it is an error", () => {
    assert.equal(printed("M = as.matrix(list(1, 2, 3))\nprint(nrow(M) + sum(M))"), "9.0");
    assert.match(runError("M = as.matrix(list(matrix(1, rows=2, cols=2), 2))"), /as\.matrix of a list of 2 items needs numbers only/);
  });

  it("remove(L, i) gives the list without item i and a one-item list of it", () => {
    const list: Value = { kind: "list", items: [1, 2, 3].map((value): Value => ({ kind: "scalar", type: "int", value })), names: ["a", "b", "c"] };
    const [rest, removed] = LIST_MULTI_BUILTINS["remove"]!({ values: [list, { kind: "scalar", type: "int", value: 2 }], names: [undefined, undefined] });
    assert.deepEqual(rest, { kind: "list", items: [list.items[0], list.items[2]], names: ["a", "c"] });
    assert.deepEqual(removed, { kind: "list", items: [list.items[1]] });
    assert.throws(() => LIST_MULTI_BUILTINS["remove"]!({ values: [list, { kind: "scalar", type: "int", value: 4 }], names: [undefined, undefined] }), /remove: position 4 is out of range 1\.\.3/);
  });

  it("[rest, item] = remove(L, i) in a script, as SystemDS's miceApply uses it", () => {
    assert.equal(printed("L = list(matrix(1, rows=2, cols=2), 5, 6)\n[L, v] = remove(L, 1)\nM = as.matrix(v)\nprint(length(L))\nprint(sum(M))\nprint(as.scalar(L[1]))"), "2\n4.0\n5");
    assert.match(runError("L = list(1)\n[L, v] = remove(L, 2)"), /remove: position 2 is out of range 1\.\.1/);
  });

  it("bad indexes are errors with the script position", () => {
    assert.equal(runError("L = list(1, 2)\nx = L[3]"), "/tmp/t.dml:2:5: error: list index 3 is out of range 1..2");
    assert.equal(runError('L = list(1, 2)\nx = L["a"]'), '/tmp/t.dml:2:5: error: cannot index an unnamed list by the name "a"');
    assert.equal(runError('L = list(a=1, b=2)\nx = L["c"]'), '/tmp/t.dml:2:5: error: the list has no item named "c" (it has "a", "b")');
    assert.match(runError("L = list(1, 2, 3)\nL[1:2] = list(5)"), /list assignment: 2 items are replaced by a list of 1/);
  });
});

describe("contains, string append, Rand and aliases", () => {
  it("contains(target=X, pattern=v): a cell equal to v, or a row equal to a row vector; NaN matches NaN", () => {
    const X = 'X = matrix("1 2 3 4 5 6", rows=2, cols=3)\n';
    assert.equal(printed(`${X}print(contains(target=X, pattern=5))\nprint(contains(target=X, pattern=7))`), "TRUE\nFALSE");
    assert.equal(printed(`${X}print(contains(target=X, pattern=matrix("4 5 6", rows=1, cols=3)))\nprint(contains(target=X, pattern=matrix("4 5 7", rows=1, cols=3)))`), "TRUE\nFALSE");
    assert.equal(printed("X = matrix(0, rows=3, cols=3)\nX[2, 2] = NaN\nprint(contains(target=X, pattern=NaN))"), "TRUE");
    assert.match(runError(`${X}b = contains(target=X, pattern=matrix(1, rows=1, cols=2))`), /contains: a matrix pattern must be one row of the target's 3 columns, found 1 x 2/);
  });

  it("append of two strings joins them with a newline", () => {
    assert.equal(printed('s = append("ab", "cd")\nprint(s)'), "ab\ncd");
  });

  it("Rand is rand (SystemDS matches the name case-insensitively)", () => {
    assert.equal(printed("A = Rand(rows=3, cols=4, min=1, max=1)\nprint(sum(A))\nB = RAND(rows=2, cols=2, seed=3)\nC = rand(rows=2, cols=2, seed=3)\nprint(sum(B == C))"), "12.0\n4.0");
  });

  it("inverse, pmin and pmax are inv, min and max", () => {
    assert.equal(printed('A = inverse(matrix("2 0 0 4", rows=2, cols=2))\nprint(sum(A))'), "0.75");
    assert.equal(printed("print(pmax(1, 5, 3))\nprint(pmin(4, 2, 3))"), "5\n2");
  });
});
