/**
 * ccxt 4.5 (class `kucoin`) with its STOCK options against an in-process sandbox: only its URLs
 * (`ccxtApiUrls` from src/features/botSetup/model/botSnippets.ts, the override SpotDesk hands to bot developers) and
 * its credentials are changed. Every unified method a bot uses is called and its result compared
 * with the sandbox's own state (engine accounts, orders, fills, books, tape, funding records) —
 * not just "it did not throw". The run prints a result table (method → pass/fail).
 *
 * One sandbox for the whole file (real clock, no simulation); the ccxt user is created through the
 * admin API with its own fee rates so that fee answers cannot come from defaults.
 */
import { strict as assert } from 'node:assert';
import ccxt from 'ccxt';
import { SpotClient } from '../../../src/api/client';
import * as D from '../../../src/api/decimal';
import { startSandbox, type RunningSandbox } from '../../../src/exchange/server/index';
import { ccxtApiUrls } from '../../../src/features/botSetup/model/botSnippets';
import { admin, createUser } from '../server/helpers';

/** The ccxt kucoin class as this suite uses it (ccxt's own typings are loose for `urls`). */
type Kucoin = InstanceType<typeof ccxt.kucoin>;

const TAKER = '0.0025';
const MAKER = '0.0012';
/** A well-formed Tron address (the USDT TRC20 contract), accepted by every address rule. */
const TRON_ADDRESS = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

/** Exact decimal equality of a ccxt number (parsed by ccxt from the wire string) and a sandbox decimal. */
function sameNumber(ccxtValue: number | undefined, decimal: string, what: string): void {
  assert.equal(ccxtValue, Number(decimal), `${what}: ccxt ${String(ccxtValue)} vs sandbox ${decimal}`);
}

