/**
 * Every JSON file of test/fixtures/kucoin/ decoded by the schema of its endpoint, through
 * the real client pipeline (lossless JSON → envelope → zod), with field values checked.
 * ERROR_* go through the envelope decoder and must give an ApiError with the right code/helpers.
 * POST_* request parts and *.ccxt-requests.json bodies are parsed by the request schemas.
 * WS_* files are skipped (the websocket feed is not part of the REST client); SIGNING_test_vectors
 * is covered by signing.test.ts. A fixture file that no case claims fails the last test.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SpotClient } from '../../../src/api/client';
import { ApiError } from '../../../src/api/errors';
import { ENDPOINTS, type EndpointName } from '../../../src/api/endpoints';
import { parseJson } from '../../../src/api/json';
import * as S from '../../../src/api/schemas';
import { decodeEnvelope, type FetchLike } from '../../../src/api/transport';
import { FIXTURES_DIR } from '../../fixtures';

const DIR = FIXTURES_DIR;
const read = (f: string) => fs.readFileSync(path.join(DIR, f), 'utf8');
const covered = new Set<string>();
const use = (f: string) => {
  covered.add(f);
  return read(f);
};

/** A client whose fetch answers every request with `text` (status 200), recording the URL. */
function clientAnswering(text: string, seen: string[] = []): SpotClient {
  const fetch: FetchLike = async (url) => {
    seen.push(url);
    return { status: 200, headers: { get: (n: string) => (n === 'content-type' ? 'application/json' : null) }, text: async () => text };
  };
  return new SpotClient({
    baseUrl: 'http://fixture.invalid',
    fetch,
    credentials: { apiKey: 'k'.repeat(24), apiSecret: 'secret', apiPassphrase: 'pass', keyVersion: '2' },
  });
}

/** Response envelope of a GET/DELETE fixture through `client.call(name, params)`. */
async function viaClient<N extends EndpointName>(file: string, name: N, params: Parameters<SpotClient['call']>[1]) {
  const seen: string[] = [];
  const out = await clientAnswering(use(file), seen).call(name, params as never);
  assert.equal(seen.length, 1);
  return { out, url: seen[0] };
}

/** `{request, response}` of a POST fixture: response through the client, request through its schema. */
async function postFixture<N extends EndpointName>(file: string, name: N, fallbackRequest: unknown = {}) {
  const text = use(file);
  const doc = parseJson(text) as { request: unknown; response: unknown };
  const client = clientAnswering(JSON.stringify(doc.response));
  // The response is decoded through the client pipeline; the request is parsed separately because
  // some published requests are not what SpotDesk would send (e.g. bullet-public has none).
  const response = await client.call(name, (doc.request ?? fallbackRequest) as never);
  return { doc, response };
}

