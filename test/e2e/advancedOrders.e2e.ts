/**
 * Stop and OCO orders in the real workbench (code-server + headless Chromium), in the Dark Modern, Light Modern and
 * High Contrast themes: a stop-limit order and an OCO order placed through the API show in Active Orders under
 * "Stop orders" and "OCO orders" with their trigger and state (the rows' text is checked), and the market panel's
 * Order Ticket in its Stop limit and OCO modes (the fields each mode shows, the trigger figure) — each scene saved to
 * screenshots/advanced-<theme>-<scene>.png (git-ignored) to be looked at.
 *
 * Run: `npx tsx test/e2e/advancedOrders.e2e.ts [dark|light|hc …]` (builds first; exits non-zero on failure).
 */
import { strict as assert } from 'assert';
import { spawnSync } from 'child_process';
import * as path from 'path';
import type { Frame, Page } from 'playwright-core';
import * as cs from '../../scripts/lib/codeServer';
import { SpotClient } from '../../src/api/client';
import * as dec from '../../src/api/decimal';
import { FailureRecord, painted, SHOTS } from './failure';
import { pick, runCommand } from './quickInput';
import { step } from './steps';
import { closeEditors, openSpotDesk, pane, sandboxCredentials, setTheme, shot, startWorkbench, THEMES, type ThemeKey } from './shots';

const SYMBOL = 'BTC-USDT';

/** The market panel's frame once it shows `symbol`. */
async function marketFrame(page: Page, symbol: string, timeoutMs = 60_000): Promise<Frame> {
  await page.locator('.tabs-container .tab.active', { hasText: `Market: ${symbol}` }).waitFor({ timeout: timeoutMs });
  const outer = page.locator('iframe.webview').filter({ visible: true }).first();
  await outer.waitFor({ timeout: timeoutMs });
  const inner = outer.contentFrame().locator('iframe#active-frame');
  await inner.waitFor({ state: 'attached', timeout: timeoutMs });
  const frame = await (await inner.elementHandle())?.contentFrame();
  if (!frame) throw new Error('market webview frame not found');
  await frame.waitForFunction((s) => document.querySelector('.ob-title')?.textContent === s, symbol, { timeout: timeoutMs });
  return frame;
}

/** A close-up of one part of the panel: screenshots/<name>.png. */
async function partShot(f: Frame, selector: string, name: string): Promise<void> {
  await painted(f);
  const file = path.join(SHOTS, `${name}.png`);
  await f.locator(selector).screenshot({ path: file });
  console.log(`    screenshot ${path.relative(cs.ROOT, file)}`);
}

/** The labels of the ticket's visible fields. */
const visibleFields = (f: Frame) => f.$$eval('.mk-ticket-form .mk-field:not([hidden]) > label', (ls) => ls.map((l) => l.textContent ?? ''));

