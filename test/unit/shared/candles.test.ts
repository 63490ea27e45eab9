/**
 * The market chart's candles (src/features/market/model/candles.ts): interval boundaries (weeks from
 * Monday 00:00 UTC), the live last candle from `/market/match` trades (open kept, close/high/low/volume/
 * turnover exact), a new candle for a new interval, old trades ignored, and a property: candles built live
 * from a trade stream equal candles computed from the whole stream at once.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import * as D from '../../../src/api/decimal';
import { applyTrade, candleStart, CANDLE_INTERVALS, CHART_HISTORY_S, INTERVALS, isInterval, loadCandleHistory, oldestFirst, type CandleInterval, type CandleRow } from '../../../src/features/market/model/candles';

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

  describe('loadCandleHistory: the chart opens on 3 × 24 h', () => {
    /** A candle source as the sandbox answers (marketTape.ts): rows with start <= endAt, newest first, at most 1,500. */
    const source = (rows: CandleRow[]) => {
      const calls: Array<number | undefined> = [];
      const get = (q: { endAt?: number }): Promise<readonly CandleRow[]> => {
        calls.push(q.endAt);
        const fit = rows.filter((r) => q.endAt === undefined || Number(r[0]) <= q.endAt);
        return Promise.resolve(fit.slice(-1500).reverse());
      };
      return { get, calls };
    };
    const minutes = (n: number, last: number): CandleRow[] => Array.from({ length: n }, (_, i) => [String(last - (n - 1 - i) * 60), '1', '1', '1', '1', '1', '1'] as const);
    const last = T0 / 1000;

    it('1min: pages back with endAt until 3 days are covered (3 requests for 4,320 rows of a 5,000-row history)', async () => {
      const { get, calls } = source(minutes(5000, last));
      const rows = await loadCandleHistory(get, 'BTC-USDT', '1min');
      assert.deepEqual(calls, [undefined, last - 1499 * 60 - 1, last - 2999 * 60 - 1], "each page ends just before the oldest row so far");
      assert.equal(rows.length, 4500);
      assert.ok(Number(rows[0][0]) <= last - CHART_HISTORY_S, 'reaches back 3 days');
      for (let i = 1; i < rows.length; i++) assert.equal(Number(rows[i][0]) - Number(rows[i - 1][0]), 60, 'oldest first, no gap, no repeat');
    });

    it('stops when a page brings nothing older (a shorter history), and at once when one answer covers 3 days', async () => {
      const short = source(minutes(2000, last));
      assert.equal((await loadCandleHistory(short.get, 'BTC-USDT', '1min')).length, 2000);
      assert.deepEqual(short.calls, [undefined, last - 1499 * 60 - 1, last - 1999 * 60 - 1]);
      const coarse = source(minutes(3 * 24 * 4 + 10, last).map((r, i) => [String(last - (3 * 24 * 4 + 9 - i) * 900), ...r.slice(1)] as unknown as CandleRow));
      assert.equal((await loadCandleHistory(coarse.get, 'BTC-USDT', '15min')).length, 3 * 24 * 4 + 10);
      assert.deepEqual(coarse.calls, [undefined]);
      const none = source([]);
      assert.deepEqual(await loadCandleHistory(none.get, 'BTC-USDT', '1min'), []);
      assert.deepEqual(none.calls, [undefined]);
    });
  });
});