describe('fixtures: GET/DELETE responses', () => {
  it('level2_20 doc example: sequence, time, sorted levels as decimal strings', async () => {
    const { out, url } = await viaClient('GET_api_v1_market_orderbook_level2_20.json', 'level2_20', { symbol: 'BTC-USDT' });
    assert.equal(url, 'http://fixture.invalid/api/v1/market/orderbook/level2_20?symbol=BTC-USDT');
    assert.deepEqual(out, {
      sequence: '14610502970',
      time: 1729176273859,
      bids: [['66976.4', '0.69109872'], ['66976.3', '0.14377']],
      asks: [['66976.5', '0.05408199'], ['66976.8', '0.0005']],
    });
  });
  it('level2_20 ccxt live capture', async () => {
    const { out } = await viaClient('GET_api_v1_market_orderbook_level2_20.ccxt-live.json', 'level2_20', { symbol: 'BTC-USDT' });
    assert.equal(out.sequence, '11149534850');
    assert.equal(out.time, 1709898508055);
    assert.deepEqual(out.bids[1], ['67538.5', '0.25229199']);
    assert.deepEqual(out.asks[1], ['67539.9', '0.0001']);
  });
  it('level2_100 (same example)', async () => {
    const { out, url } = await viaClient('GET_api_v1_market_orderbook_level2_100.json', 'level2_100', { symbol: 'BTC-USDT' });
    assert.match(url, /level2_100\?symbol=BTC-USDT$/);
    assert.equal(out.bids.length, 2);
    assert.equal(out.asks[0][0], '66976.5');
  });
  it('hf fills: ids exact (tradeId above 2^53 keeps every digit)', async () => {
    const { out, url } = await viaClient('GET_api_v1_hf_fills.json', 'fills', { symbol: 'BTC-USDT', lastId: '254062248624417', limit: 100 });
    assert.equal(url, 'http://fixture.invalid/api/v1/hf/fills?symbol=BTC-USDT&lastId=254062248624417&limit=100');
    assert.equal(out.lastId, '19814995255305');
    const f = out.items[0];
    assert.equal(f.tradeId, '11029373945659392');
    assert.equal(f.id, '19814995255305');
    assert.equal(f.orderId, '6717422bd51c29000775ea03');
    assert.equal(f.counterOrderId, '67174228135f9e000709da8c');
    assert.equal(f.liquidity, 'taker');
    assert.equal(f.forceTaker, false);
    assert.equal(f.price, '67717.6');
    assert.equal(f.funds, '0.677176');
    assert.equal(f.fee, '0.000677176');
    assert.equal(f.feeRate, '0.001');
    assert.equal(f.stop, '');
    assert.equal(f.tax, '0');
    assert.equal(f.createdAt, 1729577515473);
    // JSON.parse alone would not do: the literal is beyond double precision in general
    assert.equal(JSON.stringify(parseJson('{"t":11029373945659393}')), '{"t":"11029373945659393"}');
  });
  it('hf order by id: stp and tags null accepted', async () => {
    const { out, url } = await viaClient('GET_api_v1_hf_orders_orderId.json', 'order', { orderId: '6717422bd51c29000775ea03', symbol: 'BTC-USDT' });
    assert.equal(url, 'http://fixture.invalid/api/v1/hf/orders/6717422bd51c29000775ea03?symbol=BTC-USDT');
    assert.equal(out.id, '6717422bd51c29000775ea03');
    assert.equal(out.stp, null);
    assert.equal(out.tags, null);
    assert.equal(out.active, false);
    assert.equal(out.inOrderBook, false);
    assert.equal(out.dealFunds, '0.677176');
    assert.equal(out.remainFunds, '0.022824');
    assert.equal(out.timeInForce, 'GTC');
    assert.equal(out.cancelAfter, 0);
    assert.equal(out.lastUpdatedAt, 1729577515481);
  });
  it('hf active orders: array', async () => {
    const { out } = await viaClient('GET_api_v1_hf_orders_active.json', 'activeOrders', { symbol: 'BTC-USDT' });
    assert.equal(out.length, 1);
    assert.equal(out[0].id, '67120bbef094e200070976f6');
    assert.equal(out[0].tags, 'order tags');
    assert.equal(out[0].remainSize, '0.00001');
    assert.equal(out[0].active, true);
    assert.equal(out[0].inOrderBook, true);
  });
  it('currencies: nulls and extra fields kept', async () => {
    const { out } = await viaClient('GET_api_v3_currencies.json', 'currencies', {});
    assert.equal(out.length, 2);
    const btc = out[0];
    assert.equal(btc.currency, 'BTC');
    assert.equal(btc.confirms, null);
    assert.equal(btc.contractAddress, null);
    assert.deepEqual(
      btc.chains.map((c) => [c.chainId, c.depositMinSize, c.maxDeposit, c.withdrawPrecision, c.needTag]),
      [
        ['btc', '0.0002', null, 8, false],
        ['btcln', '0.00001', '0.03', 8, false],
        ['kcc', null, null, 8, false],
        ['bech32', '0.0002', null, 8, false],
      ],
    );
    assert.equal(btc.chains[2].contractAddress, '0xfa93c12cd345c658bc4644d1d4e1b9615952258c');
    assert.equal(btc.chains[3].isWithdrawEnabled, false);
    assert.equal(out[1].currency, 'BTCP');
  });
  it('one currency (path parameter + chain query)', async () => {
    const { out, url } = await viaClient('GET_api_v3_currencies_currency.json', 'currency', { currency: 'BTC', chain: 'eth' });
    assert.equal(url, 'http://fixture.invalid/api/v3/currencies/BTC?chain=eth');
    assert.equal(out.fullName, 'Bitcoin');
    assert.equal(out.chains.length, 4);
    assert.equal(out.chains[1].chainName, 'Lightning Network');
    assert.equal(out.chains[1].withdrawalMinFee, '0.000015');
  });
  it('base fee', async () => {
    const { out, url } = await viaClient('GET_api_v1_base-fee.json', 'baseFee', { currencyType: '1' });
    assert.match(url, /base-fee\?currencyType=1$/);
    assert.deepEqual(out, { takerFeeRate: '0.001', makerFeeRate: '0.001' });
  });
  it('fiat prices: decimal strings kept verbatim', async () => {
    const { out } = await viaClient('GET_api_v1_prices.json', 'prices', { base: 'USD' });
    assert.equal(out.AGLD, '1.1174410000000001');
    assert.equal(out.HNT, '5.8990489999999984');
    assert.ok(Object.keys(out).length > 100);
  });
  it('accounts (doc example and ccxt live capture, both enveloped)', async () => {
    const a = (await viaClient('GET_api_v1_accounts.json', 'accounts', { currency: 'USDT', type: 'main' })).out;
    assert.deepEqual(a.map((x) => [x.id, x.type, x.balance, x.available, x.holds]), [
      ['548674591753', 'trade', '26.66759503', '26.66759503', '0'],
      ['63355cd156298d0001b66e61', 'main', '0.01', '0.01', '0'],
    ]);
    const b = (await viaClient('GET_api_v1_accounts.ccxt-live.json', 'accounts', { type: 'trade' })).out;
    assert.deepEqual(b.map((x) => x.currency), ['USDT', 'LTC', 'BTC', 'TRX']);
    assert.equal(b[1].balance, '0.171021');
  });
  it('markets, status, timestamp', async () => {
    const m = (await viaClient('GET_api_v1_markets.json', 'markets', {})).out;
    assert.equal(m.length, 17);
    assert.ok(m.includes('VR&AR') && m.includes('Layer 1'));
    assert.deepEqual((await viaClient('GET_api_v1_status.json', 'status', {})).out, { status: 'open', msg: '' });
    assert.equal((await viaClient('GET_api_v1_timestamp.json', 'serverTime', {})).out, 1729100692873);
  });
  it('v2 symbols: every published field', async () => {
    const { out, url } = await viaClient('GET_api_v2_symbols.json', 'symbols', { market: 'ALTS' });
    assert.match(url, /symbols\?market=ALTS$/);
    const s = out[0];
    assert.equal(s.symbol, 'BTC-USDT');
    assert.equal(s.baseIncrement, '0.00000001');
    assert.equal(s.priceIncrement, '0.1');
    assert.equal(s.quoteMaxSize, '99999999');
    assert.equal(s.makerFeeCoefficient, '1.00');
    assert.equal(s.feeCategory, 1);
    assert.equal(s.callauctionPriceFloor, null);
    assert.equal(s.tradingStartTime, null);
    assert.equal(s.enableTrading, true);
  });
  it('all tickers', async () => {
    const { out } = await viaClient('GET_api_v1_market_allTickers.json', 'allTickers', {});
    assert.equal(out.time, 1729173207043);
    assert.equal(out.ticker[0].symbol, 'BTC-USDT');
    assert.equal(out.ticker[0].bestBidSize, '0.000025');
    assert.equal(out.ticker[0].volValue, '124068431.06726933');
    assert.equal(out.ticker[0].changeRate, '-0.0014');
  });
  it('withdrawal quotas (doc example and ccxt live capture)', async () => {
    const a = (await viaClient('GET_api_v1_withdrawals_quotas.json', 'withdrawalQuotas', { currency: 'BTC', chain: 'eth' })).out;
    assert.equal(a.limitBTCAmount, '15.79590095');
    assert.equal(a.usedBTCAmount, '0.00000000');
    assert.equal(a.reason, null);
    assert.equal(a.precision, 8);
    const b = (await viaClient('GET_api_v1_withdrawals_quotas.ccxt-live.json', 'withdrawalQuotas', { currency: 'BTC' })).out;
    assert.equal(b.withdrawMinFee, '0.0004');
    assert.equal(b.remainAmount, '15.71610959');
  });
  it('cancel (DELETE) result', async () => {
    const { out, url } = await viaClient('DELETE_api_v1_hf_orders_orderId.json', 'cancelOrder', { orderId: '671124f9365ccb00073debd4', symbol: 'BTC-USDT' });
    assert.equal(url, 'http://fixture.invalid/api/v1/hf/orders/671124f9365ccb00073debd4?symbol=BTC-USDT');
    assert.deepEqual(out, { orderId: '671124f9365ccb00073debd4' });
  });
});

