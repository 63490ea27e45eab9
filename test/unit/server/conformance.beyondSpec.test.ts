/**
 * Conformance of the endpoints beyond the spec with KuCoin's official
 * kucoin-universal-sdk (v1.3.0, key version 3), for every new endpoint the SDK has: spot account
 * type, cross/isolated margin symbols, futures "all symbols" (the SDK's futures endpoint also pointed
 * at the sandbox), ticker (level 1), trade history, klines, full order book, 24 h stats, closed
 * orders, order by clientOid and its cancel, symbols with open orders, actual fee, V1 deposit address,
 * deposit and withdrawal history, withdrawal cancel, flex (universal) transfer, transfer quotas,
 * spot and trade_hf ledgers. Each SDK result is compared with the sandbox's own state. Requests with
 * optional fields are built with the SDK's builders (see conformance.test.ts for the `create` quirk).
 */
import { strict as assert } from 'node:assert';
import { Account, DefaultClient, Margin, Spot } from 'kucoin-universal-sdk';
import { sdkClient } from './sdkClient';
import * as D from '../../../src/api/decimal';
import { startSandbox, type RunningSandbox } from '../../../src/exchange/server/index';
import { admin, createUser } from './helpers';

describe('conformance with kucoin-universal-sdk: endpoints beyond the spec', function () {
  this.timeout(30_000);
  let sb: RunningSandbox;
  let uid: string;
  let rest: ReturnType<DefaultClient['restService']>;

  before(async () => {
    sb = await startSandbox({ port: 0, sim: false, seed: 12, settleIntervalMs: 60_000 });
    const u = await createUser(sb, {
      keyVersion: '3',
      takerFeeRate: '0.002',
      makerFeeRate: '0.001',
      balances: [
        { currency: 'USDT', type: 'trade', amount: '50000' },
        { currency: 'USDT', type: 'main', amount: '1000' },
        { currency: 'BTC', type: 'trade', amount: '1' },
      ],
    });
    uid = u.uid;
    rest = sdkClient(sb.baseUrl, u, { retries: 1, explain: false, futures: true }).restService();
  });
  after(async () => {
    await sb?.close();
  });

  it('account type, margin and futures symbol lists', async () => {
    const acct = await rest.getAccountService().getAccountApi().getSpotAccountType();
    assert.equal(acct.data, true);
    const margin = rest.getMarginService().getMarketApi();
    const cross = await margin.getCrossMarginSymbols(Margin.Market.GetCrossMarginSymbolsReq.builder().build());
    assert.deepEqual(cross.items, []);
    assert.deepEqual((await margin.getIsolatedMarginSymbols()).data, []);
    assert.deepEqual((await rest.getFuturesService().getMarketApi().getAllSymbols()).data, []);
  });

  it('market data: ticker, trade history, klines, full order book, 24 h stats', async () => {
    const orders = rest.getSpotService().getOrderApi();
    // two trades against the seeded book
    for (const side of [Spot.Order.AddOrderReq.SideEnum.BUY, Spot.Order.AddOrderReq.SideEnum.SELL]) {
      await orders.addOrder(Spot.Order.AddOrderReq.builder().setSymbol('BTC-USDT').setSide(side).setType(Spot.Order.AddOrderReq.TypeEnum.MARKET).setSize('0.003').build());
    }
    const market = rest.getSpotService().getMarketApi();
    const tape = sb.state.exchange.trades('BTC-USDT');
    const last = tape[tape.length - 1];
    const ticker = await market.getTicker(Spot.Market.GetTickerReq.builder().setSymbol('BTC-USDT').build());
    const bba = sb.state.exchange.bestBidAsk('BTC-USDT');
    assert.deepEqual([ticker.bestBid, ticker.bestAsk, ticker.price, ticker.size, ticker.sequence], [bba.bestBid, bba.bestAsk, last.price, last.size, String(sb.state.exchange.sequence('BTC-USDT'))]);

    const hist = await market.getTradeHistory(Spot.Market.GetTradeHistoryReq.builder().setSymbol('BTC-USDT').build());
    // `time` is in ns, above 2^53: the SDK's JSON.parse rounds it (as with KuCoin itself); ms survive
    assert.deepEqual(hist.data.map((t) => [t.sequence, t.price, t.size, t.side, Math.round(t.time / 1e6)]), tape.map((t) => [t.sequence, t.price, t.size, t.side, t.time]));

    const klines = await market.getKlines(Spot.Market.GetKlinesReq.builder().setSymbol('BTC-USDT').setType(Spot.Market.GetKlinesReq.TypeEnum._1MIN).build());
    assert.deepEqual(klines.data, sb.state.tape.candles('BTC-USDT', '1min'));
    const open = tape.filter((t) => Math.floor(t.time / 60_000) * 60 === Number(klines.data[0][0]));
    assert.equal(klines.data[0][5], open.reduce((a, t) => D.add(a, t.size), '0'));

    const full = await market.getFullOrderBook(Spot.Market.GetFullOrderBookReq.builder().setSymbol('BTC-USDT').build());
    const book = sb.state.exchange.level2('BTC-USDT', 1e9);
    assert.deepEqual([full.sequence, full.bids, full.asks], [book.sequence, book.bids, book.asks]);

    const stats = await market.get24hrStats(Spot.Market.Get24hrStatsReq.builder().setSymbol('BTC-USDT').build());
    assert.equal(stats.last, last.price);
    assert.equal(stats.vol, tape.reduce((a, t) => D.add(a, t.size), '0'));
    assert.equal(stats.symbol, 'BTC-USDT');
  });

  it('orders: closed orders, by clientOid (get, cancel), symbols with open orders, actual fee', async () => {
    const orders = rest.getSpotService().getOrderApi();
    const placed = await orders.addOrder(
      Spot.Order.AddOrderReq.builder().setClientOid('sdk-coid-1').setSymbol('BTC-USDT').setSide(Spot.Order.AddOrderReq.SideEnum.BUY).setType(Spot.Order.AddOrderReq.TypeEnum.LIMIT).setPrice('20000').setSize('0.001').build(),
    );
    const byCoid = await orders.getOrderByClientOid(Spot.Order.GetOrderByClientOidReq.builder().setClientOid('sdk-coid-1').setSymbol('BTC-USDT').build());
    assert.deepEqual([byCoid.id, byCoid.active, byCoid.price], [placed.orderId, true, '20000']);
    assert.deepEqual((await orders.getSymbolsWithOpenOrder()).symbols, ['BTC-USDT']);
    const c = await orders.cancelOrderByClientOid(Spot.Order.CancelOrderByClientOidReq.builder().setClientOid('sdk-coid-1').setSymbol('BTC-USDT').build());
    assert.equal(c.clientOid, 'sdk-coid-1');
    assert.equal(sb.state.exchange.getOrder(uid, 'BTC-USDT', placed.orderId).active, false);
    assert.deepEqual((await orders.getSymbolsWithOpenOrder()).symbols, []);

    const closed = await orders.getClosedOrders(Spot.Order.GetClosedOrdersReq.builder().setSymbol('BTC-USDT').setLimit(100).build());
    const expected = sb.state.exchange.doneOrders(uid, 'BTC-USDT', { limit: 100 });
    assert.deepEqual(closed.items.map((o) => [o.id, o.side, o.type, o.dealSize, o.active]), expected.map((o) => [o.id, o.side, o.type, o.dealSize, false]));
    assert.equal(closed.items[0].id, placed.orderId);
    const limits = await orders.getClosedOrders(Spot.Order.GetClosedOrdersReq.builder().setSymbol('BTC-USDT').setType(Spot.Order.GetClosedOrdersReq.TypeEnum.LIMIT).build());
    assert.deepEqual(limits.items.map((o) => o.id), [placed.orderId]);

    const fees = await rest.getAccountService().getFeeApi().getSpotActualFee(Account.Fee.GetSpotActualFeeReq.builder().setSymbols('BTC-USDT,ETH-USDT').build());
    assert.deepEqual(fees.data.map((f) => [f.symbol, f.takerFeeRate, f.makerFeeRate]), [['BTC-USDT', '0.002', '0.001'], ['ETH-USDT', '0.002', '0.001']]);
  });

  it('funding: V1 address, deposit and withdrawal history, withdrawal cancel, flex transfer, quotas', async () => {
    const acc = rest.getAccountService();
    const created = await acc.getDepositApi().addDepositAddressV1(Account.Deposit.AddDepositAddressV1Req.builder().setCurrency('USDT').setChain('trx').build());
    const got = await acc.getDepositApi().getDepositAddressV1(Account.Deposit.GetDepositAddressV1Req.builder().setCurrency('USDT').setChain('trx').build());
    assert.deepEqual([got.address, got.chain, got.chainId], [created.address, 'TRC20', 'trx']);

    await admin(sb, 'POST', '/sandbox/v1/deposits', { uid, currency: 'USDT', chain: 'trx', amount: '12.5' });
    const deps = await acc.getDepositApi().getDepositHistory(Account.Deposit.GetDepositHistoryReq.builder().setCurrency('USDT').build());
    assert.deepEqual(deps.items.map((d) => [d.amount, d.status, d.chain, d.address]), [['12.5', 'SUCCESS', 'trx', created.address]]);
    assert.equal(deps.totalNum, 1);

    const main = () => sb.state.exchange.accounts(uid, { currency: 'USDT', type: 'main' })[0];
    const before = main();
    const w = await acc.getWithdrawalApi().withdrawalV1(Account.Withdrawal.WithdrawalV1Req.builder().setCurrency('USDT').setAddress('TKFRQXSDcY4kd3QLzw7uK16GmLrjJggwX8').setAmount(10).setChain('trx').build());
    const hist = await acc.getWithdrawalApi().getWithdrawalHistory(Account.Withdrawal.GetWithdrawalHistoryReq.builder().setCurrency('USDT').build());
    assert.deepEqual(hist.items.map((x) => [x.id, x.status, x.amount]), [[w.withdrawalId, 'PROCESSING', '10']]);
    await acc.getWithdrawalApi().cancelWithdrawal(Account.Withdrawal.CancelWithdrawalReq.builder().setWithdrawalId(w.withdrawalId).build());
    assert.deepEqual(main(), before);
    assert.equal(sb.state.withdrawals.get(w.withdrawalId)?.status, 'FAILURE');

    const flex = await acc.getTransferApi().flexTransfer(
      Account.Transfer.FlexTransferReq.builder()
        .setClientOid('sdk-flex-1')
        .setCurrency('USDT')
        .setAmount('40')
        .setType(Account.Transfer.FlexTransferReq.TypeEnum.INTERNAL)
        .setFromAccountType(Account.Transfer.FlexTransferReq.FromAccountTypeEnum.MAIN)
        .setToAccountType(Account.Transfer.FlexTransferReq.ToAccountTypeEnum.TRADE)
        .build(),
    );
    assert.match(flex.orderId, /^[0-9a-f]{24}$/);
    assert.equal(main().balance, D.sub(before.balance, '40'));

    const q = await acc.getTransferApi().getTransferQuotas(Account.Transfer.GetTransferQuotasReq.builder().setCurrency('USDT').setType(Account.Transfer.GetTransferQuotasReq.TypeEnum.MAIN).build());
    assert.deepEqual([q.balance, q.available, q.holds, q.transferable], [main().balance, main().available, main().holds, main().available]);
  });

  it('ledgers: spot (paged) and trade_hf (by lastId) answer the SDK in its shapes', async () => {
    const api = rest.getAccountService().getAccountApi();
    const spot = await api.getSpotLedger(Account.Account.GetSpotLedgerReq.builder().setCurrency('USDT').build());
    const hf = await api.getSpotHFLedger(Account.Account.GetSpotHFLedgerReq.builder().setCurrency('USDT').build());
    const book = sb.state.ledger.entriesOf(uid).filter((e) => e.currency === 'USDT');
    // this user's USDT moved by grants, trades, a deposit, a flex transfer and a cancelled withdrawal
    assert.deepEqual([...new Set(book.map((e) => e.bizType))].sort(), ['DEPOSIT', 'TRADE_EXCHANGE', 'TRANSFER']);
    assert.equal(spot.totalNum, book.length);
    assert.deepEqual(
      spot.items.map((e) => [e.bizType, e.accountType, e.direction, e.amount, e.fee, e.balance]),
      book.slice().reverse().slice(0, 50).map((e) => [e.bizType, e.accountType === 'main' ? 'MAIN' : 'TRADE', e.direction, e.amount, e.fee, e.balance]),
    );
    const usdtTrade = sb.state.exchange.accounts(uid, { currency: 'USDT', type: 'trade' })[0];
    assert.equal(hf.data[0].balance, usdtTrade.balance, 'the newest trade_hf entry shows the balance');
    assert.deepEqual(spot.items.map((e) => e.id), book.slice().reverse().slice(0, 50).map((e) => String(e.id)));
    assert.deepEqual(hf.data.map((e) => e.id), book.filter((e) => e.accountType === 'trade').reverse().slice(0, 100).map((e) => String(e.id)));
  });
});
