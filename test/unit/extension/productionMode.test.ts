/**
 * SpotDesk activated in PRODUCTION mode (which the extension-host tests cannot use: they run in
 * Test/Development mode): the extension bundle built with esbuild as `node esbuild.js` does, with a
 * stand-in `vscode` (./fakeVscode.ts), against an in-process sandbox:
 * - the test door `spotdesk.testHooks` does not exist and activate() exports only `activationMs`;
 * - `spotdesk.withdraw` called the way any other extension could — a complete draft, a
 *   confirmation function and a client of another account in the argument — still asks every step,
 *   shows the modal summary, and sends nothing when the modal is dismissed (sandbox state checked);
 * - `spotdesk.cancelWithdrawal` called with a forged row (other figures, a confirm function) shows
 *   the withdrawal as the exchange has it in a modal and cancels nothing when it is dismissed.
 */
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { build } from 'esbuild';
import { SpotClient } from '../../../src/api/client';
import type { RunningSandbox } from '../../../src/exchange/server/index';
import { admin, balanceOf, createUser, startTestSandbox } from '../server/helpers';
import { fakeContext, fakeVscode, install, type FakeVscode } from './fakeVscode';

const TRON = 'TMn4XcAaiXmoAjGeGs93zQhBnGZq3dHHnz';
const PRODUCTION = 1;
const DEVELOPMENT = 2;

