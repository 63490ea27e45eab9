/**
 * A trader's pass over every view, in the real workbench (code-server 4.100.3 + headless
 * Chromium), in the Dark Modern, Light Modern and High Contrast themes: what is drawn is checked,
 * and each scene is saved to screenshots/trader-<theme>-<scene>.png (git-ignored) to be looked at.
 *
 * Scenes: Accounts (portfolio total, currencies by value, trimmed and grouped figures, the exact
 * breakdown in the tooltip); an order's tooltip and the cancel dialog ("Keep Order" / "Cancel
 * Order"); the order book (prices padded to the tick, sizes to the lot); the request builder (no
 * error before input, Ctrl+Enter runs the test, the placement dialog naming the profile with the
 * notional and the fee); deposit panels (one tab per address, QR codes); the withdraw wizard's first
 * step (the currency, 1/7); the example order document of the scratch workspace; and an unreachable profile (the order
 * book and Markets say "connection refused", with Retry), after which Markets shows the symbol's
 * row again.
 *
 * Run: `npx tsx test/e2e/trader.e2e.ts [dark|light|hc …]` (builds first; exits non-zero on failure).
 */
import { strict as assert } from 'assert';
import { spawnSync } from 'child_process';
import * as path from 'path';
import type { Page } from 'playwright-core';
import * as cs from '../../scripts/lib/codeServer';
import { SpotClient } from '../../src/api/client';
import * as dec from '../../src/api/decimal';
import { FailureRecord } from './failure';
import { atStep, pick, quickOpen, runCommand } from './quickInput';
import { step } from './steps';
import { activeWebview, closeEditors, openSpotDesk, pane, sandboxCredentials, setTheme, shot, shotWithHover, startWorkbench, THEMES, type ThemeKey } from './shots';

const SYMBOL = 'BTC-USDT';
const OFFLINE = { name: 'Offline', baseUrl: 'http://127.0.0.1:9' };

/** The buttons of the modal dialog, sorted (their order depends on the platform). */
async function dialogButtons(page: Page): Promise<string[]> {
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.waitFor({ state: 'visible', timeout: 30_000 });
  return (await dialog.locator('.monaco-button').allInnerTexts()).map((t) => t.trim()).filter((t) => t).sort();
}

