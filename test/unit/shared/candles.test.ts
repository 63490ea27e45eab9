/**
 * The market chart's candles (src/features/market/model/candles.ts): interval boundaries (weeks from
 * Monday 00:00 UTC), the live last candle from `/market/match` trades (open kept, close/high/low/volume/
 * turnover exact), a new candle for a new interval, old trades ignored, and a property: candles built live
 * from a trade stream equal candles computed from the whole stream at once.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import * as D from '../../../src/api/decimal';
import { applyTrade, candleStart, CANDLE_INTERVALS, INTERVALS, isInterval, oldestFirst, type CandleInterval, type CandleRow } from '../../../src/features/market/model/candles';

const T0 = Date.UTC(2026, 10, 24, 10, 0, 0); // Tuesday 24 Nov 2026 10:00 UTC

describe('market candles (src/features/market/model/candles.ts)', () => {
  it('interval starts: multiples of the length since the epoch; weeks start on Monday 00:00 UTC', () => {
    const s = T0 / 1000 + 59;
    assert.equal(candleStart('1min', s), T0 / 1000);
    assert.equal(candleStart('15min', s + 15 * 60), T0 / 1000 + 900);
    assert.equal(candleStart('1day', s), Date.UTC(2026, 10, 24) / 1000);
    assert.equal(candleStart('1week', s), Date.UTC(2026, 10, 23) / 1000); // Monday 23 Nov
    assert.equal(new Date(candleStart('1week', s) * 1000).getUTCDay(), 1);
    assert.equal(candleStart('1week', Date.UTC(2026, 10, 23) / 1000), Date.UTC(2026, 10, 23) / 1000);
    assert.equal(candleStart('1week', Date.UTC(2026, 10, 23) / 1000 - 1), Date.UTC(2026, 10, 16) / 1000);
    assert.deepEqual(INTERVALS.slice(0, 3), ['1min', '3min', '5min']);
    assert.ok(isInterval('1hour') && !isInterval('1h') && !isInterval('toString'));
  });

  it('the live last candle: open kept, close/high/low follow the trades, volume and turnover summed exactly', () => {
    const start = String(T0 / 1000);
    const candles: CandleRow[] = [[start, '100', '101', '102', '99', '1.5', '151']];
    assert.equal(applyTrade(candles, '1min', { price: '103.1', size: '0.1', time: T0 + 5_000 }), 'updated');
    assert.equal(applyTrade(candles, '1min', { price: '98.7', size: '0.00000001', time: T0 + 59_999 }), 'updated');
    assert.deepEqual(candles, [[start, '100', '98.7', '103.1', '98.7', '1.60000001', '161.310000987']]);
  });

  it('a trade of a later interval opens a candle at its price; an older one is ignored (the history wins)', () => {
    const candles: CandleRow[] = [[String(T0 / 1000), '100', '101', '102', '99', '1', '100']];
    assert.equal(applyTrade(candles, '1min', { price: '105', size: '2', time: T0 + 3 * 60_000 + 1 }), 'new');
    assert.deepEqual(candles[1], [String(T0 / 1000 + 180), '105', '105', '105', '105', '2', '210']);
    assert.equal(applyTrade(candles, '1min', { price: '1', size: '1', time: T0 + 60_000 }), 'ignored');
    assert.equal(candles.length, 2);
    assert.equal(applyTrade([], '1hour', { price: '7', size: '3', time: T0 }), 'new');
    assert.throws(() => applyTrade([], '1min', { price: '1e3', size: '1', time: T0 }), /not a plain decimal/);
  });

  it('oldestFirst: REST rows (newest first, maybe repeated) → oldest first, one per start', () => {
    const rows: CandleRow[] = [
      ['180', '3', '3', '3', '3', '1', '3'],
      ['120', '2', '2', '2', '2', '1', '2'],
      ['60', '1', '1', '1', '1', '1', '1'],
      ['120', '2', '2.5', '2.5', '2', '2', '4.5'],
    ];
    assert.deepEqual(oldestFirst(rows).map((r) => [r[0], r[2]]), [['60', '1'], ['120', '2.5'], ['180', '3']]);
  });

  it('property: candles built live trade by trade equal the candles of the whole (time-ordered) stream', () => {
    const trade = fc.record({ price: fc.integer({ min: 1, max: 1_000_000 }).map((u) => D.fromUnits(BigInt(u), 2)), size: fc.integer({ min: 1, max: 1_000_000 }).map((u) => D.fromUnits(BigInt(u), 4)), dt: fc.integer({ min: 0, max: 400_000 }) });
    fc.assert(
      fc.property(fc.constantFrom<CandleInterval>('1min', '5min', '1hour', '1week'), fc.array(trade, { minLength: 1, maxLength: 60 }), (interval, ts) => {
        let t = T0;
        const trades = ts.map((x) => ({ price: x.price, size: x.size, time: (t += x.dt) }));
        const live: CandleRow[] = [];
        for (const tr of trades) applyTrade(live, interval, tr);
        // reference: group by interval start
        const groups = new Map<number, typeof trades>();
        for (const tr of trades) {
          const k = candleStart(interval, Math.floor(tr.time / 1000));
          groups.set(k, [...(groups.get(k) ?? []), tr]);
        }
        const expected = [...groups].map(([k, g]): CandleRow => [
          String(k),
          g[0].price,
          g[g.length - 1].price,
          g.reduce((m, x) => D.max(m, x.price), g[0].price),
          g.reduce((m, x) => D.min(m, x.price), g[0].price),
          g.reduce((s, x) => D.add(s, x.size), '0'),
          g.reduce((s, x) => D.add(s, D.mul(x.price, x.size)), '0'),
        ]);
        assert.deepEqual(live, expected);
        for (const c of live) assert.equal(Number(c[0]) % (interval === '1week' ? 1 : CANDLE_INTERVALS[interval]), 0);
      }),
      { numRuns: 200 },
    );
  });
});
