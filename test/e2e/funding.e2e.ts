/**
 * Chromium end-to-end test of the guarded withdrawal in the REAL workbench.
 *
 * Run: `npx tsx test/e2e/funding.e2e.ts` (exits non-zero on failure). Builds the extension and the
 * funding webview, starts code-server 4.100.3 (scripts/lib/codeServer.js: VS Code 1.100.3 served
 * over HTTP, SpotDesk loaded in extension-development mode with the embedded sandbox as the active
 * profile) and drives it from headless Chromium through the keyboard, as a person would:
 * F1 → "SpotDesk: Withdraw…" → Send to an address → a plain address withdrawal (V1) → USDT → TRC20 →
 * address → 20 → I pay the fee (EXTERNAL), then the
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
import { FailureRecord, SHOTS } from './failure';
import { atStep, pick, runCommand, type } from './quickInput';

const ADDRESS = 'TKFRQXSDcY4kd3QLzw7uK16GmLrjJggwX8';
const WITHDRAW = (n: number, total?: number) => ({ title: new RegExp(`^SpotDesk: Withdraw \\(${n}${total === undefined ? '' : `/${total}`}\\)$`) });

/** Wait until no CSS animation or transition runs in the elements matching `selector` (e.g. a toast sliding in). */
async function settled(page: Page, selector: string): Promise<void> {
  await page.waitForFunction((sel) => [...document.querySelectorAll(sel)].every((e) => e.getAnimations({ subtree: true }).every((a) => a.playState !== 'running')), selector, { timeout: 10_000 });
}

