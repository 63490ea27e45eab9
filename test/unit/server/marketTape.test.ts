/**
 * MarketTape (src/exchange/server/marketTape.ts): property tests against a brute-force aggregation —
 * candles of every interval equal the trades grouped by interval start (open = first, close = last,
 * high/low, exact volume and turnover), newest first; at most MAX_CANDLE_ROWS rows; the last 100
 * trades; an export/import round trip continues exactly like the original; retention (prune and the
 * `since` arguments) keeps exactly the intervals that end after the cutoff, and a tape restored from its
 * snapshot records continues exactly like the original.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import * as D from '../../../src/api/decimal';
import { CANDLE_SECONDS, CANDLE_TYPES, candleStart, MarketTape, MAX_CANDLE_ROWS, MAX_KEPT_ROWS, RECENT_TRADES, type TapeTrade } from '../../../src/exchange/server/marketTape';

/** Trades of one symbol with non-decreasing times (ms), prices and sizes as decimal strings. */
const tradesArb = fc
  .array(
    fc.record({
      gapMs: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 90_000 }), fc.integer({ min: 1, max: 3 * 86_400_000 })),
      ticks: fc.integer({ min: 1, max: 2_000_000 }),
      lots: fc.integer({ min: 1, max: 1_000_000 }),
      side: fc.constantFrom('buy' as const, 'sell' as const),
    }),
    { minLength: 1, maxLength: 200 },
  )
  .map((steps) => {
    let t = 1_700_000_000_000 + 12_345;
    return steps.map((s, i): TapeTrade => {
      t += s.gapMs;
      return { symbol: 'BTC-USDT', sequence: String(i + 1), price: D.mul(String(s.ticks), '0.1'), size: D.mul(String(s.lots), '0.00001'), side: s.side, time: t };
    });
  });

function bruteForce(trades: TapeTrade[], type: keyof typeof CANDLE_SECONDS): string[][] {
  const rows = new Map<number, string[]>();
  for (const t of trades) {
    const start = candleStart(type, Math.floor(t.time / 1000));
    const r = rows.get(start);
    const q = D.mul(t.price, t.size);
    if (!r) rows.set(start, [String(start), t.price, t.price, t.price, t.price, t.size, q]);
    else {
      r[2] = t.price;
      r[3] = D.max(r[3], t.price);
      r[4] = D.min(r[4], t.price);
      r[5] = D.add(r[5], t.size);
      r[6] = D.add(r[6], q);
    }
  }
  return [...rows.values()].sort((a, b) => Number(b[0]) - Number(a[0])).slice(0, MAX_CANDLE_ROWS);
}

