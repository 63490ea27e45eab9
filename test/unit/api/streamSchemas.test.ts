/**
 * The WebSocket schemas (src/api/streamSchemas.ts) on every published message of
 * test/fixtures/kucoin/WS_*.json (the last test fails if a WS_ fixture is left unclaimed),
 * with values checked exactly: decimals as strings, sequences as bigint, ns times as digit strings.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { decodeStreamMessage, numberToDecimal, StreamDecodeError, WsPing, WsSubscribe, type StreamData } from '../../../src/api/streamSchemas';
import { parseJson } from '../../../src/api/json';
import { FIXTURES_DIR } from '../../fixtures';

const DIR = FIXTURES_DIR;
const covered = new Set<string>();
const read = (f: string): string => {
  covered.add(f);
  return fs.readFileSync(path.join(DIR, f), 'utf8');
};
const msg = (f: string): StreamData => {
  const m = decodeStreamMessage(read(f));
  assert.equal(m.kind, 'message', f);
  return m as StreamData;
};

describe('api/streamSchemas: published WebSocket messages', () => {
  it('control messages: welcome, ping, pong, ack, subscribe (numeric id → string)', () => {
    assert.deepEqual(decodeStreamMessage(read('WS_welcome.json')), { kind: 'welcome', id: 'hQvf8jkno' });
    assert.deepEqual(WsPing.parse(parseJson(read('WS_ping.json'))), { id: '1545910590801', type: 'ping' });
    assert.deepEqual(decodeStreamMessage(read('WS_pong.json')), { kind: 'pong', id: '1545910590801' });
    assert.deepEqual(decodeStreamMessage(read('WS_ack.json')), { kind: 'ack', id: '1545910660739' });
    assert.deepEqual(WsSubscribe.parse(parseJson(read('WS_subscribe_market_level2.json'))), {
      id: '1545910660740',
      type: 'subscribe',
      topic: '/market/level2:BTC-USDT',
      response: true,
    });
  });

  it('trade.l2update: both published examples; sequences bigint, changes exact', () => {
    const a = msg('WS_market_level2.json');
    assert.equal(a.subject, 'trade.l2update');
    assert.equal(a.symbol, 'BTC-USDT');
    if (a.subject !== 'trade.l2update') return;
    assert.deepEqual(a.data, {
      changes: { asks: [['67993.3', '1.21427407', 14701689783n]], bids: [] },
      sequenceEnd: 14701689783n,
      sequenceStart: 14701689783n,
      symbol: 'BTC-USDT',
      time: 1729816425625,
    });
    const b = msg('WS_market_level2.olddocs.json');
    if (b.subject !== 'trade.l2update') assert.fail(b.subject);
    assert.deepEqual(b.data.changes.asks[1], ['18907.3', '0.58751503', 14103844n]);
    assert.equal(b.data.sequenceEnd - b.data.sequenceStart, 3n);
  });

  it('level2Depth5 / level2Depth50 / level1', () => {
    const d5 = msg('WS_spotMarket_level2Depth5.json');
    if (d5.subject !== 'level2') assert.fail(d5.subject);
    assert.equal(d5.data.asks.length, 5);
    assert.deepEqual(d5.data.bids[4], ['67993.3', '0.13528566']);
    assert.equal(d5.data.timestamp, 1729822226746);
    const d50 = msg('WS_spotMarket_level2Depth50.json');
    if (d50.subject !== 'level2') assert.fail(d50.subject);
    assert.equal(d50.data.asks.length, 50);
    assert.equal(d50.data.bids.length, 50);
    const l1 = msg('WS_spotMarket_level1.json');
    if (l1.subject !== 'level1') assert.fail(l1.subject);
    assert.deepEqual(l1.data.asks, ['68145.8', '0.51987471']);
  });

  it('tickers: per symbol (published with `Time`) and ticker:all (symbol in the subject)', () => {
    const t = msg('WS_market_ticker.json');
    if (t.subject !== 'trade.ticker') assert.fail(t.subject);
    assert.deepEqual(t.data, { sequence: 1545896668986n, price: '0.08', size: '0.011', bestAsk: '0.08', bestAskSize: '0.18', bestBid: '0.049', bestBidSize: '0.036', time: 1704873323416 });
    const all = msg('WS_market_ticker_all.json');
    assert.equal(all.subject, 'trade.ticker');
    assert.equal(all.symbol, 'BTC-USDT');
    if (all.subject === 'trade.ticker') assert.equal(all.data.bestBidSize, '0.01045638');
  });

  it('snapshots: JSON-number decimals come out as exact decimal strings (no exponent)', () => {
    const s = msg('WS_market_snapshot_symbol.json');
    if (s.subject !== 'trade.snapshot') assert.fail(s.subject);
    assert.equal(s.data.sequence, 14691517895n);
    assert.equal(s.data.data.buy, '67158.1');
    assert.equal(s.data.data.volValue, '147972941.07857507300000000000', 'a literal a double cannot hold stays its exact text');
    assert.equal(s.data.data.marketChange24h?.changePrice, '315.2');
    const m = msg('WS_market_snapshot_market.json');
    if (m.subject !== 'trade.snapshot') assert.fail(m.subject);
    assert.equal(m.data.data.changePrice, '0.000000053', 'published as 0.00000005300000000000');
    assert.equal(m.data.data.marketChange1h?.changePrice, '-0.000000009');
    assert.equal(m.data.data.averagePrice, '0.00000262');
  });

  it('match: sequence and tradeId exact beyond 2^53, time in ns as a digit string', () => {
    const m = msg('WS_market_match.json');
    if (m.subject !== 'trade.l3match') assert.fail(m.subject);
    assert.equal(m.data.sequence, 11067996711960577n);
    assert.equal(m.data.tradeId, '11067996711960577');
    assert.equal(m.data.time, '1729843222921000000');
    assert.equal(m.data.side, 'buy');
  });

  it('candles: time in ns beyond 2^53 kept exact', () => {
    const c = msg('WS_market_candles.json');
    if (c.subject !== 'trade.candles.update') assert.fail(c.subject);
    assert.equal(c.data.time, '1729842192785164840');
    assert.equal(c.data.candles[6], '3027558.991928447');
  });

  it('private: orderChange (V2 received/new, the open example), account.balance, stopOrder (ts beyond 2^53 exact)', () => {
    const r = msg('WS_spotMarket_tradeOrdersV2.json');
    if (r.subject !== 'orderChange') assert.fail(r.subject);
    assert.deepEqual([r.data.type, r.data.status, r.data.orderType, r.data.originSize, r.data.ts], ['received', 'new', 'market', '0.00001', '1730206271616000000']);
    assert.equal(r.userId, '633559791e1cbc0001f319bc');
    const o = msg('WS_spotMarket_tradeOrders.json');
    if (o.subject !== 'orderChange') assert.fail(o.subject);
    assert.deepEqual([o.data.type, o.data.status, o.data.price, o.data.remainSize, o.data.orderTime], ['open', 'open', '50000', '0.00001', 1730211033305]);
    const b = msg('WS_account_balance.json');
    if (b.subject !== 'account.balance') assert.fail(b.subject);
    assert.deepEqual(b.data, {
      accountId: '548674591753',
      currency: 'USDT',
      total: '21.133773386762',
      available: '20.132773386762',
      hold: '1.001',
      availableChange: '-0.5005',
      holdChange: '0.5005',
      relationContext: { symbol: 'BTC-USDT', orderId: '6721d0632db25b0007071fdc' },
      relationEvent: 'trade.hold',
      relationEventId: '354689988084000',
      time: 1730269283892,
    });
    const s = msg('WS_spotMarket_advancedOrders.json');
    if (s.subject !== 'stopOrder') assert.fail(s.subject);
    assert.equal(s.data.ts, '1742305928091268493');
  });

  it('refuses what it cannot decode exactly: an unknown subject, a bad decimal, a sequence that lost digits', () => {
    assert.throws(() => decodeStreamMessage('{"topic":"/x:Y-Z","type":"message","subject":"nope","data":{}}'), StreamDecodeError);
    assert.throws(
      () => decodeStreamMessage('{"topic":"/market/level2:A-B","type":"message","subject":"trade.l2update","data":{"changes":{"asks":[["1e3","1","1"]],"bids":[]},"sequenceEnd":1,"sequenceStart":1,"symbol":"A-B","time":1}}'),
      /changes\.asks\.0\.0/,
    );
    // 2^53 + 1 decoded by JSON.parse would already be wrong: parseJson keeps it, a lossy number is refused.
    const ok = decodeStreamMessage('{"topic":"/market/level2:A-B","type":"message","subject":"trade.l2update","data":{"changes":{"asks":[],"bids":[]},"sequenceEnd":9007199254740993,"sequenceStart":9007199254740993,"symbol":"A-B","time":1}}');
    assert.equal(ok.kind === 'message' && ok.subject === 'trade.l2update' && ok.data.sequenceEnd, 9007199254740993n);
    assert.throws(() => decodeStreamMessage('{"type":"pong"}'), StreamDecodeError);
    assert.throws(() => decodeStreamMessage('{oops'), /malformed JSON/);
  });

  it('numberToDecimal spells exponent forms as plain decimals', () => {
    assert.equal(numberToDecimal(5.3e-8), '0.000000053');
    assert.equal(numberToDecimal(-2.5e-10), '-0.00000000025');
    assert.equal(numberToDecimal(1e21), '1000000000000000000000');
    assert.equal(numberToDecimal(1.5e22), '15000000000000000000000');
    assert.equal(numberToDecimal(123.456), '123.456');
    assert.throws(() => numberToDecimal(Number.NaN), RangeError);
  });

  it('every WS_ fixture is claimed by a test above', () => {
    const all = fs.readdirSync(DIR).filter((f) => f.startsWith('WS_'));
    assert.deepEqual(all.filter((f) => !covered.has(f)), []);
  });
});
