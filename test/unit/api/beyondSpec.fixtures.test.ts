/**
 * Every published payload of test/fixtures/kucoin/beyond-spec/ (the KuCoin endpoints beyond
 * the spec that real clients call) decoded through the real client pipeline — the typed
 * `SpotClient` method → URL → lossless JSON → envelope → zod — with the request URL and the field
 * values checked. POST fixtures also parse their published request with the request schema where
 * SpotDesk sends that request. A fixture file that no case claims fails the last test.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SpotClient } from '../../../src/api/client';
import { parseJson } from '../../../src/api/json';
import * as S from '../../../src/api/schemas';
import type { FetchLike } from '../../../src/api/transport';
import { BEYOND_SPEC_DIR } from '../../fixtures';

const DIR = BEYOND_SPEC_DIR;
const covered = new Set<string>();

/** A client whose fetch answers with the fixture's envelope (a POST fixture's `response`), recording URL, method and body. */
function clientFor(file: string, seen: { url: string; method: string; body: string }[]): SpotClient {
  covered.add(file);
  const text = fs.readFileSync(path.join(DIR, file), 'utf8');
  // a POST fixture is {request, response}: answer its response (no numbers beyond 2^53 in those)
  const doc = JSON.parse(text) as Record<string, unknown>;
  const raw = 'response' in doc ? JSON.stringify(doc.response) : text;
  const fetch: FetchLike = async (url, init) => {
    seen.push({ url, method: init.method, body: typeof init.body === 'string' ? init.body : '' });
    return { status: 200, headers: { get: (n: string) => (n === 'content-type' ? 'application/json' : null) }, text: async () => raw };
  };
  return new SpotClient({ baseUrl: 'http://fixture.invalid', fetch, credentials: { apiKey: 'k'.repeat(24), apiSecret: 'secret', apiPassphrase: 'pass', keyVersion: '2' } });
}

const U = 'http://fixture.invalid';

describe('beyond-spec fixtures: account mode, HF probe, margin symbol lists', () => {
  it('hf/accounts/opened: a boolean', async () => {
    const seen: { url: string; method: string; body: string }[] = [];
    assert.equal(await clientFor('GET_api_v1_hf_accounts_opened.json', seen).isHfAccount(), false);
    assert.equal(seen[0].url, `${U}/api/v1/hf/accounts/opened`);
  });
  it('v3 margin symbols: timestamp and items with increments as decimal strings', async () => {
    const seen: { url: string; method: string; body: string }[] = [];
    const out = await clientFor('GET_api_v3_margin_symbols.json', seen).getMarginSymbols();
    assert.equal(seen[0].url, `${U}/api/v3/margin/symbols`);
    assert.equal(out.timestamp, 1729665839353);
    assert.deepEqual(
      out.items.map((i) => [i.symbol, i.market, i.baseIncrement, i.priceIncrement, i.minFunds, i.enableTrading]),
      [['BTC-USDT', 'USDS', '0.00000001', '0.1', '0.1', true]],
    );
  });
  it('isolated symbols: leverage and borrow flags', async () => {
    const seen: { url: string; method: string; body: string }[] = [];
    const out = await clientFor('GET_api_v1_isolated_symbols.json', seen).getIsolatedSymbols();
    assert.equal(seen[0].url, `${U}/api/v1/isolated/symbols`);
    assert.equal(out[0].symbol, 'BTC-USDT');
    assert.equal(out[0].maxLeverage, 10);
    assert.equal(out[0].flDebtRatio, '0.97');
    assert.equal(out[0].quoteBorrowCoefficient, '1');
  });
});