async function main(): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  const record = new FailureRecord('funding');
  cs.say('building extension + funding webview');
  const { spawnSync } = await import('child_process');
  const b = spawnSync(process.execPath, [path.join(cs.ROOT, 'esbuild.js'), '--only', 'extension,webview-funding'], { cwd: cs.ROOT, stdio: 'inherit' });
  if (b.status !== 0) throw new Error('build failed');

  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-e2e-ws-'));
  const port = await cs.freePort();
  const server = await cs.startCodeServer({ port, workspace, quiet: true, settings: { 'workbench.colorTheme': 'Default Dark Modern', 'window.dialogStyle': 'custom' } });
  const browser = await chromium.launch({ executablePath: cs.chromiumPath(), args: cs.CHROMIUM_ARGS });
  try {
    const page = record.watch(await browser.newPage({ viewport: { width: 1400, height: 900 } }), 'workbench');
    await page.goto(cs.workbenchUrl({ port, folder: workspace }));
    await page.locator('.monaco-workbench').waitFor({ timeout: 90_000 });

    await runCommand(page, 'SpotDesk: Withdraw');
    // The currency first, then where it goes, then whether the travel-rule form is needed; "n/N" on
    // every step (USDT on TRC20 to an address without the form: 7 steps).
    await pick(page, { ...WITHDRAW(1, 7), placeholder: /^Currency to withdraw/ }, 'USDT');
    await pick(page, { ...WITHDRAW(2, 7), placeholder: /^Chain for USDT/ }, 'TRC20');
    await atStep(page, { ...WITHDRAW(3, 7), placeholder: /^Where do you send it\?$/ });
    await page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: 'Send to a KuCoin user (UID, e-mail, phone)' }).waitFor({ timeout: 10_000 });
    await page.screenshot({ path: path.join(SHOTS, 'funding-step-send-to.png') });
    await pick(page, { ...WITHDRAW(3, 7), placeholder: /^Where do you send it\?$/ }, 'address', /^Send to an address$/);
    // An address that is not a TRON address is refused in place (format and checksum per chain)…
    await atStep(page, { ...WITHDRAW(4, 7), message: /USDT address on TRC20/ });
    await page.locator('.quick-input-widget input.input').fill('hello');
    await atStep(page, { ...WITHDRAW(4, 7), message: /Not a valid address for this chain \(expected: TRON address/ }, 10_000);
    await page.screenshot({ path: path.join(SHOTS, 'funding-address-refused.png') });
    // …and one of another of USDT's chains is named as such.
    await page.locator('.quick-input-widget input.input').fill('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed');
    await atStep(page, { ...WITHDRAW(4, 7), message: /This looks like an ERC20((, KCC)? or (KCC|BEP20))? address; you chose TRC20/ }, 10_000);
    await page.screenshot({ path: path.join(SHOTS, 'funding-address-other-chain.png') });
    await type(page, WITHDRAW(4, 7), ADDRESS);
    await pick(page, { ...WITHDRAW(5, 7), placeholder: /^Does the receiving exchange need the travel-rule form\?$/ }, 'No', /^No: the address is enough$/);
    await type(page, { ...WITHDRAW(6, 7), message: /^Amount of USDT to withdraw/ }, '20');
    // The fee step explains each choice in amounts; it carries the step number and a Back button.
    await atStep(page, { ...WITHDRAW(7, 7), placeholder: /^Who pays the withdrawal fee\?$/ });
    await page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: 'recipient gets 20 USDT' }).first().waitFor({ timeout: 10_000 });
    const feeText = (await page.locator('.quick-input-widget').innerText()).replace(/\s+/g, ' ');
    assert.match(feeText, /recipient gets 19 USDT, account pays 20 USDT \(fee 1 USDT\)/);
    assert.match(feeText, /recipient gets 20 USDT, account pays 21 USDT \(fee 1 USDT\)/);
    assert.match(feeText, /Recipient pays the fee.*INTERNAL/);
    assert.match(feeText, /I pay the fee.*EXTERNAL/);
    assert.match(await page.locator('.quick-input-widget .quick-input-title').innerText(), /^SpotDesk: Withdraw \(7\/7\)$/);
    assert.strictEqual(await page.locator('.quick-input-widget .quick-input-titlebar .action-label.codicon-quick-input-back').count(), 1, 'Back button shown');
    await page.screenshot({ path: path.join(SHOTS, 'funding-step-fee.png') });
    // Back returns to the amount step with the value kept; accepting it again comes back here.
    await page.locator('.quick-input-widget .quick-input-titlebar .action-label.codicon-quick-input-back').click();
    await atStep(page, WITHDRAW(6, 7), 10_000);
    await page.waitForFunction(() => document.querySelector<HTMLInputElement>('.quick-input-widget input.input')?.value === '20', undefined, { timeout: 10_000 });
    await page.keyboard.press('Enter');
    await pick(page, WITHDRAW(7, 7), 'EXTERNAL', /^I pay the fee$/);

    // Confirmation step 1: the modal summary.
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: 30_000 });
    const text = (await dialog.innerText()).replace(/\s+/g, ' ');
    for (const expected of [
      'Withdraw 20 USDT via V1 (POST /api/v1/withdrawals) — Sandbox · play money',
      'Profile: the sandbox profile "Sandbox (local)" (play money, not real).',
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
    const confirmStep = { title: /^Confirm: Withdraw 20 USDT via V1/, placeholder: /^last 6 characters$/ };
    await atStep(page, confirmStep, 30_000);
    const box = page.locator('.quick-input-widget input.input');
    await box.fill('jggwx8');
    await atStep(page, { ...confirmStep, message: /^Type the last 6 characters of the address exactly/ }, 10_000);
    const shownText = await page.locator('.quick-input-widget').innerText();
    assert.ok(!shownText.includes(ADDRESS.slice(-6)), `the re-type step shows the characters to type: ${shownText}`);
    await page.screenshot({ path: path.join(SHOTS, 'funding-confirm-wrong-suffix.png') });
    await box.fill('JggwX8');
    await atStep(page, { ...confirmStep, message: /^To send, re-type the last 6 characters/ }, 10_000);
    await page.screenshot({ path: path.join(SHOTS, 'funding-confirm-typed.png') });
    cs.say('screenshot: screenshots/funding-confirm-typed.png');
    await page.keyboard.press('Enter');

    // Result: the withdrawalId notification.
    const toast = page.locator('.notifications-toasts .notification-toast', { hasText: 'withdrawal submitted — withdrawalId' });
    await toast.waitFor({ timeout: 30_000 });
    await settled(page, '.notifications-toasts');
    const msg = await toast.innerText();
    assert.match(msg, /withdrawalId [0-9a-f]{24}/);
    await page.screenshot({ path: path.join(SHOTS, 'funding-withdraw-sent.png') });
    cs.say(`result: ${msg.replace(/\s+/g, ' ').slice(0, 200)}`);
    console.log('  ✔ guarded withdrawal driven through the workbench (screenshots: step, summary, wrong suffix, typed, sent)');

    // V4 by e-mail, entered interactively with the recipient fields; cancelled at the summary.
    await runCommand(page, 'SpotDesk: Withdraw');
    // currency and chain first; sending to a KuCoin user adds its steps (the counter's N grows from the next step)
    await pick(page, { ...WITHDRAW(1, 7), placeholder: /^Currency to withdraw/ }, 'USDT');
    await pick(page, { ...WITHDRAW(2, 7), placeholder: /^Chain for USDT/ }, 'TRC20');
    await pick(page, { ...WITHDRAW(3, 7), placeholder: /^Where do you send it\?$/ }, 'KuCoin user', /^Send to a KuCoin user \(UID, e-mail, phone\)$/);
    await pick(page, { ...WITHDRAW(4, 12), placeholder: /^How do you identify the KuCoin user\?$/ }, 'MAIL', /^By e-mail$/);
    await type(page, { ...WITHDRAW(5, 12), message: /^Recipient e-mail\b/ }, 'ada@example.com');
    await type(page, WITHDRAW(6, 12), '10');
    await pick(page, WITHDRAW(7, 12), 'AUTO', /^Automatic/);
    await pick(page, { ...WITHDRAW(8, 12), placeholder: /^Recipient type/ }, 'company');
    await type(page, { ...WITHDRAW(9, 12), message: /^Recipient company name\b/ }, 'Acme Ltd');
    await pick(page, { ...WITHDRAW(10, 12), placeholder: /^Recipient country/ }, 'Türkiye', /^TR$/);
    await type(page, { ...WITHDRAW(11, 12), message: /ID card/ }, 'TR-1234567890');
    await pick(page, { ...WITHDRAW(12, 12), placeholder: /^Reason of transfer/ }, 'OTHER');
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

    // A USDT address on TRC20 first: its own tab.
    const currencyToDeposit = { title: /^SpotDesk: Create Deposit Address$/, placeholder: /^Currency to deposit/ };
    await runCommand(page, 'SpotDesk: Create Deposit Address');
    await pick(page, currencyToDeposit, 'USDT');
    await pick(page, { placeholder: /^Chain/ }, 'TRC20');
    const frame = page.locator('iframe.webview').filter({ visible: true }).first().contentFrame().frameLocator('iframe#active-frame');
    await frame.locator('h1', { hasText: 'Deposit USDT on TRC20' }).waitFor({ timeout: 30_000 });
    const usdtText = (await frame.locator('body').innerText()).replace(/\s+/g, ' ');
    assert.match(usdtText, /Network TRC20 \(chain id trx\)/);
    assert.match(usdtText, /Confirmations (1 confirmation|\d+ confirmations)\b/, 'the right number');
    // A sandbox address is play money: the banner says so, no QR code a wallet could scan, Simulate a Deposit… instead.
    assert.match(usdtText, /Sandbox address: not on any blockchain\. Do not send real funds\./);
    assert.doesNotMatch(usdtText, /Send only/);
    assert.equal(await frame.locator('canvas.qr').count(), 0, 'no QR code of a sandbox address');
    await frame.getByRole('button', { name: 'Simulate a Deposit…' }).waitFor({ timeout: 10_000 });
    await page.screenshot({ path: path.join(SHOTS, 'funding-deposit-usdt.png') });

    // Deposit address for a memo currency: another tab, copy buttons, the warning, QR codes of the address and the memo.
    await runCommand(page, 'SpotDesk: Create Deposit Address');
    await pick(page, currencyToDeposit, 'XRP');
    await frame.locator('h1', { hasText: 'Deposit XRP on XRP' }).waitFor({ timeout: 30_000 });
    const panelText = (await frame.locator('body').innerText()).replace(/\s+/g, ' ');
    assert.match(panelText, /Memo required\. This address needs the memo \d+\. A deposit sent without it may not be credited/);
    assert.match(panelText, /Copy address/);
    assert.match(panelText, /Copy memo/);
    assert.match(panelText, /Confirmations 1 confirmation\b/, 'singular');
    assert.match(panelText, /Sandbox address: not on any blockchain\. Do not send real funds\./);
    assert.equal(await frame.locator('code').count(), 0, 'values are plain text, not code tokens');
    const tabs = await page.locator('.tabs-container .tab .label-name').allInnerTexts();
    assert.ok(tabs.includes('Deposit USDT (TRC20)') && tabs.includes('Deposit XRP (XRP)'), `one tab per address: ${tabs.join(', ')}`);
    // The sandbox's addresses get no QR codes (the panel for a real profile draws them).
    assert.equal(await frame.locator('canvas.qr').count(), 0);
    const memoText = (await frame.locator('.row .value-text').nth(1).innerText()).trim();
    await frame.getByRole('button', { name: 'Copy address' }).click();
    await frame.getByRole('button', { name: 'Copied ✓' }).waitFor({ timeout: 10_000 });
    await page.screenshot({ path: path.join(SHOTS, 'funding-deposit-xrp.png') });
    console.log('  ✔ deposit address webview (XRP with memo) rendered and copy works');

    // The same command again: the sandbox answers 260000 "already exists"; the existing address is
    // fetched (GET /api/v2/deposit-addresses) and shown the same way, with a line saying so.
    const memo = /needs the memo (\d+)/.exec(panelText)?.[1];
    assert.equal(memo, memoText);
    assert.ok(memo, 'memo shown the first time');
    await runCommand(page, 'SpotDesk: Create Deposit Address');
    await pick(page, currencyToDeposit, 'XRP');
    await frame.locator('.existing').waitFor({ timeout: 30_000 });
    const again = (await frame.locator('body').innerText()).replace(/\s+/g, ' ');
    assert.match(again, /This is your existing XRP deposit address on XRP: the exchange keeps one address per currency and chain, so no new one was created\./);
    assert.ok(again.includes(`Memo required. This address needs the memo ${memo}.`), `same memo ${memo} shown again — got: ${again}`);
    assert.match(again, /Copy address/);
    await page.screenshot({ path: path.join(SHOTS, 'funding-deposit-xrp-existing.png') });
    console.log('  ✔ second Create Deposit Address for XRP shows the existing address (same memo) with the "existing" line');
  } catch (err) {
    await record.save(err, ['--- code-server log tail ---', ...server.logLines.slice(-60)]);
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
