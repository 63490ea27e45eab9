/**
 * Extension-host suite for the funding feature (issue 7): deposit addresses and guarded V1/V4
 * withdrawals against the embedded sandbox. Withdrawal tests run each on a FRESH sandbox user
 * (admin API POST /sandbox/v1/users) passed to the command as `client`, so whitelists and V4 rate
 * windows never leak into other suites; deposit tests use the active Sandbox profile's own client.
 * The confirmation step is always exercised through the command's injectable `confirm`.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { SpotClient } from '../../src/api/client';
import { TransportError } from '../../src/api/errors';
import type { DepositOutcome, WithdrawArgs, WithdrawOutcome } from '../../src/extension/funding';
import type { FundingClient } from '../../src/extension/funding/client';
import type { DepositAddressView, WithdrawalSummary } from '../../src/shared/funding/summary';
import { spotdesk, useSandboxProfile, waitFor } from './helpers';

interface Sandbox {
  baseUrl: string;
  adminToken: string;
}
interface NewUser {
  uid: string;
  apiKey: string;
  apiSecret: string;
  apiPassphrase: string;
  keyVersion: string;
}
interface WithdrawalRecord {
  withdrawalId: string;
  version: string;
  withdrawType: string;
  toAddress: string;
  amount: string;
  fee: string;
  feeDeductType: string;
  receiveAmount: string;
  totalDebit: string;
  chainId: string;
  status: string;
}

let sb: Sandbox;

async function admin<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${sb.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${sb.adminToken}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const env = (await res.json()) as { code: string; data?: T; msg?: string };
  if (env.code !== '200000') throw new Error(`admin ${method} ${path}: ${env.code} ${env.msg ?? ''}`);
  return env.data as T;
}

/** A fresh sandbox user with `balances` and a client signed with its key. */
async function freshUser(balances: { currency: string; type: 'main' | 'trade'; amount: string }[], permissions?: string[]): Promise<{ user: NewUser; client: SpotClient }> {
  const user = await admin<NewUser>('POST', '/sandbox/v1/users', { balances, ...(permissions ? { permissions } : {}) });
  const client = new SpotClient({
    baseUrl: sb.baseUrl,
    credentials: { apiKey: user.apiKey, apiSecret: user.apiSecret, apiPassphrase: user.apiPassphrase, keyVersion: user.keyVersion as '1' | '2' | '3' },
  });
  return { user, client };
}

async function balances(client: SpotClient, currency: string): Promise<Record<string, { balance: string; available: string; holds: string }>> {
  const out: Record<string, { balance: string; available: string; holds: string }> = {};
  for (const a of await client.getAccounts({ currency })) out[a.type] = { balance: a.balance, available: a.available, holds: a.holds };
  return out;
}

/** A FundingClient delegating to `client`, with some methods replaced (SpotClient has private fields, so no prototype tricks). */
function wrap(client: SpotClient, over: Partial<FundingClient>): FundingClient {
  return {
    getCurrencies: () => client.getCurrencies(),
    createDepositAddress: (r) => client.createDepositAddress(r),
    getDepositAddresses: (c, ch) => client.getDepositAddresses(c, ch),
    withdrawV1: (r) => client.withdrawV1(r),
    withdrawV4: (r) => client.withdrawV4(r),
    getWithdrawalQuotas: (c, ch) => client.getWithdrawalQuotas(c, ch),
    getAccounts: (f) => client.getAccounts(f),
    innerTransfer: (r) => client.innerTransfer(r),
    getRegions: () => client.getRegions(),
    ...over,
  };
}

async function withdraw(args: WithdrawArgs): Promise<WithdrawOutcome> {
  return await vscode.commands.executeCommand<WithdrawOutcome>('spotdesk.withdraw', args);
}

/** A confirm step that records the summary and types the destination's last 6 characters. */
function typeSuffix(seen: WithdrawalSummary[] = []): (s: WithdrawalSummary) => Promise<string> {
  return async (s) => {
    seen.push(s);
    return s.suffix;
  };
}