describe('beyond-spec fixtures: market data', () => {
  it('24 h stats', async () => {
    const seen: { url: string; method: string; body: string }[] = [];
    const out = await clientFor('GET_api_v1_market_stats.json', seen).getStats('BTC-USDT');
    assert.equal(seen[0].url, `${U}/api/v1/market/stats?symbol=BTC-USDT`);
    assert.equal(out.time, 1729175612158);
    assert.equal(out.changeRate, '-0.0114');
    assert.equal(out.volValue, '117321982.415978333');
    assert.equal(out.averagePrice, '67281.21437289');
    assert.equal(out.takerCoefficient, '1');
  });
  it('level 1', async () => {
    const seen: { url: string; method: string; body: string }[] = [];
    const out = await clientFor('GET_api_v1_market_orderbook_level1.json', seen).getLevel1('BTC-USDT');
    assert.equal(seen[0].url, `${U}/api/v1/market/orderbook/level1?symbol=BTC-USDT`);
    assert.deepEqual(out, { time: 1729172965609, sequence: '14609309753', price: '67269', size: '0.000025', bestBid: '67267.5', bestBidSize: '0.000025', bestAsk: '67267.6', bestAskSize: '1.24808993' });
  });
  it('trade histories: nanosecond times kept exact (above 2^53)', async () => {
    const seen: { url: string; method: string; body: string }[] = [];
    const out = await clientFor('GET_api_v1_market_histories.json', seen).getTradeHistory('BTC-USDT');
    assert.equal(seen[0].url, `${U}/api/v1/market/histories?symbol=BTC-USDT`);
    assert.deepEqual(out.map((t) => [t.sequence, t.price, t.size, t.side, t.time]), [
      ['10976028003549185', '67122', '0.000025', 'buy', '1729177117877000000'],
      ['10976028003549188', '67122', '0.01792257', 'buy', '1729177117877000000'],
      ['10976028003549191', '67122.9', '0.05654289', 'buy', '1729177117877000000'],
    ]);
  });
  it('candles: [time s, open, close, high, low, volume, turnover] newest first', async () => {
    const seen: { url: string; method: string; body: string }[] = [];
    const out = await clientFor('GET_api_v1_market_candles.json', seen).getCandles({ symbol: 'BTC-USDT', type: '1min', startAt: 1566789600, endAt: 1566789720 });
    assert.equal(seen[0].url, `${U}/api/v1/market/candles?symbol=BTC-USDT&type=1min&startAt=1566789600&endAt=1566789720`);
    assert.equal(out.length, 3);
    assert.deepEqual(out[0], ['1566789720', '10411.5', '10401.9', '10411.5', '10396.3', '29.11357276', '302889.301529914']);
    assert.deepEqual(out.map((c) => c[0]), ['1566789720', '1566789660', '1566789600']);
  });
  it('full level 2 (v3, signed)', async () => {
    const seen: { url: string; method: string; body: string }[] = [];
    const out = await clientFor('GET_api_v3_market_orderbook_level2.json', seen).getFullOrderBook('BTC-USDT');
    assert.equal(seen[0].url, `${U}/api/v3/market/orderbook/level2?symbol=BTC-USDT`);
    assert.equal(out.sequence, '14610502970');
    assert.deepEqual(out.bids[0], ['66976.4', '0.69109872']);
    assert.deepEqual(out.asks[1], ['66976.8', '0.0005']);
  });
});

describe('beyond-spec fixtures: orders and fees', () => {
  it('done orders: lastId (JSON number) as an exact string, items as HF orders', async () => {
    const seen: { url: string; method: string; body: string }[] = [];
    const out = await clientFor('GET_api_v1_hf_orders_done.json', seen).getDoneOrders({ symbol: 'BTC-USDT', side: 'buy', limit: 20, lastId: '19814995255306' });
    assert.equal(seen[0].url, `${U}/api/v1/hf/orders/done?symbol=BTC-USDT&side=buy&lastId=19814995255306&limit=20`);
    assert.equal(out.lastId, '19814995255305');
    assert.equal(out.items[0].id, '6717422bd51c29000775ea03');
    assert.equal(out.items[0].active, false);
    assert.equal(out.items[0].dealFunds, '0.677176');
  });
  it('order by clientOid (GET) and its cancel (DELETE)', async () => {
    const seen: { url: string; method: string; body: string }[] = [];
    const o = await clientFor('GET_api_v1_hf_orders_client-order_clientOid.json', seen).getOrderByClientOid('BTC-USDT', '5c52e11203aa677f33e493fb');
    assert.equal(seen[0].url, `${U}/api/v1/hf/orders/client-order/5c52e11203aa677f33e493fb?symbol=BTC-USDT`);
    assert.equal(o.clientOid, '5c52e11203aa677f33e493fb');
    assert.equal(o.remark, 'order remarks');
    const c = await clientFor('DELETE_api_v1_hf_orders_client-order_clientOid.json', seen).cancelOrderByClientOid('BTC-USDT', '5c52e11203aa677f33e493fb');
    assert.equal(seen[1].method, 'DELETE');
    assert.equal(seen[1].url, `${U}/api/v1/hf/orders/client-order/5c52e11203aa677f33e493fb?symbol=BTC-USDT`);
    assert.deepEqual(c, { clientOid: '5c52e11203aa677f33e493fb' });
  });
  it('active order symbols', async () => {
    const seen: { url: string; method: string; body: string }[] = [];
    assert.deepEqual(await clientFor('GET_api_v1_hf_orders_active_symbols.json', seen).getActiveOrderSymbols(), ['ETH-USDT', 'BTC-USDT']);
    assert.equal(seen[0].url, `${U}/api/v1/hf/orders/active/symbols`);
  });
  it('trade fees: symbols joined with commas', async () => {
    const seen: { url: string; method: string; body: string }[] = [];
    const out = await clientFor('GET_api_v1_trade-fees.json', seen).getTradeFees(['BTC-USDT', 'ETH-USDT']);
    assert.equal(seen[0].url, `${U}/api/v1/trade-fees?symbols=BTC-USDT%2CETH-USDT`);
    assert.deepEqual(out, [
      { symbol: 'BTC-USDT', takerFeeRate: '0.001', makerFeeRate: '0.001' },
      { symbol: 'ETH-USDT', takerFeeRate: '0.001', makerFeeRate: '0.001' },
    ]);
  });
});

