/**
 * The packaged extension, installed as a user installs it: `npm run package` builds the
 * production .vsix, `code-server --install-extension` installs it, and a workbench WITHOUT any
 * development extension must activate it, start its embedded sandbox (a separate process from the
 * package's dist/sandbox-cli.js), fill the trees and render the order book. This catches a file left
 * out of the package. Screenshot: screenshots/vsix-*.png.
 *
 * Run: `npx tsx test/e2e/vsix.e2e.ts` (builds everything it needs; restores the development build after).
 */
import { strict as assert } from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { Frame, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import * as cs from '../../scripts/lib/codeServer';
import { pick, runCommand } from './quickInput';
import { step } from './steps';

const SHOTS = path.join(cs.ROOT, 'screenshots');

/** The webview frame that hosts the order book document, once it exists (polls the page's frames). */
async function bookFrame(page: Page, timeoutMs = 30_000): Promise<Frame> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    for (const f of page.frames()) {
      if (await f.$('.ob-title').catch(() => null)) return f;
    }
    if (Date.now() > end) throw new Error(`no order book frame within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function main(): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-vsix-'));
  const userDataDir = path.join(tmp, 'user-data');
  const workspace = path.join(tmp, 'workspace');
  fs.mkdirSync(workspace, { recursive: true });
  let server: cs.RunningCodeServer | undefined;
  const browser = await chromium.launch({ executablePath: cs.chromiumPath(), args: cs.CHROMIUM_ARGS });
  const consoleLines: string[] = [];
  let page: Page | undefined;
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(cs.ROOT, 'package.json'), 'utf8')) as { name: string; version: string; publisher: string };
    const vsix = path.join(cs.ROOT, `${pkg.name}-${pkg.version}.vsix`);
    await step('npm run package builds the production .vsix', async () => {
      const r = spawnSync(process.execPath, [path.join(cs.ROOT, 'scripts', 'package.js')], { cwd: cs.ROOT, encoding: 'utf8' });
      assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
      const size = /\.vsix: ([\d.]+) MB/.exec(r.stdout);
      console.log(`    ${size ? size[0] : 'size not printed'}`);
      assert.ok(fs.existsSync(vsix));
    });

    const installed = path.join(userDataDir, 'extensions', `${pkg.publisher}.${pkg.name}-${pkg.version}`);
    await step('code-server --install-extension installs it; the package holds bundles, no sources or maps', async () => {
      fs.mkdirSync(userDataDir, { recursive: true });
      const out = cs.installExtension({ vsix, userDataDir });
      assert.match(out, /successfully installed/i);
      for (const f of ['package.json', 'dist/extension.js', 'dist/sandbox-cli.js', 'dist/spotorder-language-server.js', 'dist/language-client.js', 'media/spotorder.tmLanguage.json', 'dist/webview/orderbook.js', 'media/icon.png', 'LICENSE.txt']) {
        assert.ok(fs.existsSync(path.join(installed, f)), `${f} is in the package`);
      }
      const all = fs.readdirSync(installed, { recursive: true }) as string[];
      assert.deepEqual(all.filter((f) => /\.map$|^src[\\/]|^test[\\/]|\.ts$/.test(f)), []);
    });

    const port = await cs.freePort();
    server = await cs.startCodeServer({ port, workspace, userDataDir, quiet: true });
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    page.on('console', (m) => consoleLines.push(`[${m.type()}] ${m.text()}`));
    const p = page;
    await p.goto(cs.workbenchUrl({ port, folder: workspace, extensionPath: null }));

    await step('the installed SpotDesk shows its activity-bar entry and activates from it', async () => {
      await p.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
      const entry = p.locator('.activitybar [aria-label*="SpotDesk"]').first();
      await entry.waitFor({ timeout: 60_000 });
      await entry.click();
      for (const title of ['Accounts', 'Active Orders', 'Markets']) await p.locator('.pane-header', { hasText: title }).first().waitFor({ timeout: 30_000 });
    });

    await step('its embedded sandbox starts (from the package) and the trees fill', async () => {
      const accounts = p.locator('.pane', { has: p.locator('.pane-header', { hasText: 'Accounts' }) });
      await accounts.locator('.monaco-list-row', { hasText: 'BTC' }).first().waitFor({ timeout: 90_000 });
      const markets = p.locator('.pane', { has: p.locator('.pane-header', { hasText: 'Markets' }) });
      await markets.locator('.monaco-list-row').nth(2).waitFor({ timeout: 30_000 }); // symbols by volume (GET /api/v2/symbols + allTickers)
      const creds = path.join(userDataDir, 'User', 'globalStorage', `${pkg.publisher}.${pkg.name}`, 'sandbox', 'credentials.json');
      assert.ok(fs.existsSync(creds), 'the sandbox wrote its key into the extension global storage');
      await p.screenshot({ path: path.join(SHOTS, 'vsix-trees.png') });
    });

    await step('the order book renders from the packaged webview bundle', async () => {
      await runCommand(p, 'SpotDesk: Open Market');
      await p.locator('.quick-input-list .monaco-list-row', { hasText: 'BTC-USDT' }).first().waitFor({ timeout: 60_000 });
      await pick(p, { placeholder: /^Symbol/ }, 'BTC-USDT', /^BTC-USDT/);
      await p.locator('.tab', { hasText: 'Market: BTC-USDT' }).first().waitFor({ timeout: 30_000 });
      const f = await bookFrame(p);
      await f.waitForSelector('.row.bid:not([hidden])', { timeout: 30_000 });
      assert.equal(await f.textContent('.ob-title'), 'BTC-USDT');
      await p.screenshot({ path: path.join(SHOTS, 'vsix-orderbook.png') });
    });
  } catch (err) {
    if (page) await page.screenshot({ path: path.join(SHOTS, 'vsix-failure.png') }).catch(() => undefined);
    fs.writeFileSync(path.join(SHOTS, 'vsix-failure-console.txt'), consoleLines.join('\n'));
    console.error(`[spotdesk] failure screenshot: screenshots/vsix-failure.png; page console: screenshots/vsix-failure-console.txt`);
    if (server) console.error(`[spotdesk] code-server log tail:\n${server.logLines.slice(-30).join('\n')}`);
    throw err;
  } finally {
    await browser.close();
    await server?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
    cs.build(); // the other tests use the development build
  }
}

main().then(
  () => {
    console.log('  vsix e2e: passed');
    process.exit(0);
  },
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
