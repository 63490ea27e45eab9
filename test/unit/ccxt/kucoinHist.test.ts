/**
 * ccxt 4.5 (class `kucoin`, STOCK options: its URLs via `ccxtApiUrls`, its credentials, and ccxt's
 * own documented option `adjustForTimeDifference: true`) reading the V1 histories WITH records:
 * `fetchDeposits` / `fetchWithdrawals` with `since` before 2019-02-18 call GET /api/v1/hist-deposits
 * and /api/v1/hist-withdrawals (kucoin.js: `since < 1550448000000` → `startAt` in seconds).
 *
 * Those endpoints hold records from before 2019-02-18 only, so the sandbox runs on a manual clock
 * that starts in January 2019. ccxt signs with the wall clock, which the sandbox would refuse
 * (±5 s of its clock); with `adjustForTimeDifference`, ccxt's `fetchMarkets` loads the server time
 * (GET /api/v1/timestamp, `loadTimeDifference`) and signs with `nonce() = now - timeDifference`, i.e.
 * the sandbox's time. Not quite stock-only: ccxt 4.5.84's `loadMarkets` signs one request (the
 * unified-account probe of `fetchCurrencies`) BEFORE `fetchMarkets` loads the difference, so with a
 * server clock far from the wall clock `loadMarkets` fails (the first test shows it). The bot-side
 * line that makes it work is ccxt's own public `await exchange.loadTimeDifference()` before
 * `loadMarkets()`; ccxt itself is unmodified.
 * A manual clock does not move with the wall clock, so every phase after an admin clock jump starts
 * from a fresh stock instance (its `loadMarkets` loads the new difference), as a bot restarted
 * against a server whose clock jumped would. Every record is compared with the sandbox's own
 * deposit and withdrawal records.
 */
import { strict as assert } from 'node:assert';
import ccxt from 'ccxt';
import { startSandbox, type RunningSandbox } from '../../../src/exchange/server/index';
import { HIST_CUTOFF_MS } from '../../../src/exchange/server/refdata/funding';
import { ccxtApiUrls } from '../../../src/features/botSetup/model/botSnippets';
import { admin, createUser } from '../server/helpers';

type Kucoin = InstanceType<typeof ccxt.kucoin>;
type Creds = { apiKey: string; apiSecret: string; apiPassphrase: string };

/** A TRON address (the USDT contract): well-formed for TRC20. */
const TRX_ADDRESS = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

/** A stock ccxt kucoin with the sandbox's URLs, the credentials and `adjustForTimeDifference` only. */
function stockAdjustedUnloaded(sb: RunningSandbox, creds: Creds): Kucoin {
  const ex = new ccxt.kucoin({ apiKey: creds.apiKey, secret: creds.apiSecret, password: creds.apiPassphrase, options: { adjustForTimeDifference: true } });
  ex.urls.api = ccxtApiUrls(ex.urls.api as Record<string, unknown>, sb.baseUrl) as never;
  return ex;
}

/**
 * {@link stockAdjustedUnloaded}, then ccxt's own public `loadTimeDifference()` (the call the option
 * makes inside `fetchMarkets`), then `loadMarkets()`. The explicit first call is needed: ccxt
 * 4.5.84's `loadMarkets` runs `fetchCurrencies` before `fetchMarkets`, and `fetchCurrencies` first
 * probes the account mode with a SIGNED request (`isUTAEnabled`), signed before the difference is
 * loaded — see the first test.
 */
async function stockAdjusted(sb: RunningSandbox, creds: Creds): Promise<Kucoin> {
  const ex = stockAdjustedUnloaded(sb, creds);
  await ex.loadTimeDifference();
  await ex.loadMarkets();
  return ex;
}

/** ccxt's transaction status of a KuCoin status (kucoin.js `parseTransactionStatus`). */
const CCXT_STATUS: Record<string, string> = { SUCCESS: 'ok', PROCESSING: 'pending', WALLET_PROCESSING: 'pending', FAILURE: 'failed' };

