// The catalog of DML builtins (engine/program/builtins.ts): unique names,
// consistent argument rules, aliases, multi-return builtins, the parameters
// of common DML-bodied builtins, and coverage of docs/DML_LANGUAGE.md section 6.
import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { ALL_BUILTINS, BUILTINS, builtinNames, lookupBuiltin, type BuiltinSignature } from "../../engine/program";
import { repoRoot } from "../repo-root";
import { at } from "../checked-access";

function get(name: string): BuiltinSignature {
  const signature = lookupBuiltin(name);
  assert.ok(signature, `'${name}' is not in the catalog`);
  return signature;
}

const paramNames = (name: string) => (get(name).params ?? []).map((p) => p.name);
const requiredNames = (name: string) => (get(name).params ?? []).filter((p) => p.required).map((p) => p.name);

describe("catalog structure", () => {
  test("no two entries claim the same name or alias", () => {
    const owners = new Map<string, string>();
    for (const signature of ALL_BUILTINS) {
      for (const name of [signature.name, ...signature.aliases]) {
        assert.ok(!owners.has(name), `'${name}' is claimed by '${owners.get(name)}' and '${signature.name}'`);
        owners.set(name, signature.name);
      }
    }
    assert.equal(BUILTINS.size, owners.size);
    assert.deepEqual(new Set(builtinNames()), new Set(owners.keys()));
  });

  test("every entry's rules are consistent", () => {
    for (const s of ALL_BUILTINS) {
      const where = `'${s.name}'`;
      if (s.maxArgs !== undefined) assert.ok(s.minArgs <= s.maxArgs, `${where}: minArgs > maxArgs`);
      if (s.variadic) assert.equal(s.maxArgs, undefined, `${where}: variadic with a maximum`);
      if (s.params) {
        const names = s.params.map((p) => p.name);
        assert.equal(new Set(names).size, names.length, `${where}: repeated parameter`);
      }
      if (s.outputs) {
        assert.ok(s.outputs.length > 0 && s.outputs.every((n, i, outputs) => n >= 1 && (i === 0 || n > at(outputs, i - 1))), `${where}: outputs ${s.outputs}`);
      }
      if (s.multiReturnOnly) assert.ok(s.outputs && at(s.outputs, 0) >= 2, `${where}: multi-return needs 2+ outputs`);
      if (s.kind === "dml") assert.equal(s.mixing, "exclusive", `${where}: DML-bodied builtins are called like functions`);
      if (s.kind === "native" && s.maxPositional === undefined) assert.equal(s.unknownNames, "ignore", `${where}: names of native builtins are ignored`);
    }
  });

  test("the catalog is big: natives, data and statement functions, parameterized and DML-bodied builtins", () => {
    const kinds = (kind: BuiltinSignature["kind"]) => ALL_BUILTINS.filter((s) => s.kind === kind).length;
    assert.ok(kinds("native") >= 120, `native: ${kinds("native")}`);
    assert.equal(kinds("statement"), 4);
    assert.equal(kinds("data"), 8);
    assert.ok(kinds("parameterized") >= 30, `parameterized: ${kinds("parameterized")}`);
    assert.ok(kinds("dml") >= 200, `dml: ${kinds("dml")}`);
    assert.ok(ALL_BUILTINS.filter((s) => s.kind === "dml" && s.params).length >= 60);
  });
});

describe("lookup", () => {
  test("aliases resolve to their builtin", () => {
    const pairs: [string, string][] = [
      ["ctable", "table"],
      ["avg", "mean"],
      ["pmin", "min"],
      ["pmax", "max"],
      ["castAsScalar", "as.scalar"],
      ["as.boolean", "as.logical"],
      ["inverse", "inv"],
      ["append", "cbind"],
      ["ceiling", "ceil"],
      ["centralMoment", "moment"],
      ["groupedAggregate", "aggregate"],
      ["rcm", "rowClassMeet"],
      ["isNA", "is.na"],
      ["FDR", "fdr"],
    ];
    for (const [alias, name] of pairs) assert.equal(get(alias).name, name, alias);
  });

  test("rand is case-insensitive, everything else is not", () => {
    assert.equal(get("Rand").name, "rand");
    assert.equal(get("RAND").name, "rand");
    assert.equal(lookupBuiltin("Sum"), undefined);
    assert.equal(lookupBuiltin("colsums"), undefined);
    assert.equal(lookupBuiltin("nosuchfunction"), undefined);
  });
});

