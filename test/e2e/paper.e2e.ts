/**
 * The Paper (KuCoin prices) and Replay profiles in the real workbench (code-server + headless Chromium), in the
 * Dark Modern, Light Modern and High Contrast themes. This machine has no internet: the upstream is a second
 * sandbox in this process (quiet market), and `spotdesk.paper.upstreamUrl` points at it.
 *
 * - The workbench starts on the paper profile: the status bar says `paper · live`, the market panel's header
 *   `Paper · play money` and `paper · live` (screenshots/paper-<theme>-live.png).
 * - The upstream stops: the status bar says `paper · unreachable`, the panel's badge too, its banner says
 *   cancel-only and the Order Ticket why new orders are refused (screenshots/paper-<theme>-unreachable.png).
 * - "SpotDesk: Replay a Recorded Market…" with a recording of the upstream made at the start (typed into the
 *   file dialog) at 60×: the status bar follows it to `replay ×60 · finished` (screenshots/paper-<theme>-replay.png).
 *
 * Every wait is for a state (never a fixed sleep). Run: `npx tsx test/e2e/paper.e2e.ts [dark|light|hc …]`.
 */
import { strict as assert } from 'assert';
import { spawnSync } from 'child_process';
import * as path from 'path';
import type { Frame, Page } from 'playwright-core';
import * as cs from '../../scripts/lib/codeServer';
import { startSandbox, type RunningSandbox } from '../../src/exchange/server';
import { startRecorder } from '../../src/exchange/record';
import { FailureRecord } from './failure';
import { pick, runCommand, type } from './quickInput';
import { step } from './steps';
import { closeEditors, openSpotDesk, setTheme, shot, startWorkbench, THEMES, webviewFrame, type ThemeKey } from './shots';

const SYMBOL = 'BTC-USDT';

/** The text of the status bar item that names the borrowed market (its icons are codicons: only the words are read). */
async function statusText(page: Page): Promise<string> {
  return page.evaluate(() => ([...document.querySelectorAll('.statusbar-item')].map((e) => e.textContent ?? '').find((t) => /paper|replay/.test(t)) ?? '').trim());
}

/** Wait until the status bar shows `re`. */
async function statusShows(page: Page, re: RegExp, timeoutMs = 60_000): Promise<void> {
  await page.waitForFunction((src) => [...document.querySelectorAll('.statusbar-item')].some((e) => new RegExp(src).test(e.textContent ?? '')), re.source, { timeout: timeoutMs });
}

/** Open the market panel of `symbol` from the palette and return its webview frame once its header shows the symbol. */
async function openMarket(page: Page, symbol: string): Promise<Frame> {
  await runCommand(page, 'SpotDesk: Open Market');
  await pick(page, { title: /Open Market/ }, symbol);
  await page.locator('.tabs-container .tab.active', { hasText: `Market: ${symbol}` }).waitFor({ timeout: 60_000 });
  const f = await webviewFrame(page, '.ob-title', 60_000);
  await f.waitForFunction((s) => document.querySelector('.ob-title')?.textContent === s, symbol, { timeout: 60_000 });
  return f;
}