async function main(): Promise<void> {
  const themes = (process.argv.slice(2).filter((a) => a in THEMES) as ThemeKey[]).length ? (process.argv.slice(2) as ThemeKey[]) : (['dark', 'light', 'hc'] as ThemeKey[]);
  const b = spawnSync(process.execPath, [path.join(cs.ROOT, 'esbuild.js')], { cwd: cs.ROOT, stdio: 'inherit' });
  if (b.status !== 0) throw new Error('build failed');
  const wb = await startWorkbench(themes[0], { 'spotdesk.profiles': [OFFLINE], 'spotdesk.pollIntervalSeconds': 3 });
  const record = new FailureRecord('trader');
  const page = record.watch(wb.page, 'workbench');
  let client: SpotClient | undefined;
  try {
    await openSpotDesk(page, 180);
    const accounts = pane(page, 'Accounts');
    await accounts.locator('.monaco-list-row', { hasText: 'Portfolio' }).first().waitFor({ timeout: 90_000 });
    const creds = await sandboxCredentials(wb.userDataDir);
    client = new SpotClient({ baseUrl: creds.baseUrl, credentials: creds });
    const info = (await client.getSymbols()).find((s) => s.symbol === SYMBOL)!;
    // A fill (USDT and BTC balances with dust) and a resting order for the tooltip and the cancel dialog.
    await client.placeOrder({ symbol: SYMBOL, side: 'buy', type: 'market', funds: '11', clientOid: `tr-m-${Date.now()}` });
    const bid = (await client.getLevel2(SYMBOL)).bids[0][0];
    const restPrice = dec.roundDown(dec.mul(bid, '0.5'), info.priceIncrement);
    const resting = await client.placeOrder({ symbol: SYMBOL, side: 'buy', type: 'limit', price: restPrice, size: '0.0015', clientOid: `tr-l-${Date.now()}` });

    for (const theme of themes) {
      const name = (scene: string) => `trader-${theme}-${scene}`;
      await setTheme(wb, theme);
      await closeEditors(page);

      await step(`${theme}: Accounts — portfolio total, currencies by value, available first, grouped`, async () => {
        await openSpotDesk(page);
        const text = await accounts.locator('.monaco-list-rows').innerText();
        assert.match(text, /Portfolio\s*≈ [\d,]+\.\d\d USD/);
        assert.match(text, /[\d,.]+ avail · ≈ [\d,]+\.\d\d USD/);
        assert.doesNotMatch(text, /\d\.\d*0{4,} avail/, 'no trailing zeros');
        const usdt = accounts.locator('.monaco-list-row', { hasText: /^USDT/ }).first();
        const tip = await shotWithHover(page, usdt.locator('.label-name'), 'available', name('accounts'));
        assert.match(tip, /main[\s\S]*trade/);
        await page.mouse.move(900, 600);
      });

      await step(`${theme}: Active Orders — the order tooltip a trader reads, and the cancel dialog`, async () => {
        const row = pane(page, 'Active Orders').locator('.monaco-list-row', { hasText: 'BUY limit' }).first();
        await row.waitFor({ timeout: 30_000 });
        const tip = await shotWithHover(page, row.locator('.label-name'), resting.orderId, name('order-tooltip'));
        for (const k of ['Side', 'Type', 'Price', 'Size', 'Filled', 'Remaining', 'Time in force', 'Flags', 'Age']) assert.ok(tip.includes(k), `tooltip row ${k}: ${tip}`);
        assert.doesNotMatch(tip, /opType|cancelExist/);
        await page.mouse.move(900, 600);
        await row.hover();
        await row.locator('.action-label[aria-label^="Cancel Order"]').click();
        assert.deepEqual(await dialogButtons(page), ['Cancel Order', 'Keep Order'], 'buttons that cannot be misread');
        await shot(page, name('cancel-dialog'));
        await page.locator('.monaco-dialog-box .monaco-button', { hasText: 'Keep Order' }).click();
        await page.locator('.monaco-dialog-box').waitFor({ state: 'hidden' });
      });

      await step(`${theme}: the order book — prices at the tick, sizes at the lot`, async () => {
        await runCommand(page, 'SpotDesk: Open Market');
        await pick(page, { placeholder: /^Symbol/ }, SYMBOL);
        const book = activeWebview(page);
        await book.locator('.row.bid:not([hidden]) .price').first().waitFor({ timeout: 30_000 });
        const tick = dec.fractionDigits(info.priceIncrement);
        const lot = dec.fractionDigits(info.baseIncrement);
        const prices = await book.locator('.row:not([hidden]):not(.head):not(.spread) .price').allInnerTexts();
        const sizes = await book.locator('.row:not([hidden]):not(.head):not(.spread) .size').allInnerTexts();
        assert.ok(prices.length > 10);
        for (const p of prices) assert.equal(dec.fractionDigits(p), tick, `price ${p}`);
        for (const z of sizes) assert.equal(dec.fractionDigits(z), lot, `size ${z}`);
        await shot(page, name('orderbook'));
        await closeEditors(page);
      });

      await step(`${theme}: the request builder — no error before input, Ctrl+Enter, the placement dialog`, async () => {
        await runCommand(page, 'SpotDesk: Open Request Builder');
        const rb = activeWebview(page);
        await rb.locator('#f-symbol option[value="BTC-USDT"]').waitFor({ state: 'attached', timeout: 30_000 });
        await rb.locator('.rb-badge', { hasText: 'Profile: Sandbox (local) · sandbox' }).waitFor();
        assert.deepEqual((await rb.locator('.rb-field-msg').allInnerTexts()).filter((t) => t.trim()), [], 'no error before input');
        await shot(page, name('request-builder-fresh'));
        await rb.locator('#f-price').fill(restPrice);
        await rb.locator('#f-size').fill('0.001');
        await rb.locator('#f-size').press('Control+Enter');
        await rb.locator('.rb-banner', { hasText: 'Order test: Accepted (200000)' }).waitFor({ timeout: 30_000 });
        // The signed preview follows the form.
        await rb.locator('.rb-signed .rb-prehash', { hasText: `"price":"${restPrice}","size":"0.001"` }).waitFor({ timeout: 15_000 });
        await rb.locator('.rb-danger').click();
        const buttons = await dialogButtons(page);
        assert.deepEqual(buttons, ["Don't Place", 'Place Order']);
        const dialog = (await page.locator('.monaco-dialog-box').innerText()).replace(/\s+/g, ' ');
        assert.match(dialog, /Place a buy limit order on BTC-USDT on the sandbox profile "Sandbox \(local\)"\?/);
        assert.match(dialog, /Notional: [\d.]+ USDT/);
        assert.match(dialog, /Estimated fee: [\d.]+ USDT \(maker rate [\d.]+ %\)/);
        await shot(page, name('place-dialog'));
        await page.locator('.monaco-dialog-box .monaco-button', { hasText: "Don't Place" }).click();
        await rb.locator('.rb-status', { hasText: 'Placement cancelled.' }).waitFor({ timeout: 15_000 });
        await closeEditors(page);
      });

      await step(`${theme}: deposit panels — one tab per address, the sandbox banner instead of QR codes, plain words`, async () => {
        const currencyToDeposit = { placeholder: /^Currency to deposit/ };
        await runCommand(page, 'SpotDesk: Create Deposit Address');
        await pick(page, currencyToDeposit, 'USDT');
        await pick(page, { placeholder: /^Chain/ }, 'TRC20');
        await activeWebview(page).locator('h1', { hasText: 'Deposit USDT on TRC20' }).waitFor({ timeout: 30_000 });
        await runCommand(page, 'SpotDesk: Create Deposit Address');
        await pick(page, currencyToDeposit, 'XRP');
        const xrp = activeWebview(page);
        await xrp.locator('h1', { hasText: 'Deposit XRP on XRP' }).waitFor({ timeout: 30_000 });
        assert.equal(await xrp.locator('canvas.qr').count(), 0, 'no QR code of a sandbox address');
        await xrp.locator('.sandbox-banner', { hasText: 'Sandbox address: not on any blockchain. Do not send real funds.' }).waitFor({ timeout: 10_000 });
        assert.equal(await xrp.locator('code').count(), 0);
        const tabs = await page.locator('.tabs-container .tab .label-name').allInnerTexts();
        assert.ok(tabs.includes('Deposit USDT (TRC20)') && tabs.includes('Deposit XRP (XRP)'), tabs.join(', '));
        await shot(page, name('deposit-xrp'));
        await page.locator('.tabs-container .tab', { hasText: 'Deposit USDT (TRC20)' }).click();
        await activeWebview(page).locator('h1', { hasText: 'Deposit USDT on TRC20' }).waitFor({ timeout: 30_000 });
        await shot(page, name('deposit-usdt'));
        await closeEditors(page);
      });

      await step(`${theme}: the withdraw wizard starts with the currency and an n/N counter`, async () => {
        await runCommand(page, 'SpotDesk: Withdraw');
        await atStep(page, { title: /^SpotDesk: Withdraw \(1\/7\)$/, placeholder: /^Currency to withdraw/ });
        await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'USDT' }).first().waitFor();
        await shot(page, name('withdraw-step1'));
        await page.keyboard.press('Escape');
        await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
      });

      await step(`${theme}: the example order document of the scratch workspace`, async () => {
        await quickOpen(page, 'example.spotorder.json');
        await page.locator('.codelens-decoration', { hasText: 'Test order' }).first().waitFor({ timeout: 60_000 });
        await shot(page, name('order-document'));
        await closeEditors(page);
      });

      await step(`${theme}: an unreachable profile — the order book and Markets say why, with Retry; the symbol row is back after switching back`, async () => {
        const markets = pane(page, 'Markets');
        // The flat default: the symbol's row is shown without expanding anything (Favourites, on top, is open).
        const symbolRow = markets.locator('.monaco-list-row', { has: page.locator('.label-name', { hasText: new RegExp(`^${SYMBOL}$`) }) }).first();
        await symbolRow.waitFor({ timeout: 30_000 });
        await runCommand(page, 'SpotDesk: Open Market');
        await pick(page, { placeholder: /^Symbol/ }, SYMBOL);
        await activeWebview(page).locator('.row.bid:not([hidden])').first().waitFor({ timeout: 30_000 });
        await runCommand(page, 'SpotDesk: Select Profile');
        await pick(page, { title: /Select Profile/ }, OFFLINE.name);
        const book = activeWebview(page);
        const banner = book.locator('.banner.error .banner-text');
        await banner.filter({ hasText: 'Unreachable: connection refused' }).waitFor({ timeout: 30_000 });
        assert.match(await banner.innerText(), /^Unreachable: connection refused \(GET \/api\/v1\/market\/orderbook\/level2_20\)/);
        assert.equal(await book.locator('.row.bid:not([hidden])').count(), 0, 'the other exchange\'s book is gone');
        assert.ok(await book.locator('.banner.error button', { hasText: 'Retry' }).isVisible());
        await markets.locator('.monaco-list-row', { hasText: 'Unreachable: connection refused' }).first().waitFor({ timeout: 30_000 });
        await page.locator('.notifications-toasts .notification-toast').first().waitFor({ state: 'visible', timeout: 10_000 }).catch(() => undefined);
        await shot(page, name('offline'));
        await runCommand(page, 'SpotDesk: Select Profile');
        await pick(page, { title: /Select Profile/ }, 'Sandbox (local)', /Sandbox \(local\)$/);
        await activeWebview(page).locator('.row.bid:not([hidden])').first().waitFor({ timeout: 30_000 });
        await symbolRow.waitFor({ timeout: 30_000 });
        assert.ok(await symbolRow.isVisible(), 'the symbol row is back, nothing to expand');
        await shot(page, name('back-to-sandbox'));
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
    console.log('[spotdesk] trader e2e passed; screenshots in screenshots/trader-*.png');
    process.exit(0);
  },
  (err) => {
    console.error(err instanceof Error ? err.stack : err);
    process.exit(1);
  },
);