describe('MarketTape', () => {
  it('interval starts: multiples of the length since the epoch; weeks on Monday 00:00 UTC', () => {
    assert.equal(candleStart('1hour', 7_199), 3_600);
    assert.equal(candleStart('1day', 86_399), 0);
    // 2024-01-10 (a Wednesday) → Monday 2024-01-08 00:00 UTC
    assert.equal(candleStart('1week', Date.UTC(2024, 0, 10, 15) / 1000), Date.UTC(2024, 0, 8) / 1000);
    assert.equal(new Date(candleStart('1week', 1_700_000_000) * 1000).getUTCDay(), 1);
  });

  it('candles of every interval equal the brute-force aggregation of the trades (property)', () => {
    fc.assert(
      fc.property(tradesArb, (trades) => {
        const tape = new MarketTape();
        for (const t of trades) tape.add(t);
        for (const type of CANDLE_TYPES) assert.deepEqual(tape.candles('BTC-USDT', type), bruteForce(trades, type), type);
        assert.deepEqual(tape.recentTrades('BTC-USDT'), trades.slice(-RECENT_TRADES));
      }),
      { numRuns: 150 },
    );
  });

  it('a time window selects rows by their start (seconds), newest first', () => {
    fc.assert(
      fc.property(tradesArb, fc.nat(), fc.nat(), (trades, a, b) => {
        const tape = new MarketTape();
        for (const t of trades) tape.add(t);
        const all = tape.candles('BTC-USDT', '5min');
        const lo = Number(all[all.length - 1][0]);
        const hi = Number(all[0][0]);
        const span = hi - lo + 1;
        const s = lo + (a % span);
        const e = s + (b % span);
        assert.deepEqual(tape.candles('BTC-USDT', '5min', s, e), all.filter((r) => Number(r[0]) >= s && Number(r[0]) <= e));
      }),
      { numRuns: 100 },
    );
  });

  it('keeps at most MAX_KEPT_ROWS rows per interval (the oldest go) and answers at most MAX_CANDLE_ROWS', () => {
    const tape = new MarketTape();
    const trades: TapeTrade[] = [];
    for (let i = 0; i < MAX_KEPT_ROWS + 37; i++) trades.push({ symbol: 'ETH-USDT', sequence: String(i), price: String(100 + (i % 7)), size: '1', side: 'buy', time: 1_700_000_000_000 + i * 60_000 });
    for (const t of trades) tape.add(t);
    const rows = tape.candles('ETH-USDT', '1min');
    assert.equal(rows.length, MAX_CANDLE_ROWS);
    assert.deepEqual(rows, bruteForce(trades, '1min'));
    assert.equal((tape.export().symbols['ETH-USDT'].candles['1min']).length, MAX_KEPT_ROWS);
    // the older rows page in with endAt
    const older = tape.candles('ETH-USDT', '1min', 0, Number(rows[rows.length - 1][0]) - 1);
    assert.equal(older.length, MAX_CANDLE_ROWS);
    assert.equal(Number(older[0][0]), Number(rows[rows.length - 1][0]) - 60);
  });

  it('export/import: plain JSON data; the imported tape answers and continues exactly like the original (property)', () => {
    fc.assert(
      fc.property(tradesArb, fc.nat(), (trades, cut) => {
        const k = cut % (trades.length + 1);
        const a = new MarketTape();
        for (const t of trades.slice(0, k)) a.add(t);
        const data = JSON.parse(JSON.stringify(a.export())) as ReturnType<MarketTape['export']>;
        const b = MarketTape.import(data);
        for (const t of trades.slice(k)) {
          a.add(t);
          b.add(t);
        }
        assert.deepEqual(b.export(), a.export());
        for (const type of CANDLE_TYPES) assert.deepEqual(b.candles('BTC-USDT', type), bruteForce(trades, type));
      }),
      { numRuns: 100 },
    );
    assert.throws(() => MarketTape.import({ version: 2 } as never), /version 2/);
  });

  it('retention and snapshot records: prune(cutoff) keeps exactly the rows whose interval ends after the cutoff and the trades at or after it; a tape restored from its records continues exactly like the original (property)', () => {
    fc.assert(
      fc.property(tradesArb, fc.nat(), fc.integer({ min: -86_400_000, max: 4 * 86_400_000 }), (trades, cut, offset) => {
        const k = 1 + (cut % trades.length);
        const first = trades.slice(0, k);
        // the cutoff is "now − 3 × 24 h": later trades come after it
        const cutoff = first[k - 1].time - 3 * 86_400_000 + offset;
        const rest = trades.slice(k).filter((t) => t.time >= cutoff);
        const all = [...first, ...rest];
        const kept = (type: keyof typeof CANDLE_SECONDS, list: TapeTrade[]) => bruteForce(list, type).filter((r) => (Number(r[0]) + CANDLE_SECONDS[type]) * 1000 > cutoff);
        const a = new MarketTape();
        for (const t of first) a.add(t);
        // before the prune, `since` already hides what it will drop
        const before = CANDLE_TYPES.map((type) => a.candles('BTC-USDT', type, 0, 0, cutoff));
        for (const [i, type] of CANDLE_TYPES.entries()) assert.deepEqual(before[i], kept(type, first), `${type} with since`);
        const recentBefore = a.recentTrades('BTC-USDT', cutoff);
        assert.deepEqual(recentBefore, first.slice(-RECENT_TRADES).filter((t) => t.time >= cutoff));
        a.prune(cutoff);
        assert.deepEqual(CANDLE_TYPES.map((type) => a.candles('BTC-USDT', type)), before, 'the prune drops only what since hid');
        assert.deepEqual(a.recentTrades('BTC-USDT'), recentBefore);
        // the snapshot section's records, through JSON, restore a tape that continues alike
        const b = new MarketTape();
        b.importRecords(JSON.parse(JSON.stringify([...a.exportRecords()])) as unknown[]);
        assert.deepEqual([...b.exportRecords()], [...a.exportRecords()]);
        for (const t of rest) {
          a.add(t);
          b.add(t);
        }
        assert.deepEqual(b.export(), a.export());
        for (const type of CANDLE_TYPES) assert.deepEqual(b.candles('BTC-USDT', type, 0, 0, cutoff), kept(type, all), type);
        assert.deepEqual(b.recentTrades('BTC-USDT', cutoff), all.slice(-RECENT_TRADES).filter((t) => t.time >= cutoff));
      }),
      { numRuns: 150 },
    );
  });

  it('retention: a symbol with nothing left in the window is forgotten; bad snapshot records are refused', () => {
    const tape = new MarketTape();
    const t0 = Date.UTC(2026, 0, 5); // a Monday
    tape.add({ symbol: 'ETH-USDT', sequence: '1', price: '2000', size: '1', side: 'buy', time: t0 });
    // 3 days on: the week row (Jan 5 – Jan 12) still overlaps the window, the 1day row of Jan 5 does not
    tape.prune(t0 + 3 * 86_400_000);
    assert.deepEqual(tape.candles('ETH-USDT', '1day'), []);
    assert.deepEqual(tape.candles('ETH-USDT', '1week'), [[String(t0 / 1000), '2000', '2000', '2000', '2000', '1', '2000']]);
    assert.deepEqual(tape.recentTrades('ETH-USDT'), []);
    tape.prune(t0 + 7 * 86_400_000);
    assert.deepEqual([...tape.exportRecords()], []);
    const fresh = () => new MarketTape();
    assert.throws(() => fresh().importRecords([{ k: 'rows', symbol: 'X-Y', type: '1min', list: [] }]), /before its tape record/);
    assert.throws(() => fresh().importRecords([{ k: 'sym', symbol: 'X-Y', folded: -1, recent: [] }, { k: 'rows', symbol: 'X-Y', type: '2min', list: [] }]), /unknown candle interval 2min/);
    assert.throws(
      () => fresh().importRecords([{ k: 'sym', symbol: 'X-Y', folded: -1, recent: [] }, { k: 'rows', symbol: 'X-Y', type: '1min', list: [[120, '1', '1', '1', '1', '1', '1'], [60, '1', '1', '1', '1', '1', '1']] }]),
      /out of order at 60/,
    );
    assert.throws(() => fresh().importRecords([{ k: 'what' }]), /unknown record what of section tape/);
  });
});