describe('SpotDesk in Production mode (stand-in vscode, in-process sandbox)', function () {
  this.timeout(30_000);
  let sb: RunningSandbox;
  let fake: FakeVscode;
  let uninstall: () => void;
  let ext: { activate(context: unknown): unknown };
  const contexts: Array<{ subscriptions: Array<{ dispose(): void }> }> = [];

  before(async () => {
    sb = await startTestSandbox({ manualClock: false });
    fake = fakeVscode();
    uninstall = install(fake);
    // The extension as shipped: one CJS bundle (dynamic imports become lazily required modules).
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-prod-'));
    const outfile = path.join(dir, 'extension.js');
    await build({ absWorkingDir: path.resolve(__dirname, '..', '..', '..'), entryPoints: ['src/host/extension.ts'], bundle: true, platform: 'node', format: 'cjs', external: ['vscode'], outfile, logLevel: 'silent' });
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    ext = require(outfile) as typeof ext;
  });

  after(async () => {
    for (const c of contexts) for (const d of c.subscriptions.splice(0)) d.dispose();
    uninstall();
    await sb.close();
  });

  function activate(mode: number, secrets = new Map<string, string>()): unknown {
    fake.commands.clear();
    const ctx = fakeContext(mode, secrets) as { subscriptions: Array<{ dispose(): void }> };
    contexts.push(ctx);
    return ext.activate(ctx);
  }

  it('registers no test door and exports only activationMs (control: Development mode has the door)', async () => {
    const exported = activate(PRODUCTION) as Record<string, unknown>;
    assert.deepEqual(Object.keys(exported), ['activationMs']);
    const prod = [...fake.commands.keys()];
    assert.ok(prod.includes('spotdesk.withdraw') && prod.includes('spotdesk.cancelOrder'), 'commands registered');
    assert.deepEqual(prod.filter((c) => /testHooks/i.test(c)), []);
    activate(DEVELOPMENT);
    assert.deepEqual([...fake.commands.keys()].filter((c) => /testHooks/i.test(c)), ['spotdesk.testHooks']);
  });

  it('spotdesk.withdraw with a complete draft, a confirm function and a client in the argument: every step asked, the modal shown, nothing sent when it is dismissed', async () => {
    const victim = await createUser(sb, { balances: [{ currency: 'USDT', type: 'main', amount: '100' }] });
    const other = await createUser(sb, { balances: [{ currency: 'USDT', type: 'main', amount: '100' }] });
    // The active profile is a user profile on the sandbox, with the victim's key in SecretStorage.
    fake.config.set('spotdesk.activeProfile', 'Exchange');
    fake.config.set('spotdesk.profiles', [{ name: 'Exchange', baseUrl: sb.baseUrl }]);
    const secrets = new Map([['spotdesk.credentials/user:Exchange', JSON.stringify({ apiKey: victim.apiKey, apiSecret: victim.apiSecret, apiPassphrase: victim.apiPassphrase, keyVersion: String(victim.keyVersion) })]]);
    activate(PRODUCTION, secrets);

    // The person answers the steps (as they would for this very draft) and dismisses the modal.
    const answers: Record<string, string> = { 'Chain for USDT': 'TRC20', 'Where do you send it?': 'Send to an address', 'Who pays the withdrawal fee?': 'I pay the fee', 'Does the receiving exchange need the travel-rule form?': 'No: the address is enough' };
    fake.ui = {
      pick: (s, items) => items.find((i) => i.label.replace(/^\$\([^)]*\) /, '').startsWith(Object.entries(answers).find(([k]) => s.placeholder?.startsWith(k))?.[1] ?? '\u0000')),
      input: (s) => (s.prompt?.includes('address on') ? TRON : s.prompt?.startsWith('Amount of') ? '20' : undefined),
      message: () => undefined,
    };
    fake.shown.length = 0;
    fake.messages.length = 0;

    const otherClient = new SpotClient({ baseUrl: sb.baseUrl, credentials: other });
    let confirmCalls = 0;
    const out = (await fake.commands.get('spotdesk.withdraw')!({
      currency: 'USDT', chain: 'trx', withdrawType: 'ADDRESS', destination: TRON, amount: '20', feeDeduction: 'EXTERNAL', apiVersion: 'V1',
      confirm: async (s: { suffix: string }) => {
        confirmCalls++;
        return s.suffix;
      },
      acceptTransfer: true,
      client: otherClient,
    })) as { status: string };
    otherClient.close();

    assert.equal(out.status, 'cancelled', JSON.stringify(out));
    assert.equal(confirmCalls, 0, 'the confirmation function in the argument was never called');
    assert.deepEqual(
      fake.shown.map((s) => s.placeholder ?? s.prompt),
      ['Chain for USDT (withdraw-enabled only)', 'Where do you send it?', `USDT address on TRC20`, 'Does the receiving exchange need the travel-rule form?', fake.shown[4].prompt, 'Who pays the withdrawal fee?'],
      'every step but the currency was asked',
    );
    const modal = fake.messages.find((m) => m.modal);
    assert.ok(modal, 'a modal was shown');
    // The profile and what its money is are named: a loopback base URL is a local server.
    assert.equal(modal.message, 'Withdraw 20 USDT via V1 (POST /api/v1/withdrawals) — Local server');
    assert.ok(modal.detail?.startsWith(`Profile: the profile "Exchange" on a local server (${sb.baseUrl})`), modal.detail);
    assert.ok(modal.detail?.includes(`Address: ${TRON}`), modal.detail);
    for (const u of [victim, other]) {
      assert.deepEqual((await admin(sb, 'GET', `/sandbox/v1/withdrawals?uid=${u.uid}`)).json.data, [], 'no withdrawal');
      assert.deepEqual(balanceOf(sb, u.uid, 'USDT', 'main'), { balance: '100', available: '100', holds: '0' }, 'balance unchanged');
    }
  });

  it('spotdesk.cancelWithdrawal with a forged row and a confirm function: the modal shows the exchange\'s withdrawal; dismissed, nothing is cancelled', async () => {
    const victim = await createUser(sb, { balances: [{ currency: 'USDT', type: 'main', amount: '100' }] });
    fake.config.set('spotdesk.activeProfile', 'Exchange');
    fake.config.set('spotdesk.profiles', [{ name: 'Exchange', baseUrl: sb.baseUrl }]);
    const secrets = new Map([['spotdesk.credentials/user:Exchange', JSON.stringify({ apiKey: victim.apiKey, apiSecret: victim.apiSecret, apiPassphrase: victim.apiPassphrase, keyVersion: String(victim.keyVersion) })]]);
    activate(PRODUCTION, secrets);
    const direct = new SpotClient({ baseUrl: sb.baseUrl, credentials: victim });
    const w = await direct.withdrawV1({ currency: 'USDT', address: TRON, amount: '20', chain: 'trx' });
    direct.close();
    const held = balanceOf(sb, victim.uid, 'USDT', 'main');
    assert.notEqual(held.holds, '0');

    let confirmCalls = 0;
    const forged = { kind: 'withdrawal', withdrawal: { id: w.withdrawalId, amount: '0.01', currency: 'USDT', address: 'somewhere-harmless', status: 'PROCESSING' }, confirm: () => ++confirmCalls, answer: 'Cancel Withdrawal' };
    fake.messages.length = 0;
    fake.ui = { pick: () => undefined, input: () => undefined, message: () => undefined }; // the person dismisses the modal
    assert.equal(await fake.commands.get('spotdesk.cancelWithdrawal')!(forged), false);
    const modal = fake.messages.find((m) => m.modal);
    assert.ok(modal, 'a modal was shown');
    assert.equal(modal.message, `Cancel the withdrawal of 20 USDT to ${TRON}?`, 'the exchange\'s figures, not the row\'s');
    assert.ok(modal.detail?.includes(`Withdrawal id ${w.withdrawalId}`), modal.detail);
    assert.equal(confirmCalls, 0);
    assert.equal(sb.state.withdrawals.get(w.withdrawalId)?.status, 'PROCESSING');
    assert.deepEqual(balanceOf(sb, victim.uid, 'USDT', 'main'), held, 'hold unchanged');

    // answered "Cancel Withdrawal": cancelled, hold released
    fake.ui = { pick: () => undefined, input: () => undefined, message: (_k, _m, o, actions) => ((o as { modal?: boolean } | undefined)?.modal ? actions[0] : undefined) };
    assert.equal(await fake.commands.get('spotdesk.cancelWithdrawal')!({ kind: 'withdrawal', withdrawal: { id: w.withdrawalId } }), true);
    assert.equal(sb.state.withdrawals.get(w.withdrawalId)?.status, 'FAILURE');
    assert.deepEqual(balanceOf(sb, victim.uid, 'USDT', 'main'), { balance: '100', available: '100', holds: '0' });
  });

  it('no command hands back an object: every contributed and internal command, called with typical arguments, resolves to plain data only', async function () {
    this.timeout(120_000);
    const user = await createUser(sb, { balances: [{ currency: 'USDT', type: 'trade', amount: '1000' }, { currency: 'USDT', type: 'main', amount: '100' }] });
    fake.config.set('spotdesk.activeProfile', 'Exchange');
    fake.config.set('spotdesk.profiles', [{ name: 'Exchange', baseUrl: sb.baseUrl }]);
    const secrets = new Map([['spotdesk.credentials/user:Exchange', JSON.stringify({ apiKey: user.apiKey, apiSecret: user.apiSecret, apiPassphrase: user.apiPassphrase, keyVersion: String(user.keyVersion) })]]);
    activate(PRODUCTION, secrets);
    fake.ui = { pick: () => undefined, input: () => undefined, message: () => undefined }; // the person dismisses everything
    const direct = new SpotClient({ baseUrl: sb.baseUrl, credentials: user });
    const placed = await direct.placeOrder({ symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '1000', size: '0.001', clientOid: `every-${Date.now()}` });
    const active = await direct.getOrder('BTC-USDT', placed.orderId);
    direct.close();
    const docDir = fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-doc-'));
    const doc = path.join(docDir, 'a.spotorder.json');
    fs.writeFileSync(doc, JSON.stringify({ orders: [{ symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '1000', size: '0.001' }] }));
    const docUri = `file://${doc}`;
    // Arguments carry a function and a class instance: none of it may come back.
    const bait = { f: () => 1, m: new Map([[1, 2]]) };
    const orderRow = { kind: 'order', symbol: 'BTC-USDT', order: active, bait };
    const typical: Record<string, unknown[]> = {
      'spotdesk.openMarket': ['BTC-USDT'],
      'spotdesk.openOrderBook': [{ symbol: 'ETH-USDT', bait }],
      'spotdesk.addToWatchlist': [{ kind: 'marketSymbol', symbol: 'BTC-USDT', bait }],
      'spotdesk.addPriceAlert': ['BTC-USDT'],
      'spotdesk.editPriceAlert': [{ alert: { id: 'a1' }, bait }],
      'spotdesk.deletePriceAlert': [{ alert: { id: 'a1' }, bait }],
      'spotdesk.transfer': [{ kind: 'currency', currency: 'USDT', bait }],
      'spotdesk.createDepositAddress': [{ kind: 'currency', currency: 'USDT', bait }],
      'spotdesk.withdraw': [{ kind: 'currency', currency: 'USDT', bait }],
      'spotdesk.cancelOrder': [orderRow],
      'spotdesk.cancelAllForSymbol': [{ kind: 'symbol', symbol: 'BTC-USDT', bait }],
      'spotdesk.editOrder': [orderRow],
      'spotdesk.cancelAllOrders': [bait],
      'spotdesk.showFills': [orderRow],
      'spotdesk.copyOrderId': [orderRow],
      'spotdesk.copyOrderJson': [orderRow],
      'spotdesk.retry': ['spotdesk.accounts'],
      'spotdesk.setCredentials': ['Exchange'],
      'spotdesk.clearCredentials': ['Exchange'],
      'spotdesk.cancelWithdrawal': [{ kind: 'withdrawal', withdrawal: { id: '0123456789abcdef01234567' }, bait }],
      'spotdesk.requestBuilder.prefill': ['BTC-USDT', 'buy', '1000'],
      'spotdesk.replayRecording': [{ file: 'forged.sdrec', speed: 60, bait }],
      'spotdesk.orderDocument.testOrder': [docUri, 0],
      'spotdesk.orderDocument.showSignature': [docUri, 0],
      'spotdesk.orderDocument.placeOrder': [docUri, 0],
    };
    const pkg = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as { contributes: { commands: Array<{ command: string }> } };
    const contributed = pkg.contributes.commands.map((c) => c.command);
    const registered = [...fake.commands.keys()].filter((c) => c.startsWith('spotdesk.'));
    for (const c of contributed) assert.ok(registered.includes(c), `${c} is registered`);
    // The embedded sandbox would start a child process here: the bot setup command is called last, without it.
    const ids = [...registered.filter((c) => c !== 'spotdesk.useSandboxFromBot'), 'spotdesk.useSandboxFromBot'];
    /** A path to a function or a non-plain object inside `v`, or undefined when `v` is plain data. */
    const impure = (v: unknown, at: string, depth = 0): string | undefined => {
      if (typeof v === 'function') return `${at}: function`;
      if (v === null || typeof v !== 'object') return undefined;
      if (depth > 40) return `${at}: too deep`;
      const proto = Object.getPrototypeOf(v) as unknown;
      if (proto !== Object.prototype && proto !== null && proto !== Array.prototype) return `${at}: instance of ${(v as object).constructor?.name ?? '?'}`;
      for (const [k, d] of Object.entries(Object.getOwnPropertyDescriptors(v))) {
        if (!('value' in d)) return `${at}.${k}: getter`;
        const bad = impure(d.value, `${at}.${k}`, depth + 1);
        if (bad) return bad;
      }
      return undefined;
    };
    const results: string[] = [];
    const kinds = new Set<string>();
    for (const id of ids) {
      if (id === 'spotdesk.useSandboxFromBot') fake.commands.delete(id); // not started in a unit test (see above)
      const fn = fake.commands.get(id);
      if (!fn) continue;
      const out = await Promise.race([Promise.resolve(fn(...(typical[id] ?? []))), new Promise((r) => setTimeout(() => r('<still running after 10 s>'), 10_000))]);
      const bad = impure(out, id);
      if (bad) results.push(bad);
      kinds.add(out === undefined ? 'undefined' : Array.isArray(out) ? 'array' : typeof out);
    }
    assert.deepEqual(results, [], 'commands that handed back an object');
    // The check saw real data, not only undefined: a string (copyOrderId / copyOrderJson) and an array (showFills).
    assert.ok(kinds.has('string') && kinds.has('array'), [...kinds].join(','));
    assert.equal(ids.length >= contributed.length + 4, true, `${ids.length} commands called`);
    // The order was not cancelled nor modified (its id is the same): every modal and input was dismissed.
    const still = new SpotClient({ baseUrl: sb.baseUrl, credentials: user });
    assert.equal((await still.getOrder('BTC-USDT', placed.orderId)).active, true);
    still.close();
  });
});
