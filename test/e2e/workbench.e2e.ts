/**
 * UI end-to-end test of SpotDesk in a real VS Code workbench (code-server 4.100.3 + headless
 * Chromium): opens the SpotDesk view container, waits for real sandbox data in Accounts, places a
 * resting order through the API and waits for it in Active Orders, expands a market in Markets,
 * checks the status bar, and saves screenshots to screenshots/workbench-*.png (git-ignored).
 *
 * Run: `npx tsx test/e2e/workbench.e2e.ts` (expects `npm run build` first; exits non-zero on failure).
 */
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import * as cs from '../../scripts/lib/codeServer';
import { atStep, pick, runCommand } from './quickInput';
import { shotWithHover } from './shots';
import { step } from './steps';
import { FailureRecord, painted } from './failure';
import { SpotClient } from '../../src/api/client';
import * as dec from '../../src/api/decimal';

/** A user profile's base URL for the "no credentials" screens: the discard port on loopback, where
 * nothing listens (tests send no traffic off this machine; public requests simply fail fast). */
const OFFLINE_PROFILE_URL = 'http://127.0.0.1:9';

const SHOTS = path.join(cs.ROOT, 'screenshots');
const SYMBOL = 'BTC-USDT';

/** The pane (view) of the SpotDesk container whose header reads `title`. */
function pane(page: Page, title: string) {
  return page.locator('.pane', { has: page.locator('.pane-header', { hasText: title }) });
}

