/**
 * Take the images the README and the walkthrough show, from the real UI: SpotDesk in code-server
 * 4.100.3 (headless Chromium) on its embedded sandbox, with real orders placed through the API.
 * Writes media/walkthrough/{1-view,2-market,3-request-builder,4-connect}.png (shipped in the .vsix,
 * so kept small) and media/screenshots/*.png (README only; not in the .vsix: .vscodeignore).
 *
 * Run: `npm run media` (builds first). Look at every image before committing it.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { Locator, Page } from 'playwright-core';
import { spawnSync } from 'child_process';
import * as cs from '../../scripts/lib/codeServer';
import { SpotClient } from '../../src/api/client';
import * as dec from '../../src/api/decimal';
import { atStep, pick, quickOpen, runCommand, type } from './quickInput';
import { activeWebview, closeEditors, hoverFor, openSpotDesk, pane, sandboxCredentials, setTheme, startWorkbench, webviewFrame } from './shots';
import { painted } from './failure';

const WALK = path.join(cs.ROOT, 'media', 'walkthrough');
const SHOTS = path.join(cs.ROOT, 'media', 'screenshots');
const SYMBOL = 'BTC-USDT';

/** Screenshot `page`, or the `clip` rectangle of it, to `file` (PNG); prints its size. */
async function save(page: Page, file: string, clip?: { x: number; y: number; width: number; height: number }): Promise<void> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // No notification toast over the view (fill notices arrive while the shots are taken).
  await page.evaluate(() => document.querySelectorAll<HTMLElement>('.notifications-toasts').forEach((t) => (t.style.visibility = 'hidden')));
  await painted(page);
  await page.screenshot({ path: file, clip });
  console.log(`  ${path.relative(cs.ROOT, file)} (${(fs.statSync(file).size / 1024).toFixed(0)} KB)`);
}

/**
 * Switch the visible market panel's chart to 15-minute candles and wait until it shows the 3 days of history
 * (≥ 280 of 288 candles; at 1min the 4,320 candles of 3 days are a band too dense to read in a small image).
 */
async function showHistory(page: Page): Promise<void> {
  const f = await webviewFrame(page, '.mk-candles', 60_000);
  await f.selectOption('select[aria-label="Candle interval"]', '15min');
  await f.waitForFunction(() => Number(/^Candlestick chart, 15min, (\d+) candles/.exec(document.querySelector('.mk-candles')?.getAttribute('aria-label') ?? '')?.[1] ?? 0) >= 280, undefined, { timeout: 60_000 });
}

/** The bounding box of `loc`, which must be visible. */
async function box(loc: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  const b = await loc.boundingBox();
  if (!b) throw new Error('element not visible');
  return b;
}

