/**
 * Order documents in a real VS Code 1.100 workbench (code-server 4.100.3 + headless Chromium):
 * a workspace holding `orders.spotorder.json` (one order whose price is off the tick) is opened; the
 * editor shows it in the "SpotDesk Order" language; the language server (started by the extension,
 * symbols from the embedded sandbox) underlines the price; hovering the symbol shows its rules and
 * the live best bid/ask; Ctrl+. on the price lists the two rounding quick fixes and Enter applies one,
 * after which the squiggle and the lens's error count are gone. Every wait is for a state of the page, never a fixed time.
 * Screenshots: screenshots/language-hover.png, language-quickfix.png, language-fixed.png (git-ignored).
 *
 * Run: `npx tsx test/e2e/language.e2e.ts` (expects `npm run build` first; exits non-zero on failure).
 */
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { chromium } from 'playwright-core';
import * as cs from '../../scripts/lib/codeServer';
import { quickOpen } from './quickInput';
import { shotWithHover } from './shots';
import { step } from './steps';

const SHOTS = path.join(cs.ROOT, 'screenshots');

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(cs.ROOT, 'dist', 'spotorder-language-server.js'))) cs.build();
  fs.mkdirSync(SHOTS, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-lang-e2e-'));
  const workspace = path.join(tmp, 'orders');
  fs.mkdirSync(workspace);
  fs.writeFileSync(
    path.join(workspace, 'orders.spotorder.json'),
    [
      '[',
      '  {',
      '    "clientOid": "e2e-lang-1",',
      '    "symbol": "BTC-USDT",',
      '    "side": "buy",',
      '    "type": "limit",',
      '    "price": "50000.05",',
      '    "size": "0.001"',
      '  }',
      ']',
      '',
    ].join('\n'),
  );
  const port = await cs.freePort();
  console.log(`[spotdesk] order-document language e2e: code-server on 127.0.0.1:${port}`);
  const server = await cs.startCodeServer({ port, workspace, userDataDir: path.join(tmp, 'user-data'), quiet: true, settings: { 'editor.hover.delay': 200, 'workbench.colorTheme': 'Default Dark Modern' } });
  const browser = await chromium.launch({ executablePath: cs.chromiumPath(), args: cs.CHROMIUM_ARGS });
  const errors: string[] = [];
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 760 } });
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(cs.workbenchUrl({ port, folder: workspace }));
    await step('workbench loads', async () => {
      await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
      await page.locator('.activitybar').waitFor({ timeout: 60_000 });
    });

    const editor = page.locator('.editor-instance .monaco-editor').first();
    await step('Quick Open opens orders.spotorder.json in the "SpotDesk Order" language', async () => {
      await quickOpen(page, 'orders.spotorder.json');
      await editor.locator('.view-line', { hasText: '"BTC-USDT"' }).waitFor({ timeout: 30_000 });
      await page.locator('.statusbar-item', { hasText: 'SpotDesk Order' }).first().waitFor({ timeout: 30_000 });
    });

    await step('the language server underlines the price that is off the tick (sandbox symbols)', async () => {
      await editor.locator('.squiggly-error').first().waitFor({ timeout: 90_000 });
      // the lens above the order comes with the diagnostics and pushes the lines down: hover only after it
      await editor.locator('.codelens-decoration', { hasText: 'Test order' }).first().waitFor({ timeout: 30_000 });
    });

    await step('hovering the symbol shows the live bid/ask and its rules', async () => {
      const token = editor.locator('.view-line span span', { hasText: '"BTC-USDT"' }).first();
      const text = await shotWithHover(page, token, 'a multiple of', 'language-hover', { timeoutMs: 30_000 });
      assert.match(text, /BTC-USDT — BTC \/ USDT · market USDS · trading enabled/);
      assert.match(text, /price: a multiple of 0\.1 USDT/);
      assert.match(text, /bid [\d.]+ · ask [\d.]+ · last [\d.—]+ · mid [\d.]+ · spread [\d.]+/);
    });

    await step('Ctrl+. on the price offers both roundings; Enter applies the first and the squiggle goes', async () => {
      await page.mouse.move(1200, 700);
      await page.keyboard.press('Escape');
      await page.locator('.monaco-hover:not(.hidden)', { hasText: 'a multiple of' }).first().waitFor({ state: 'hidden', timeout: 10_000 });
      await editor.locator('.view-line span span', { hasText: '"50000.05"' }).first().click();
      await page.keyboard.press('Control+.');
      const menu = page.locator('.action-widget');
      await menu.locator('.monaco-list-row', { hasText: 'Round price down to 50000 USDT' }).first().waitFor({ timeout: 30_000 });
      await menu.locator('.monaco-list-row', { hasText: 'Round price up to 50000.1 USDT' }).first().waitFor({ timeout: 5_000 });
      await page.screenshot({ path: path.join(SHOTS, 'language-quickfix.png') });
      await page.keyboard.press('Enter');
      await editor.locator('.view-line', { hasText: '"price": "50000",' }).waitFor({ timeout: 10_000 });
      await editor.locator('.squiggly-error').first().waitFor({ state: 'detached', timeout: 30_000 });
      // the lens above the order no longer counts a local error
      await editor.locator('.codelens-decoration', { hasText: 'Test order (1 local error)' }).waitFor({ state: 'detached', timeout: 30_000 });
      await editor.locator('.codelens-decoration', { hasText: 'Test order' }).first().waitFor({ timeout: 10_000 });
      await page.screenshot({ path: path.join(SHOTS, 'language-fixed.png') });
    });

    assert.deepEqual(errors.filter((e) => !/unknown error occurred/i.test(e)), [], 'no page errors');
  } catch (err) {
    const pages = browser.contexts().flatMap((c) => c.pages());
    if (pages[0]) await pages[0].screenshot({ path: path.join(SHOTS, 'language-failure.png') }).catch(() => undefined);
    throw err;
  } finally {
    await browser.close().catch(() => undefined);
    await server.stop();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
