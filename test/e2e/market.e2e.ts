/**
 * The market panel (with the Order Ticket and trading from the book) in the real
 * workbench (code-server 4.100.3 + headless Chromium), against the embedded sandbox with its market
 * simulation running, checked in the Dark Modern, Light Modern and High Contrast themes.
 *
 * - Markets tree → the row's "Open Market" action opens one panel per symbol (BTC-USDT, ETH-USDT;
 *   opening BTC-USDT again reveals the same tab).
 * - The book is stream-fed: the header says "Stream · live", the footer shows the `sequence`.
 *   A market buy placed with SpotClient (the sandbox user's credentials, as trader.e2e.ts does)
 *   MOVES the book (a later sequence), the tape (a row with the fill's tradeId) and the chart (the
 *   last candle's text alternative changes).
 * - The interval picker reloads the candles (5min: the chart says 5min).
 * - Clicking an ask fills the ticket's price and selects Buy; a bid selects Sell. The 25/50/75/100 %
 *   buttons fill the size from the available balance (each share larger than the previous one); the
 *   notional and the fee estimate follow; a limit buy at the ask warns that it crosses the spread.
 * - Keyboard: Ctrl+Alt+S / Ctrl+Alt+B (with the market panel active) pick the side and focus the
 *   ticket.
 * - A resting limit buy of the user's marks its row (a buy-coloured edge and the user's size there) and
 *   draws a price line on the candle chart (its text alternative names it).
 * - The workbench is 1366×768 with the side bar open: book, chart, depth, ticket (its Place button)
 *   and tape are all in sight, without scrolling the panel.
 * - While the stream is live the book is never called stale (the heartbeat decides, not book changes),
 *   however quiet the market.
 * - The layout collapses (Trades: the ticket takes its room) and resizes (the book column's splitter),
 *   and the panel restores after "Developer: Reload Window" with its layout and interval; a market
 *   opened afterwards starts with the layout chosen last (the extension's global state).
 * - An unreachable profile (http://127.0.0.1:9): the panel says polling with the reason and shows the
 *   failure with Retry — never a blank panel.
 * - The depth chart's hover crosshair, and screenshots of every scene in the three themes
 *   (screenshots/market-<theme>-<scene>.png, git-ignored).
 *
 * Every wait is for a state (never a fixed sleep), and nothing is retried.
 * Run: `npx tsx test/e2e/market.e2e.ts [dark|light|hc …]` (builds first; exits non-zero on failure).
 */
import { strict as assert } from 'assert';
import { spawnSync } from 'child_process';
import * as path from 'path';
import type { Frame, Page } from 'playwright-core';
import * as cs from '../../scripts/lib/codeServer';
import { SpotClient } from '../../src/api/client';
import * as dec from '../../src/api/decimal';
import { FailureRecord, painted, SHOTS } from './failure';
import { enter, paletteAt, pick, runCommand } from './quickInput';
import { step } from './steps';
import { closeEditors, openSpotDesk, pane, sandboxCredentials, setTheme, shot, startWorkbench, THEMES, type ThemeKey } from './shots';

const SYMBOL = 'BTC-USDT';
const SYMBOL2 = 'ETH-USDT';
const OFFLINE = { name: 'Offline', baseUrl: 'http://127.0.0.1:9' };

/** The Frame of the market webview of `symbol` (its tab must be the active one). */
async function marketFrame(page: Page, symbol: string, timeoutMs = 60_000): Promise<Frame> {
  await page.locator('.tabs-container .tab.active', { hasText: `Market: ${symbol}` }).waitFor({ timeout: timeoutMs });
  const deadline = Date.now() + timeoutMs;
  // The visible webview element is the active tab's; its inner document shows the symbol once it ran.
  const outer = page.locator('iframe.webview').filter({ visible: true }).first();
  await outer.waitFor({ timeout: timeoutMs });
  const inner = outer.contentFrame().locator('iframe#active-frame');
  await inner.waitFor({ state: 'attached', timeout: Math.max(1000, deadline - Date.now()) });
  const frame = await (await inner.elementHandle())?.contentFrame();
  if (!frame) throw new Error('market webview frame not found');
  await frame.waitForFunction((s) => document.querySelector('.ob-title')?.textContent === s, symbol, { timeout: Math.max(1000, deadline - Date.now()) });
  return frame;
}

