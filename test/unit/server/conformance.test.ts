/**
 * Conformance of the sandbox with an independent client: KuCoin's official `kucoin-universal-sdk`
 * (v1.3.0, key version 3 — its signer always sends KC-API-KEY-VERSION 3 with an HMAC-signed
 * passphrase). The SDK's spot endpoint is pointed at the sandbox with
 * `ClientOptionBuilder.setSpotEndpoint(baseUrl)`; everything else is the SDK's own request building,
 * signing (it signs the raw, un-encoded query and sends the encoded one), JSON handling and error
 * mapping (HTTP ≠ 200 → thrown; `code` ≠ 200000 → RestError carrying the envelope).
 *
 * Covered: market data (timestamp, status, markets, currencies, currency, symbols, all tickers,
 * level-2 20/100, fiat prices), base fee, accounts, HF order test / place / get / active list /
 * cancel / fills, inner transfer, deposit address (V1 and V3, read back with Get Deposit Addresses V2), withdrawal (V1 and V3), and errors
 * (insufficient balance 200004, wrong secret → 401 / 400004, unknown key → 401 / 400003,
 * missing permission → 403 / 400007).
 * Each SDK result is compared with the sandbox's own state (or a raw HTTP read) field by field.
 *
 * SDK quirk (not a sandbox bug): `XxxReq.create({...})` copies every optional field, so omitted ones
 * become `undefined` and the SDK sends them as the literal query text `key=undefined`; the builders
 * (`XxxReq.builder()…build()`) leave them out. The sandbox rejects `type=undefined` like any invalid
 * enum value, so requests with omitted optional query fields are built with the builders here.
 */
import { strict as assert } from 'node:assert';
import { Account, DefaultClient, RestError, Spot } from 'kucoin-universal-sdk';
import { sdkClient } from './sdkClient';
import * as D from '../../../src/api/decimal';
import { RunningSandbox, startSandbox } from '../../../src/exchange/server/index';

const OrderReq = Spot.Order.AddOrderReq;
const TestReq = Spot.Order.AddOrderTestReq;

interface UserCreds {
  uid: string;
  apiKey: string;
  apiSecret: string;
  apiPassphrase: string;
  keyVersion: string;
}

