#!/usr/bin/env node
// The UI test: drives code-server's workbench in headless Chromium like a
// person, with the development extension loaded: opens sum_product.dml,
// waits for the optimizer's hints, hovers an expression and reads the hover,
// runs the first cell from the Command Palette and reads the results view,
// opens the plan view and reads it, and saves a screenshot of each step in
// e2e/out/screenshots. Exits 1 on the first step that does not show what it
// should.
"use strict";
const assert = require("node:assert/strict");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { startCodeServer } = require("./code-server");

const root = path.resolve(__dirname, "..");
const shots = path.join(__dirname, "out", "screenshots");
const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;

/** The text of the first frame (webviews are nested iframes) that has `selector`, once it appears. */
async function frameText(page, selector, timeoutMs = 60000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      const found = await frame.$(selector).catch(() => null);
      // innerText keeps table cells apart; an SVG element has only textContent.
      // (A webview re-rendered meanwhile detaches the frame: look again.)
      const text = found ? await found.evaluate((e) => ("innerText" in e ? e.innerText : e.textContent)).catch(() => undefined) : undefined;
      if (text !== undefined && text !== null) return String(text).replace(/\s+/g, " ");
    }
    await page.waitForTimeout(250);
  }
  throw new Error(`no frame shows ${selector} after ${timeoutMs} ms`);
}

/** The texts of every element matching `selector` in the first frame that has one. */
async function frameTexts(page, selector, timeoutMs = 60000) {
  await frameText(page, selector, timeoutMs);
  for (const frame of page.frames()) {
    const texts = await frame.$$eval(selector, (elements) => elements.map((e) => e.textContent ?? "")).catch(() => []);
    if (texts.length > 0) return texts;
  }
  return [];
}

async function command(page, name) {
  await page.keyboard.press("F1");
  await page.waitForSelector(".quick-input-widget input", { timeout: 10000 });
  await page.keyboard.type(name);
  await page.waitForSelector(`.quick-input-list .monaco-list-row:has-text("${name}")`, { timeout: 10000 });
  await page.keyboard.press("Enter");
}

async function goToLine(page, line) {
  await page.keyboard.press("Control+G");
  await page.waitForSelector(".quick-input-widget input", { timeout: 10000 });
  await page.keyboard.type(String(line));
  await page.keyboard.press("Enter");
}