describe('fixtures: POST requests and responses', () => {
  it('place order and test order', async () => {
    for (const [file, name] of [['POST_api_v1_hf_orders.json', 'placeOrder'], ['POST_api_v1_hf_orders_test.json', 'testOrder']] as const) {
      const { doc, response } = await postFixture(file, name);
      const req = S.PlaceOrderRequest.parse(doc.request);
      assert.equal(req.type, 'limit');
      assert.equal(req.price, '50000');
      assert.equal(req.size, '0.00001');
      assert.equal(req.remark, 'order remarks');
      assert.deepEqual(response, { orderId: '670fd33bf9406e0007ab3945', clientOid: '5c52e11203aa677f33e493fb' });
    }
  });
  it('ccxt order bodies (exact strings) parse', () => {
    const cases = parseJson(use('POST_api_v1_hf_orders.ccxt-requests.json')) as { description: string; body: string }[];
    const parsed = cases.map((c) => S.PlaceOrderRequest.parse(JSON.parse(c.body)));
    assert.deepEqual(parsed.map((p) => [p.symbol, p.type, p.size, p.price, p.postOnly]), [
      ['LTC-USDT', 'market', '0.1', undefined, undefined],
      ['ADA-USDT', 'limit', '20', '0.3', true],
      ['ETH-USDT', 'limit', '0.0001', '1000', undefined],
    ]);
    assert.equal(parsed[0].clientOid, '5d7a8110-1ea6-46e7-8d8f-1ba53267f20c');
  });
  it('deposit address V1: memo null, chainId/to/currency kept', async () => {
    const { doc, response } = await postFixture('POST_api_v1_deposit-addresses.json', 'depositAddress');
    assert.deepEqual(S.DepositAddressRequest.parse(doc.request), { currency: 'ETH', chain: 'eth', to: 'MAIN' });
    assert.deepEqual(response, { address: '0x02028456f38e78609904e8a002c787ede7a73d7c', memo: null, chain: 'ERC20', chainId: 'eth', to: 'MAIN', currency: 'ETH' });
  });
  it('deposit address V3 (doc example, ccxt live, ccxt request)', async () => {
    const a = await postFixture('POST_api_v3_deposit-address_create.json', 'depositAddressV3');
    assert.deepEqual(S.DepositAddressRequest.parse(a.doc.request), { currency: 'TON', chain: 'ton', to: 'trade' });
    assert.deepEqual(a.response, { address: 'EQCA1BI4QRZ8qYmskSRDzJmkucGodYRTZCf_b9hckjla6dZl', memo: '2090821203', chainId: 'ton', to: 'TRADE', expirationDate: 0, currency: 'TON', chainName: 'TON' });
    const b = await postFixture('POST_api_v3_deposit-address_create.ccxt-live.json', 'depositAddressV3', { currency: 'BNB', chain: 'bsc' });
    assert.equal(b.doc.request, null);
    assert.equal(b.response.memo, null);
    assert.equal(b.response.chainName, 'BEP20');
    const reqs = parseJson(use('POST_api_v3_deposit-address_create.ccxt-requests.json')) as { body: string }[];
    assert.deepEqual(S.DepositAddressRequest.parse(JSON.parse(reqs[0].body)), { currency: 'USDT', chain: 'eth' });
  });
  it('withdrawal V1: numeric amount accepted as the decimal "3"', async () => {
    const { doc, response } = await postFixture('POST_api_v1_withdrawals.json', 'withdrawV1');
    const req = S.WithdrawalV1Request.parse(doc.request);
    assert.equal(req.amount, '3');
    assert.equal(req.address, 'TKFRQXSDc****16GmLrjJggwX8');
    assert.equal(req.isInner, true);
    assert.deepEqual(response, { withdrawalId: '670a973cf07b3800070e216c' });
  });
  it('withdrawal V3 (doc example, ccxt live, ccxt request with amount 5.5)', async () => {
    const a = await postFixture('POST_api_v3_withdrawals.json', 'withdrawV3');
    const req = S.WithdrawalV3Request.parse(a.doc.request);
    assert.equal(req.amount, '3');
    assert.equal(req.withdrawType, 'ADDRESS');
    assert.equal(req.remark, 'this is Remark');
    assert.deepEqual(a.response, { withdrawalId: '670deec84d64da0007d7c946' });
    const b = await postFixture('POST_api_v3_withdrawals.ccxt-live.json', 'withdrawV3', {
      currency: 'USDT',
      toAddress: '0x62d35481cb74fa959aec61d33a5d4507a1234567',
      withdrawType: 'ADDRESS',
      amount: 3,
      chain: 'optimism',
    });
    assert.deepEqual(b.response, { withdrawalId: '6717ed803a3595000738e671' });
    const reqs = parseJson(use('POST_api_v3_withdrawals.ccxt-requests.json')) as { body: string }[];
    const c = S.WithdrawalV3Request.parse(JSON.parse(reqs[0].body));
    assert.deepEqual(c, { currency: 'USDT', toAddress: '0x123456789123456789123456789', withdrawType: 'ADDRESS', chain: 'optimism', amount: '5.5' });
  });
  it('bullet-public (no request body)', async () => {
    const { doc, response } = await postFixture('POST_api_v1_bullet-public.json', 'bulletPublic');
    assert.equal(doc.request, null);
    assert.equal(response.instanceServers[0].endpoint, 'wss://ws-api-spot.kucoin.com/');
    assert.equal(response.instanceServers[0].pingInterval, 18000);
    assert.ok(response.token.startsWith('2neAiuYvAU61ZDXANAGAsiL4'));
  });
});