describe('ccxt kucoin (stock + adjustForTimeDifference): fetchDeposits / fetchWithdrawals since 2019 read the V1 histories with records', function () {
  this.timeout(60_000);
  const START = Date.UTC(2019, 0, 10);
  const SINCE = Date.UTC(2019, 0, 1);
  let sb: RunningSandbox;
  let uid: string;
  let creds: Creds;
  const withdrawalIds: string[] = [];

  before(async () => {
    sb = await startSandbox({ sim: false, seed: 5, manualClock: true, startTime: START });
    const u = await createUser(sb, { permissions: ['General', 'Transfer'], balances: [{ currency: 'USDT', type: 'main', amount: '500' }] });
    uid = u.uid;
    creds = u;
    // deposits through the admin API, an hour apart (they carry the sandbox's 2019 times)
    await admin(sb, 'POST', '/sandbox/v1/deposits', { uid, currency: 'USDT', chain: 'trx', amount: '40' });
    await admin(sb, 'POST', '/sandbox/v1/clock', { advanceMs: 3_600_000 });
    await admin(sb, 'POST', '/sandbox/v1/deposits', { uid, currency: 'BTC', chain: 'btc', amount: '0.5' });
    await admin(sb, 'POST', '/sandbox/v1/clock', { advanceMs: 3_600_000 });
    await admin(sb, 'POST', '/sandbox/v1/deposits', { uid, currency: 'USDT', chain: 'eth', amount: '12.5' });
    await admin(sb, 'POST', '/sandbox/v1/clock', { advanceMs: 3_600_000 });
    // withdrawals through stock ccxt itself: one that settles, one that fails at settlement
    // (remark "FAIL…", docs/sandbox.md), then after the clock moved one still processing
    let ex = await stockAdjusted(sb, creds);
    withdrawalIds.push((await ex.withdraw('USDT', 15, TRX_ADDRESS, undefined, { network: 'TRC20' })).id as string);
    withdrawalIds.push((await ex.withdraw('USDT', 20, TRX_ADDRESS, undefined, { network: 'TRC20', remark: 'FAIL test' })).id as string);
    await admin(sb, 'POST', '/sandbox/v1/clock', { advanceMs: 60_000 });
    ex = await stockAdjusted(sb, creds);
    withdrawalIds.push((await ex.withdraw('USDT', 11, TRX_ADDRESS, undefined, { network: 'TRC20' })).id as string);
  });
  after(async () => {
    await sb?.close();
  });

  it('adjustForTimeDifference alone: ccxt 4.5.84\'s loadMarkets signs its account-mode probe with the wall clock before it loads the difference, and the sandbox refuses it (400002, as KuCoin would)', async () => {
    const ex = stockAdjustedUnloaded(sb, creds);
    const refused = await ex.loadMarkets().then(() => undefined, (e: unknown) => e as Error);
    assert.deepEqual([refused?.name, /"400002"/.test(refused?.message ?? '')], ['InvalidNonce', true], String(refused));
    // the refused request is the unified-account probe of fetchCurrencies (isUTAEnabled), GET /api/ua/v1/account/mode
    assert.equal(ex.last_request_url, `${sb.baseUrl}/api/ua/v1/account/mode`);
    assert.equal(ex.options.timeDifference, 0, 'no difference loaded yet');
    // with ccxt's own loadTimeDifference() first, the same stock instance loads and signs on the sandbox clock
    // (reload: ccxt keeps a failed loadMarkets promise and hands it out again otherwise)
    await ex.loadTimeDifference();
    await ex.loadMarkets(true);
    assert.ok(Math.abs(ex.nonce() - sb.state.now()) < 5_000);
  });

  it('the sandbox\'s records are all before the cut-over, with the statuses set up', () => {
    const deps = sb.state.deposits.filter((d) => d.uid === uid);
    assert.equal(deps.length, 3);
    assert.ok(deps.every((d) => d.createdAt >= START && d.createdAt < HIST_CUTOFF_MS));
    const ws = withdrawalIds.map((id) => sb.state.withdrawals.get(id));
    assert.deepEqual(ws.map((w) => w?.status), ['SUCCESS', 'FAILURE', 'PROCESSING']);
    assert.ok(ws.every((w) => w !== undefined && w.createdAt < HIST_CUTOFF_MS));
  });

  it('fetchDeposits(undefined, since 2019-01-01): GET /api/v1/hist-deposits (startAt in s), every record as the sandbox has it', async () => {
    const ex = await stockAdjusted(sb, creds);
    const list = await ex.fetchDeposits(undefined, SINCE);
    assert.equal(ex.last_request_url, `${sb.baseUrl}/api/v1/hist-deposits?startAt=${SINCE / 1000}`);
    // ccxt sorts by timestamp, oldest first; the V1 shape has createAt in seconds and no address
    const deps = sb.state.deposits.filter((d) => d.uid === uid).slice().sort((a, b) => a.createdAt - b.createdAt);
    assert.deepEqual(
      list.map((t) => [t.type, t.currency, t.amount, t.status, t.timestamp, t.txid, t.address, t.internal]),
      deps.map((d) => ['deposit', d.currency, Number(d.amount), 'ok', Math.floor(d.createdAt / 1000) * 1000, `sbx-${d.depositId}`, undefined, false]),
    );
    // the raw V1 items, as KuCoin's V1 history shape has them
    const raw = JSON.parse(ex.last_http_response ?? '') as { data: { totalNum: number; items: Record<string, unknown>[] } };
    assert.equal(raw.data.totalNum, deps.length);
    assert.deepEqual(Object.keys(raw.data.items[0]).sort(), ['amount', 'createAt', 'currency', 'isInner', 'status', 'walletTxId']);
  });

  it('fetchDeposits(code, since): the currency filter and a since between two deposits (ccxt sends seconds)', async () => {
    const ex = await stockAdjusted(sb, creds);
    const deps = sb.state.deposits.filter((d) => d.uid === uid).slice().sort((a, b) => a.createdAt - b.createdAt);
    const usdt = await ex.fetchDeposits('USDT', SINCE);
    assert.equal(ex.last_request_url, `${sb.baseUrl}/api/v1/hist-deposits?currency=USDT&startAt=${SINCE / 1000}`);
    assert.deepEqual(usdt.map((t) => t.txid), deps.filter((d) => d.currency === 'USDT').map((d) => `sbx-${d.depositId}`));
    const between = deps[1].createdAt - 1000;
    const later = await ex.fetchDeposits(undefined, between);
    assert.deepEqual(later.map((t) => t.txid), deps.slice(1).map((d) => `sbx-${d.depositId}`));
  });

  it('fetchWithdrawals(code, since 2019-01-01): GET /api/v1/hist-withdrawals, every record (settled, failed, processing) as the sandbox has it', async () => {
    const ex = await stockAdjusted(sb, creds);
    const list = await ex.fetchWithdrawals('USDT', SINCE);
    assert.equal(ex.last_request_url, `${sb.baseUrl}/api/v1/hist-withdrawals?currency=USDT&startAt=${SINCE / 1000}`);
    // two withdrawals share a second (createAt is in s), so both sides are ordered by time, then amount
    const byTimeAmount = (a: [number, number], b: [number, number]) => a[0] - b[0] || a[1] - b[1];
    const ws = withdrawalIds.map((id) => sb.state.withdrawals.get(id)!).sort((a, b) => byTimeAmount([a.createdAt, Number(a.amount)], [b.createdAt, Number(b.amount)]));
    const got = list.slice().sort((a, b) => byTimeAmount([a.timestamp ?? 0, a.amount ?? 0], [b.timestamp ?? 0, b.amount ?? 0]));
    // V1 withdrawal items carry no id (KuCoin's V1 shape): ccxt's id is undefined; an unsettled one has an
    // empty walletTxId, which ccxt's safeString reads as no txid
    assert.deepEqual(
      got.map((t) => [t.type, t.id, t.currency, t.amount, t.status, t.timestamp, t.address, t.txid, t.internal]),
      ws.map((w) => ['withdrawal', undefined, 'USDT', Number(w.amount), CCXT_STATUS[w.status], Math.floor(w.createdAt / 1000) * 1000, w.toAddress, w.status === 'SUCCESS' ? `sbx-${w.withdrawalId}` : undefined, false]),
    );
    const raw = JSON.parse(ex.last_http_response ?? '') as { data: { totalNum: number; items: Record<string, unknown>[] } };
    assert.equal(raw.data.totalNum, ws.length);
    assert.deepEqual(Object.keys(raw.data.items[0]).sort(), ['address', 'amount', 'createAt', 'currency', 'isInner', 'status', 'walletTxId']);
    // the status filter, passed through ccxt's params as KuCoin names it
    const failed = await ex.fetchWithdrawals('USDT', SINCE, undefined, { status: 'FAILURE' });
    assert.deepEqual(failed.map((t) => t.amount), ws.filter((w) => w.status === 'FAILURE').map((w) => Number(w.amount)));
  });

  it('since after the cut-over: the current endpoints, where these 2019 records are not', async () => {
    const ex = await stockAdjusted(sb, creds);
    assert.deepEqual(await ex.fetchDeposits('USDT', HIST_CUTOFF_MS), []);
    assert.equal(ex.last_request_url?.startsWith(`${sb.baseUrl}/api/v1/deposits?`), true);
  });
});