async function waitForFile(file: string, timeoutMs: number): Promise<string> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8');
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${file} did not appear within ${timeoutMs} ms`);
}

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(cs.ROOT, 'dist', 'extension.js'))) cs.build();
  fs.mkdirSync(SHOTS, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-e2e-'));
  const userDataDir = path.join(tmp, 'user-data');
  const port = await cs.freePort();
  const workspace = path.join(cs.ROOT, 'test', 'host', 'workspace');
  console.log(`[spotdesk] workbench e2e: code-server on 127.0.0.1:${port}`);
  const server = await cs.startCodeServer({
    port,
    workspace,
    userDataDir,
    quiet: true,
    settings: { 'spotdesk.pollIntervalSeconds': 3, 'spotdesk.profiles': [{ name: 'KuCoin', baseUrl: OFFLINE_PROFILE_URL }] },
  });
  const browser = await chromium.launch({ executablePath: cs.chromiumPath(), args: cs.CHROMIUM_ARGS });
  const errors: string[] = [];
  const record = new FailureRecord('workbench');
  let client: SpotClient | undefined;
  try {
    const page = record.watch(await browser.newPage({ viewport: { width: 1440, height: 900 } }), 'workbench');
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(cs.workbenchUrl({ port, folder: workspace }));

    await step('workbench loads', async () => {
      await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
      await page.locator('.activitybar').waitFor({ timeout: 60_000 });
    });

    await step('the SpotDesk activity-bar entry opens the container with its three views', async () => {
      const entry = page.locator('.activitybar [aria-label*="SpotDesk"]').first();
      await entry.waitFor({ timeout: 60_000 });
      await entry.click();
      for (const title of ['Accounts', 'Active Orders', 'Markets']) {
        await page.locator('.pane-header', { hasText: title }).first().waitFor({ timeout: 30_000 });
      }
    });

    await step('widen the side bar so that descriptions are readable', async () => {
      const sidebar = await page.locator('.part.sidebar').boundingBox();
      assert.ok(sidebar, 'side bar visible');
      const edge = sidebar.x + sidebar.width;
      // The vertical sash on the side bar's right edge.
      for (const sash of await page.locator('.monaco-sash.vertical').all()) {
        const box = await sash.boundingBox();
        if (!box || box.height < sidebar.height / 2 || Math.abs(box.x + box.width / 2 - edge) > 6) continue;
        await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
        await page.mouse.down();
        await page.mouse.move(edge + 300, box.y + box.height / 2, { steps: 8 });
        await page.mouse.up();
        break;
      }
      const after = await page.locator('.part.sidebar').boundingBox();
      assert.ok(after && after.width > sidebar.width + 100, `side bar widened (${sidebar.width} → ${after?.width})`);
    });

    await step('Accounts shows the sandbox balances (the sandbox starts on first need)', async () => {
      const accounts = pane(page, 'Accounts');
      // Trees are virtualised: only rows in view exist in the DOM (the portfolio total, then currencies by value).
      await accounts.locator('.monaco-list-row', { hasText: 'Portfolio' }).first().waitFor({ timeout: 60_000 });
      await accounts.locator('.monaco-list-row', { hasText: 'trade' }).first().waitFor({ timeout: 10_000 });
      const text = await accounts.locator('.monaco-list-rows').innerText();
      assert.match(text, /BTC/);
      assert.match(text, /Portfolio\s*≈ [\d,]+\.\d\d USD · Sandbox · play money/);
      assert.match(text, /[\d,.]+ avail · ≈ [\d,]+\.\d\d USD/);
      const desc = await accounts.locator('.pane-header').innerText();
      assert.match(desc, /updated \d\d:\d\d:\d\d/);
    });

    // The sandbox writes its default user's credentials into the extension's global storage.
    const credsFile = path.join(userDataDir, 'User', 'globalStorage', 'spotdesk.spotdesk', 'sandbox', 'credentials.json');
    const creds = JSON.parse(await waitForFile(credsFile, 30_000)) as {
      baseUrl: string;
      apiKey: string;
      apiSecret: string;
      apiPassphrase: string;
      keyVersion: '2';
    };
    client = new SpotClient({ baseUrl: creds.baseUrl, credentials: creds });
    const info = (await client.getSymbols()).find((s) => s.symbol === SYMBOL)!;
    const book = await client.getLevel2(SYMBOL);
    const price = dec.roundDown(dec.mul(book.bids[0][0], '0.5'), info.priceIncrement);
    const placed = await client.placeOrder({ symbol: SYMBOL, side: 'buy', type: 'limit', price, size: '0.0015', clientOid: `e2e-${Date.now()}` });

    await step('Active Orders shows the order placed through the API (BTC-USDT is on the default watchlist)', async () => {
      const orders = pane(page, 'Active Orders');
      await orders.locator('.monaco-list-row', { hasText: 'BUY limit' }).first().waitFor({ timeout: 30_000 });
      const text = await orders.locator('.monaco-list-rows').innerText();
      assert.ok(text.includes(SYMBOL), text);
      assert.ok(text.includes(`0.0015 @ ${price}`), text);
    });

    await step('Markets lists the symbols (Favourites on top, then by volume) with last price and change, no folder to expand', async () => {
      const markets = pane(page, 'Markets');
      await markets.locator('.monaco-list-row', { hasText: 'Favourites' }).first().waitFor({ timeout: 30_000 });
      await markets.locator('.monaco-list-row', { hasText: SYMBOL }).first().waitFor({ timeout: 30_000 });
      const text = await markets.locator('.monaco-list-rows').innerText();
      assert.ok(text.includes(SYMBOL), text);
    });

    await step('the status bar shows the profile and the service status', async () => {
      const item = page.locator('.statusbar-item', { hasText: 'Sandbox (local)' }).first();
      await item.waitFor({ timeout: 30_000 });
      await page.waitForFunction(
        () => [...document.querySelectorAll('.statusbar-item')].some((e) => /Sandbox \(local\) · (open|close|cancelonly)/.test(e.textContent ?? '')),
        undefined,
        { timeout: 30_000 },
      );
    });

    await step('screenshots (the order tooltip shows its id; the status bar tooltip the rate-limit budget)', async () => {
      await page.mouse.move(700, 450);
      await painted(page);
      await page.screenshot({ path: path.join(SHOTS, 'workbench-spotdesk.png') });
      // Hover an order: its tooltip lists every field, the order id included.
      const orderRow = pane(page, 'Active Orders').locator('.monaco-list-row', { hasText: 'BUY limit' }).first();
      await shotWithHover(page, orderRow, placed.orderId, 'workbench-order-tooltip');
      // Status bar tooltip with the service status and the rate-limit budget per pool.
      await shotWithHover(page, page.locator('.statusbar-item', { hasText: 'Sandbox (local)' }).first(), 'Service status', 'workbench-statusbar-tooltip');
    });

    await step('cancelling from the API removes the order from the view', async () => {
      await client!.cancelOrder(SYMBOL, placed.orderId);
      await page.locator('.pane-header', { hasText: 'Active Orders' }).first().hover();
      await pane(page, 'Active Orders').locator('.monaco-list-row', { hasText: 'BUY limit' }).first().waitFor({ state: 'detached', timeout: 30_000 });
    });
    await step('a user profile without credentials shows the "Set API Credentials" welcome content', async () => {
      // The "KuCoin" profile is in the user settings (see startCodeServer); pick it with the
      // real command and quick pick. Its base URL is a closed loopback port: tests never reach out.
      const selectProfile = { title: /Select Profile/ };
      await runCommand(page, 'SpotDesk: Select Profile');
      await atStep(page, selectProfile, 10_000);
      await page.locator('.quick-input-list .monaco-list-row', { hasText: OFFLINE_PROFILE_URL }).first().waitFor({ timeout: 10_000 });
      await page.screenshot({ path: path.join(SHOTS, 'workbench-select-profile.png') });
      await pick(page, selectProfile, 'KuCoin');
      const accounts = pane(page, 'Accounts');
      await accounts.locator('.welcome-view-content', { hasText: 'has no API credentials' }).waitFor({ timeout: 30_000 });
      await accounts.locator('.welcome-view-content a, .welcome-view-content .monaco-button', { hasText: 'Set API Credentials' }).first().waitFor({ timeout: 5_000 });
      await page.locator('.statusbar-item', { hasText: 'KuCoin · no credentials' }).first().waitFor({ timeout: 10_000 });
      // The views' "updated HH:mm:ss" belonged to the previous profile: cleared.
      assert.doesNotMatch(await accounts.locator('.pane-header').innerText(), /updated/);
      await page.mouse.move(900, 450);
      await page.screenshot({ path: path.join(SHOTS, 'workbench-welcome-credentials.png') });
    });

    assert.deepStrictEqual(
      errors.filter((e) => !/unknown error occurred/i.test(e)),
      [],
      'no page errors',
    );
  } catch (err) {
    await record.save(err, ['--- code-server log tail ---', ...server.logLines.slice(-60)]);
    throw err;
  } finally {
    client?.close();
    await browser.close().catch(() => undefined);
    await server.stop();
  }
}

main().then(
  () => {
    console.log('[spotdesk] workbench e2e passed; screenshots in screenshots/workbench-*.png');
    process.exit(0);
  },
  (err) => {
    console.error(err instanceof Error ? err.stack : err);
    process.exit(1);
  },
);