const TRON_ADDR = 'TKFRQXSDcY4kd3ZnXKN8pE16GmLrjJggwX8';
const ETH_ADDR = '0x62d35481cb74fa959aec61d33a5d4507a1234567';
const RECIPIENT = { receiverType: 'individual' as const, firstName: 'Ada', lastName: 'Lovelace', country: 'TR', identityType: 'ID_CARD' as const, identityNo: '12345678901', reasonOfTransfer: 'TRANSFER_TO_YOUR_OWN_ACCOUNT_HELD_IN_ANOTHER_PLATFORM' as const };

describe('Funding: deposit addresses and guarded withdrawals', function () {
  this.timeout(60_000);

  before(async () => {
    await useSandboxProfile();
    const api = await spotdesk();
    const s = await api.services.sandbox();
    assert.ok(s, 'sandbox running');
    sb = s;
  });

  it('registers spotdesk.createDepositAddress and spotdesk.withdraw', async () => {
    const all = new Set(await vscode.commands.getCommands(true));
    assert.ok(all.has('spotdesk.createDepositAddress'));
    assert.ok(all.has('spotdesk.withdraw'));
  });

  describe('deposit address (active Sandbox profile)', () => {
    let trc20Address = '';
    let xrpFirst: DepositAddressView;
    async function create(currency: string, chain?: string): Promise<{ out: DepositOutcome; shown: DepositAddressView[] }> {
      const shown: DepositAddressView[] = [];
      const out = await vscode.commands.executeCommand<DepositOutcome>('spotdesk.createDepositAddress', { currency, chain, show: (v: DepositAddressView) => void shown.push(v) });
      return { out, shown };
    }

    it('USDT on ERC20 and on TRC20 (multi-chain: chain id sent, min deposit and confirmations shown)', async () => {
      const api = await spotdesk();
      const cur = (await (await api.services.client()).getCurrencies()).find((c) => c.currency === 'USDT')!;
      for (const [name, id] of [['ERC20', 'eth'], ['TRC20', 'trx']]) {
        const { out, shown } = await create('USDT', name);
        assert.strictEqual(out.status, 'created', JSON.stringify(out.error));
        assert.deepStrictEqual(out.request, { currency: 'USDT', chain: id });
        const ch = cur.chains.find((c) => c.chainId === id)!;
        assert.strictEqual(shown.length, 1);
        const v = shown[0];
        assert.strictEqual(v.chain, name);
        assert.strictEqual(v.chainId, id);
        assert.ok(v.address.length >= 20, `address ${v.address}`);
        assert.strictEqual(v.memo, '');
        assert.strictEqual(v.memoWarning, undefined);
        assert.strictEqual(v.depositMinSize, ch.depositMinSize);
        assert.strictEqual(v.confirms, ch.confirms);
        assert.strictEqual(v.existing, undefined);
        if (id === 'trx') trc20Address = v.address;
      }
    });

    it('BTC on Native and on Segwit', async () => {
      const a = await create('BTC', 'btc');
      assert.strictEqual(a.out.status, 'created');
      assert.deepStrictEqual(a.out.request, { currency: 'BTC', chain: 'btc' });
      assert.strictEqual(a.shown[0].chain, 'BTC');
      const b = await create('BTC', 'bech32');
      assert.strictEqual(b.out.status, 'created');
      assert.deepStrictEqual(b.out.request, { currency: 'BTC', chain: 'bech32' });
      assert.strictEqual(b.shown[0].chain, 'BTC-Segwit');
      assert.notStrictEqual(a.shown[0].address, b.shown[0].address);
    });

    it('single-chain currency with a memo: no chain parameter, memo and warning shown', async () => {
      const { out, shown } = await create('XRP');
      assert.strictEqual(out.status, 'created', JSON.stringify(out.error));
      assert.deepStrictEqual(out.request, { currency: 'XRP' });
      const v = shown[0];
      xrpFirst = v;
      assert.ok(v.memo.length > 0, 'XRP address carries a memo');
      assert.strictEqual(v.memoWarning, `This address needs the memo ${v.memo}. A deposit sent without it may not be credited — always include the memo (also called tag or note) when sending XRP.`);
    });

    it('opens the funding webview when no `show` is injected (accepts a tree node argument); USDT TRC20 a second time shows the existing address', async () => {
      const out = await vscode.commands.executeCommand<DepositOutcome>('spotdesk.createDepositAddress', { kind: 'currency', currency: 'USDT', chain: 'TRC20' });
      assert.strictEqual(out.status, 'existing', JSON.stringify(out.error));
      assert.strictEqual(out.view?.address, trc20Address);
      assert.strictEqual(out.view?.existing, true);
      const tab = await waitFor('a "Deposit USDT (TRC20)" webview tab', () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.label === 'Deposit USDT (TRC20)'), 10_000);
      assert.ok(tab.input instanceof vscode.TabInputWebview);
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    });

    it('already exists (260000): the existing address is fetched and shown like a created one, memo and warning included', async () => {
      const api = await spotdesk();
      const xrp = (await (await api.services.client()).getCurrencies()).find((c) => c.currency === 'XRP')!.chains[0];
      const { out, shown } = await create('XRP');
      assert.strictEqual(out.status, 'existing', JSON.stringify(out.error));
      assert.deepStrictEqual(out.request, { currency: 'XRP' });
      assert.strictEqual(shown.length, 1);
      assert.deepStrictEqual(shown[0], {
        currency: 'XRP',
        address: xrpFirst.address,
        memo: xrpFirst.memo,
        chain: 'XRP',
        chainId: 'xrp',
        depositMinSize: xrp.depositMinSize,
        confirms: xrp.confirms,
        memoWarning: xrpFirst.memoWarning,
        existing: true,
        note: 'This is your existing XRP deposit address on XRP: the exchange keeps one address per currency and chain, so no new one was created.',
      });
      assert.ok(xrpFirst.memo.length > 0);
    });

    it('already exists but the existing address cannot be fetched: the original 260000 error is explained', async () => {
      const base = await (await spotdesk()).services.client();
      const client = wrap(base, { getDepositAddresses: () => Promise.reject(new TransportError({ kind: 'network', method: 'GET', path: '/api/v2/deposit-addresses', message: 'GET /api/v2/deposit-addresses: connection refused' })) });
      const out = await vscode.commands.executeCommand<DepositOutcome>('spotdesk.createDepositAddress', { currency: 'USDT', chain: 'ERC20', client, show: () => undefined });
      assert.strictEqual(out.status, 'failed');
      assert.strictEqual(out.error?.code, '260000');
      assert.strictEqual(out.error?.title, 'A deposit address already exists for USDT on ERC20 (260000)');
    });

    it('explains an unknown chain without calling the API', async () => {
      const { out } = await create('USDT', 'SOLANA');
      assert.strictEqual(out.status, 'failed');
      assert.strictEqual(out.error?.title, 'Deposits of USDT on SOLANA are not available');
    });

    it('explains a missing General permission with its code', async () => {
      const { client } = await freshUser([], ['Spot']);
      const out = await vscode.commands.executeCommand<DepositOutcome>('spotdesk.createDepositAddress', { currency: 'USDT', chain: 'ERC20', client, show: () => undefined });
      assert.strictEqual(out.status, 'failed');
      assert.strictEqual(out.error?.code, '400007');
      assert.strictEqual(out.error?.title, 'Missing API key permission: General (400007)');
    });
  });

  describe('withdrawals (fresh sandbox user per test)', () => {
    it('V1 end to end: summary, typed confirmation, withdrawalId, balances after', async () => {
      const { user, client } = await freshUser([{ currency: 'USDT', type: 'main', amount: '100' }]);
      const seen: WithdrawalSummary[] = [];
      const out = await withdraw({ client, currency: 'USDT', chain: 'trx', withdrawType: 'ADDRESS', destination: TRON_ADDR, amount: '20', feeDeduction: 'EXTERNAL', apiVersion: 'V1', confirm: typeSuffix(seen) });
      assert.strictEqual(out.status, 'sent', JSON.stringify(out));
      assert.match(out.withdrawalId ?? '', /^\w+$/);
      assert.deepStrictEqual(out.request, { endpoint: '/api/v1/withdrawals', body: { currency: 'USDT', amount: '20', chain: 'trx', feeDeductType: 'EXTERNAL', address: TRON_ADDR } });
      assert.strictEqual(seen.length, 1);
      assert.strictEqual(seen[0].suffix, 'JggwX8');
      assert.deepStrictEqual(seen[0].lines.map((l) => `${l.label}: ${l.value}`), [
        'Amount: 20 USDT',
        'Fee: 1 USDT',
        'Fee deduction: EXTERNAL (fee paid from the main account)',
        'Recipient receives: 20 USDT',
        'Main account pays: 21 USDT',
        `Address: ${TRON_ADDR}`,
        'Chain: TRC20 (trx)',
        'Memo: (none)',
        'API version: V1 — POST /api/v1/withdrawals',
      ]);
      const b = await balances(client, 'USDT');
      assert.deepStrictEqual(b.main, { balance: '100', available: '79', holds: '21' });
      const recs = await admin<WithdrawalRecord[]>('GET', `/sandbox/v1/withdrawals?uid=${user.uid}`);
      assert.strictEqual(recs.length, 1);
      assert.strictEqual(recs[0].withdrawalId, out.withdrawalId);
      assert.deepStrictEqual(
        [recs[0].version, recs[0].toAddress, recs[0].amount, recs[0].fee, recs[0].feeDeductType, recs[0].receiveAmount, recs[0].totalDebit],
        ['v1', TRON_ADDR, '20', '1', 'EXTERNAL', '20', '21'],
      );
    });

    it('V4 end to end (address + recipient identity, INTERNAL fee): balances after', async () => {
      const { user, client } = await freshUser([{ currency: 'USDT', type: 'main', amount: '50' }]);
      const seen: WithdrawalSummary[] = [];
      const out = await withdraw({ client, currency: 'USDT', chain: 'eth', withdrawType: 'ADDRESS', destination: ETH_ADDR, amount: '30', feeDeduction: 'INTERNAL', apiVersion: 'V4', recipient: RECIPIENT, confirm: typeSuffix(seen) });
      assert.strictEqual(out.status, 'sent', JSON.stringify(out));
      assert.strictEqual(out.request?.endpoint, '/api/v4/withdrawals');
      assert.deepStrictEqual(out.request?.body, {
        currency: 'USDT', amount: '30', chain: 'eth', feeDeductType: 'INTERNAL', toAddress: ETH_ADDR, withdrawType: 'ADDRESS',
        receiverType: 'individual', firstName: 'Ada', lastName: 'Lovelace', country: 'TR', identityType: 'ID_CARD', identityNo: '12345678901',
        reasonOfTransfer: 'TRANSFER_TO_YOUR_OWN_ACCOUNT_HELD_IN_ANOTHER_PLATFORM',
      });
      const line = (label: string) => seen[0].lines.find((l) => l.label === label)?.value;
      assert.strictEqual(line('Fee'), '3.2 USDT');
      assert.strictEqual(line('Recipient receives'), '26.8 USDT');
      assert.strictEqual(line('Main account pays'), '30 USDT');
      assert.strictEqual(line('API version'), 'V4 — POST /api/v4/withdrawals');
      const b = await balances(client, 'USDT');
      assert.deepStrictEqual(b.main, { balance: '50', available: '20', holds: '30' });
      const recs = await admin<WithdrawalRecord[]>('GET', `/sandbox/v1/withdrawals?uid=${user.uid}`);
      assert.deepStrictEqual([recs[0].version, recs[0].fee, recs[0].receiveAmount, recs[0].totalDebit], ['v4', '3.2', '26.8', '30']);
    });

    it('cancel at the confirmation step sends nothing (dismissed, or wrong characters typed)', async () => {
      const { user, client } = await freshUser([{ currency: 'USDT', type: 'main', amount: '100' }]);
      const base: WithdrawArgs = { client, currency: 'USDT', chain: 'trx', withdrawType: 'ADDRESS', destination: TRON_ADDR, amount: '20', feeDeduction: 'AUTO', apiVersion: 'V1' };
      let asked = 0;
      const a = await withdraw({ ...base, confirm: async () => { asked++; return undefined; } });
      const b = await withdraw({ ...base, confirm: async () => { asked++; return 'jggwx8'; } });
      assert.strictEqual(asked, 2, 'the confirmation step was reached twice');
      assert.strictEqual(a.status, 'cancelled');
      assert.strictEqual(b.status, 'cancelled');
      assert.deepStrictEqual(await admin<WithdrawalRecord[]>('GET', `/sandbox/v1/withdrawals?uid=${user.uid}`), []);
      assert.deepStrictEqual((await balances(client, 'USDT')).main, { balance: '100', available: '100', holds: '0' });
    });

    it('whitelist refusal 260325 is explained (favorites, Account Security) and changes nothing', async () => {
      const { user, client } = await freshUser([{ currency: 'USDT', type: 'main', amount: '100' }]);
      await admin('PUT', `/sandbox/v1/users/${user.uid}/withdrawal-whitelist`, { enabled: true, favorites: [{ address: TRON_ADDR.toLowerCase(), chain: 'trx' }] });
      const out = await withdraw({ client, currency: 'USDT', chain: 'trx', withdrawType: 'ADDRESS', destination: TRON_ADDR, amount: '20', feeDeduction: 'INTERNAL', apiVersion: 'V1', confirm: typeSuffix() });
      assert.strictEqual(out.status, 'failed');
      assert.strictEqual(out.error?.code, '260325');
      assert.strictEqual(out.error?.title, 'Withdrawal refused: address is not a favorite on the whitelist (260325)');
      assert.match(out.error?.detail ?? '', /Account Security → Withdrawal Address Management/);
      assert.match(out.error?.detail ?? '', /case-sensitive/);
      assert.deepStrictEqual((await balances(client, 'USDT')).main, { balance: '100', available: '100', holds: '0' });
      // The exact favorite (case and chain) goes through.
      await admin('PUT', `/sandbox/v1/users/${user.uid}/withdrawal-whitelist`, { enabled: true, favorites: [{ address: TRON_ADDR, chain: 'trx' }] });
      const ok = await withdraw({ client, currency: 'USDT', chain: 'trx', withdrawType: 'ADDRESS', destination: TRON_ADDR, amount: '20', feeDeduction: 'INTERNAL', apiVersion: 'V1', confirm: typeSuffix() });
      assert.strictEqual(ok.status, 'sent', JSON.stringify(ok));
    });

    it('V4 UID rate limit: the 4th within 10 s is held back locally with the wait; the server refusal is explained too', async () => {
      const { user, client } = await freshUser([{ currency: 'USDT', type: 'main', amount: '100' }]);
      const uidArgs: WithdrawArgs = { client, currency: 'USDT', chain: 'trx', withdrawType: 'UID', destination: '226999001', amount: '10', feeDeduction: 'AUTO', apiVersion: 'V4', recipient: RECIPIENT, confirm: typeSuffix() };
      for (let i = 0; i < 3; i++) {
        const r = await withdraw(uidArgs);
        assert.strictEqual(r.status, 'sent', `withdrawal ${i + 1}: ${JSON.stringify(r)}`);
      }
      const fourth = await withdraw(uidArgs);
      assert.strictEqual(fourth.status, 'rate-limited');
      assert.match(fourth.error?.detail ?? '', /limited to 3 per 10 seconds and 50 per 24 hours.*Wait \d+\.\d s before the next one\./);
      assert.strictEqual((await admin<WithdrawalRecord[]>('GET', `/sandbox/v1/withdrawals?uid=${user.uid}`)).length, 3, 'nothing sent');
      // A second client object for the same account has no local history: the server refuses (260310).
      const other = new SpotClient({ baseUrl: sb.baseUrl, credentials: { apiKey: user.apiKey, apiSecret: user.apiSecret, apiPassphrase: user.apiPassphrase, keyVersion: user.keyVersion as '2' } });
      const refused = await withdraw({ ...uidArgs, client: other });
      assert.strictEqual(refused.status, 'failed');
      assert.strictEqual(refused.error?.code, '260310');
      assert.strictEqual(refused.error?.title, 'Withdrawal rate limit reached (260310)');
      assert.match(refused.error?.detail ?? '', /Wait \d+\.\d s before the next one\./);
      assert.deepStrictEqual((await balances(client, 'USDT')).main, { balance: '100', available: '70', holds: '30' });
    });

    it('missing Transfer permission (400007) is named as such', async () => {
      const { client } = await freshUser([{ currency: 'USDT', type: 'main', amount: '100' }], ['General']);
      const out = await withdraw({ client, currency: 'USDT', chain: 'trx', withdrawType: 'ADDRESS', destination: TRON_ADDR, amount: '20', feeDeduction: 'INTERNAL', apiVersion: 'V1', confirm: typeSuffix() });
      assert.strictEqual(out.status, 'failed');
      assert.strictEqual(out.error?.title, 'Missing API key permission: Transfer (400007)');
    });

    it('validation stops a bad amount before the confirmation step', async () => {
      const { client } = await freshUser([{ currency: 'USDT', type: 'main', amount: '100' }]);
      let asked = false;
      const out = await withdraw({ client, currency: 'USDT', chain: 'trx', withdrawType: 'ADDRESS', destination: TRON_ADDR, amount: '10.1234567', feeDeduction: 'INTERNAL', apiVersion: 'V1', confirm: async () => { asked = true; return 'JggwX8'; } });
      assert.strictEqual(out.status, 'invalid');
      assert.deepStrictEqual(out.issues, [{ field: 'amount', message: 'The amount must be a multiple of 0.000001 (6 decimal places for USDT on TRC20).' }]);
      assert.strictEqual(asked, false);
    });

    it('funds in trade: offers the trade → main transfer first, then withdraws', async () => {
      const { client } = await freshUser([{ currency: 'USDT', type: 'main', amount: '5' }, { currency: 'USDT', type: 'trade', amount: '50' }]);
      const declined = await withdraw({ client, currency: 'USDT', chain: 'trx', withdrawType: 'ADDRESS', destination: TRON_ADDR, amount: '20', feeDeduction: 'EXTERNAL', apiVersion: 'V1', acceptTransfer: false, confirm: typeSuffix() });
      assert.strictEqual(declined.status, 'invalid');
      assert.match(declined.issues?.[0].message ?? '', /Trade holds 50: transfer 16 from trade to main first\./);
      const out = await withdraw({ client, currency: 'USDT', chain: 'trx', withdrawType: 'ADDRESS', destination: TRON_ADDR, amount: '20', feeDeduction: 'EXTERNAL', apiVersion: 'V1', acceptTransfer: true, confirm: typeSuffix() });
      assert.strictEqual(out.status, 'sent', JSON.stringify(out));
      assert.deepStrictEqual(out.transferred, { currency: 'USDT', amount: '16' });
      const b = await balances(client, 'USDT');
      assert.deepStrictEqual(b.main, { balance: '21', available: '0', holds: '21' });
      assert.deepStrictEqual(b.trade, { balance: '34', available: '34', holds: '0' });
    });

    it('double invocation of the same confirmed request sends once (in-flight lock)', async () => {
      const { user, client } = await freshUser([{ currency: 'USDT', type: 'main', amount: '100' }]);
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      let calls = 0;
      const slow = wrap(client, {
        withdrawV1: async (req) => {
          calls++;
          await gate;
          return client.withdrawV1(req);
        },
      });
      const args: WithdrawArgs = { client: slow, currency: 'USDT', chain: 'trx', withdrawType: 'ADDRESS', destination: TRON_ADDR, amount: '20', feeDeduction: 'INTERNAL', apiVersion: 'V1', confirm: typeSuffix() };
      const first = withdraw(args);
      for (let i = 0; i < 100 && calls === 0; i++) await new Promise((r) => setTimeout(r, 20));
      assert.strictEqual(calls, 1, 'first submission in flight');
      const second = await withdraw(args);
      assert.strictEqual(second.status, 'busy');
      release();
      assert.strictEqual((await first).status, 'sent');
      assert.strictEqual(calls, 1);
      assert.strictEqual((await admin<WithdrawalRecord[]>('GET', `/sandbox/v1/withdrawals?uid=${user.uid}`)).length, 1);
    });

    it('an ambiguous outcome is reported as "status unknown — check withdrawal history" and never resent', async () => {
      const { client } = await freshUser([{ currency: 'USDT', type: 'main', amount: '100' }]);
      let calls = 0;
      const lost = wrap(client, {
        withdrawV1: async () => {
          calls++;
          throw TransportError.ambiguous('POST', '/api/v1/withdrawals', 'connection reset after the request was sent');
        },
      });
      const out = await withdraw({ client: lost, currency: 'USDT', chain: 'trx', withdrawType: 'ADDRESS', destination: TRON_ADDR, amount: '20', feeDeduction: 'INTERNAL', apiVersion: 'V1', confirm: typeSuffix() });
      assert.strictEqual(out.status, 'unknown');
      assert.strictEqual(out.error?.title, 'Withdrawal status unknown — check withdrawal history');
      assert.strictEqual(out.error?.unknownOutcome, true);
      assert.strictEqual(calls, 1);
    });
  });
});
