// Server settings (server/src/settings.ts): validation of what the client
// sends, and the settings package.json contributes to VS Code, which must be
// exactly the server's (same names, defaults and choices).
import { DEFAULT_PLAN_MODE, PLAN_MODES } from "../../engine/execution";
import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { DEFAULT_SETTINGS, mergeSettings } from "../../server/src/settings";
import { repoRoot } from "../repo-root";

test("valid fields apply, invalid ones keep the old value and are reported, unknown ones are reported", () => {
  const { settings, problems } = mergeSettings(DEFAULT_SETTINGS, { costUnit: "flops", extraction: "simplex", budgetMs: 0, sizeAssumptionsFile: "big.json", colour: "blue", nodeLimit: 2.5, minSaving: 1.5, minSavingMs: 5 });
  assert.equal(settings.costUnit, "flops");
  assert.equal(settings.extraction, "greedy");
  // budgetMs is the time safety net now (10 s by default), no longer a 200 ms budget.
  assert.equal(settings.budgetMs, 10_000);
  assert.equal(settings.nodeLimit, 4000);
  assert.equal(settings.minSaving, 0.2);
  assert.equal(settings.minSavingMs, 5);
  assert.equal(settings.sizeAssumptionsFile, "big.json");
  assert.deepEqual(problems, [
    'dmlLens.optimizer.extraction must be one of "greedy", "ilp", not "simplex"; keeping "greedy"',
    "dmlLens.optimizer.budgetMs must be a positive number of milliseconds, not 0; keeping 10000",
    "unknown setting dmlLens.optimizer.colour",
    "dmlLens.optimizer.nodeLimit must be a positive whole number, not 2.5; keeping 4000",
    "dmlLens.optimizer.minSaving must be a share from 0 up to (not including) 1, e.g. 0.2, not 1.5; keeping 0.2",
  ]);
  assert.deepEqual(mergeSettings(DEFAULT_SETTINGS, "fast").problems, ["dmlLens.optimizer must be an object"]);
  assert.deepEqual(mergeSettings(DEFAULT_SETTINGS, undefined).settings, DEFAULT_SETTINGS);
});

test("package.json contributes exactly the server's settings, with its defaults, each described", () => {
  const manifest = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
    contributes: { configuration: { properties: Record<string, { default: unknown; description?: string; markdownDescription?: string; enum?: string[]; restricted?: boolean }> } };
  };
  // `dmlLens.run.*` is the extension's own (how Run Cell runs), not the server's: checked below; `dmlLens.systemds.home` is systemds-setting.ts's (test/server/systemds-setting-protocol.test.ts).
  const all = manifest.contributes.configuration.properties;
  const properties = Object.fromEntries(Object.entries(all).filter(([key]) => !key.startsWith("dmlLens.run.") && !key.startsWith("dmlLens.systemds.")));
  assert.equal(all["dmlLens.systemds.home"]?.default, "");
  assert.deepEqual([...(all["dmlLens.run.plan"]?.enum ?? [])].sort(), [...PLAN_MODES].sort());
  assert.equal(all["dmlLens.run.plan"]?.default, DEFAULT_PLAN_MODE);
  const nameOf = (key: string) => key.replace(/^dmlLens\.(optimizer|analysis|redundancy)\./, "") as keyof typeof DEFAULT_SETTINGS;
  assert.deepEqual(Object.keys(properties).map(nameOf).sort(), Object.keys(DEFAULT_SETTINGS).sort());
  for (const [key, spec] of Object.entries(properties)) {
    const name = nameOf(key);
    const given = { [name]: spec.default };
    assert.deepEqual(spec.default, DEFAULT_SETTINGS[name], key);
    const merged = key.startsWith("dmlLens.analysis.") ? mergeSettings(DEFAULT_SETTINGS, undefined, given) : key.startsWith("dmlLens.redundancy.") ? mergeSettings(DEFAULT_SETTINGS, undefined, undefined, given) : mergeSettings(DEFAULT_SETTINGS, given);
    assert.deepEqual(merged.problems, [], `${key} is read from its own section`);
    assert.ok((spec.description ?? spec.markdownDescription ?? "").length > 20, `${key} has a description`);
    // Every choice the manifest offers is one the server accepts, and the other way round.
    for (const choice of spec.enum ?? []) assert.deepEqual(mergeSettings(DEFAULT_SETTINGS, { [name]: choice }).problems, [], `${key}: ${choice}`);
    if (spec.enum) assert.equal(mergeSettings(DEFAULT_SETTINGS, { [name]: "no-such-choice" }).problems.length, 1);
  }
});

test("settings that name files or folders are restricted: an untrusted workspace cannot set them", () => {
  const manifest = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
    contributes: { configuration: { properties: Record<string, { type: string; restricted?: boolean }> } };
  };
  const pathLike = Object.entries(manifest.contributes.configuration.properties).filter(([key, spec]) => spec.type === "array" || (spec.type === "string" && /File|Folder|Path|Command|Home/i.test(key)));
  assert.deepEqual(pathLike.map(([key]) => key).sort(), ["dmlLens.analysis.readableFolders", "dmlLens.optimizer.sizeAssumptionsFile", "dmlLens.systemds.home"]);
  for (const [key, spec] of pathLike) assert.equal(spec.restricted, true, key);
  const trust = (manifest as unknown as { capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } } }).capabilities.untrustedWorkspaces;
  assert.deepEqual([...trust.restrictedConfigurations].sort(), pathLike.map(([key]) => key).sort());
});

test("dmlLens.analysis.readableFolders is a list of strings, read only from dmlLens.analysis", () => {
  assert.deepEqual(mergeSettings(DEFAULT_SETTINGS, undefined, { readableFolders: ["/data", "../datasets"] }).settings.readableFolders, ["/data", "../datasets"]);
  assert.deepEqual(mergeSettings(DEFAULT_SETTINGS, undefined, { readableFolders: "/data" }).problems, ['dmlLens.analysis.readableFolders must be a list of folder paths, not "/data"; keeping []']);
  assert.deepEqual(mergeSettings(DEFAULT_SETTINGS, { readableFolders: ["/"] }).problems, ["unknown setting dmlLens.optimizer.readableFolders"]);
  assert.equal(mergeSettings(DEFAULT_SETTINGS, undefined, undefined, { expectedIterations: 40 }).settings.expectedIterations, 40);
  assert.deepEqual(mergeSettings(DEFAULT_SETTINGS, undefined, undefined, { expectedIterations: 0 }).problems, ["dmlLens.redundancy.expectedIterations must be a positive whole number of iterations, not 0; keeping 10"]);
  assert.deepEqual(mergeSettings(DEFAULT_SETTINGS, { expectedIterations: 40 }).problems, ["unknown setting dmlLens.optimizer.expectedIterations"]);
});