describe("signatures", () => {
  test("multi-return builtins: outputs and the multi-assignment requirement", () => {
    const outputs: [string, number[]][] = [
      ["eigen", [2]],
      ["qr", [2]],
      ["lu", [3]],
      ["svd", [3]],
      ["fft", [2]],
      ["lstm", [2, 3, 5]],
      ["lstm_backward", [5]],
      ["batch_norm2d", [5]],
      ["batch_norm2d_backward", [3]],
      ["remove", [2]],
      ["rowClassMeet", [2]],
      ["transformencode", [2]],
    ];
    for (const [name, counts] of outputs) {
      assert.deepEqual(get(name).outputs, counts, name);
      assert.equal(get(name).multiReturnOnly, true, name);
    }
    assert.deepEqual(get("compress").outputs, [1, 2]);
    assert.equal(get("compress").multiReturnOnly, false);
    assert.deepEqual(get("sum").outputs, [1]);
  });

  test("argument counts of native builtins", () => {
    const counts: [string, number, number | undefined][] = [
      ["sum", 1, 1],
      ["mean", 1, 2],
      ["log", 1, 2],
      ["seq", 2, 3],
      ["table", 2, 6],
      ["ifelse", 3, 3],
      ["time", 0, 0],
      ["cbind", 1, undefined],
      ["min", 1, undefined],
      ["list", 0, undefined],
    ];
    for (const [name, min, max] of counts) assert.deepEqual([get(name).minArgs, get(name).maxArgs], [min, max], name);
    assert.equal(get("cbind").variadic, true);
  });

  test("data and statement functions: positional limits and parameter names", () => {
    assert.equal(get("rand").maxPositional, 0);
    assert.deepEqual(paramNames("rand"), ["rows", "cols", "dims", "min", "max", "sparsity", "seed", "pdf", "lambda"]);
    assert.equal(get("read").maxPositional, 1);
    assert.ok(paramNames("read").includes("format") && paramNames("read").includes("data_type"));
    assert.deepEqual(requiredNames("read"), ["file"]);
    assert.equal(get("matrix").minArgs, 3);
    assert.equal(get("matrix").mixing, "first-only");
    assert.equal(get("print").variadic, true);
    assert.equal(get("stop").maxArgs, 1);
    assert.deepEqual(requiredNames("write"), ["X", "file"]);
  });

  test("parameterized builtins take named arguments", () => {
    assert.deepEqual(paramNames("removeEmpty"), ["target", "margin", "select", "empty.return"]);
    assert.deepEqual(requiredNames("removeEmpty"), ["target", "margin"]);
    assert.deepEqual(paramNames("order"), ["target", "by", "decreasing", "index.return"]);
    assert.equal(get("order").maxPositional, 0);
    assert.equal(get("toString").maxPositional, 1);
    assert.deepEqual(requiredNames("cdf"), ["target", "dist"]);
    assert.deepEqual(requiredNames("conv2d"), ["input", "filter", "stride", "padding", "input_shape", "filter_shape"]);
    assert.equal(get("conv2d").maxPositional, 2);
  });

  test("DML-bodied builtins have the parameters of their scripts", () => {
    assert.deepEqual(paramNames("lm"), ["X", "y", "icpt", "reg", "tol", "maxi", "verbose"]);
    assert.deepEqual(requiredNames("lm"), ["X", "y"]);
    assert.deepEqual(paramNames("lmDS"), ["X", "y", "icpt", "reg", "verbose"]);
    assert.deepEqual(requiredNames("kmeans"), ["X"]);
    assert.ok(paramNames("kmeans").includes("max_iter"));
    assert.deepEqual(requiredNames("multiLogReg"), ["X", "Y"]);
    assert.ok(paramNames("glm").includes("dfam") && paramNames("glm").includes("moi"));
    assert.deepEqual(paramNames("pca"), ["X", "K", "center", "scale"]);
    assert.deepEqual(get("pca").outputs, [1, 2, 3, 4]);
    assert.deepEqual(paramNames("sigmoid"), ["X"]);
    assert.deepEqual(paramNames("softmax"), ["S"]);
    assert.equal(get("l2svm").unknownNames, "warning");
  });

  test("builtins known by name only accept anything", () => {
    const s = get("randomForest");
    assert.equal(s.kind, "dml");
    assert.equal(s.params, undefined);
    assert.equal(s.outputs, undefined);
    assert.equal(s.note, "parameters unknown");
  });

  test("result types", () => {
    const results: [string, BuiltinSignature["result"]][] = [
      ["sum", "scalar"],
      ["nrow", "scalar"],
      ["t", "matrix"],
      ["colSums", "matrix"],
      ["as.frame", "frame"],
      ["list", "list"],
      ["print", "none"],
      ["write", "none"],
      ["toString", "scalar"],
      ["read", "unknown"],
      ["lm", "matrix"],
    ];
    for (const [name, result] of results) assert.equal(get(name).result, result, name);
  });
});

const languageDoc = path.join(repoRoot, "docs", "DML_LANGUAGE.md");

describe("coverage of DML_LANGUAGE.md section 6", () => {
  test("every builtin named in section 6 is in the catalog", () => {
    const text = readFileSync(languageDoc, "utf8");
    const section = text.slice(text.indexOf("## 6."), text.indexOf("## 7."));
    const names = new Set<string>();
    for (const line of section.split("\n")) {
      if (!/^(- \*\*|Statement-level|Data functions|Deprecated)/.test(line)) continue;
      for (const match of line.matchAll(/`([A-Za-z][A-Za-z0-9_.]*)`/g)) names.add(at(match, 1));
    }
    names.delete("DataExpression"); // a Java class named in the prose
    const missing = [...names].filter((name) => !lookupBuiltin(name));
    assert.deepEqual(missing, []);
    assert.ok(names.size > 350, `parsed only ${names.size} names`);
  });
});