/** Text of the first element matching `sel` in `f`. */
const text = (f: Frame, sel: string): Promise<string> => f.$eval(sel, (e) => e.textContent ?? '');

/** The footer's sequence as a BigInt (the panel shows it as digits). */
async function sequence(f: Frame): Promise<bigint> {
  const s = await f.$eval('.ob-footer span:nth-child(2) .value', (e) => e.textContent ?? '');
  assert.match(s, /^\d+$/, `sequence shown: "${s}"`);
  return BigInt(s);
}

/** Wait until the footer's sequence is past `than`. */
async function sequencePast(f: Frame, than: bigint): Promise<bigint> {
  await f.waitForFunction((t) => /^\d+$/.test(document.querySelector('.ob-footer span:nth-child(2) .value')?.textContent ?? '') && BigInt(document.querySelector('.ob-footer span:nth-child(2) .value')!.textContent!) > BigInt(t), than.toString(), { timeout: 30_000 });
  return sequence(f);
}

/** Open a symbol from the Markets tree (flat by default: no folder to expand) with the row's inline "Open Market" action. */
async function openFromMarkets(page: Page, symbol: string): Promise<void> {
  const markets = pane(page, 'Markets');
  const row = markets.locator('.monaco-list-row', { has: page.locator('.label-name', { hasText: new RegExp(`^${symbol}$`) }) }).first();
  await row.waitFor({ timeout: 30_000 });
  await row.hover();
  await row.locator('.action-label[aria-label^="Open Market"]').click();
}

/**
 * Count the focus events of the visible webview's outer frame (VS Code's host document around the
 * panel's own frame). Revealing a panel with the focus (`reveal(…, preserveFocus: false)`) focuses that
 * frame first (WebviewElement._doFocus), asynchronously: its focus event says the reveal has landed.
 */
async function countWebviewFocus(page: Page): Promise<(n: number) => Promise<void>> {
  const outer = await (await page.locator('iframe.webview').filter({ visible: true }).first().elementHandle())?.contentFrame();
  if (!outer) throw new Error('webview outer frame not found');
  await outer.evaluate(() => {
    const w = window as unknown as { __spotdeskFocusEvents: number };
    w.__spotdeskFocusEvents = 0;
    window.addEventListener('focus', () => w.__spotdeskFocusEvents++);
  });
  return async (n) => {
    try {
      await outer.waitForFunction((n) => (window as unknown as { __spotdeskFocusEvents: number }).__spotdeskFocusEvents >= n, n, { timeout: 15_000 });
    } catch (err) {
      throw new Error(`the webview's outer frame was focused ${await outer.evaluate(() => (window as unknown as { __spotdeskFocusEvents: number }).__spotdeskFocusEvents)} time(s), not ${n}: ${String(err)}`);
    }
  };
}

/** Record every freshness state the panel shows from now on in `window.__freshness` (its current one first). */
async function recordFreshness(f: Frame): Promise<void> {
  await f.evaluate(() => {
    const w = window as unknown as { __freshness: string[] };
    const main = document.querySelector('main.ob')!;
    w.__freshness = [main.getAttribute('data-freshness') ?? ''];
    new MutationObserver(() => w.__freshness.push(main.getAttribute('data-freshness') ?? '')).observe(main, { attributes: true, attributeFilter: ['data-freshness'] });
  });
}

/** Select a ticket side / read which is pressed. */
const pressedSide = (f: Frame) => f.$eval('.mk-ticket-form', (e) => (e as HTMLElement).dataset.side ?? '');