describe('beyond-spec fixtures: funding and ledgers', () => {
  it('V1 deposit address (GET)', async () => {
    const seen: { url: string; method: string; body: string }[] = [];
    const out = await clientFor('GET_api_v1_deposit-addresses.json', seen).getDepositAddress('USDT', 'eth');
    assert.equal(seen[0].url, `${U}/api/v1/deposit-addresses?currency=USDT&chain=eth`);
    assert.deepEqual(out, { address: '0xea220bf61c3c2b0adc2cfa29fec3d2677745a379', memo: '', chain: 'ERC20', chainId: 'eth', to: 'MAIN', currency: 'USDT' });
  });
  it('deposits page', async () => {
    const seen: { url: string; method: string; body: string }[] = [];
    const out = await clientFor('GET_api_v1_deposits.json', seen).getDeposits({ currency: 'USDT', status: 'SUCCESS', currentPage: 1, pageSize: 50 });
    assert.equal(seen[0].url, `${U}/api/v1/deposits?currency=USDT&status=SUCCESS&currentPage=1&pageSize=50`);
    assert.deepEqual([out.currentPage, out.pageSize, out.totalNum, out.totalPage], [1, 50, 5, 1]);
    assert.deepEqual(out.items.map((d) => [d.chain, d.status, d.amount, d.walletTxId, d.isInner, d.createdAt]), [
      ['', 'SUCCESS', '1.00000000', null, true, 1728555875000],
      ['trx', 'SUCCESS', '6.00000000', null, true, 1721730920000],
    ]);
  });
  it('withdrawals page (the published example has no id)', async () => {
    const seen: { url: string; method: string; body: string }[] = [];
    const out = await clientFor('GET_api_v1_withdrawals.json', seen).getWithdrawals({ status: 'SUCCESS' });
    assert.equal(seen[0].url, `${U}/api/v1/withdrawals?status=SUCCESS`);
    assert.equal(out.items.length, 2);
    assert.equal(out.items[0].id, undefined);
    assert.equal(out.items[1].address, 'TSv3L1fS7******X4nLP6rqNxYz');
    assert.equal(out.items[1].fee, '0.00000000');
  });
  it('cancel withdrawal: data null', async () => {
    const seen: { url: string; method: string; body: string }[] = [];
    assert.equal(await clientFor('DELETE_api_v1_withdrawals_withdrawalId.json', seen).cancelWithdrawal('67e6515f7960ba0007b42025'), undefined);
    assert.equal(seen[0].method, 'DELETE');
    assert.equal(seen[0].url, `${U}/api/v1/withdrawals/67e6515f7960ba0007b42025`);
  });
  it('universal transfer: the published request parses; the answer is {orderId}', async () => {
    const doc = parseJson(fs.readFileSync(path.join(DIR, 'POST_api_v3_accounts_universal-transfer.json'), 'utf8')) as { request: unknown };
    const req = S.UniversalTransferRequest.parse(doc.request);
    assert.equal(req.type, 'PARENT_TO_SUB');
    assert.equal(req.amount, '0.01');
    const seen: { url: string; method: string; body: string }[] = [];
    const out = await clientFor('POST_api_v3_accounts_universal-transfer.json', seen).universalTransfer({ clientOid: 'c1', currency: 'USDT', amount: '0.01', type: 'INTERNAL', fromAccountType: 'MAIN', toAccountType: 'TRADE' });
    assert.equal(seen[0].url, `${U}/api/v3/accounts/universal-transfer`);
    assert.deepEqual(JSON.parse(seen[0].body), { clientOid: 'c1', currency: 'USDT', amount: '0.01', type: 'INTERNAL', fromAccountType: 'MAIN', toAccountType: 'TRADE' });
    assert.deepEqual(out, { orderId: '6705f7248c6954000733ecac' });
  });
  it('transferable', async () => {
    const seen: { url: string; method: string; body: string }[] = [];
    const out = await clientFor('GET_api_v1_accounts_transferable.json', seen).getTransferable('USDT', 'MAIN');
    assert.equal(seen[0].url, `${U}/api/v1/accounts/transferable?currency=USDT&type=MAIN`);
    assert.deepEqual(out, { currency: 'USDT', balance: '10.5', available: '10.5', holds: '0', transferable: '10.5' });
  });
  it('ledgers (classic page) and trade_hf ledgers (createdAt as a digit string, context JSON text)', async () => {
    const seen: { url: string; method: string; body: string }[] = [];
    const a = await clientFor('GET_api_v1_accounts_ledgers.json', seen).getLedgers({ currency: 'USDT', direction: 'out', bizType: 'SUB_TRANSFER' });
    assert.equal(seen[0].url, `${U}/api/v1/accounts/ledgers?currency=USDT&direction=out&bizType=SUB_TRANSFER`);
    assert.deepEqual(a.items[0], { id: '265329987780896', currency: 'USDT', amount: '0.01', fee: '0', balance: '0', accountType: 'TRADE', bizType: 'SUB_TRANSFER', direction: 'out', createdAt: 1728658481484, context: '' });
    const h = await clientFor('GET_api_v1_hf_accounts_ledgers.json', seen).getHfLedgers({ bizType: 'TRADE_EXCHANGE', lastId: '254062248624418', limit: 50 });
    assert.equal(seen[1].url, `${U}/api/v1/hf/accounts/ledgers?bizType=TRADE_EXCHANGE&lastId=254062248624418&limit=50`);
    assert.equal(h[0].id, '254062248624417');
    assert.equal(h[0].createdAt, 1728443957539);
    assert.equal(h[0].accountType, 'TRADE_HF');
    assert.equal(h[0].fee, '0.00159920');
    assert.deepEqual(JSON.parse(h[0].context ?? ''), { symbol: 'KCS-USDT', orderId: '6705f6350dc7210007d6a36d', tradeId: '10046097631627265' });
  });
});

