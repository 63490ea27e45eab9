/**
 * The order book panel in a real VS Code 1.100 workbench (code-server 4.100.3 + headless Chromium):
 * "SpotDesk: Open Market" from the command palette → symbol quick pick → the webview renders
 * live rows from the embedded sandbox; change the grouping; "Developer: Reload Window" WITHOUT
 * opening any SpotDesk view, so that only the `onWebviewPanel:spotdesk.orderBook` activation event
 * can start the extension → the WebviewPanelSerializer restores the panel with symbol and grouping.
 *
 * Control experiment (skip with OB_E2E_SKIP_CONTROL=1): the same scenario with a copy of the
 * extension whose package.json has `activationEvents: []` — the restored tab stays empty, which is
 * why the manifest declares that one activation event.
 * Screenshots: screenshots/workbench-orderbook*.png (git-ignored).
 *
 * Run: `npx tsx test/e2e/orderbook.workbench.e2e.ts` (expects `npm run build` first; exits non-zero on failure).
 */
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { Frame, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import * as cs from '../../scripts/lib/codeServer';
import { step } from './steps';
import { FailureRecord, painted } from './failure';
import { enter, paletteAt, pick, runCommand } from './quickInput';

const SHOTS = path.join(cs.ROOT, 'screenshots');

/**
 * The webview frame that hosts the order book document (inner iframe of the webview element), once
 * it shows the book grid; throws when it does not within `timeoutMs`.
 */
async function bookFrame(page: Page, timeoutMs: number): Promise<Frame> {
  const inner = page.frameLocator('iframe.webview').frameLocator('iframe#active-frame');
  await inner.locator('.ob-grid').waitFor({ state: 'attached', timeout: timeoutMs });
  const outer = await (await page.locator('iframe.webview').elementHandle())?.contentFrame();
  const frame = await (await outer?.locator('iframe#active-frame').elementHandle())?.contentFrame();
  if (!frame) throw new Error('order book webview frame not found');
  return frame;
}

/**
 * One scenario in a fresh code-server: open the panel, group ×10, reload the window, check the
 * restore. `extensionPath` is the extension folder loaded in development mode. Returns whether the
 * restored panel rendered rows again within `restoreTimeoutMs`.
 */
async function scenario(label: string, extensionPath: string, restoreTimeoutMs: number, shots: boolean): Promise<boolean> {
  const record = new FailureRecord(shots ? 'orderbook-workbench' : 'orderbook-workbench-control');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-ob-e2e-'));
  const port = await cs.freePort();
  const workspace = path.join(cs.ROOT, 'test', 'host', 'workspace');
  console.log(`[spotdesk] order book workbench e2e (${label}): code-server on 127.0.0.1:${port}`);
  const server = await cs.startCodeServer({ port, workspace, userDataDir: path.join(tmp, 'user-data'), quiet: true });
  const browser = await chromium.launch({ executablePath: cs.chromiumPath(), args: cs.CHROMIUM_ARGS });
  try {
    const page = record.watch(await browser.newPage({ viewport: { width: 1440, height: 900 } }), 'workbench');
    await page.goto(cs.workbenchUrl({ port, folder: workspace, extensionPath }));
    await step('workbench loads', async () => {
      await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
      await page.locator('.activitybar').waitFor({ timeout: 60_000 });
    });

    await step('"SpotDesk: Open Market" asks for the symbol with a quick pick', async () => {
      await page.locator('.monaco-workbench').click({ position: { x: 700, y: 400 } });
      // Waits until SpotDesk's contributions are registered (its activity-bar entry), then runs it.
      await runCommand(page, 'SpotDesk: Open Market');
      // Symbols come from GET /api/v2/symbols of the embedded sandbox (started on first need).
      await page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: 'BTC-USDT' }).first().waitFor({ timeout: 60_000 });
      await pick(page, { placeholder: /^Symbol/ }, 'BTC-USDT', /^BTC-USDT/);
    });

    const frame = await step('the panel renders live level-2 rows in the theme colours', async () => {
      await page.locator('.tab', { hasText: 'Market: BTC-USDT' }).first().waitFor({ timeout: 30_000 });
      const f = await bookFrame(page, 30_000);
      await f.waitForSelector('.row.bid:not([hidden])', { timeout: 30_000 });
      assert.equal(await f.textContent('.ob-title'), 'BTC-USDT');
      const bid = await f.$$eval('.row.bid:not([hidden]) .price', (els) => els.map((e) => e.textContent ?? ''));
      assert.ok(bid.length > 0 && bid.every((p) => /^\d+(\.\d+)?$/.test(p)), bid.join(','));
      const { colour, light } = await f.$eval('.row.bid .price', (e) => ({ colour: getComputedStyle(e).color, light: document.body.classList.contains('vscode-light') }));
      // spotdesk.buyForeground's defaults (light #0E8A5F, dark #2EBD85) reach the webview as --vscode-spotdesk-buyForeground
      assert.equal(colour, light ? 'rgb(14, 138, 95)' : 'rgb(46, 189, 133)');
      await painted(f);
      if (shots) await page.screenshot({ path: path.join(SHOTS, 'workbench-orderbook.png') });
      return f;
    });

    await step('grouping ×10 is chosen in the panel (persisted in the webview state)', async () => {
      await frame.selectOption('select[aria-label="Price grouping"]', '10');
      // The webview calls setState in the same change handler that regroups the rows: once the
      // regrouped rows are drawn, the state has been handed to the workbench, which saves it when
      // "Reload Window" shuts it down.
      await frame.waitForFunction(() => [...document.querySelectorAll('.row.bid:not([hidden]) .price')].every((e) => /^\d+$/.test(e.textContent ?? '')));
      await painted(frame);
    });

    return await step(`reload the window without opening a SpotDesk view (restore expected: ${restoreTimeoutMs > 0 ? 'yes' : 'no'})`, async () => {
      // "Developer: Reload Window" shuts the workbench down properly (state flushed) and reloads the page.
      await page.locator('.monaco-workbench .part.statusbar').click({ position: { x: 600, y: 5 } });
      await paletteAt(page, 'Developer: Reload Window');
      await Promise.all([page.waitForEvent('load', { timeout: 60_000 }), enter(page)]);
      await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
      await page.locator('.tab', { hasText: 'Market: BTC-USDT' }).first().waitFor({ timeout: 60_000 });
      // No SpotDesk view is open in this window, so nothing but onWebviewPanel can activate SpotDesk.
      assert.equal(await page.locator('.pane-header', { hasText: 'Active Orders' }).count(), 0);
      // Restored: rows within restoreTimeoutMs. Control run (restoreTimeoutMs 0): the rows must NOT
      // appear within 20 s — a bounded wait for a state that should not come, not a sleep.
      let restored = false;
      try {
        const f = await bookFrame(page, Math.max(restoreTimeoutMs, 20_000));
        await f.waitForSelector('.row.bid:not([hidden])', { timeout: Math.max(restoreTimeoutMs, 20_000) });
        assert.equal(await f.textContent('.ob-title'), 'BTC-USDT');
        assert.equal(await f.$eval('select[aria-label="Price grouping"]', (e) => (e as HTMLSelectElement).value), '10');
        await painted(f);
        restored = true;
      } catch (err) {
        if (restoreTimeoutMs > 0) throw err;
      }
      await painted(page);
      await page.screenshot({ path: path.join(SHOTS, shots ? 'workbench-orderbook-restored.png' : 'workbench-orderbook-no-activation-event.png') });
      return restored;
    });
  } catch (err) {
    await record.save(err, ['--- code-server log tail ---', ...server.logLines.slice(-60)]);
    throw err;
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * A copy of the built extension whose package.json has `activationEvents: []` (dist/ and media/
 * symlinked): the control experiment showing why `onWebviewPanel:spotdesk.orderBook` is declared.
 */
function extensionWithoutActivationEvent(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-no-activation-'));
  const pkg = JSON.parse(fs.readFileSync(path.join(cs.ROOT, 'package.json'), 'utf8')) as { activationEvents: string[] };
  pkg.activationEvents = [];
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(pkg, null, 2));
  fs.symlinkSync(path.join(cs.ROOT, 'dist'), path.join(dir, 'dist'));
  fs.symlinkSync(path.join(cs.ROOT, 'media'), path.join(dir, 'media'));
  return dir;
}

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(cs.ROOT, 'dist', 'extension.js')) || !fs.existsSync(path.join(cs.ROOT, 'dist', 'webview', 'orderbook.js'))) cs.build();
  fs.mkdirSync(SHOTS, { recursive: true });
  const restored = await scenario('as shipped', cs.ROOT, 60_000, true);
  assert.equal(restored, true);
  if (process.env.OB_E2E_SKIP_CONTROL !== '1') {
    const copy = extensionWithoutActivationEvent();
    const control = await scenario('control: activationEvents []', copy, 0, false).finally(() => fs.rmSync(copy, { recursive: true, force: true }));
    console.log(`  control without onWebviewPanel: panel ${control ? 'WAS' : 'was NOT'} restored within 20 s`);
    assert.equal(control, false, 'without the activation event the restored panel stays empty (if this fails, VS Code no longer needs it)');
  }
}

main().then(
  () => {
    console.log('  order book workbench e2e: passed');
    process.exit(0);
  },
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