(async () => {
  fs.mkdirSync(shots, { recursive: true });
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), "dml-e2e-ui-"));
  fs.cpSync(path.join(__dirname, "workspace"), workspace, { recursive: true });
  const cs = await startCodeServer();
  try {
    const page = await cs.browser.newPage({ viewport: { width: 1600, height: 900 } });
    const script = path.join(workspace, "sum_product.dml");
    const lines = fs.readFileSync(script, "utf8").split("\n");
    await page.goto(cs.url(workspace, [["extensionDevelopmentPath", cs.remote(root)], ["openFile", cs.remote(script)], ["skipWelcome", "true"]]));
    await page.waitForSelector(".monaco-editor .view-lines", { timeout: 60000 });
    console.log(elapsed(), "editor open");

    // The optimizer's hints show as information squiggles.
    await page.waitForSelector(".monaco-editor .squiggly-info", { timeout: 120000 });
    console.log(elapsed(), "cheaper-rewrite hints shown");
    await page.screenshot({ path: path.join(shots, "1-hints.png") });

    // Hover the product inside G's statement.
    const gLine = lines.findIndex((l) => l.startsWith("G ="));
    await goToLine(page, gLine + 1);
    // (The line also shows the dims inlay hint after `G`.)
    const row = page.locator(".monaco-editor .view-line", { hasText: "(Uk %*% t(Vk) - X) %*% Vk" }).first();
    const box = await row.boundingBox();
    const token = row.locator("span span", { hasText: /^\(?Uk$/ }).first();
    const at = await token.boundingBox();
    await page.mouse.move(box.x + 5, box.y + box.height / 2);
    await page.mouse.move(at.x + at.width - 6, at.y + at.height / 2);
    await page.waitForSelector(".monaco-hover-content:has-text('estimated cost')", { timeout: 20000 });
    const hover = (await page.locator(".monaco-hover-content:has-text('estimated cost')").first().innerText()).replace(/\s+/g, " ");
    console.log(elapsed(), "hover:", hover.slice(0, 200));
    // Digits grouped; the expression's time and the statement's time each say which they are.
    assert.match(hover, /matrix 10,000 × [\d,]+, nnz ≈ 50,000,000/);
    assert.match(hover, /estimated cost of this expression: .*FLOP/);
    assert.match(hover, /Cheaper equivalent of the statement assigning G \(verified\): Uk %\*% \(t\(Vk\) %\*% Vk\) - X %\*% Vk/);
    assert.match(hover, /estimated cost of the whole statement: [\d.]+ s → [\d.]+ ms/);
    await page.screenshot({ path: path.join(shots, "2-hover.png") });
    await page.mouse.move(5, 850);

    // Run the first cell from the Command Palette; the results view opens beside the editor.
    const firstCell = lines.findIndex((l) => l.startsWith("X = rand"));
    await goToLine(page, firstCell + 1);
    await command(page, "DML: Run Cell");
    const results = await frameText(page, "#variables", 120000);
    console.log(elapsed(), "results view:", results.slice(0, 200));
    assert.match(results, /X matrix 10,000 × 5,000, nnz [\d,]+, sparsity 0\.00\d+/);
    assert.match(results, /Xd matrix 10,000 × 50, nnz 500,000/);
    assert.match(await frameText(page, "#status"), /^done in [\d.]+ (ms|s)/);
    // The estimate for the cell arrives after the run; when the run was far off it, the view says why.
    const runStatus = await frameText(page, "#status");
    const timing = /^done in ([\d.]+) (ms|s) · estimated ([\d.]+) (µs|ms|s)/.exec(runStatus);
    if (timing) {
      const seconds = (value, unit) => Number(value) * { "µs": 1e-6, ms: 1e-3, s: 1 }[unit];
      const ran = seconds(timing[1], timing[2]);
      const guessed = seconds(timing[3], timing[4]);
      if (Math.max(ran, guessed) / Math.max(1e-9, Math.min(ran, guessed)) >= 3 && Math.abs(ran - guessed) >= 0.05) {
        const note = await frameText(page, "#estimate-note");
        console.log(elapsed(), "estimate note:", note.slice(0, 300));
        assert.match(note, /^Why the estimate was off: the run took [\d,.]+× (longer|less time) than estimated/);
        assert.match(note, /estimated sizes matched the run|sizes were off|left out of the estimate/);
        assert.match(note, /the estimate's largest operations: rand\(/);
      }
    }
    // Each matrix has a labelled sparsity pattern and value heatmap: title, rows and cols with their counts, a legend.
    const pattern = await frameText(page, "figure.pattern svg");
    assert.match(pattern, /sparsity pattern of X 5,000 cols 10,000 rows/);
    assert.match(pattern, /some non-zeros \(at least one\).*all non-zero.*all zero/);
    // rand's values lie in [0, 1]: so do the tile means.
    const caption = await frameText(page, "figure.heatmap figcaption.range");
    const range = /^mean per square from (\S+) to (\S+)$/.exec(caption);
    assert.ok(range && 0 <= Number(range[1]) && Number(range[1]) <= Number(range[2]) && Number(range[2]) <= 1, caption);
    // The Variables view in the Explorer lists the session's variables.
    const variablesHeader = page.locator(".pane-header:has-text('DML Variables')").first();
    if ((await variablesHeader.getAttribute("aria-expanded")) !== "true") await variablesHeader.click();
    const variablesRow = page.locator(".monaco-list-row:has-text('Uk')").first();
    await variablesRow.waitFor({ timeout: 20000 });
    const variablesText = (await variablesRow.innerText()).replace(/\s+/g, " ");
    console.log(elapsed(), "variables view:", variablesText);
    assert.match(variablesText, /Uk ?10,000 × 20, nnz 200,000 \(sparsity 1\.00\)/);
    await page.screenshot({ path: path.join(shots, "3-results.png") });

    // The plan view of G's block.
    await page.locator(".monaco-editor .view-line").first().click();
    await goToLine(page, gLine + 1);
    // The run's measured sizes replaced the estimates, so the optimizer runs again: open the view again until it has the rewrites, as a person would.
    let planPage = "";
    for (let attempt = 0; attempt < 60 && !/G = Uk %\*% \(t\(Vk\) %\*% Vk\) - X %\*% Vk/.test(planPage); attempt++) {
      if (attempt > 0) await page.waitForTimeout(1000);
      await command(page, "DML: Show Optimized Plan");
      await frameText(page, "svg.plan", 60000);
      planPage = await frameText(page, "body:has(svg.plan)");
    }
    console.log(elapsed(), "plan view:", planPage.slice(0, 160));
    assert.match(planPage, /\d+ operations, estimated [\d.]+ s/);
    // Nodes are named by their DML and the variable they assign, not by internal operators.
    const nodeNames = await frameTexts(page, "svg.plan text.op");
    assert.ok(nodeNames.includes("l1 = sum(…)"), nodeNames.join(" | "));
    assert.ok(nodeNames.includes("G = (…) %*% Vk"), nodeNames.join(" | "));
    assert.ok(!nodeNames.some((name) => /binary\[|aggregate\[/.test(name)), nodeNames.join(" | "));
    // The drawing fits the panel (the zoom script scaled it down) and zooms in on +.
    const fit = await frameText(page, ".zoom .scale");
    assert.match(fit, /^\d+ %$/);
    assert.ok(Number(fit.split(" ")[0]) <= 100, fit);
    await page.screenshot({ path: path.join(shots, "4-plan.png") });
    // The + button zooms the drawing in (the first drawing: the block before optimization).
    for (const frame of page.frames()) {
      const zoomIn = await frame.$('.zoom button[data-zoom="in"]').catch(() => null);
      if (!zoomIn) continue;
      await zoomIn.click();
      await zoomIn.click();
      break;
    }
    const zoomed = await frameText(page, ".zoom .scale");
    console.log(elapsed(), `plan view zoom: fit ${fit}, after + +: ${zoomed}`);
    assert.ok(Number(zoomed.split(" ")[0]) > Number(fit.split(" ")[0]), `${fit} → ${zoomed}`);
    await page.screenshot({ path: path.join(shots, "4b-plan-zoomed.png") });
    assert.match(planPage, /G = Uk %\*% \(t\(Vk\) %\*% Vk\) - X %\*% Vk/);
    assert.match(planPage, /line 18: sum\(\(X - U %\*% t\(V\)\)\^2\)(; [^\n]*?)? as one (Cell|Row|MAgg|Outer) operator/);
    // The fusion plan is drawn: each fused operator a frame labelled with its template and time around the operations it computes.
    assert.match(await frameText(page, "#fusion svg.plan"), /(Cell|Row|MAgg|Outer) · [\d.]+ [µm]?s/);
    // The sizes the run measured replaced the estimates (rand's 50,000 expected non-zeros).
    assert.match(planPage, /X = rand\(rows=10000, cols=5000, \S*… 10,000 × 5,000, nnz 49,963/);

    // A long cell shows a progress notification; its Cancel interrupts the run and the session stays.
    await page.keyboard.press("Control+P");
    await page.waitForSelector(".quick-input-widget input", { timeout: 10000 });
    await page.keyboard.type("loop.dml");
    await page.waitForSelector(`.quick-input-list .monaco-list-row:has-text("loop.dml")`, { timeout: 10000 });
    await page.keyboard.press("Enter");
    await page.waitForSelector(".monaco-editor .view-line:has-text('while (i >= 0)')", { timeout: 20000 });
    await goToLine(page, 2);
    await command(page, "DML: Run Cell");
    await frameText(page, "#status");
    await goToLine(page, 6);
    await command(page, "DML: Run Cell");
    const toast = page.locator(".notification-toast:has-text('DML: running cell 2')").first();
    await toast.waitFor({ timeout: 20000 });
    await page.screenshot({ path: path.join(shots, "5-progress.png") });
    const cancelled = Date.now();
    await toast.locator(".monaco-button:has-text('Cancel'), a:has-text('Cancel')").first().click();
    let status = "";
    while (Date.now() - cancelled < 10000 && !/^interrupted/.test(status)) status = await frameText(page, "#status");
    console.log(elapsed(), `after Cancel (${Date.now() - cancelled} ms): ${status}`);
    assert.match(status, /^interrupted in [\d.]+ (ms|s)/);
    assert.match(await frameText(page, "#errors"), /interrupted/);
    console.log(elapsed(), `ui test passed; screenshots in ${path.relative(root, shots)}`);
  } catch (error) {
    const pages = cs.browser.contexts().flatMap((c) => c.pages());
    if (pages[0]) await pages[0].screenshot({ path: path.join(shots, "failure.png") }).catch(() => undefined);
    console.error(`ui test failed after ${elapsed()}: ${error instanceof Error ? error.stack : error}`);
    process.exitCode = 1;
  } finally {
    await cs.stop();
    fs.rmSync(workspace, { recursive: true, force: true });
  }
})();