async function main(): Promise<void> {
  const b = spawnSync(process.execPath, [path.join(cs.ROOT, 'esbuild.js')], { cwd: cs.ROOT, stdio: 'inherit' });
  if (b.status !== 0) throw new Error('build failed');
  // the default (realistic) market: the images show 3 days of history and a moving book, as a user sees them
  const wb = await startWorkbench('dark', { 'workbench.startupEditor': 'none', 'spotdesk.pollIntervalSeconds': 3, 'spotdesk.sandbox.market': 'realistic' }, { width: 1280, height: 760 });
  const page = wb.page;
  let client: SpotClient | undefined;
  try {
    await setTheme(wb, 'dark');
    await openSpotDesk(page, 120);
    const accounts = pane(page, 'Accounts');
    await accounts.locator('.monaco-list-row', { hasText: 'Portfolio' }).first().waitFor({ timeout: 90_000 });
    const creds = await sandboxCredentials(wb.userDataDir);
    client = new SpotClient({ baseUrl: creds.baseUrl, credentials: creds });
    // A fill and two resting orders, so that every view has something a trader recognises.
    const info = (await client.getSymbols()).find((s) => s.symbol === SYMBOL)!;
    await client.placeOrder({ symbol: SYMBOL, side: 'buy', type: 'market', funds: '250', clientOid: `media-m-${Date.now()}` });
    const book = await client.getLevel2(SYMBOL);
    await client.placeOrder({ symbol: SYMBOL, side: 'buy', type: 'limit', price: dec.roundDown(dec.mul(book.bids[3][0], '0.999'), info.priceIncrement), size: '0.002', clientOid: `media-b-${Date.now()}` });
    await client.placeOrder({ symbol: 'ETH-USDT', side: 'buy', type: 'limit', price: '1000', size: '0.05', clientOid: `media-e-${Date.now()}` });
    await pane(page, 'Active Orders').locator('.monaco-list-row', { hasText: SYMBOL }).first().waitFor({ timeout: 30_000 });
    const markets = pane(page, 'Markets');
    await markets.locator('.monaco-list-row', { hasText: SYMBOL }).first().waitFor({ timeout: 30_000 });

    // 1. The SpotDesk view (side bar and activity bar).
    const side = await box(page.locator('.part.sidebar'));
    await save(page, path.join(WALK, '1-view.png'), { x: 0, y: 0, width: side.x + side.width, height: side.y + side.height });

    // 2. A market panel.
    await runCommand(page, 'SpotDesk: Open Market');
    await pick(page, { placeholder: /^Symbol/ }, SYMBOL, new RegExp(`^${SYMBOL}$`));
    const market = activeWebview(page);
    await market.locator('.row.ask').first().waitFor({ timeout: 60_000 });
    await market.locator('.mk-tape-row:not(.head)').first().waitFor({ timeout: 60_000 });
    await showHistory(page);
    const editor = await box(page.locator('.part.editor'));
    await save(page, path.join(WALK, '2-market.png'), editor);
    await save(page, path.join(SHOTS, 'desk-dark.png'));
    await closeEditors(page);

    // 3. The request builder after an order test.
    await runCommand(page, 'SpotDesk: Open Request Builder');
    const rb = activeWebview(page);
    await rb.locator('#f-symbol option[value="BTC-USDT"]').waitFor({ state: 'attached', timeout: 30_000 });
    await rb.locator('#f-price').fill(dec.roundDown(dec.mul(book.bids[0][0], '0.98'), info.priceIncrement));
    await rb.locator('#f-size').fill('0.001');
    await rb.locator('#f-size').press('Control+Enter');
    await rb.locator('.rb-banner', { hasText: 'Order test: Accepted (200000)' }).waitFor({ timeout: 30_000 });
    await save(page, path.join(WALK, '3-request-builder.png'), await box(page.locator('.part.editor')));
    await save(page, path.join(SHOTS, 'request-builder.png'));
    await closeEditors(page);

    // 4. Connecting a KuCoin account: the base URL step.
    await runCommand(page, 'SpotDesk: Connect a KuCoin Account…');
    await type(page, { title: /\(1\/2\)/ }, 'KuCoin');
    await atStep(page, { title: /\(2\/2\)/ });
    const widget = await box(page.locator('.quick-input-widget'));
    await save(page, path.join(WALK, '4-connect.png'), { x: Math.max(0, widget.x - 40), y: 0, width: widget.width + 80, height: widget.y + widget.height + 40 });
    await page.keyboard.press('Escape');

    // README: the deposit panel, the order document, and the desk in the light theme.
    await runCommand(page, 'SpotDesk: Create Deposit Address');
    await pick(page, { placeholder: /^Currency to deposit/ }, 'USDT', /^USDT/);
    await atStep(page, { placeholder: /^Chain/ });
    await page.keyboard.press('Enter');
    await activeWebview(page).locator('canvas, svg').first().waitFor({ timeout: 30_000 }).catch(() => undefined);
    await save(page, path.join(SHOTS, 'deposit.png'));
    await closeEditors(page);
    // An order document with a price off the tick: the diagnostic and its quick fixes in the hover.
    const doc = 'grid-bot.spotorder.json';
    fs.writeFileSync(
      path.join(wb.workspace, doc),
      `[\n  {\n    "clientOid": "grid-1",\n    "symbol": "BTC-USDT",\n    "side": "buy",\n    "type": "limit",\n    "price": "60000.05",\n    "size": "0.001"\n  }\n]\n`,
    );
    await quickOpen(page, doc);
    const squiggle = page.locator('.monaco-editor .squiggly-error').first();
    await squiggle.waitFor({ timeout: 60_000 });
    await hoverFor(page, squiggle, 'priceIncrement', { force: true }); // sticky scroll's overlay sits above the editor's first lines
    await save(page, path.join(SHOTS, 'order-document.png'));
    await closeEditors(page);
    await setTheme(wb, 'light');
    await runCommand(page, 'SpotDesk: Open Market');
    await pick(page, { placeholder: /^Symbol/ }, SYMBOL, new RegExp(`^${SYMBOL}$`));
    await activeWebview(page).locator('.row.ask').first().waitFor({ timeout: 60_000 });
    await showHistory(page);
    await save(page, path.join(SHOTS, 'desk-light.png'));
  } finally {
    client?.close();
    await wb.stop();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err instanceof Error ? err.stack : err);
    process.exit(1);
  },
);
