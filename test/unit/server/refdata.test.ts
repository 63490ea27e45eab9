/**
 * The sandbox's market/reference, account and funding reads beyond the spec, through SpotDesk's own
 * client, for what no third-party client can reach: V1 histories WITH records (a manual sandbox clock
 * in 2018; ccxt and the SDK sign with the wall clock, see test/unit/ccxt/kucoinReference.test.ts),
 * their bounds in seconds and in ms, and the refusals (KuCoin's codes, nothing changed).
 */
import { strict as assert } from 'node:assert';
import { SpotClient } from '../../../src/api/client';
import { ApiError } from '../../../src/api/errors';
import { startSandbox, type RunningSandbox } from '../../../src/exchange/server/index';
import { HIST_CUTOFF_MS, histBoundMs } from '../../../src/exchange/server/refdata/funding';
import { admin, createUser, rawRequest, signed } from './helpers';

/** The KuCoin code of a failed call. */
async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ApiError) return e.code;
    throw e;
  }
  return 'ok';
}

describe('sandbox reference/account/funding reads (SpotDesk client): V1 histories with records, refusals', function () {
  this.timeout(30_000);
  const START = Date.UTC(2018, 5, 1);
  let sb: RunningSandbox;
  let c: SpotClient;
  let uid: string;
  let userCreds: Awaited<ReturnType<typeof createUser>>;

  before(async () => {
    sb = await startSandbox({ sim: false, seed: 3, manualClock: true, startTime: START });
    const u = await createUser(sb, { balances: [{ currency: 'USDT', type: 'main', amount: '500' }] });
    userCreds = u;
    uid = u.uid;
    c = new SpotClient({ baseUrl: sb.baseUrl, credentials: u, maxRetries: 0 });
    c.setClockOffset(sb.state.now() - Date.now());
  });
  after(async () => {
    c?.close();
    await sb?.close();
  });

  it('histBoundMs: a bound below 10^11 is seconds (ccxt), above it ms (KuCoin docs)', () => {
    assert.equal(histBoundMs(1527811200), 1527811200000);
    assert.equal(histBoundMs(1527811200000), 1527811200000);
    assert.equal(histBoundMs(undefined), undefined);
  });

  it('deposits and withdrawals made in 2018 are the V1 history: newest first, createAt in seconds, bounds in s or ms, status and currency filters, pages', async () => {
    await admin(sb, 'POST', '/sandbox/v1/deposits', { uid, currency: 'USDT', chain: 'trx', amount: '40' });
    await admin(sb, 'POST', '/sandbox/v1/clock', { advanceMs: 3_600_000 });
    await admin(sb, 'POST', '/sandbox/v1/deposits', { uid, currency: 'BTC', chain: 'btc', amount: '0.5' });
    await admin(sb, 'POST', '/sandbox/v1/clock', { advanceMs: 3_600_000 });
    c.setClockOffset(sb.state.now() - Date.now());
    const w = await c.call('withdrawV3', { currency: 'USDT', chain: 'trx', toAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', withdrawType: 'ADDRESS', amount: '15' });
    const deps = sb.state.deposits.filter((d) => d.uid === uid);
    assert.ok(deps.length >= 2 && deps.every((d) => d.createdAt < HIST_CUTOFF_MS));

    const all = await c.getHistDeposits();
    assert.deepEqual(
      all.items.map((d) => [d.currency, d.amount, d.createAt, d.status, d.walletTxId]),
      deps.slice().reverse().map((d) => [d.currency, d.amount, Math.floor(d.createdAt / 1000), 'SUCCESS', `sbx-${d.depositId}`]),
    );
    const usdt = deps.filter((d) => d.currency === 'USDT');
    assert.deepEqual((await c.getHistDeposits({ currency: 'USDT' })).items.map((d) => d.amount), usdt.slice().reverse().map((d) => d.amount));
    // the BTC deposit came an hour after the USDT one: a bound between them, in seconds and in ms
    const between = deps.find((d) => d.currency === 'BTC')!.createdAt - 1000;
    assert.deepEqual((await c.getHistDeposits({ startAt: Math.floor(between / 1000) })).items.map((d) => d.currency), ['BTC']);
    assert.deepEqual((await c.getHistDeposits({ startAt: between })).items.map((d) => d.currency), ['BTC']);
    assert.deepEqual((await c.getHistDeposits({ endAt: between })).items.map((d) => d.currency).sort(), usdt.map(() => 'USDT'));
    assert.deepEqual((await c.getHistDeposits({ status: 'FAILURE' })).items, []);
    const p2 = await c.getHistDeposits({ pageSize: 10, currentPage: 2 });
    assert.deepEqual([p2.currentPage, p2.pageSize, p2.totalNum, p2.items], [2, 10, deps.length, []]);

    const rec = sb.state.withdrawals.get(w.withdrawalId)!;
    const wd = await c.getHistWithdrawals({ currency: 'USDT' });
    assert.deepEqual(wd.items.map((x) => [x.currency, x.amount, x.address, x.createAt, x.status, x.isInner]), [['USDT', '15', rec.toAddress, Math.floor(rec.createdAt / 1000), 'PROCESSING', false]]);
    assert.deepEqual((await c.getHistWithdrawals({ status: 'SUCCESS' })).items, []);
    // the V1 detail by id reads the same record
    const byId = await c.getWithdrawal(w.withdrawalId);
    assert.deepEqual([byId.id, byId.status, byId.cancelType, byId.amount, byId.fee], [w.withdrawalId, 'PROCESSING', 'CANCELABLE', '15', rec.fee]);
  });

  it('refusals with KuCoin\'s codes (sent raw: SpotDesk\'s client refuses them before sending), nothing changed', async () => {
    const creds = userCreds;
    const codeOfRaw = async (path: string): Promise<string> => ((await signed(sb, creds, 'GET', path)).json as { code: string }).code;
    const counts = () => [sb.state.deposits.length, sb.state.withdrawals.size, sb.state.depositAddresses.length, JSON.stringify(sb.state.exchange.accounts(uid))];
    const before = counts();
    assert.equal(await codeOfRaw('/api/v1/hist-deposits?pageSize=5'), '400100');
    assert.equal(await codeOfRaw('/api/v1/hist-withdrawals?currency=NOPE'), '400100');
    assert.equal(await codeOfRaw('/api/v1/hist-deposits?startAt=2000&endAt=1000'), '400100');
    assert.equal(await codeOfRaw('/api/v3/announcements?pageSize=0'), '400100');
    assert.equal(await codeOfRaw('/api/v3/announcements?lang=english'), '400100');
    assert.equal(await codeOfRaw('/api/v3/announcements?annType=rumours'), '400100');
    assert.equal(await codeOfRaw('/api/v3/deposit-addresses?currency=NOPE'), '400100');
    assert.equal(await codeOfRaw('/api/v3/deposit-addresses?currency=USDT&chain=solana-devnet'), '400100');
    assert.equal(await codeOfRaw(`/api/v1/accounts/${sb.state.exchange.accounts(sb.credentials.uid)[0].id}`), '400100');
    assert.equal(await codeOfRaw('/api/v1/accounts?type=futures'), '400100');
    assert.equal(await codeOfRaw('/api/v1/withdrawals/0123456789abcdef01234567'), '400100');
    assert.equal(await codeOfRaw('/api/v1/market/orderbook/callauction/level2_100?symbol=NOPE-USDT'), '900001');
    assert.equal(await codeOfRaw('/api/v1/market/callauctionData?symbol=NOPE-USDT'), '900001');
    assert.equal(await codeOfRaw('/api/v2/symbols/NOPE-USDT'), '900001');
    assert.equal(await codeOfRaw('/api/v2/currencies/NOPE'), '400100');
    assert.deepEqual(counts(), before);
  });

  it('signed reads need a key with General: without credentials 400001 (401); a Spot-only key 400007', async () => {
    const noKey = await rawRequest(sb.baseUrl, 'GET', '/api/v1/user/api-key');
    assert.deepEqual([noKey.status, (noKey.json as { code: string }).code], [401, '400001']);
    const spotOnly = await createUser(sb, { permissions: ['Spot'] });
    const s = new SpotClient({ baseUrl: sb.baseUrl, credentials: spotOnly, maxRetries: 0 });
    s.setClockOffset(sb.state.now() - Date.now());
    try {
      for (const p of [s.getUserInfo(), s.getApiKeyInfo(), s.getDepositAddressesV3('USDT'), s.getHistDeposits()]) assert.equal(await codeOf(p), '400007');
    } finally {
      s.close();
    }
  });
});