describe('fixtures: error bodies → ApiError', () => {
  const cases: [string, number, string, string, (e: ApiError) => boolean][] = [
    ['ERROR_200004_insufficient_balance.json', 200, '200004', 'Insufficient balance.', (e) => e.isInsufficientBalance],
    ['ERROR_260325_withdraw_whitelist.json', 200, '260325', 'Already set withdraw whitelist, this address is not favorite address', (e) => e.isWithdrawWhitelist],
    ['ERROR_400002_invalid_timestamp.json', 400, '400002', 'Invalid KC-API-TIMESTAMP', (e) => e.isAuthError && e.isTimestampError],
    ['ERROR_400003_key_not_exists.json', 401, '400003', 'KC-API-KEY not exists', (e) => e.isAuthError],
    ['ERROR_400004_invalid_passphrase.json', 401, '400004', 'Invalid KC-API-PASSPHRASE', (e) => e.isAuthError],
    ['ERROR_400005_invalid_sign.json', 401, '400005', 'Invalid KC-API-SIGN', (e) => e.isAuthError],
    ['ERROR_400100_invalid_parameter.json', 400, '400100', 'Invalid Parameter.', (e) => e.isParameterError && !e.isAuthError],
    ['ERROR_429000_too_many_requests.json', 429, '429000', 'Too Many Requests', (e) => e.isRateLimit],
  ];
  for (const [file, status, code, msg, helper] of cases) {
    it(`${file} → ApiError ${code}`, () => {
      const text = use(file);
      let err: unknown;
      try {
        decodeEnvelope({ status, header: () => null, contentType: 'application/json', text, latencyMs: 1 }, 'POST', '/api/v1/x', false);
      } catch (e) {
        err = e;
      }
      assert.ok(err instanceof ApiError);
      assert.equal(err.code, code);
      assert.equal(err.msg, msg);
      assert.equal(err.httpStatus, status);
      assert.equal(err.path, '/api/v1/x');
      assert.equal(helper(err), true);
      const flags = [err.isInsufficientBalance, err.isWithdrawWhitelist, err.isParameterError, err.isRateLimit, err.isSymbolNotFound].filter(Boolean).length;
      assert.equal(flags, err.isAuthError ? 0 : 1, 'exactly one specific helper is true');
    });
  }
  it('symbol-not-found helper (900001)', () => {
    const e = new ApiError({ code: '900001', msg: 'symbol not exists', httpStatus: 200, method: 'GET', path: '/p' });
    assert.equal(e.isSymbolNotFound, true);
    assert.equal(e.isAuthError, false);
  });
});

describe('fixtures: coverage', () => {
  it('every fixture JSON is claimed by a test (WS_* skipped, SIGNING_* in signing.test.ts)', () => {
    const all = fs.readdirSync(DIR).filter((f) => f.endsWith('.json'));
    const missing = all.filter((f) => !covered.has(f) && !f.startsWith('WS_') && !f.startsWith('SIGNING_'));
    assert.deepEqual(missing, []);
    // every endpoint of the table has a response schema and params schema
    for (const [n, e] of Object.entries(ENDPOINTS)) assert.ok(e.params && e.response, n);
  });
});
