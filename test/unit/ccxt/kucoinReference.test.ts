/**
 * ccxt 4.5 (class `kucoin`, STOCK options: only its URLs via `ccxtApiUrls` and its credentials are
 * changed) against an in-process sandbox, for the market/reference, account and funding reads that
 * bots use beyond the spec, and the USDT chains BEP20, Solana and NEAR. Unified methods where ccxt
 * has one (fetchCurrencies, createDepositAddress, fetchDepositAddress, withdraw, fetchDeposits and
 * fetchWithdrawals for old ranges → hist-*); ccxt's own implicit API methods (stock, generated from
 * its endpoint table) where it has no unified one: publicGetAnnouncements, publicGetCurrenciesCurrency,
 * privateGetUserInfo, privateGetUserApiKey, privateGetAccountsAccountId, privateGetAccounts with
 * type pool/margin/isolated/option. Every answer is compared with the sandbox's own state.
 */
import { strict as assert } from 'node:assert';
import ccxt from 'ccxt';
import * as D from '../../../src/api/decimal';
import { checkWithdrawalDestination } from '../../../src/api/withdrawalAddress';
import { startSandbox, type RunningSandbox } from '../../../src/exchange/server/index';
import type { ChainInfo } from '../../../src/exchange/server/world';
import { HIST_CUTOFF_MS } from '../../../src/exchange/server/refdata/funding';
import { ANNOUNCEMENTS } from '../../../src/exchange/server/refdata/announcements';
import { ccxtApiUrls } from '../../../src/features/botSetup/model/botSnippets';
import { admin, createUser } from '../server/helpers';

type Kucoin = InstanceType<typeof ccxt.kucoin>;
/** ccxt's implicit API methods (generated from its endpoint table; untyped in its declarations). */
type Implicit = Record<string, (params?: Record<string, unknown>) => Promise<{ code: string; data: unknown }>>;

/** A Solana address (the USDT mint) and a NEAR implicit account: well-formed for their chains. */
const SOL_ADDRESS = 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB';
const NEAR_ADDRESS = '98793cd91a3f870fb126f66285808c7e094afcfc4eda8a970f6648cdf0dbd6de';

function stock(sb: RunningSandbox, creds: { apiKey: string; apiSecret: string; apiPassphrase: string }): Kucoin {
  const ex = new ccxt.kucoin({ apiKey: creds.apiKey, secret: creds.apiSecret, password: creds.apiPassphrase });
  ex.urls.api = ccxtApiUrls(ex.urls.api as Record<string, unknown>, sb.baseUrl) as never;
  return ex;
}

