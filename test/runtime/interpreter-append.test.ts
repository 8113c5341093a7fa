// append/cbind/rbind where the first argument is a string or a list, as SystemDS runs them:
// two strings join with a newline, a list gets the further arguments as items, a list alone binds its items.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { printed } from "./run-script";

describe("interpreter: append of strings and lists", () => {
  it("two strings are joined with a newline", () => {
    assert.equal(printed('s = append("a", "b")\nprint(s)'), "a\nb");
    assert.equal(printed('s = "x"\nfor (i in 1:2) { s = append(s, "y" + i) }\nprint(s)'), "x\ny1\ny2");
  });

  it("a list gets the further argument as one item; a one-item list adds its item", () => {
    assert.equal(printed("l = list(1)\nl = append(l, matrix(2, rows=2, cols=2))\nl = append(l, list(3, 4))\nprint(length(l))"), "3");
    assert.equal(printed("l = list(1)\nl = append(l, list(5))\nprint(as.scalar(l[2]) + 1)"), "6");
    assert.equal(printed("l = list(1)\nl = append(l, matrix(2, rows=2, cols=2))\nM = as.matrix(l[2])\nprint(sum(M))"), "8.0");
  });

  it("cbind/rbind of a list alone binds its items", () => {
    assert.equal(printed("l = list(matrix(1, rows=2, cols=1), matrix(2, rows=2, cols=1))\nM = cbind(l)\nprint(ncol(M) + sum(M))"), "8.0");
    assert.equal(printed("l = list(matrix(1, rows=1, cols=2), matrix(2, rows=1, cols=2))\nM = rbind(l)\nprint(nrow(M))"), "2");
  });
});