async function main(): Promise<void> {
  const picked = process.argv.slice(2).filter((a) => a in THEMES) as ThemeKey[];
  const themes = picked.length ? picked : (['dark', 'light', 'hc'] as ThemeKey[]);
  const b = spawnSync(process.execPath, [path.join(cs.ROOT, 'esbuild.js')], { cwd: cs.ROOT, stdio: 'inherit' });
  if (b.status !== 0) throw new Error('build failed');
  let up: RunningSandbox | undefined = await startSandbox({ sim: true, market: 'quiet', simIntervalMs: 200, seed: 1 });
  const wb = await startWorkbench(themes[0], { 'spotdesk.activeProfile': 'Paper (KuCoin prices)', 'spotdesk.paper.upstreamUrl': up.baseUrl, 'spotdesk.paper.symbols': [SYMBOL] }, { width: 1366, height: 768 });
  const record = new FailureRecord('paper');
  const page = record.watch(wb.page, 'workbench');
  try {
    // a recording of the upstream for the replay, in the workspace (the file dialog starts there)
    const file = path.join(wb.workspace, 'upstream.sdrec');
    const rec = await startRecorder({ baseUrl: up.baseUrl, symbols: [SYMBOL], out: file, flushMs: 100, snapshotEveryMs: 0 });
    const deadline = Date.now() + 60_000;
    while (rec.stats.trades < 3) {
      if (Date.now() > deadline) throw new Error(`the recorder saw ${rec.stats.trades} trades in 60 s`);
      await new Promise((r) => setTimeout(r, 50));
    }
    await rec.stop('e2e');

    await openSpotDesk(page, 60);
    let f!: Frame;
    await step('the paper profile: status bar "paper · live", the panel says Paper · play money and paper · live', async () => {
      f = await openMarket(page, SYMBOL);
      await statusShows(page, /paper · live/);
      await f.waitForFunction(() => document.querySelector('.mk-source')?.textContent === 'paper · live', undefined, { timeout: 60_000 });
      assert.equal(await f.$eval('.mk-funds', (e) => e.textContent), 'Paper · play money');
      await f.waitForSelector('.row.ask:not([hidden]) .price', { timeout: 60_000 });
    });
    for (const theme of themes) {
      await step(`${theme}: paper · live (screenshot)`, async () => {
        await setTheme(wb, theme);
        await shot(page, `paper-${theme}-live`);
      });
    }

    await step('the upstream stops: "paper · unreachable", cancel-only, and the ticket says why', async () => {
      await up!.close();
      up = undefined;
      await statusShows(page, /paper · unreachable/, 90_000);
      await f.waitForFunction(() => document.querySelector('.mk-source')?.textContent === 'paper · unreachable', undefined, { timeout: 60_000 });
      await f.waitForFunction(() => /cancel-only/.test(document.querySelector('.banner.status')?.textContent ?? ''), undefined, { timeout: 60_000 });
      await f.waitForFunction(() => /New orders are refused: the upstream market is unreachable/.test(document.body.textContent ?? ''), undefined, { timeout: 60_000 });
    });
    for (const theme of [...themes].reverse()) {
      await step(`${theme}: paper · unreachable (screenshot)`, async () => {
        await setTheme(wb, theme);
        await shot(page, `paper-${theme}-unreachable`);
      });
    }

    await step('Replay a Recorded Market… at 60×: the status bar follows it to "replay ×60 · finished"', async () => {
      await closeEditors(page);
      await runCommand(page, 'SpotDesk: Replay a Recorded Market');
      await type(page, { title: /the recording/ }, file);
      await pick(page, { title: /the speed/ }, '60×');
      await statusShows(page, /replay ×60 · (finished|\d\d:\d\d:\d\d)/, 90_000);
      f = await openMarket(page, SYMBOL);
      await f.waitForFunction(() => /^replay ×60 · /.test(document.querySelector('.mk-source')?.textContent ?? ''), undefined, { timeout: 60_000 });
      assert.equal(await f.$eval('.mk-funds', (e) => e.textContent), 'Replay · play money');
      await statusShows(page, /replay ×60 · finished/, 120_000);
    });
    for (const theme of themes) {
      await step(`${theme}: replay (screenshot)`, async () => {
        await setTheme(wb, theme);
        await shot(page, `paper-${theme}-replay`);
      });
    }
    console.log(`    status bar at the end: ${await statusText(page)}`);
  } catch (err) {
    await record.save(err, ['--- code-server log tail ---', ...wb.logLines.slice(-60)]);
    throw err;
  } finally {
    await wb.stop();
    await up?.close();
  }
}

main().then(
  () => {
    console.log('[spotdesk] paper e2e passed; screenshots in screenshots/paper-*.png');
    process.exit(0);
  },
  (err) => {
    console.error(err instanceof Error ? err.stack : err);
    process.exit(1);
  },
);