describe('beyond-spec fixtures: private websocket token', () => {
  it('bullet-private: token and instance servers', async () => {
    const seen: { url: string; method: string; body: string }[] = [];
    const out = await clientFor('POST_api_v1_bullet-private.json', seen).getBulletPrivate();
    assert.deepEqual([seen[0].method, seen[0].url], ['POST', `${U}/api/v1/bullet-private`]);
    assert.match(out.token, /^2neAiuYvAU737TOajb2U3uT8/);
    assert.deepEqual(out.instanceServers.map((i) => [i.endpoint, i.encrypt, i.pingInterval, i.pingTimeout]), [['wss://ws-api-futures.kucoin.com/', true, 18000, 10000]]);
  });
});

describe('beyond-spec fixtures: market/reference, account and funding reads (kucoin-universal-sdk 1.3.0 examples)', () => {
  type Seen = { url: string; method: string; body: string }[];
  it('v2 symbol: one pair with increments and the call-auction fields (null outside an auction)', async () => {
    const seen: Seen = [];
    const out = await clientFor('GET_api_v2_symbols_symbol.json', seen).getSymbol('BTC-USDT');
    assert.equal(seen[0].url, `${U}/api/v2/symbols/BTC-USDT`);
    assert.deepEqual([out.symbol, out.priceIncrement, out.baseIncrement, out.minFunds, out.callauctionIsEnabled, out.callauctionPriceFloor, out.tradingStartTime], ['BTC-USDT', '0.1', '0.00000001', '0.1', false, null, null]);
  });
  it('v3 announcements: a page with types, times in ms and URLs; the published query is sent as given', async () => {
    const seen: Seen = [];
    const q = { currentPage: 1, pageSize: 50, annType: 'latest-announcements' as const, lang: 'en_US', startTime: 1729594043000, endTime: 1729697729000 };
    const out = await clientFor('GET_api_v3_announcements.json', seen).getAnnouncements(q);
    assert.equal(seen[0].url, `${U}/api/v3/announcements?currentPage=1&pageSize=50&annType=latest-announcements&lang=en_US&startTime=1729594043000&endTime=1729697729000`);
    assert.deepEqual([out.totalNum, out.totalPage, out.pageSize, out.items.length], [195, 13, 15, 3]);
    assert.deepEqual(out.items[1].annType, ['latest-announcements', 'activities']);
    assert.equal(out.items[2].cTime, 1729497729000);
  });
  it('call auction: the part book (20 levels) and the auction info', async () => {
    const seen: Seen = [];
    const book = await clientFor('GET_api_v1_market_orderbook_callauction_level2_size.json', seen).getCallAuctionBook('BTC-USDT', 20);
    assert.equal(seen[0].url, `${U}/api/v1/market/orderbook/callauction/level2_20?symbol=BTC-USDT`);
    assert.deepEqual([book.sequence, book.bids[0], book.asks[1]], ['14610502970', ['66976.4', '0.69109872'], ['66976.8', '0.0005']]);
    const info = await clientFor('GET_api_v1_market_callauctionData.json', seen).getCallAuctionInfo('BTC-USDT');
    assert.equal(seen[1].url, `${U}/api/v1/market/callauctionData?symbol=BTC-USDT`);
    assert.deepEqual([info.estimatedPrice, info.estimatedSize, info.buyOrderRangeHighPrice, info.time], ['0.17', '0.03715004', '2.788', 1550653727731]);
  });
  it('account by id: currency and balances as decimal strings', async () => {
    const seen: Seen = [];
    const out = await clientFor('GET_api_v1_accounts_accountId.json', seen).getAccountDetail('548674591753');
    assert.equal(seen[0].url, `${U}/api/v1/accounts/548674591753`);
    assert.deepEqual(out, { currency: 'USDT', balance: '26.66759503', available: '26.66759503', holds: '0' });
  });
  it('v3 deposit addresses: every chain with its contract and the target account', async () => {
    const seen: Seen = [];
    const out = await clientFor('GET_api_v3_deposit-addresses.json', seen).getDepositAddressesV3('USDT');
    assert.equal(seen[0].url, `${U}/api/v3/deposit-addresses?currency=USDT`);
    assert.deepEqual(out.map((a) => [a.chainId, a.to, a.memo, a.contractAddress.slice(0, 6)]), [['trx', 'TRADE', '', 'TR7NHq'], ['kcc', 'TRADE', '', '0x0039'], ['ton', 'TRADE', '2085202643', 'EQCxE6'], ['eth', 'MAIN', '', '0xdac1']]);
  });
  it('withdrawal by id: uid a number, amounts decimal strings, cancelType and the fee-return fields', async () => {
    const seen: Seen = [];
    const out = await clientFor('GET_api_v1_withdrawals_withdrawalId.json', seen).getWithdrawal('67e6515f7960ba0007b42025');
    assert.equal(seen[0].url, `${U}/api/v1/withdrawals/67e6515f7960ba0007b42025`);
    assert.deepEqual([out.uid, out.chainId, out.status, out.amount, out.fee, out.walletTxId, out.cancelType, out.returnStatus], [165111215, 'trx', 'SUCCESS', '3.00000000', '0.00000000', null, 'NON_CANCELABLE', 'NOT_RETURN']);
  });
  it('V1 histories: createAt in seconds, the published query is sent as given', async () => {
    const seen: Seen = [];
    const dep = await clientFor('GET_api_v1_hist-deposits.json', seen).getHistDeposits({ currency: 'BTC', status: 'SUCCESS', startAt: 1728663338000, endAt: 1728692138000 });
    assert.equal(seen[0].url, `${U}/api/v1/hist-deposits?currency=BTC&status=SUCCESS&startAt=1728663338000&endAt=1728692138000`);
    assert.deepEqual([dep.items[0].createAt, dep.items[0].amount, dep.items[0].isInner], [1528536998, '0.03266638', false]);
    const wd = await clientFor('GET_api_v1_hist-withdrawals.json', seen).getHistWithdrawals({ currency: 'BTC', status: 'SUCCESS', currentPage: 1, pageSize: 50 });
    assert.equal(seen[1].url, `${U}/api/v1/hist-withdrawals?currency=BTC&status=SUCCESS&currentPage=1&pageSize=50`);
    assert.deepEqual([wd.totalNum, wd.items[0].address, wd.items[0].createAt], [1, '33xW37ZSW4tQvg443Pc7NLCAs167Yc2XUV', 1526723468]);
  });
});

describe('beyond-spec fixtures: coverage', () => {
  it('every beyond-spec fixture is claimed by a test above', () => {
    const all = fs.readdirSync(DIR).filter((f) => f.endsWith('.json'));
    assert.deepEqual(all.filter((f) => !covered.has(f)), []);
  });
});