async function main(): Promise<void> {
  const themes = (process.argv.slice(2).filter((a) => a in THEMES) as ThemeKey[]).length ? (process.argv.slice(2) as ThemeKey[]) : (['dark', 'light', 'hc'] as ThemeKey[]);
  const b = spawnSync(process.execPath, [path.join(cs.ROOT, 'esbuild.js')], { cwd: cs.ROOT, stdio: 'inherit' });
  if (b.status !== 0) throw new Error('build failed');
  const wb = await startWorkbench(themes[0], { 'spotdesk.pollIntervalSeconds': 3 }, { width: 1600, height: 1000 });
  const record = new FailureRecord('advanced');
  const page = record.watch(wb.page, 'workbench');
  let client: SpotClient | undefined;
  try {
    await openSpotDesk(page, 200);
    await pane(page, 'Accounts').locator('.monaco-list-row', { hasText: 'Portfolio' }).first().waitFor({ timeout: 90_000 });
    const creds = await sandboxCredentials(wb.userDataDir);
    client = new SpotClient({ baseUrl: creds.baseUrl, credentials: creds });
    const info = (await client.getSymbols()).find((s) => s.symbol === SYMBOL)!;
    const bid = (await client.getLevel2(SYMBOL)).bids[0][0];
    const at = (f: string) => dec.normalize(dec.roundDown(dec.mul(bid, f), info.priceIncrement));
    await client.placeStopOrder({ symbol: SYMBOL, side: 'sell', type: 'limit', price: at('0.5'), size: '0.001', stopPrice: at('0.55'), stop: 'loss', clientOid: `adv-s-${Date.now()}` });
    await client.placeStopOrder({ symbol: SYMBOL, side: 'buy', type: 'market', size: '0.002', stopPrice: at('1.5'), stop: 'entry', clientOid: `adv-m-${Date.now()}` });
    await client.placeOcoOrder({ symbol: SYMBOL, side: 'sell', price: at('1.6'), size: '0.003', stopPrice: at('0.6'), limitPrice: at('0.59'), clientOid: `adv-o-${Date.now()}` });

    for (const theme of themes) {
      const name = (scene: string) => `advanced-${theme}-${scene}`;
      await setTheme(wb, theme);
      await closeEditors(page);

      await step(`${theme}: Active Orders — "Stop orders" and "OCO orders" with trigger and state`, async () => {
        await openSpotDesk(page, 200);
        const orders = pane(page, 'Active Orders');
        const stops = orders.locator('.monaco-list-row', { hasText: 'Stop orders' }).first();
        await stops.waitFor({ timeout: 60_000 });
        await orders.locator('.monaco-list-row', { hasText: 'OCO orders' }).first().waitFor({ timeout: 60_000 });
        const text = (await orders.locator('.monaco-list-rows').innerText()).replace(/\s+/g, ' ');
        // (a row's label and description are separate elements: no space between them in innerText)
        assert.match(text, /Stop orders ?2 waiting/);
        assert.match(text, /SELL stop-limit 0\.001 @ [\d,.]+ ?BTC-USDT · trigger ≤ [\d,.]+ \(loss\) · waiting/);
        assert.match(text, /BUY stop-market 0\.002 @ market ?BTC-USDT · trigger ≥ [\d,.]+ \(entry\) · waiting/);
        assert.match(text, /OCO orders ?1 waiting/);
        assert.match(text, /SELL OCO 0\.003 ?BTC-USDT · take profit ≥ [\d,.]+ @ [\d,.]+ · stop ≤ [\d,.]+ @ [\d,.]+ · waiting/);
        await shot(page, name('active-orders'));
      });

      await step(`${theme}: the Order Ticket in Stop limit and OCO modes`, async () => {
        await runCommand(page, 'SpotDesk: Open Market');
        await pick(page, { placeholder: /^Symbol/ }, SYMBOL);
        const f = await marketFrame(page, SYMBOL);
        await f.waitForSelector('.row.bid:not([hidden]) .price', { timeout: 30_000 });
        await f.locator('.mk-ticket').scrollIntoViewIfNeeded();
        await f.click('.mk-seg-btn.v-sell');
        await f.click('.mk-seg-btn.v-stopLimit');
        assert.deepEqual(await visibleFields(f), ['Price (USDT)', 'Trigger (USDT)', 'Size (BTC)']);
        await f.fill('#mk-price', at('0.5'));
        await f.fill('#mk-stop', at('0.55'));
        await f.fill('#mk-size', '0.001');
        await f.waitForFunction(() => [...document.querySelectorAll('.mk-figures dd')].some((d) => /^≤ [\d.]+ \(loss\)$/.test(d.textContent ?? '')), undefined, { timeout: 15_000 });
        assert.equal((await f.innerText('.mk-place')).trim(), 'Sell BTC stop-limit');
        await partShot(f, '.mk-ticket', name('ticket-stop-limit'));
        await f.click('.mk-seg-btn.v-oco');
        assert.deepEqual(await visibleFields(f), ['Take profit (USDT)', 'Stop (USDT)', 'Stop limit (USDT)', 'Size (BTC)']);
        await f.fill('#mk-price', at('1.6'));
        await f.fill('#mk-stop', at('0.6'));
        await f.fill('#mk-limit', at('0.59'));
        await f.waitForFunction(() => [...document.querySelectorAll('.mk-figures dd')].some((d) => /^≥ [\d.]+ \/ ≤ [\d.]+$/.test(d.textContent ?? '')), undefined, { timeout: 15_000 });
        assert.equal(await f.$$eval('.mk-ticket-form .mk-error', (es) => es.map((e) => e.textContent).join('')), '', 'no error on a valid OCO');
        await partShot(f, '.mk-ticket', name('ticket-oco'));
        // a sell OCO whose take profit is below its stop: the error at the take-profit field
        await f.fill('#mk-price', at('0.5'));
        await f.waitForFunction(() => /take profit/.test(document.querySelector('#mk-price-error')?.textContent ?? ''), undefined, { timeout: 15_000 });
        await partShot(f, '.mk-ticket', name('ticket-oco-error'));
        await closeEditors(page);
      });
    }
  } catch (err) {
    await record.save(err, ['--- code-server log tail ---', ...wb.logLines.slice(-60)]);
    throw err;
  } finally {
    client?.close();
    await wb.stop();
  }
}

main().then(
  () => {
    console.log('[spotdesk] advanced orders e2e passed; screenshots in screenshots/advanced-*.png');
    process.exit(0);
  },
  (err) => {
    console.error(err instanceof Error ? err.stack : err);
    process.exit(1);
  },
);
