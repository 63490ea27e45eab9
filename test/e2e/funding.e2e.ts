/**
 * Chromium end-to-end test of the guarded withdrawal in the REAL workbench (issue 7).
 *
 * Run: `npx tsx test/e2e/funding.e2e.ts` (exits non-zero on failure). Builds the extension and the
 * funding webview, starts code-server 4.100.3 (scripts/lib/codeServer.js: VS Code 1.100.3 served
 * over HTTP, SpotDesk loaded in extension-development mode with the embedded sandbox as the active
 * profile) and drives it from headless Chromium through the keyboard, as a person would:
 * F1 → "SpotDesk: Withdraw…" → USDT → TRC20 → ADDRESS → address → 20 → EXTERNAL → V1, then the
 * confirmation step: the modal summary (screenshot), "Continue…", the typed last 6 characters
 * (screenshot), and the result notification with the withdrawalId (screenshot). A wrong suffix is
 * tried first (refused in place), and Back is used once. Then a V4 withdrawal by e-mail with the
 * recipient fields (company, country from GET /kyc/regions/v4, ID_CARD for TR, reason) is entered
 * and cancelled at the summary, and a deposit address (XRP, with memo) is created and copied in the
 * funding webview; creating it again shows the existing address with a line saying so. Screenshots go to screenshots/ (git-ignored).
 */
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { chromium, type Page } from 'playwright-core';

import * as cs from '../../scripts/lib/codeServer';

const SHOTS = path.join(cs.ROOT, 'screenshots');
const ADDRESS = 'TKFRQXSDcY4kd3QLzw7uK16GmLrjJggwX8';

async function quickInputVisible(page: Page): Promise<void> {
  await page.locator('.quick-input-widget').waitFor({ state: 'visible', timeout: 60_000 });
}

/** Type into the quick input and accept; waits for the title to show `step` first when given. */
async function answer(page: Page, text: string, expectTitle?: RegExp): Promise<void> {
  await quickInputVisible(page);
  if (expectTitle) {
    await page.waitForFunction(
      (src) => new RegExp(src).test(document.querySelector('.quick-input-widget .quick-input-title')?.textContent ?? ''),
      expectTitle.source,
      { timeout: 60_000 },
    );
  }
  const box = page.locator('.quick-input-widget input.input');
  await box.fill(text);
  await page.waitForTimeout(250);
  await page.keyboard.press('Enter');
}

/** F1 → the palette command titled `title` (retried while the extension's contributions are still loading). */
async function runCommand(page: Page, title: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    await page.keyboard.press('F1');
    await quickInputVisible(page);
    await page.locator('.quick-input-widget input.input').fill(`>${title}`);
    await page.waitForTimeout(800);
    const rows = await page.locator('.quick-input-widget .quick-input-list .monaco-list-row').allInnerTexts();
    if (rows.some((r) => r.includes(title))) {
      await page.keyboard.press('Enter');
      return;
    }
    if (attempt > 20) throw new Error(`"${title}" not in the command palette: ${rows.join(' | ')}`);
    await page.keyboard.press('Escape');
    await page.waitForTimeout(2000);
  }
}

