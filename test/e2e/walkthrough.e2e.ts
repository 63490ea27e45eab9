/**
 * The first-run walkthrough, in the real workbench (code-server 4.100.3 + headless
 * Chromium): "Welcome: Open Walkthrough…" lists "Get started with SpotDesk"; it has the four steps of
 * package.json `contributes.walkthroughs`, each with its image drawn (loaded, not broken) and a
 * button that does what the step says:
 *   1. the SpotDesk view opens on the running sandbox (Accounts fills);
 *   2. "Open a Market" opens a market panel;
 *   3. the request builder opens;
 *   4. "Connect a KuCoin Account" asks for the profile name (Escape leaves everything as it was).
 * Screenshots of each step land in screenshots/walkthrough-<step>.png (git-ignored) to be looked at.
 *
 * Run: `npx tsx test/e2e/walkthrough.e2e.ts` (builds first; exits non-zero on failure).
 */
import { strict as assert } from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import type { Locator, Page } from 'playwright-core';
import * as cs from '../../scripts/lib/codeServer';
import { FailureRecord } from './failure';
import { atStep, enter, pick, runCommand } from './quickInput';
import { pane, setTheme, shot, startWorkbench } from './shots';
import { step } from './steps';

interface WalkthroughStep {
  id: string;
  title: string;
  description: string;
  media: { image: string; altText: string };
}

/** The walkthrough as contributed (the test reads the manifest, so a changed step is checked too). */
function manifestWalkthrough(): { title: string; steps: WalkthroughStep[] } {
  const pkg = JSON.parse(fs.readFileSync(path.join(cs.ROOT, 'package.json'), 'utf8'));
  const w = pkg.contributes.walkthroughs.find((x: { id: string }) => x.id === 'getStarted');
  assert.ok(w, 'package.json contributes the getStarted walkthrough');
  return w;
}

/** The step's button label: the text of the description's own-line link `[label](command:…)`. */
function buttonLabel(s: WalkthroughStep): string {
  const m = /\n\[([^\]]+)\]\(command:[^)]+\)\s*$/.exec(s.description);
  assert.ok(m, `step ${s.id} ends with a button link`);
  return m[1];
}

/** The step row of the open walkthrough whose title is `title`. */
function stepRow(page: Page, title: string): Locator {
  return page.locator('.getting-started-step', { has: page.locator('.step-title', { hasText: title }) }).first();
}

/** Open step `s` (click its title) and wait until it is expanded and its image has loaded. */
async function openStep(page: Page, s: WalkthroughStep): Promise<Locator> {
  const row = stepRow(page, s.title);
  if (!(await row.evaluate((el) => el.classList.contains('expanded')))) await row.locator('.step-title').click();
  await page.waitForFunction((title) => [...document.querySelectorAll('.getting-started-step.expanded .step-title')].some((t) => t.textContent?.trim() === title), s.title, { timeout: 15_000 });
  // The step's image: the <img> whose alt is the step's altText, loaded with real pixels.
  await page.waitForFunction(
    (alt) => {
      const img = [...document.querySelectorAll<HTMLImageElement>('.getting-started-media img')].find((i) => i.alt === alt);
      return !!img && img.complete && img.naturalWidth > 100 && img.naturalHeight > 60;
    },
    s.media.altText,
    { timeout: 30_000 },
  );
  return row;
}