async function admin<T>(sb: RunningSandbox, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(sb.baseUrl + path, {
    method,
    headers: { authorization: `Bearer ${sb.adminToken}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { code: string; data: T; msg?: string };
  assert.equal(json.code, '200000', `${method} ${path}: ${json.msg}`);
  return json.data;
}

/** The RestError thrown by `p` (fails when `p` resolves). */
async function restError(p: Promise<unknown>): Promise<RestError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof RestError, `expected RestError, got ${String(e)}`);
    return e;
  }
  assert.fail('expected the SDK call to fail');
}

describe('conformance with kucoin-universal-sdk (key version 3)', function () {
  this.timeout(30_000);
  let sb: RunningSandbox;
  let user: UserCreds;
  let rest: ReturnType<DefaultClient['restService']>;

  before(async () => {
    sb = await startSandbox({ port: 0, sim: false, seed: 11 });
    user = await admin<UserCreds>(sb, 'POST', '/sandbox/v1/users', {
      keyVersion: '3',
      takerFeeRate: '0.001',
      makerFeeRate: '0.001',
      balances: [
        { currency: 'USDT', type: 'trade', amount: '50000' },
        { currency: 'USDT', type: 'main', amount: '1000' },
        { currency: 'BTC', type: 'trade', amount: '1' },
      ],
    });
    assert.equal(user.keyVersion, '3');
    rest = sdkClient(sb.baseUrl, user, { retries: 1 }).restService();
  });
  after(async () => {
    await sb?.close();
  });

  it('market data: timestamp, status, markets, currencies, symbols, tickers, level-2, fiat prices', async () => {
    const market = rest.getSpotService().getMarketApi();
    const t = await market.getServerTime();
    assert.ok(Math.abs(t.data - Date.now()) < 5_000, `server time ${t.data}`);
    const status = await market.getServiceStatus();
    assert.equal(status.status, 'open');
    const markets = await market.getMarketList();
    assert.deepEqual(markets.data, sb.state.world.markets);
    assert.ok(markets.data.includes('USDS') && markets.data.includes('ALTS'));

    const currencies = await market.getAllCurrencies();
    assert.equal(currencies.data.length, sb.state.world.currencies.length);
    const usdt = currencies.data.find((c) => c.currency === 'USDT')!;
    const worldUsdt = sb.state.world.currencyMap.get('USDT')!;
    assert.equal(usdt.precision, worldUsdt.precision);
    assert.deepEqual(usdt.chains!.map((c) => c.chainName).sort(), worldUsdt.chains.map((c) => c.chainName).sort());
    const btc = await market.getCurrency(Spot.Market.GetCurrencyReq.create({ currency: 'BTC', chain: 'btc' }));
    assert.equal(btc.currency, 'BTC');
    assert.equal(btc.precision, sb.state.world.currencyMap.get('BTC')!.precision);

    const symbols = await market.getAllSymbols(Spot.Market.GetAllSymbolsReq.create({ market: 'USDS' }));
    const btcUsdt = symbols.data.find((s) => s.symbol === 'BTC-USDT')!;
    const rules = sb.state.world.symbolMap.get('BTC-USDT')!;
    assert.equal(btcUsdt.priceIncrement, rules.priceIncrement);
    assert.equal(btcUsdt.baseIncrement, rules.baseIncrement);
    assert.equal(btcUsdt.baseMinSize, rules.baseMinSize);
    assert.ok(symbols.data.every((s) => s.market === 'USDS'));

    const book = await market.getPartOrderBook(Spot.Market.GetPartOrderBookReq.create({ symbol: 'BTC-USDT', size: '20' }));
    const expected = sb.state.exchange.level2('BTC-USDT', 20);
    assert.equal(book.sequence, expected.sequence);
    assert.deepEqual(book.bids, expected.bids);
    assert.deepEqual(book.asks, expected.asks);
    assert.equal(book.bids.length, 20);
    const book100 = await market.getPartOrderBook(Spot.Market.GetPartOrderBookReq.create({ symbol: 'BTC-USDT', size: '100' }));
    assert.ok(book100.asks.length > 20 && book100.asks.length <= 100);

    const tickers = await market.getAllTickers();
    const tk = tickers.ticker.find((x) => x.symbol === 'BTC-USDT')!;
    assert.equal(tk.buy, expected.bids[0][0]);
    assert.equal(tk.sell, expected.asks[0][0]);

    const prices = await market.getFiatPrice(Spot.Market.GetFiatPriceReq.create({ base: 'USD', currencies: 'BTC,ETH' }));
    assert.equal(prices.BTC, sb.state.world.usdPrices.get('BTC'));
    assert.equal(prices.ETH, sb.state.world.usdPrices.get('ETH'));
  });

  it('accounts and base fee', async () => {
    const accountApi = rest.getAccountService().getAccountApi();
    const trade = await accountApi.getSpotAccountList(Account.Account.GetSpotAccountListReq.create({ currency: 'USDT', type: Account.Account.GetSpotAccountListReq.TypeEnum.TRADE }));
    assert.equal(trade.data.length, 1);
    assert.deepEqual(
      { currency: trade.data[0].currency, type: trade.data[0].type, balance: trade.data[0].balance, available: trade.data[0].available, holds: trade.data[0].holds },
      { currency: 'USDT', type: 'trade', balance: '50000', available: '50000', holds: '0' },
    );
    const all = await accountApi.getSpotAccountList(Account.Account.GetSpotAccountListReq.builder().build());
    assert.deepEqual(
      all.data.map((a) => `${a.currency}/${a.type}/${a.balance}`).sort(),
      ['BTC/main/0', 'BTC/trade/1', 'USDT/main/1000', 'USDT/trade/50000'], // BTC main exists (credited, then moved to trade),
    );
    const fee = await rest.getAccountService().getFeeApi().getBasicFee(Account.Fee.GetBasicFeeReq.create({ currencyType: Account.Fee.GetBasicFeeReq.CurrencyTypeEnum._0 }));
    assert.equal(D.cmp(fee.takerFeeRate, '0.001'), 0);
    assert.equal(D.cmp(fee.makerFeeRate, '0.001'), 0);
  });

  it('HF orders: test, place, get, active list, cancel, fills', async () => {
    const orders = rest.getSpotService().getOrderApi();
    const bestAsk = sb.state.exchange.level2('BTC-USDT', 1).asks[0];

    // test: validated and answered like placement, nothing created
    const tested = await orders.addOrderTest(
      Spot.Order.AddOrderTestReq.create({ clientOid: 'sdk-test-1', symbol: 'BTC-USDT', side: TestReq.SideEnum.BUY, type: TestReq.TypeEnum.LIMIT, price: '10000', size: '0.001' }),
    );
    assert.match(tested.orderId, /^[0-9a-f]{24}$/);
    assert.equal(tested.clientOid, 'sdk-test-1');
    assert.deepEqual(sb.state.exchange.activeOrders(user.uid, 'BTC-USDT'), []);

    // resting limit buy far below the market
    const placed = await orders.addOrder(
      Spot.Order.AddOrderReq.create({ clientOid: 'sdk-rest-1', symbol: 'BTC-USDT', side: OrderReq.SideEnum.BUY, type: OrderReq.TypeEnum.LIMIT, price: '10000', size: '0.001', remark: 'sdk' }),
    );
    assert.equal(placed.clientOid, 'sdk-rest-1');
    const got = await orders.getOrderByOrderId(Spot.Order.GetOrderByOrderIdReq.create({ orderId: placed.orderId, symbol: 'BTC-USDT' }));
    assert.equal(got.id, placed.orderId);
    assert.equal(got.price, '10000');
    assert.equal(got.size, '0.001');
    assert.equal(got.active, true);
    assert.equal(got.inOrderBook, true);
    assert.equal(got.clientOid, 'sdk-rest-1');
    assert.equal(got.remark, 'sdk');
    const active = await orders.getOpenOrders(Spot.Order.GetOpenOrdersReq.create({ symbol: 'BTC-USDT' }));
    assert.deepEqual(active.data.map((o) => o.id), [placed.orderId]);
    const cancelled = await orders.cancelOrderByOrderId(Spot.Order.CancelOrderByOrderIdReq.create({ orderId: placed.orderId, symbol: 'BTC-USDT' }));
    assert.equal(cancelled.orderId, placed.orderId);
    const after = await orders.getOrderByOrderId(Spot.Order.GetOrderByOrderIdReq.create({ orderId: placed.orderId, symbol: 'BTC-USDT' }));
    assert.equal(after.active, false);
    assert.equal(after.cancelExist, true);
    assert.equal(after.cancelledSize, '0.001');

    // crossing limit buy at the best ask: fills as taker
    const size = D.min(bestAsk[1], '0.002');
    const taker = await orders.addOrder(
      Spot.Order.AddOrderReq.create({ clientOid: 'sdk-take-1', symbol: 'BTC-USDT', side: OrderReq.SideEnum.BUY, type: OrderReq.TypeEnum.LIMIT, price: bestAsk[0], size, timeInForce: OrderReq.TimeInForceEnum.IOC }),
    );
    const fills = await orders.getTradeHistory(Spot.Order.GetTradeHistoryReq.builder().setSymbol('BTC-USDT').setOrderId(taker.orderId).build());
    const engineFills = sb.state.exchange.fills(user.uid, { symbol: 'BTC-USDT', orderId: taker.orderId }).items;
    assert.equal(fills.items.length, engineFills.length);
    assert.ok(fills.items.length >= 1);
    const f = fills.items[0];
    assert.equal(f.orderId, taker.orderId);
    assert.equal(f.liquidity, 'taker');
    assert.equal(f.price, bestAsk[0]);
    assert.equal(f.size, engineFills[0].size);
    assert.equal(f.fee, engineFills[0].fee);
    assert.equal(f.feeCurrency, 'USDT');
    assert.equal(D.cmp(f.feeRate, '0.001'), 0);
    assert.equal(fills.items.reduce((a, x) => D.add(a, x.size), '0'), size);
    const done = await orders.getOrderByOrderId(Spot.Order.GetOrderByOrderIdReq.create({ orderId: taker.orderId, symbol: 'BTC-USDT' }));
    assert.equal(done.dealSize, size);
    assert.equal(done.active, false);
    const all = await orders.getTradeHistory(Spot.Order.GetTradeHistoryReq.builder().setSymbol('BTC-USDT').setLimit(100).build());
    assert.equal(all.items.length, engineFills.length);
  });

  it('inner transfer, deposit address (V1, V3) and withdrawal (V1, V3)', async () => {
    const accountSvc = rest.getAccountService();
    const moved = await accountSvc.getTransferApi().innerTransfer(
      Account.Transfer.InnerTransferReq.create({ clientOid: 'sdk-xfer-1', currency: 'USDT', amount: '200', from: Account.Transfer.InnerTransferReq.FromEnum.TRADE, to: Account.Transfer.InnerTransferReq.ToEnum.MAIN }),
    );
    assert.match(moved.orderId, /\S/);
    const main = () => sb.state.exchange.accounts(user.uid, { currency: 'USDT', type: 'main' })[0];
    assert.equal(main().available, '1200');

    const addr = await accountSvc.getDepositApi().addDepositAddressV1(Account.Deposit.AddDepositAddressV1Req.create({ currency: 'USDT', chain: 'trx' }));
    assert.ok(addr.address.length > 10, addr.address);
    assert.equal(addr.chain, 'TRC20');
    // the SDK's "Get Deposit Addresses (V2)" reads it back (GET /api/v2/deposit-addresses, an array)
    const listed = await accountSvc.getDepositApi().getDepositAddressV2(Account.Deposit.GetDepositAddressV2Req.builder().setCurrency('USDT').setChain('trx').build());
    assert.deepEqual(
      listed.data.map((a) => [a.address, a.memo, a.chain, a.chainId, a.currency]),
      [[addr.address, '', 'TRC20', 'trx', 'USDT']],
    );
    const addr3 = await accountSvc.getDepositApi().addDepositAddressV3(Account.Deposit.AddDepositAddressV3Req.create({ currency: 'BTC', chain: 'btc' }));
    assert.ok(addr3.address.length > 10, addr3.address);
    assert.equal(sb.state.depositAddresses.filter((a) => a.uid === user.uid).length, 2);

    const w1 = await accountSvc.getWithdrawalApi().withdrawalV1(
      Account.Withdrawal.WithdrawalV1Req.create({ currency: 'USDT', address: 'TKFRQXSDcY4kd3QLzw7uK16GmLrjJggwX8', amount: 10, chain: 'trx' }),
    );
    assert.match(w1.withdrawalId, /\S/);
    const rec = sb.state.withdrawals.get(w1.withdrawalId)!;
    assert.equal(rec.amount, '10');
    assert.equal(rec.chainName, 'TRC20');
    assert.equal(rec.toAddress, 'TKFRQXSDcY4kd3QLzw7uK16GmLrjJggwX8');
    assert.equal(main().available, D.sub('1200', rec.totalDebit));

    const w3 = await accountSvc.getWithdrawalApi().withdrawalV3(
      Account.Withdrawal.WithdrawalV3Req.create({
        currency: 'USDT',
        toAddress: '0x62d35481cb74fa959aec61d33a5d4507a1234567',
        amount: '25',
        chain: 'eth',
        withdrawType: Account.Withdrawal.WithdrawalV3Req.WithdrawTypeEnum.ADDRESS,
      }),
    );
    const rec3 = sb.state.withdrawals.get(w3.withdrawalId)!;
    assert.equal(rec3.amount, '25');
    assert.equal(rec3.version, 'v3');
  });

  it('errors reach the SDK as KuCoin envelopes', async () => {
    const orders = rest.getSpotService().getOrderApi();
    const e1 = await restError(
      orders.addOrder(Spot.Order.AddOrderReq.create({ symbol: 'BTC-USDT', side: OrderReq.SideEnum.BUY, type: OrderReq.TypeEnum.LIMIT, price: '10000', size: '1000', clientOid: 'sdk-big' })),
    );
    assert.equal(e1.getCommonResponse()?.code, '200004');

    const wrong = sdkClient(sb.baseUrl, { ...user, apiSecret: 'not-the-secret' }, { retries: 1 }).restService();
    const e2 = await restError(wrong.getAccountService().getAccountApi().getSpotAccountList(Account.Account.GetSpotAccountListReq.builder().build()));
    // key versions 2/3 sign the passphrase with the secret, so a wrong secret fails the passphrase check first
    assert.match(e2.message, /^HTTP 401 \{"code":"400004","msg":"Invalid KC-API-PASSPHRASE"\}$/);
    const unknown = sdkClient(sb.baseUrl, { ...user, apiKey: 'ffffffffffffffffffffffff' }, { retries: 1 }).restService();
    const e2b = await restError(unknown.getAccountService().getAccountApi().getSpotAccountList(Account.Account.GetSpotAccountListReq.builder().build()));
    assert.match(e2b.message, /^HTTP 401 \{"code":"400003","msg":"[^"]+"\}$/);

    const readOnly = await admin<UserCreds>(sb, 'POST', '/sandbox/v1/users', { keyVersion: '3', permissions: ['General'] });
    const ro = sdkClient(sb.baseUrl, readOnly, { retries: 1 }).restService();
    const e3 = await restError(
      ro.getSpotService().getOrderApi().addOrderTest(Spot.Order.AddOrderTestReq.create({ symbol: 'BTC-USDT', side: TestReq.SideEnum.BUY, type: TestReq.TypeEnum.LIMIT, price: '10000', size: '0.001' })),
    );
    assert.match(e3.message, /^HTTP 403 \{"code":"400007","msg":"[^"]+"\}$/);
  });
});