async function main(): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  cs.say('building extension + funding webview');
  const { spawnSync } = await import('child_process');
  const b = spawnSync(process.execPath, [path.join(cs.ROOT, 'esbuild.js'), '--only', 'extension,webview-funding'], { cwd: cs.ROOT, stdio: 'inherit' });
  if (b.status !== 0) throw new Error('build failed');

  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-e2e-ws-'));
  const port = await cs.freePort();
  const server = await cs.startCodeServer({ port, workspace, quiet: true, settings: { 'workbench.colorTheme': 'Default Dark Modern', 'window.dialogStyle': 'custom' } });
  const browser = await chromium.launch({ executablePath: cs.chromiumPath(), args: cs.CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(cs.workbenchUrl({ port, folder: workspace }));
    await page.locator('.monaco-workbench').waitFor({ timeout: 90_000 });
    await page.waitForTimeout(4000);

    await runCommand(page, 'SpotDesk: Withdraw');
    // Steps (the sandbox starts on first use; the first pick waits for it).
    await answer(page, 'USDT', /SpotDesk: Withdraw/);
    await page.waitForFunction(() => /Chain for USDT/.test(document.querySelector('.quick-input-widget input.input')?.getAttribute('placeholder') ?? document.body.innerText), undefined, { timeout: 30_000 }).catch(() => undefined);
    await answer(page, 'TRC20');
    await answer(page, 'ADDRESS');
    // An address that is not a TRON address is refused in place (format and checksum per chain).
    await quickInputVisible(page);
    await page.waitForFunction(() => /USDT address on TRC20/.test(document.querySelector('.quick-input-widget')?.textContent ?? ''), undefined, { timeout: 30_000 });
    await page.locator('.quick-input-widget input.input').fill('hello');
    await page.waitForFunction(() => /Not a valid address for this chain \(expected: TRON address/.test(document.querySelector('.quick-input-widget .quick-input-message')?.textContent ?? ''), undefined, { timeout: 10_000 });
    await page.screenshot({ path: path.join(SHOTS, 'funding-address-refused.png') });
    await answer(page, ADDRESS);
    await answer(page, '20');
    // The fee step explains each choice in amounts; it carries the step number and a Back button.
    await page.waitForFunction(() => /Who pays the withdrawal fee/.test(document.querySelector('.quick-input-widget input.input')?.getAttribute('placeholder') ?? ''), undefined, { timeout: 30_000 });
    await page.waitForTimeout(400);
    const feeText = (await page.locator('.quick-input-widget').innerText()).replace(/\s+/g, ' ');
    assert.match(feeText, /recipient gets 19 USDT, account pays 20 USDT \(fee 1 USDT\)/);
    assert.match(feeText, /recipient gets 20 USDT, account pays 21 USDT \(fee 1 USDT\)/);
    assert.match(await page.locator('.quick-input-widget .quick-input-title').innerText(), /^SpotDesk: Withdraw \(6\/7\)$/);
    assert.strictEqual(await page.locator('.quick-input-widget .quick-input-titlebar .action-label.codicon-quick-input-back').count(), 1, 'Back button shown');
    await page.screenshot({ path: path.join(SHOTS, 'funding-step-fee.png') });
    // Back returns to the amount step with the value kept; accepting it again comes back here.
    await page.locator('.quick-input-widget .quick-input-titlebar .action-label.codicon-quick-input-back').click();
    await page.waitForFunction(() => /^SpotDesk: Withdraw \(5\/7\)$/.test(document.querySelector('.quick-input-widget .quick-input-title')?.textContent ?? ''), undefined, { timeout: 10_000 });
    assert.strictEqual(await page.locator('.quick-input-widget input.input').inputValue(), '20');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => /^SpotDesk: Withdraw \(6\/7\)$/.test(document.querySelector('.quick-input-widget .quick-input-title')?.textContent ?? ''), undefined, { timeout: 10_000 });
    await answer(page, 'EXTERNAL');
    await answer(page, 'V1');

    // Confirmation step 1: the modal summary.
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: 30_000 });
    const text = (await dialog.innerText()).replace(/\s+/g, ' ');
    for (const expected of [
      'Withdraw 20 USDT via V1 (POST /api/v1/withdrawals)',
      'Amount: 20 USDT',
      'Fee: 1 USDT',
      'Recipient receives: 20 USDT',
      'Main account pays: 21 USDT',
      `Address: ${ADDRESS}`,
      'Chain: TRC20 (trx)',
      'Memo: (none)',
      'API version: V1 — POST /api/v1/withdrawals',
    ]) {
      assert.ok(text.includes(expected), `dialog shows "${expected}" — got: ${text}`);
    }
    await page.screenshot({ path: path.join(SHOTS, 'funding-confirm-summary.png') });
    cs.say('screenshot: screenshots/funding-confirm-summary.png');
    await dialog.getByRole('button', { name: 'Continue…' }).click();

    // Confirmation step 2: re-type the last 6 characters; a wrong value is refused in place.
    await quickInputVisible(page);
    const box = page.locator('.quick-input-widget input.input');
    await box.fill('jggwx8');
    await page.waitForTimeout(300);
    const validation = await page.locator('.quick-input-widget .quick-input-message').innerText();
    assert.match(validation, new RegExp(`Type the last 6 characters of ${ADDRESS} exactly`));
    await page.screenshot({ path: path.join(SHOTS, 'funding-confirm-wrong-suffix.png') });
    await box.fill('JggwX8');
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(SHOTS, 'funding-confirm-typed.png') });
    cs.say('screenshot: screenshots/funding-confirm-typed.png');
    await page.keyboard.press('Enter');

    // Result: the withdrawalId notification.
    const toast = page.locator('.notifications-toasts .notification-toast', { hasText: 'withdrawal submitted — withdrawalId' });
    await toast.waitFor({ timeout: 30_000 });
    await page.waitForTimeout(700);
    const msg = await toast.innerText();
    assert.match(msg, /withdrawalId [0-9a-f]{24}/);
    await page.screenshot({ path: path.join(SHOTS, 'funding-withdraw-sent.png') });
    cs.say(`result: ${msg.replace(/\s+/g, ' ').slice(0, 200)}`);
    console.log('  ✔ guarded withdrawal driven through the workbench (screenshots: step, summary, wrong suffix, typed, sent)');

    // V4 by e-mail, entered interactively with the recipient fields; cancelled at the summary.
    await runCommand(page, 'SpotDesk: Withdraw');
    await answer(page, 'USDT', /SpotDesk: Withdraw/);
    await answer(page, 'TRC20');
    await answer(page, 'MAIL');
    await answer(page, 'ada@example.com');
    await answer(page, '10');
    await answer(page, 'Automatic');
    await answer(page, 'company');
    await answer(page, 'Acme Ltd');
    await answer(page, 'Türkiye');
    await answer(page, 'TR-1234567890', /\(10\/11\)$/);
    await answer(page, 'OTHER', /\(11\/11\)$/);
    const dialog4 = page.locator('.monaco-dialog-box');
    await dialog4.waitFor({ state: 'visible', timeout: 30_000 });
    const text4 = (await dialog4.innerText()).replace(/\s+/g, ' ');
    for (const expected of [
      'Withdraw 10 USDT via V4 (POST /api/v4/withdrawals)',
      'Fee: 0 USDT',
      'Recipient receives: 10 USDT',
      'E-mail: ada@example.com',
      'API version: V4 — POST /api/v4/withdrawals',
      'Recipient: company: Acme Ltd',
      'Country: TR',
      'Identity: ID_CARD TR-1234567890',
      'Reason: OTHER',
    ]) {
      assert.ok(text4.includes(expected), `V4 dialog shows "${expected}" — got: ${text4}`);
    }
    await page.screenshot({ path: path.join(SHOTS, 'funding-confirm-summary-v4.png') });
    await dialog4.getByRole('button', { name: 'Cancel' }).click();
    await page.locator('.notifications-toasts .notification-toast', { hasText: 'withdrawal cancelled — nothing was sent' }).waitFor({ timeout: 15_000 });
    console.log('  ✔ V4 e-mail withdrawal with recipient fields collected interactively; cancel at the summary sends nothing');

    // Deposit address for a memo currency: the funding webview with copy buttons and the warning.
    await runCommand(page, 'SpotDesk: Create Deposit Address');
    await answer(page, 'XRP');
    const frame = page.frameLocator('iframe.webview').frameLocator('iframe#active-frame');
    await frame.locator('h1', { hasText: 'Deposit XRP' }).waitFor({ timeout: 30_000 });
    const panelText = (await frame.locator('body').innerText()).replace(/\s+/g, ' ');
    assert.match(panelText, /Memo required\. This address needs the memo \d+\. A deposit sent without it may not be credited/);
    assert.match(panelText, /Copy address/);
    assert.match(panelText, /Copy memo/);
    await frame.getByRole('button', { name: 'Copy address' }).click();
    await frame.getByRole('button', { name: 'Copied ✓' }).waitFor({ timeout: 10_000 });
    await page.screenshot({ path: path.join(SHOTS, 'funding-deposit-xrp.png') });
    console.log('  ✔ deposit address webview (XRP with memo) rendered and copy works');

    // The same command again: the sandbox answers 260000 "already exists"; the existing address is
    // fetched (GET /api/v2/deposit-addresses) and shown the same way, with a line saying so.
    const memo = /needs the memo (\d+)/.exec(panelText)?.[1];
    assert.ok(memo, 'memo shown the first time');
    await runCommand(page, 'SpotDesk: Create Deposit Address');
    await answer(page, 'XRP');
    await frame.locator('.existing').waitFor({ timeout: 30_000 });
    const again = (await frame.locator('body').innerText()).replace(/\s+/g, ' ');
    assert.match(again, /This is your existing XRP deposit address on XRP: the exchange keeps one address per currency and chain, so no new one was created\./);
    assert.ok(again.includes(`Memo required. This address needs the memo ${memo}.`), `same memo ${memo} shown again — got: ${again}`);
    assert.match(again, /Copy address/);
    await page.screenshot({ path: path.join(SHOTS, 'funding-deposit-xrp-existing.png') });
    console.log('  ✔ second Create Deposit Address for XRP shows the existing address (same memo) with the "existing" line');
  } catch (err) {
    try {
      const pages = browser.contexts().flatMap((c) => c.pages());
      if (pages[0]) await pages[0].screenshot({ path: path.join(SHOTS, 'funding-e2e-failure.png') });
    } catch {
      /* ignore */
    }
    console.error(server.logLines.slice(-30).join('\n'));
    throw err;
  } finally {
    await browser.close();
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