/** Dismiss the notifications (a fill's toast would cover the panel), scroll the panel to its top, screenshot the page. */
async function scene(page: Page, f: Frame, name: string): Promise<void> {
  if (await page.locator('.notifications-toasts .notification-toast').count()) {
    await runCommand(page, 'Notifications: Clear All Notifications');
    await page.locator('.notifications-toasts .notification-toast').first().waitFor({ state: 'detached', timeout: 15_000 });
  }
  await f.evaluate(() => window.scrollTo(0, 0));
  await painted(f);
  await shot(page, name);
}

/** A close-up of one part of the panel: screenshots/<name>.png. */
async function partShot(f: Frame, selector: string, name: string): Promise<void> {
  await painted(f);
  const file = path.join(SHOTS, `${name}.png`);
  await f.locator(selector).screenshot({ path: file });
  console.log(`    screenshot ${path.relative(cs.ROOT, file)}`);
}

async function main(): Promise<void> {
  const themes = (process.argv.slice(2).filter((a) => a in THEMES) as ThemeKey[]).length ? (process.argv.slice(2) as ThemeKey[]) : (['dark', 'light', 'hc'] as ThemeKey[]);
  const b = spawnSync(process.execPath, [path.join(cs.ROOT, 'esbuild.js')], { cwd: cs.ROOT, stdio: 'inherit' });
  if (b.status !== 0) throw new Error('build failed');
  // A 1366×768 screen (the side bar open): the panel must show every part without scrolling.
  const wb = await startWorkbench(themes[0], { 'spotdesk.profiles': [OFFLINE] }, { width: 1366, height: 768 });
  const record = new FailureRecord('market');
  const page = record.watch(wb.page, 'workbench');
  let client: SpotClient | undefined;
  try {
    await openSpotDesk(page, 60);
    await pane(page, 'Accounts').locator('.monaco-list-row', { hasText: 'Portfolio' }).first().waitFor({ timeout: 90_000 });
    const creds = await sandboxCredentials(wb.userDataDir);
    client = new SpotClient({ baseUrl: creds.baseUrl, credentials: creds });
    const rest = client;
    const info = (await rest.getSymbols()).find((s) => s.symbol === SYMBOL)!;

    // A resting limit buy at the 6th bid level: the book marks it (the simulation's taker hits the best bid).
    const bids = (await rest.getLevel2(SYMBOL, 20)).bids;
    const restPrice = bids[5][0];
    const resting = await rest.placeOrder({ symbol: SYMBOL, side: 'buy', type: 'limit', price: restPrice, size: '0.0012', clientOid: `mk-rest-${Date.now()}` });

    let f!: Frame;
    await step('Markets → "Open Market" opens one panel per symbol; the same symbol again reveals its tab', async () => {
      await openFromMarkets(page, SYMBOL);
      await marketFrame(page, SYMBOL);
      await openFromMarkets(page, SYMBOL2);
      await marketFrame(page, SYMBOL2);
      await openFromMarkets(page, SYMBOL);
      f = await marketFrame(page, SYMBOL);
      const tabs = (await page.locator('.tabs-container .tab .label-name').allInnerTexts()).filter((t) => t.startsWith('Market:')).sort();
      assert.deepEqual(tabs, [`Market: ${SYMBOL}`, `Market: ${SYMBOL2}`]);
    });

    await step('the book is stream-fed: "Stream · live", the sequence shown, rows padded to the tick', async () => {
      await f.waitForSelector('.row.bid:not([hidden]) .price', { timeout: 30_000 });
      await f.waitForFunction(() => document.querySelector('.mk-feed')?.getAttribute('data-state') === 'live', undefined, { timeout: 30_000 });
      assert.equal(await text(f, '.mk-feed'), 'Stream · live');
      // Play money looks like play money: the header names it on the sandbox profile.
      assert.equal(await text(f, '.mk-funds'), 'Sandbox · play money');
      assert.ok((await sequence(f)) > 0n);
      assert.match(await text(f, '.ob-footer'), /Feed stream \(live\)/);
      const tick = dec.fractionDigits(info.priceIncrement);
      for (const p of await f.$$eval('.row.bid:not([hidden]) .price', (els) => els.map((e) => e.textContent ?? ''))) assert.equal(dec.fractionDigits(p.replace(/^● /, '')), tick, p);
      // The chart bundle loaded and drew the history.
      await f.waitForFunction(() => /^Candlestick chart, 1min, \d+ candles/.test(document.querySelector('.mk-candles')?.getAttribute('aria-label') ?? ''), undefined, { timeout: 30_000 });
      assert.ok((await f.$$('.mk-candles canvas')).length > 0, 'lightweight-charts drew into canvases');
      // From now on, every freshness state the panel shows is recorded (the stream stays live until the offline step).
      await recordFreshness(f);
    });

    await step('1366×768: book, chart, depth, ticket and tape are all in sight, without scrolling the panel', async () => {
      await f.waitForSelector('.mk-tape-row:not(.head):not([hidden])', { timeout: 30_000 });
      const fit = await f.evaluate(() => {
        const vw = document.documentElement.clientWidth;
        const vh = document.documentElement.clientHeight;
        const parts: Record<string, { top: number; bottom: number; left: number; right: number; height: number }> = {};
        for (const sel of ['.mk-book', '.ob-grid .row.spread', '.mk-chart', '.mk-depth canvas', '.mk-ticket', '.mk-place', '.mk-tape', '.ob-footer']) {
          const r = document.querySelector(sel)!.getBoundingClientRect();
          parts[sel] = { top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height };
        }
        return { vw, vh, scrollHeight: document.documentElement.scrollHeight, scrollWidth: document.documentElement.scrollWidth, parts, bids: document.querySelectorAll('.row.bid:not([hidden])').length };
      });
      assert.ok(fit.vw < 1366 && fit.vh < 768, `the panel is the editor area of a 1366×768 window: ${fit.vw}×${fit.vh}`);
      assert.ok(fit.scrollHeight <= fit.vh && fit.scrollWidth <= fit.vw, `no scrolling: ${fit.scrollWidth}×${fit.scrollHeight} in ${fit.vw}×${fit.vh}`);
      for (const [sel, r] of Object.entries(fit.parts)) {
        assert.ok(r.top >= 0 && r.bottom <= fit.vh + 0.5 && r.left >= 0 && r.right <= fit.vw + 0.5, `${sel} in sight: ${JSON.stringify(r)} in ${fit.vw}×${fit.vh}`);
        assert.ok(r.height > 0, `${sel} has a height`);
      }
      assert.ok(fit.parts['.mk-chart'].height >= 200, `candle chart ${fit.parts['.mk-chart'].height} px high`);
      assert.ok(fit.parts['.mk-depth canvas'].height >= 100, `depth chart ${fit.parts['.mk-depth canvas'].height} px high`);
      assert.ok(fit.parts['.mk-tape'].height >= 90, `tape ${fit.parts['.mk-tape'].height} px high`);
      await scene(page, f, `market-${themes[0]}-1366x768`);
    });

    await step('a trade moves the book (sequence), the tape (the fill\'s row) and the chart (last candle)', async () => {
      const seq0 = await sequence(f);
      const chart0 = (await f.getAttribute('.mk-candles', 'aria-label')) ?? '';
      const ack = await rest.placeOrder({ symbol: SYMBOL, side: 'buy', type: 'market', size: '0.00012', clientOid: `mk-mkt-${Date.now()}` });
      await sequencePast(f, seq0);
      const fills = (await rest.getFills({ symbol: SYMBOL, orderId: ack.orderId })).items;
      assert.ok(fills.length > 0, 'the market buy filled');
      await f.waitForSelector(`.mk-tape-row[data-trade-id="${fills[0].tradeId}"]:not([hidden])`, { timeout: 30_000 });
      const row = await f.$eval(`.mk-tape-row[data-trade-id="${fills[0].tradeId}"]`, (e) => ({ side: (e as HTMLElement).dataset.side, p: e.querySelector('.p')?.textContent, s: e.querySelector('.s')?.textContent }));
      assert.deepEqual(row, { side: 'buy', p: fills[0].price, s: fills[0].size });
      await f.waitForFunction((c) => (document.querySelector('.mk-candles')?.getAttribute('aria-label') ?? '') !== c, chart0, { timeout: 30_000 });
    });

    await step('the interval picker reloads the candles (5min)', async () => {
      await f.selectOption('select[aria-label="Candle interval"]', '5min');
      await f.waitForFunction(() => /^Candlestick chart, 5min, \d+ candles/.test(document.querySelector('.mk-candles')?.getAttribute('aria-label') ?? ''), undefined, { timeout: 30_000 });
      await f.waitForSelector('.mk-chart-note', { state: 'hidden', timeout: 30_000 });
    });

    await step('clicking a level fills the ticket: an ask → Buy at its price, a bid → Sell', async () => {
      const bidRow = f.locator('.row.bid:not([hidden])').nth(2);
      const bidPrice = (await bidRow.locator('.price').innerText()).replace(/^● /, '');
      await bidRow.click();
      assert.equal(await f.inputValue('#mk-price'), bidPrice);
      assert.equal(await pressedSide(f), 'sell');
      const askRow = f.locator('.row.ask:not([hidden])').last(); // the best ask sits just above the spread
      const askPrice = (await askRow.locator('.price').innerText()).replace(/^● /, '');
      await askRow.click();
      assert.equal(await f.inputValue('#mk-price'), askPrice);
      assert.equal(await pressedSide(f), 'buy');
      assert.equal(await f.getAttribute('.mk-seg-btn.v-buy', 'aria-pressed'), 'true');
    });

    await step('the ticket: 25/50/75/100 % of the available balance, notional, fee estimate, crossing warning', async () => {
      // The account figures (available USDT, fee rates) arrive from the extension.
      // (figures: notional, fee, trigger, available)
      await f.waitForFunction(() => /USDT$/.test(document.querySelectorAll('.mk-figures dd')[3]?.textContent ?? ''), undefined, { timeout: 30_000 });
      const sizes: string[] = [];
      for (const pct of ['25%', '50%', '75%', '100%']) {
        await f.locator('.mk-shares .mk-mini', { hasText: pct }).click();
        await f.waitForFunction((prev) => {
          const v = (document.querySelector('#mk-size') as HTMLInputElement).value;
          return v !== '' && v !== prev;
        }, sizes[sizes.length - 1] ?? '');
        sizes.push(await f.inputValue('#mk-size'));
      }
      for (let i = 1; i < sizes.length; i++) assert.ok(dec.cmp(sizes[i], sizes[i - 1]) > 0, `sizes grow with the share: ${sizes.join(' < ')}`);
      for (const s of sizes) assert.equal(s, dec.roundDown(s, info.baseIncrement), `size ${s} on the lot`);
      const price = await f.inputValue('#mk-price');
      const figures = await f.$$eval('.mk-figures dd', (els) => els.map((e) => e.textContent ?? ''));
      assert.match(figures[0], /^[\d.]+ USDT$/, `notional: ${figures[0]}`);
      assert.equal(dec.cmp(figures[0].split(' ')[0], dec.mul(price, sizes[3])), 0, `notional ${figures[0]} = ${price} × ${sizes[3]}`);
      assert.match(figures[1], /^[\d.]+ USDT · taker [\d.]+ %$/, `fee: ${figures[1]}`);
      await f.waitForSelector('.mk-warning[data-code="crosses-spread"]');
      assert.match(await text(f, '.mk-warning[data-code="crosses-spread"]'), /Crosses the spread/);
      // At the best bid the buy rests (maker): no crossing warning.
      await f.locator('button[aria-label="Best bid"]').click();
      await f.waitForSelector('.mk-warning[data-code="crosses-spread"]', { state: 'detached' });
      assert.match((await f.$$eval('.mk-figures dd', (els) => els.map((e) => e.textContent ?? '')))[1], /· maker /);
      // Back at the ask for the screenshots (the warning shows).
      await f.locator('button[aria-label="Best ask"]').click();
      await f.waitForSelector('.mk-warning[data-code="crosses-spread"]');
    });

    await step('keyboard: Ctrl+Alt+S / Ctrl+Alt+B choose the side and focus the ticket', async () => {
      await f.locator('.row.bid:not([hidden])').first().focus();
      // Each shortcut reveals the panel with the focus and tells the ticket to take it: two messages
      // that land in either order. The step is done when both have: the side is chosen, the reveal's
      // focus reached the webview (its outer frame's focus event) and the panel's document has the
      // focus again. (A quick input opened before a late reveal lands would lose the focus and close.)
      const reveals = await countWebviewFocus(page);
      await page.keyboard.press('Control+Alt+S');
      await f.waitForFunction(() => (document.querySelector('.mk-ticket-form') as HTMLElement).dataset.side === 'sell' && ['mk-price', 'mk-size'].includes(document.activeElement?.id ?? ''), undefined, { timeout: 15_000 });
      await reveals(1);
      await f.waitForFunction(() => document.hasFocus(), undefined, { timeout: 15_000 });
      await page.keyboard.press('Control+Alt+B');
      await f.waitForFunction(() => (document.querySelector('.mk-ticket-form') as HTMLElement).dataset.side === 'buy', undefined, { timeout: 15_000 });
      await reveals(2);
      await f.waitForFunction(() => document.hasFocus(), undefined, { timeout: 15_000 });
    });

    await step('the user\'s resting order marks its row (edge, size) and draws a price line on the chart', async () => {
      const own = f.locator('.row.bid.own');
      await own.first().waitFor({ timeout: 30_000 });
      assert.equal(await own.count(), 1, 'one row marked');
      assert.equal(dec.cmp(await own.locator('.price').innerText(), restPrice), 0);
      assert.equal(await own.getAttribute('data-own'), '0.0012');
      assert.equal(await own.getAttribute('title'), 'Your order here: 0.0012 BTC remaining');
      // The size shows in the row, and the row's edge is in the buy colour.
      const look = await own.evaluate((e) => ({ chip: getComputedStyle(e, '::after').content, edge: getComputedStyle(e).boxShadow, buy: getComputedStyle(e.querySelector('.price')!).color }));
      assert.equal(look.chip, '"0.0012"');
      assert.ok(look.edge.includes(look.buy), `edge ${look.edge} in the buy colour ${look.buy}`);
      assert.equal(await f.locator('.row.ask.own').count(), 0, 'a buy marks no ask');
      await f.waitForFunction((p) => (document.querySelector('.mk-candles')?.getAttribute('aria-label') ?? '').includes(`your orders: Buy 0.0012 at ${p}`), dec.normalize(restPrice), { timeout: 30_000 });
    });

    await step('the stream stayed live and the book was never called stale, however quiet the market was', async () => {
      const seen = await f.evaluate(() => (window as unknown as { __freshness: string[] }).__freshness);
      assert.deepEqual([...new Set(seen)], ['fresh'], `freshness states shown: ${seen.join(' → ')}`);
      assert.equal(await text(f, '.mk-feed'), 'Stream · live');
      assert.equal(await text(f, '.ob-fresh'), '');
    });

    for (const theme of themes) {
      const name = (scene: string) => `market-${theme}-${scene}`;
      await step(`${theme}: screenshots — book, tape, chart, ticket; the depth crosshair`, async () => {
        await setTheme(wb, theme);
        f = await marketFrame(page, SYMBOL);
        // The charts follow the theme: the candle chart paints the editor background of this theme.
        await f.waitForFunction(
          () => {
            const want = getComputedStyle(document.body).backgroundColor.match(/\d+/g)?.slice(0, 3).map(Number);
            const c = document.querySelector<HTMLCanvasElement>('.mk-candles canvas');
            const px = c?.getContext('2d')?.getImageData(2, 2, 1, 1).data;
            return !!want && !!px && want.every((v, i) => Math.abs(v - px[i]) <= 2);
          },
          undefined,
          { timeout: 30_000 },
        );
        await scene(page, f, name('panel'));
        for (const [part, sel] of [['book', '.ob-grid'], ['chart', '.mk-chart'], ['tape', '.mk-tape'], ['ticket', '.mk-ticket']] as const) await partShot(f, sel, name(part));
        const canvas = f.locator('.ob-chart canvas');
        const box = await canvas.boundingBox();
        if (!box) throw new Error('depth chart not visible');
        await canvas.hover({ position: { x: box.width * 0.3, y: box.height * 0.5 } });
        await f.waitForFunction(() => document.querySelector('.ob-chart canvas') !== null);
        await painted(f);
        await shot(page, name('depth-crosshair'));
        await partShot(f, '.mk-depth', name('depth-crosshair-close'));
        await page.mouse.move(5, 500);
      });
    }

    await step('the layout collapses (Trades) and resizes (the book column)', async () => {
      await f.evaluate(() => window.scrollTo(0, 0));
      const width0 = (await f.locator('.mk-bookcol').boundingBox())!.width;
      // Drag the splitter 40 px to the left (boxes of frame elements are in page coordinates): at
      // 1366×768 the book column is already as wide as the chart and the ticket leave it.
      const split = (await f.locator('.mk-vsplit').boundingBox())!;
      const y = split.y + 40;
      await page.mouse.move(split.x + split.width / 2, y);
      await page.mouse.down();
      await page.mouse.move(split.x + split.width / 2 - 40, y, { steps: 6 });
      await page.mouse.up();
      await f.waitForFunction((w) => Math.abs((document.querySelector('.mk-bookcol') as HTMLElement).getBoundingClientRect().width - (w - 40)) <= 2, width0);
      const ticket0 = (await f.locator('.mk-ticket').boundingBox())!.height;
      await f.locator('.mk-tape .mk-toggle').click();
      await f.waitForSelector('.mk-tape.collapsed');
      assert.equal(await f.getAttribute('.mk-tape .mk-toggle', 'aria-expanded'), 'false');
      assert.equal(await f.locator('.mk-tape .mk-section-body').isVisible(), false);
      // The ticket takes the tape's room.
      await f.waitForFunction((h) => (document.querySelector('.mk-ticket') as HTMLElement).getBoundingClientRect().height > h + 40, ticket0);
      await scene(page, f, name2('layout'));
    });

    await step('the panels restore after "Developer: Reload Window" (layout, interval, live book)', async () => {
      const width = (await f.locator('.mk-bookcol').boundingBox())!.width;
      await page.locator('.monaco-workbench .part.statusbar').click({ position: { x: 600, y: 5 } });
      await paletteAt(page, 'Developer: Reload Window');
      await Promise.all([page.waitForEvent('load', { timeout: 60_000 }), enter(page)]);
      await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
      f = await marketFrame(page, SYMBOL, 90_000);
      await f.waitForSelector('.row.bid:not([hidden]) .price', { timeout: 60_000 });
      await f.waitForSelector('.mk-tape.collapsed');
      assert.equal(await f.$eval('select[aria-label="Candle interval"]', (e) => (e as HTMLSelectElement).value), '5min');
      const restored = (await f.locator('.mk-bookcol').boundingBox())!.width;
      assert.ok(Math.abs(restored - width) <= 1, `book column ${restored} px, was ${width} px`);
      await f.waitForFunction(() => document.querySelector('.mk-feed')?.getAttribute('data-state') === 'live', undefined, { timeout: 60_000 });
      const tabs = (await page.locator('.tabs-container .tab .label-name').allInnerTexts()).filter((t) => t.startsWith('Market:')).sort();
      assert.deepEqual(tabs, [`Market: ${SYMBOL}`, `Market: ${SYMBOL2}`]);
      // A market opened now starts with the layout chosen last (the extension keeps it in its global state).
      await openFromMarkets(page, 'LTC-USDT');
      const f3 = await marketFrame(page, 'LTC-USDT');
      await f3.waitForSelector('.mk-tape.collapsed', { timeout: 30_000 });
      const ltcTab = page.locator('.tabs-container .tab', { hasText: 'Market: LTC-USDT' });
      await ltcTab.hover();
      await ltcTab.locator('.tab-actions .action-label').click();
      await ltcTab.waitFor({ state: 'detached', timeout: 15_000 });
      await page.locator('.tabs-container .tab', { hasText: `Market: ${SYMBOL}` }).click();
      f = await marketFrame(page, SYMBOL);
      // Expand the tape again for the next scenes.
      await f.locator('.mk-tape .mk-toggle').click();
      await f.waitForSelector('.mk-tape:not(.collapsed)');
    });

    await step('an unreachable profile: polling with the reason and the failure with Retry, never blank', async () => {
      await runCommand(page, 'SpotDesk: Select Profile');
      await pick(page, { title: /Select Profile/ }, OFFLINE.name);
      f = await marketFrame(page, SYMBOL);
      await f.waitForFunction(() => document.querySelector('.mk-feed')?.getAttribute('data-state') === 'polling', undefined, { timeout: 30_000 });
      assert.equal(await text(f, '.mk-feed'), 'Polling (stream down)');
      assert.match((await f.getAttribute('.mk-feed', 'title')) ?? '', /^Polling \(stream down\): .*(refused|unreachable|Unreachable)/);
      await f.waitForFunction(() => /^Unreachable: connection refused/.test(document.querySelector('.banner.error .banner-text')?.textContent ?? ''), undefined, { timeout: 30_000 });
      assert.ok(await f.locator('.banner.error button', { hasText: 'Retry' }).isVisible());
      assert.match(await text(f, '.ob-footer'), /Feed polling every \d+ ms — stream down/);
      assert.match(await text(f, '.banner.feed'), /^Polling the order book \(the stream is down\): public stream: Unreachable: connection refused/);
      assert.equal(await text(f, '.mk-tape .mk-empty'), 'No live trades while the stream is down (the book is polled).');
      for (const s of ['high', 'low', 'vol', 'change']) assert.equal(await text(f, `.mk-stat.${s} dd`), '—', `the sandbox's 24 h ${s} is gone`);
      assert.equal(await f.locator('.row.bid:not([hidden])').count(), 0, 'the sandbox book is gone');
      assert.notEqual((await text(f, '.ob-chart .chart-message')).trim(), '', 'the depth chart says why it is empty');
      await scene(page, f, name2('offline'));
      await runCommand(page, 'SpotDesk: Select Profile');
      await pick(page, { title: /Select Profile/ }, 'Sandbox (local)', /Sandbox \(local\)$/);
      await f.waitForFunction(() => document.querySelector('.mk-feed')?.getAttribute('data-state') === 'live', undefined, { timeout: 60_000 });
      await f.waitForSelector('.row.bid:not([hidden]) .price', { timeout: 30_000 });
      assert.equal(await f.locator('.banner.feed').isVisible(), false);
    });

    await step('no CSP violation in any frame (the charts bundle loads with the nonce; no inline handler or style)', async () => {
      const refused = record.consoleLines().filter((l) => /Content Security Policy|Refused to (load|execute|apply|run)/i.test(l));
      assert.deepEqual(refused, []);
    });

    // (The resting order stays: the reload restarted the sandbox on another port, and the workbench is discarded.)
    assert.ok(resting.orderId);
    await closeEditors(page);

    function name2(scene: string): string {
      return `market-${themes[themes.length - 1]}-${scene}`;
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
    console.log('[spotdesk] market e2e passed; screenshots in screenshots/market-*.png');
    process.exit(0);
  },
  (err) => {
    console.error(err instanceof Error ? err.stack : err);
    process.exit(1);
  },
);