describe('ccxt kucoin (stock options) against the sandbox', function () {
  this.timeout(60_000);
  let sb: RunningSandbox;
  let ex: Kucoin;
  let uid: string;
  let helper: SpotClient;
  const results: [string, 'pass' | 'fail'][] = [];

  before(async () => {
    sb = await startSandbox({ sim: false, seed: 1, settleIntervalMs: 60_000 });
    const u = await createUser(sb, {
      balances: [
        { currency: 'USDT', type: 'main', amount: '5000' },
        { currency: 'USDT', type: 'trade', amount: '20000' },
        { currency: 'BTC', type: 'trade', amount: '1' },
      ],
      takerFeeRate: TAKER,
      makerFeeRate: MAKER,
    });
    uid = u.uid;
    ex = new ccxt.kucoin({ apiKey: u.apiKey, secret: u.apiSecret, password: u.apiPassphrase });
    ex.urls.api = ccxtApiUrls(ex.urls.api as Record<string, unknown>, sb.baseUrl) as never;
    // some public trades for tickers, candles and the trade history (another user, against the seeded book)
    const h = await createUser(sb, { balances: [{ currency: 'USDT', type: 'trade', amount: '50000' }, { currency: 'BTC', type: 'trade', amount: '1' }] });
    helper = new SpotClient({ baseUrl: sb.baseUrl, credentials: h, maxRetries: 0 });
    await helper.placeOrder({ symbol: 'BTC-USDT', side: 'buy', type: 'market', size: '0.01' });
    await helper.placeOrder({ symbol: 'BTC-USDT', side: 'sell', type: 'market', size: '0.02' });
    await helper.placeOrder({ symbol: 'BTC-USDT', side: 'buy', type: 'market', size: '0.06' });
  });

  afterEach(function () {
    const t = this.currentTest;
    if (t) results.push([t.title, t.state === 'passed' ? 'pass' : 'fail']);
  });

  after(async () => {
    helper?.close();
    await sb?.close();
    const w = Math.max(...results.map(([m]) => m.length));
    console.log(`\n      ccxt ${ccxt.version} kucoin (stock options, URLs and credentials only) vs the SpotDesk sandbox`);
    console.log(`      ${'method'.padEnd(w)}  result`);
    for (const [m, r] of results) console.log(`      ${m.padEnd(w)}  ${r}`);
    console.log(`      ${results.filter(([, r]) => r === 'pass').length}/${results.length} pass\n`);
  });

  // ---------------------------------------------------------------- public and account

  it('loadMarkets', async () => {
    const markets = await ex.loadMarkets();
    const world = sb.state.world.symbols;
    assert.deepEqual(Object.values(markets).map((m) => m?.id).sort(), world.map((s) => s.symbol).sort());
    for (const s of world) {
      const m = markets[`${s.baseCurrency}/${s.quoteCurrency}`];
      if (m === undefined) assert.fail(`${s.symbol} missing`);
      assert.equal(m.spot, true);
      assert.equal(m.active, s.enableTrading);
      sameNumber(m.precision.price, s.priceIncrement, `${s.symbol} price precision`);
      sameNumber(m.precision.amount, s.baseIncrement, `${s.symbol} amount precision`);
      sameNumber(m.limits.amount?.min, s.baseMinSize, `${s.symbol} min amount`);
    }
    // the probes answered as a classic HF spot account
    assert.equal(ex.options.uta, false);
    assert.equal(ex.options.hf, true);
  });

  it('fetchCurrencies', async () => {
    const cur = await ex.fetchCurrencies();
    assert.deepEqual(Object.keys(cur).sort(), sb.state.world.currencies.map((c) => c.currency).sort());
    const usdt = sb.state.world.currencyMap.get('USDT');
    assert.ok(usdt && cur.USDT);
    assert.deepEqual(Object.values(cur.USDT.networks).map((n) => n.id).sort(), usdt.chains.map((c) => c.chainId).sort());
    const trx = Object.values(cur.USDT.networks).find((n) => n.id === 'trx');
    const chain = usdt.chains.find((c) => c.chainId === 'trx');
    assert.ok(trx && chain);
    sameNumber(trx.fee, chain.withdrawalMinFee, 'USDT trx fee');
    assert.equal(trx.withdraw, chain.isWithdrawEnabled);
    assert.equal(trx.deposit, chain.isDepositEnabled);
  });

  it('fetchTicker', async () => {
    const t = await ex.fetchTicker('BTC/USDT');
    const bba = sb.state.exchange.bestBidAsk('BTC-USDT');
    const tape = sb.state.exchange.trades('BTC-USDT');
    sameNumber(t.bid, bba.bestBid ?? '', 'bid');
    sameNumber(t.ask, bba.bestAsk ?? '', 'ask');
    sameNumber(t.last, tape[tape.length - 1].price, 'last');
    const vol = tape.reduce((a, x) => D.add(a, x.size), '0');
    sameNumber(t.baseVolume, vol, 'base volume');
    const high = tape.reduce((a, x) => D.max(a, x.price), tape[0].price);
    sameNumber(t.high, high, 'high');
  });

  it('fetchTickers', async () => {
    const ts = await ex.fetchTickers(['BTC/USDT', 'ETH/USDT']);
    assert.deepEqual(Object.keys(ts).sort(), ['BTC/USDT', 'ETH/USDT']);
    for (const [sym, id] of [['BTC/USDT', 'BTC-USDT'], ['ETH/USDT', 'ETH-USDT']] as const) {
      const bba = sb.state.exchange.bestBidAsk(id);
      sameNumber(ts[sym].bid, bba.bestBid ?? '', `${sym} bid`);
      sameNumber(ts[sym].ask, bba.bestAsk ?? '', `${sym} ask`);
    }
  });

  for (const limit of [20, 100, undefined] as const) {
    it(`fetchOrderBook (${limit ?? 'no limit'})`, async () => {
      const ob = await ex.fetchOrderBook('BTC/USDT', limit);
      const book = sb.state.exchange.level2('BTC-USDT', limit ?? 1e9);
      assert.deepEqual(ob.bids, book.bids.map(([p, s]) => [Number(p), Number(s)]));
      assert.deepEqual(ob.asks, book.asks.map(([p, s]) => [Number(p), Number(s)]));
      assert.equal(ob.nonce, Number(book.sequence));
    });
  }

  it('fetchOHLCV', async () => {
    const rows = await ex.fetchOHLCV('BTC/USDT', '1m');
    const candles = sb.state.tape.candles('BTC-USDT', '1min');
    assert.ok(candles.length >= 1);
    // ccxt: [ms, open, high, low, close, volume], oldest first
    assert.deepEqual(rows, candles.slice().reverse().map((c) => [Number(c[0]) * 1000, Number(c[1]), Number(c[3]), Number(c[4]), Number(c[2]), Number(c[5])]));
  });

  it('fetchTrades', async () => {
    const trades = await ex.fetchTrades('BTC/USDT');
    const tape = sb.state.exchange.trades('BTC-USDT').slice(-100);
    assert.deepEqual(
      trades.map((t) => [t.side, t.price, t.amount]),
      tape.map((t) => [t.side, Number(t.price), Number(t.size)]),
    );
    // KuCoin sends `time` in ns (above 2^53); ccxt reads it through a double and truncates to ms,
    // which can land 1 ms early (as with KuCoin itself)
    trades.forEach((t, i) => assert.ok(t.timestamp !== undefined && tape[i].time - t.timestamp >= 0 && tape[i].time - t.timestamp <= 1, `${t.timestamp} vs ${tape[i].time}`));
  });

  for (const [label, params, acct] of [
    ['fetchBalance (default)', {}, 'trade'],
    ['fetchBalance (main)', { type: 'main' }, 'main'],
    ['fetchBalance (trade)', { type: 'trade' }, 'trade'],
  ] as const) {
    it(label, async () => {
      const b = await ex.fetchBalance(params);
      const accounts = sb.state.exchange.accounts(uid, { type: acct });
      assert.ok(accounts.length > 0);
      for (const a of accounts) {
        const c = b[a.currency] as { free: number; used: number; total: number };
        sameNumber(c.free, a.available, `${acct} ${a.currency} free`);
        sameNumber(c.used, a.holds, `${acct} ${a.currency} used`);
        sameNumber(c.total, a.balance, `${acct} ${a.currency} total`);
      }
    });
  }

  it('fetchTradingFee', async () => {
    const f = await ex.fetchTradingFee('BTC/USDT');
    assert.deepEqual(sb.state.exchange.feeRates(uid), { takerFeeRate: TAKER, makerFeeRate: MAKER });
    sameNumber(f.taker, TAKER, 'taker');
    sameNumber(f.maker, MAKER, 'maker');
  });

  it('transfer', async () => {
    const main0 = sb.state.exchange.accounts(uid, { currency: 'USDT', type: 'main' })[0];
    const trade0 = sb.state.exchange.accounts(uid, { currency: 'USDT', type: 'trade' })[0];
    const t = await ex.transfer('USDT', 123.45, 'main', 'trade');
    const main1 = sb.state.exchange.accounts(uid, { currency: 'USDT', type: 'main' })[0];
    const trade1 = sb.state.exchange.accounts(uid, { currency: 'USDT', type: 'trade' })[0];
    assert.equal(main1.balance, D.sub(main0.balance, '123.45'));
    assert.equal(trade1.balance, D.add(trade0.balance, '123.45'));
    assert.ok([...sb.state.transfers.values()].some((r) => r.uid === uid && r.orderId === t.id), `transfer ${t.id} recorded`);
  });

  // ---------------------------------------------------------------- orders

  let limitId = '';
  let marketId = '';

  it('createOrder (limit)', async () => {
    const holds0 = sb.state.exchange.accounts(uid, { currency: 'USDT', type: 'trade' })[0].holds;
    const o = await ex.createOrder('BTC/USDT', 'limit', 'buy', 0.01, 50000);
    limitId = String(o.id);
    const so = sb.state.exchange.getOrder(uid, 'BTC-USDT', limitId);
    assert.deepEqual([so.side, so.type, so.price, so.size, so.active], ['buy', 'limit', '50000', '0.01', true]);
    const holds1 = sb.state.exchange.accounts(uid, { currency: 'USDT', type: 'trade' })[0].holds;
    assert.equal(holds1, D.add(holds0, D.add('500', D.mul('500', TAKER))));
  });

  it('createOrder (market)', async () => {
    const btc0 = sb.state.exchange.accounts(uid, { currency: 'BTC', type: 'trade' })[0].balance;
    const o = await ex.createOrder('BTC/USDT', 'market', 'buy', 0.002);
    marketId = String(o.id);
    const so = sb.state.exchange.getOrder(uid, 'BTC-USDT', marketId);
    assert.deepEqual([so.type, so.active, so.dealSize], ['market', false, '0.002']);
    assert.equal(sb.state.exchange.accounts(uid, { currency: 'BTC', type: 'trade' })[0].balance, D.add(btc0, '0.002'));
  });

  it('fetchOrder', async () => {
    const o = await ex.fetchOrder(limitId, 'BTC/USDT');
    const so = sb.state.exchange.getOrder(uid, 'BTC-USDT', limitId);
    assert.deepEqual([o.id, o.status, o.side, o.type, o.price, o.amount, o.filled, o.timestamp], [so.id, 'open', 'buy', 'limit', 50000, 0.01, 0, so.createdAt]);
  });

  it('fetchOpenOrders', async () => {
    const open = await ex.fetchOpenOrders('BTC/USDT');
    assert.deepEqual(open.map((o) => o.id).sort(), sb.state.exchange.activeOrders(uid, 'BTC-USDT').map((o) => o.id).sort());
    assert.ok(open.some((o) => o.id === limitId));
  });

  it('fetchClosedOrders', async () => {
    const closed = await ex.fetchClosedOrders('BTC/USDT');
    assert.deepEqual(closed.map((o) => o.id).sort(), sb.state.exchange.doneOrders(uid, 'BTC-USDT', { limit: 20 }).map((o) => o.id).sort());
    const m = closed.find((o) => o.id === marketId);
    assert.ok(m);
    assert.equal(m.status, 'closed');
    sameNumber(m.filled, '0.002', 'filled');
  });

  it('cancelOrder', async () => {
    const holds0 = sb.state.exchange.accounts(uid, { currency: 'USDT', type: 'trade' })[0].holds;
    await ex.cancelOrder(limitId, 'BTC/USDT');
    const so = sb.state.exchange.getOrder(uid, 'BTC-USDT', limitId);
    assert.equal(so.active, false);
    assert.equal(so.cancelledSize, '0.01');
    assert.equal(sb.state.exchange.accounts(uid, { currency: 'USDT', type: 'trade' })[0].holds, D.sub(holds0, D.add('500', D.mul('500', TAKER))));
  });

  it('fetchMyTrades', async () => {
    const mine = await ex.fetchMyTrades('BTC/USDT');
    const fills = sb.state.exchange.fills(uid, { symbol: 'BTC-USDT' }).items;
    assert.ok(fills.length > 0);
    assert.deepEqual(
      mine.map((t) => [t.id, t.order, t.side, t.takerOrMaker, t.price, t.amount, t.fee?.cost, t.fee?.currency]).sort(),
      fills.map((f) => [String(f.tradeId), f.orderId, f.side, f.liquidity, Number(f.price), Number(f.size), Number(f.fee), f.feeCurrency]).sort(),
    );
    assert.ok(fills.every((f) => f.orderId === marketId && f.feeRate === TAKER));
  });

  // ---------------------------------------------------------------- funding

  let address = '';

  it('createDepositAddress', async () => {
    const a = await ex.createDepositAddress('USDT', { network: 'TRC20' });
    const rec = sb.state.depositAddressesOf(uid, 'USDT', 'trx');
    assert.equal(rec.length, 1);
    assert.equal(a.address, rec[0].address);
    address = a.address;
  });

  it('fetchDepositAddress', async () => {
    const a = await ex.fetchDepositAddress('USDT', { network: 'TRC20' });
    assert.equal(a.address, address);
    assert.equal(a.address, sb.state.depositAddressesOf(uid, 'USDT', 'trx')[0].address);
  });

  let withdrawalId = '';

  it('withdraw', async () => {
    const holds0 = sb.state.exchange.accounts(uid, { currency: 'USDT', type: 'main' })[0].holds;
    const w = await ex.withdraw('USDT', 25, TRON_ADDRESS, undefined, { network: 'TRC20' });
    withdrawalId = w.id ?? '';
    const rec = sb.state.withdrawals.get(withdrawalId);
    assert.ok(rec, `withdrawal ${withdrawalId} recorded`);
    assert.deepEqual([rec.uid, rec.currency, rec.chainId, rec.toAddress, rec.amount, rec.status], [uid, 'USDT', 'trx', TRON_ADDRESS, '25', 'PROCESSING']);
    assert.equal(sb.state.exchange.accounts(uid, { currency: 'USDT', type: 'main' })[0].holds, D.add(holds0, rec.totalDebit));
  });

  it('fetchDeposits', async () => {
    const d = (await admin(sb, 'POST', '/sandbox/v1/deposits', { uid, currency: 'USDT', chain: 'trx', amount: '77.5' })).json.data as { depositId: string; createdAt: number };
    const list = await ex.fetchDeposits('USDT');
    const recs = sb.state.deposits.filter((x) => x.uid === uid);
    assert.deepEqual(list.map((x) => [x.amount, x.status, x.timestamp, x.address, x.network]), recs.map((r) => [Number(r.amount), 'ok', r.createdAt, address, 'TRC20']));
    assert.equal(list[0].txid, `sbx-${d.depositId}`);
  });

  it('fetchWithdrawals', async () => {
    const list = await ex.fetchWithdrawals('USDT');
    const rec = sb.state.withdrawals.get(withdrawalId);
    assert.ok(rec);
    assert.deepEqual(list.map((x) => [x.id, x.amount, x.status, x.address, x.timestamp, x.fee?.cost]), [[withdrawalId, 25, 'pending', TRON_ADDRESS, rec.createdAt, Number(rec.fee)]]);
  });
});