describe('ccxt kucoin (stock options): reference, account and funding reads; USDT on BEP20, SOL, NEAR', function () {
  this.timeout(60_000);
  let sb: RunningSandbox;
  let ex: Kucoin;
  let api: Implicit;
  let uid: string;
  let creds: { apiKey: string; apiSecret: string; apiPassphrase: string };

  before(async () => {
    sb = await startSandbox({ sim: false, seed: 1, settleIntervalMs: 60_000 });
    const u = await createUser(sb, { permissions: ['General', 'Transfer'], balances: [{ currency: 'USDT', type: 'main', amount: '500' }, { currency: 'BTC', type: 'trade', amount: '0.5' }], keyVersion: '3' });
    uid = u.uid;
    creds = u;
    ex = stock(sb, u);
    api = ex as unknown as Implicit;
    await ex.loadMarkets();
  });
  after(async () => {
    await sb?.close();
  });

  it('fetchCurrencies: USDT lists BEP20, SOL and NEAR with the world\'s fees, minimums and contracts', async () => {
    const cur = await ex.fetchCurrencies();
    const usdt = sb.state.world.currencyMap.get('USDT');
    assert.ok(usdt && cur.USDT);
    const networks = cur.USDT.networks;
    for (const [code, id] of [['BEP20', 'bsc'], ['SOL', 'sol'], ['NEAR', 'near']] as const) {
      const n = networks[code];
      const chain: ChainInfo | undefined = usdt.chains.find((c) => c.chainId === id);
      assert.ok(n && chain, `${code} network`);
      assert.equal(n.id, id);
      assert.equal(n.fee, Number(chain.withdrawalMinFee));
      assert.equal(n.limits?.withdraw?.min, Number(chain.withdrawalMinSize));
      assert.deepEqual([n.deposit, n.withdraw], [chain.isDepositEnabled, chain.isWithdrawEnabled]);
      assert.equal((n.info as { contractAddress?: string }).contractAddress, chain.contractAddress);
    }
  });

  it('createDepositAddress on BEP20, SOL and NEAR: the stored address, well-formed for its chain', async () => {
    for (const [code, id] of [['BEP20', 'bsc'], ['SOL', 'sol'], ['NEAR', 'near']] as const) {
      const a = await ex.createDepositAddress('USDT', { network: code });
      const rec = sb.state.depositAddressesOf(uid, 'USDT', id);
      assert.equal(rec.length, 1, `${id}: one address stored`);
      assert.equal(a.address, rec[0].address);
      assert.equal(a.network, code);
      assert.deepEqual([checkWithdrawalDestination('ADDRESS', a.address, id).ok, checkWithdrawalDestination('ADDRESS', a.address, id).verified], [true, true], `${a.address} on ${id}`);
      // fetchDepositAddress (GET /api/v1/deposit-addresses) reads the same record back
      const back = await ex.fetchDepositAddress('USDT', { network: code });
      assert.equal(back.address, rec[0].address);
    }
  });

  it('withdraw to a Solana and a NEAR address: recorded on their chain with their fee; a malformed one refused, nothing held', async () => {
    const holds0 = sb.state.exchange.accounts(uid, { currency: 'USDT', type: 'main' })[0].holds;
    const s = await ex.withdraw('USDT', 20, SOL_ADDRESS, undefined, { network: 'SOL' });
    const n = await ex.withdraw('USDT', 12, NEAR_ADDRESS, undefined, { network: 'NEAR' });
    const rs = sb.state.withdrawals.get(s.id ?? '');
    const rn = sb.state.withdrawals.get(n.id ?? '');
    assert.ok(rs && rn);
    assert.deepEqual([rs.chainId, rs.toAddress, rs.amount, rs.fee], ['sol', SOL_ADDRESS, '20', '1']);
    assert.deepEqual([rn.chainId, rn.toAddress, rn.amount, rn.fee], ['near', NEAR_ADDRESS, '12', '0.5']);
    const holds1 = sb.state.exchange.accounts(uid, { currency: 'USDT', type: 'main' })[0].holds;
    assert.equal(holds1, D.add(D.add(holds0, rs.totalDebit), rn.totalDebit));
    const count = sb.state.withdrawals.size;
    await assert.rejects(ex.withdraw('USDT', 20, `${SOL_ADDRESS}B`, undefined, { network: 'SOL' }), /Incorrect withdrawal address/);
    await assert.rejects(ex.withdraw('USDT', 20, 'alice.testnet', undefined, { network: 'NEAR' }), /Incorrect withdrawal address/);
    assert.equal(sb.state.withdrawals.size, count);
    assert.equal(sb.state.exchange.accounts(uid, { currency: 'USDT', type: 'main' })[0].holds, holds1);
  });

  it('publicGetCurrenciesCurrency (V3, ccxt\'s path for one currency): USDT with every chain of the world', async () => {
    const r = await api.publicGetCurrenciesCurrency({ currency: 'USDT' });
    const data = r.data as { currency: string; chains: { chainId: string }[] };
    assert.equal(r.code, '200000');
    assert.deepEqual(data.chains.map((c) => c.chainId), sb.state.world.currencyMap.get('USDT')?.chains.map((c) => c.chainId));
  });

  it('publicGetAnnouncements: KuCoin\'s paged payload of the sandbox\'s announcements, filtered by type and paged', async () => {
    const all = (await api.publicGetAnnouncements()).data as { totalNum: number; items: { annId: number; annType: string[] }[] };
    assert.deepEqual(all.items.map((a) => a.annId), [...ANNOUNCEMENTS].sort((a, b) => b.cTime - a.cTime).map((a) => a.annId));
    assert.equal(all.totalNum, ANNOUNCEMENTS.length);
    const listings = (await api.publicGetAnnouncements({ annType: 'new-listings' })).data as { items: { annType: string[] }[] };
    assert.ok(listings.items.length > 0 && listings.items.every((a) => a.annType.includes('new-listings')));
    const p2 = (await api.publicGetAnnouncements({ currentPage: 2, pageSize: 2 })).data as { currentPage: number; pageSize: number; totalPage: number; items: { annId: number }[] };
    assert.deepEqual([p2.currentPage, p2.pageSize, p2.totalPage, p2.items.map((a) => a.annId)], [2, 2, Math.ceil(ANNOUNCEMENTS.length / 2), all.items.slice(2, 4).map((a) => a.annId)]);
  });

  it('privateGetUserInfo: the account summary (VIP 0, no sub-accounts)', async () => {
    const r = (await api.privateGetUserInfo()).data as Record<string, number>;
    assert.equal(r.level, 0);
    assert.equal(r.subQuantity, 0);
    assert.equal(r.maxSubQuantity, r.maxDefaultSubQuantity + r.maxSpotSubQuantity);
  });

  it('privateGetUserApiKey: the calling key as the sandbox has it (permissions, version, uid); no secret', async () => {
    const r = (await api.privateGetUserApiKey()).data as Record<string, unknown>;
    const user = sb.state.users.get(uid);
    assert.ok(user);
    assert.deepEqual([r.apiKey, r.apiVersion, r.permission, r.uid, r.isMaster, r.createdAt], [user.apiKey, 3, 'General,Transfer', Number(uid), true, user.createdAt]);
    assert.equal(r.ipWhitelist, undefined);
    const text = JSON.stringify(r);
    assert.ok(!text.includes(creds.apiSecret) && !text.includes(creds.apiPassphrase), 'neither secret nor passphrase');
  });

  it('privateGetAccountsAccountId: each of the user\'s accounts by its id; another user\'s id is refused', async () => {
    const accounts = sb.state.exchange.accounts(uid);
    assert.ok(accounts.length >= 2);
    for (const a of accounts) {
      const r = (await api.privateGetAccountsAccountId({ accountId: a.id })).data;
      assert.deepEqual(r, { currency: a.currency, balance: a.balance, available: a.available, holds: a.holds });
    }
    const other = sb.state.exchange.accounts(sb.credentials.uid)[0];
    await assert.rejects(api.privateGetAccountsAccountId({ accountId: other.id }), /400100/);
  });

  it('privateGetAccounts with type pool, margin, isolated, option: an empty list (no such accounts), not 400100', async () => {
    for (const type of ['pool', 'margin', 'isolated', 'option']) {
      const r = await api.privateGetAccounts({ type });
      assert.deepEqual([r.code, r.data], ['200000', []], type);
    }
    // the documented spot types still answer the accounts
    const main = (await api.privateGetAccounts({ type: 'main' })).data as { id: string }[];
    assert.deepEqual(main.map((a) => a.id), sb.state.exchange.accounts(uid, { type: 'main' }).map((a) => a.id));
  });
});