async function main(): Promise<void> {
  const b = spawnSync(process.execPath, [path.join(cs.ROOT, 'esbuild.js')], { cwd: cs.ROOT, stdio: 'inherit' });
  if (b.status !== 0) throw new Error('build failed');
  const w = manifestWalkthrough();
  assert.equal(w.title, 'Get started with SpotDesk');
  assert.equal(w.steps.length, 4, 'four steps');
  for (const s of w.steps) assert.ok(fs.statSync(path.join(cs.ROOT, s.media.image)).size > 1000, `${s.media.image} exists`);
  const wb = await startWorkbench('dark', { 'workbench.startupEditor': 'none' });
  const record = new FailureRecord('walkthrough');
  const page = record.watch(wb.page, 'workbench');
  /** Back to the walkthrough (each button opens something in front of it). */
  const reopen = async () => {
    if (await page.locator('.gettingStartedContainer .getting-started-step').first().isVisible()) return;
    await page.locator('.tabs-container .tab', { hasText: /Walkthrough|Welcome/ }).first().click();
    await page.locator('.gettingStartedContainer .getting-started-step').first().waitFor({ timeout: 15_000 });
  };
  try {
    await setTheme(wb, 'dark');
    await step('"Welcome: Open Walkthrough…" lists "Get started with SpotDesk" with its four steps', async () => {
      await runCommand(page, 'Welcome: Open Walkthrough...');
      await pick(page, { placeholder: /[Ww]alkthrough/ }, w.title);
      await page.locator('.gettingStartedContainer').waitFor({ timeout: 30_000 });
      const titles = await page.locator('.gettingStartedContainer .getting-started-step .step-title').allInnerTexts();
      assert.deepEqual(
        titles.map((t) => t.trim()),
        w.steps.map((s) => s.title),
      );
    });

    const [view, market, builder, connect] = w.steps;
    await step(`step 1 "${view.title}": image drawn; "${buttonLabel(view)}" shows Accounts of the running sandbox`, async () => {
      const row = await openStep(page, view);
      await shot(page, 'walkthrough-1-view');
      await row.locator('.monaco-button', { hasText: buttonLabel(view) }).click();
      await pane(page, 'Accounts').locator('.monaco-list-row', { hasText: 'Portfolio' }).first().waitFor({ timeout: 90_000 });
    });

    await step(`step 2 "${market.title}": image drawn; "${buttonLabel(market)}" opens a market panel`, async () => {
      await reopen();
      const row = await openStep(page, market);
      await shot(page, 'walkthrough-2-market');
      const tabs = await page.locator('.tabs-container .tab').count();
      await row.locator('.monaco-button', { hasText: buttonLabel(market) }).click();
      // Without a symbol the command asks for one (the first market is fine).
      await atStep(page, { placeholder: /^Symbol/ }, 30_000);
      await enter(page);
      await page.waitForFunction((n) => document.querySelectorAll('.tabs-container .tab').length > n, tabs, { timeout: 30_000 });
      await page.locator('iframe.webview').filter({ visible: true }).first().waitFor({ timeout: 30_000 });
    });

    await step(`step 3 "${builder.title}": image drawn; "${buttonLabel(builder)}" opens the request builder`, async () => {
      await reopen();
      const row = await openStep(page, builder);
      await shot(page, 'walkthrough-3-request-builder');
      await row.locator('.monaco-button', { hasText: buttonLabel(builder) }).click();
      await page.locator('.tabs-container .tab', { hasText: /Request Builder/ }).first().waitFor({ timeout: 30_000 });
    });

    await step(`step 4 "${connect.title}": image drawn; "${buttonLabel(connect)}" asks for the profile's name, Escape changes nothing`, async () => {
      await reopen();
      const row = await openStep(page, connect);
      await shot(page, 'walkthrough-4-connect');
      await row.locator('.monaco-button', { hasText: buttonLabel(connect) }).click();
      await atStep(page, { title: /Connect a KuCoin Account \(1\/2\)/ }, 30_000);
      const value = await page.locator('.quick-input-widget input.input').inputValue();
      assert.equal(value, 'KuCoin', 'proposes the name "KuCoin"');
      await page.keyboard.press('Escape');
      const settings = JSON.parse(fs.readFileSync(path.join(wb.userDataDir, 'User', 'settings.json'), 'utf8'));
      assert.equal(settings['spotdesk.profiles'], undefined, 'no profile added by a cancelled flow');
    });
  } catch (err) {
    await record.save(err, ['--- code-server log tail ---', ...wb.logLines.slice(-60)]);
    throw err;
  } finally {
    await wb.stop();
  }
}

main().then(
  () => {
    console.log('[spotdesk] walkthrough e2e passed; screenshots in screenshots/walkthrough-*.png');
    process.exit(0);
  },
  (err) => {
    console.error(err instanceof Error ? err.stack : err);
    process.exit(1);
  },
);