describe('ccxt kucoin (stock options): fetchDeposits / fetchWithdrawals for ranges before 2019-02-18 → hist-deposits / hist-withdrawals', function () {
  // ccxt signs with the wall clock, and the sandbox keeps 3 × 24 h of deposit and withdrawal records
  // (docs/sandbox.md "Retention"), so no record before 2019-02-18 exists while ccxt can talk to it:
  // the V1 history is KuCoin's empty page. The records themselves (a sandbox clock in 2018) are
  // checked through SpotDesk's client in test/unit/server/refdata.test.ts.
  this.timeout(60_000);
  let sb: RunningSandbox;
  let ex: Kucoin;
  let uid: string;
  const SINCE = Date.UTC(2018, 0, 1);

  before(async () => {
    sb = await startSandbox({ sim: false, seed: 1, settleIntervalMs: 60_000 });
    const u = await createUser(sb, { balances: [{ currency: 'USDT', type: 'main', amount: '300' }] });
    uid = u.uid;
    await admin(sb, 'POST', '/sandbox/v1/deposits', { uid, currency: 'USDT', chain: 'trx', amount: '40' });
    ex = stock(sb, u);
    await ex.loadMarkets();
    await ex.withdraw('USDT', 15, 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', undefined, { network: 'TRC20' });
  });
  after(async () => {
    await sb?.close();
  });

  it('fetchDeposits(code, since 2018) asks GET /api/v1/hist-deposits (startAt in s) and gets the empty page: the user\'s deposits are all after the cut-over', async () => {
    const list = await ex.fetchDeposits('USDT', SINCE);
    assert.equal(ex.last_request_url, `${sb.baseUrl}/api/v1/hist-deposits?currency=USDT&startAt=${SINCE / 1000}`);
    assert.deepEqual(JSON.parse(ex.last_http_response ?? ''), { code: '200000', data: { currentPage: 1, pageSize: 50, totalNum: 0, totalPage: 0, items: [] } });
    assert.deepEqual(list, []);
    const mine = sb.state.deposits.filter((d) => d.uid === uid);
    assert.ok(mine.length > 0 && mine.every((d) => d.createdAt >= HIST_CUTOFF_MS));
    // the same deposits through the current endpoint (since after the cut-over)
    assert.deepEqual((await ex.fetchDeposits('USDT', HIST_CUTOFF_MS)).map((d) => d.amount), mine.filter((d) => d.currency === 'USDT').map((d) => Number(d.amount)).reverse());
  });

  it('fetchWithdrawals(code, since 2018) asks GET /api/v1/hist-withdrawals and gets the empty page; the withdrawal is in the current history', async () => {
    const list = await ex.fetchWithdrawals('USDT', SINCE);
    assert.equal(ex.last_request_url, `${sb.baseUrl}/api/v1/hist-withdrawals?currency=USDT&startAt=${SINCE / 1000}`);
    assert.deepEqual(list, []);
    const mine = [...sb.state.withdrawals.values()].filter((w) => w.uid === uid);
    assert.equal(mine.length, 1);
    assert.ok(mine[0].createdAt >= HIST_CUTOFF_MS);
    assert.deepEqual((await ex.fetchWithdrawals('USDT', HIST_CUTOFF_MS)).map((w) => w.id), [mine[0].withdrawalId]);
  });
});
