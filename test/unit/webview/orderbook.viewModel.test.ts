import { strict as assert } from 'assert';
import type { BookSnapshot } from '../../../src/features/market/protocol';
import {
  BookStore,
  buildView,
  parseSequence,
  depthSeries,
  emptyPrevious,
  groupingStep,
  spreadOf,
} from '../../../src/features/market/model/viewModel';
import { readFixture } from '../../fixtures';

function fixtureSnapshot(file: string): BookSnapshot {
  const env = JSON.parse(readFixture(file)) as { data: { sequence: string; time: number; bids: [string, string][]; asks: [string, string][] } };
  return { symbol: 'BTC-USDT', receivedAt: 0, ...env.data };
}

function snap(sequence: string, bids: [string, string][], asks: [string, string][]): BookSnapshot {
  return { symbol: 'X-Y', sequence, time: 1_700_000_000_000, receivedAt: 0, bids, asks };
}

/** A synthetic book on a 0.05 tick with trailing zeros in the API strings. */
const BOOK = snap(
  '10',
  [
    ['100.25', '1.5'],
    ['100.20', '0.25'],
    ['99.95', '2'],
  ],
  [
    ['100.30', '0.1'],
    ['100.35', '0.2'],
    ['101.00', '3'],
  ],
);

describe('order book view-model', () => {
  describe('the published KuCoin level2_20 example', () => {
    const v = buildView(fixtureSnapshot('GET_api_v1_market_orderbook_level2_20.json'), '0.1', '1');

    it('keeps prices and sizes exactly as the API strings and sums cumulative sizes exactly', () => {
      assert.deepEqual(
        v.bids.map((l) => [l.price, l.size, l.total]),
        [
          ['66976.4', '0.69109872', '0.69109872'],
          ['66976.3', '0.14377', '0.83486872'],
        ],
      );
      assert.deepEqual(
        v.asks.map((l) => [l.price, l.size, l.total]),
        [
          ['66976.5', '0.05408199', '0.05408199'],
          ['66976.8', '0.0005', '0.05458199'],
        ],
      );
    });

    it('computes spread, bps and mid exactly', () => {
      assert.equal(v.spread, '0.1');
      assert.equal(v.mid, '66976.45');
      assert.equal(v.spreadBps, '0.01'); // 0.1 / 66976.45 × 10⁴ = 0.01493… truncated
      assert.equal(v.sequence, '14610502970');
      assert.equal(v.time, 1729176273859);
    });

    it('gives depth-bar ratios relative to the deeper side', () => {
      // max total = bids 0.83486872
      assert.equal(v.bids[1].ratio, 1);
      assert.equal(v.bids[0].ratio, 69109872 / 83486872);
      assert.equal(v.asks[1].ratio, 5458199 / 83486872);
    });
  });

  describe('grouping in multiples of priceIncrement', () => {
    it('computes the step exactly', () => {
      assert.equal(groupingStep('0.1', '1'), '0.1');
      assert.equal(groupingStep('0.1', '10'), '1');
      assert.equal(groupingStep('0.1', '100'), '10');
      assert.equal(groupingStep('0.00000001', '1000'), '0.00001');
      assert.equal(groupingStep('0.05', '10'), '0.5');
    });

    it('×1 shows the API strings untouched (trailing zeros kept)', () => {
      const v = buildView(BOOK, '0.05', '1');
      assert.deepEqual(
        v.bids.map((l) => [l.price, l.size, l.total]),
        [
          ['100.25', '1.5', '1.5'],
          ['100.20', '0.25', '1.75'],
          ['99.95', '2', '3.75'],
        ],
      );
      assert.equal(v.spread, '0.05');
      assert.equal(v.mid, '100.275');
      assert.equal(v.spreadBps, '4.98'); // 0.05 / 100.275 × 10⁴ = 4.9862…
    });

    it('×10 merges bids down and asks up onto the 0.5 grid with exact sums', () => {
      const v = buildView(BOOK, '0.05', '10');
      assert.equal(v.step, '0.5');
      assert.deepEqual(
        v.bids.map((l) => [l.price, l.size, l.total]),
        [
          ['100.0', '1.75', '1.75'],
          ['99.5', '2', '3.75'],
        ],
      );
      assert.deepEqual(
        v.asks.map((l) => [l.price, l.size, l.total]),
        [
          ['100.5', '0.3', '0.3'],
          ['101.0', '3', '3.3'],
        ],
      );
      // spread and mid always come from the raw best levels, not the buckets
      assert.equal(v.spread, '0.05');
      assert.equal(v.mid, '100.275');
      assert.equal(v.bids[1].ratio, 1);
      assert.equal(v.asks[1].ratio, 3.3 / 3.75);
    });

    it('×100 groups into buckets of 5 (0.05 × 100)', () => {
      const v = buildView(BOOK, '0.05', '100');
      assert.equal(v.step, '5');
      assert.deepEqual(
        v.bids.map((l) => [l.price, l.size, l.total]),
        [
          ['100', '1.75', '1.75'],
          ['95', '2', '3.75'],
        ],
      );
      assert.deepEqual(
        v.asks.map((l) => [l.price, l.size, l.total]),
        [['105', '3.3', '3.3']],
      );
    });

    it('sums sizes with different precisions without float error', () => {
      const v = buildView(
        snap('1', [['1', '0.1'], ['0.9', '0.2'], ['0.8', '0.00000001']], [['1.1', '0.3']]),
        '0.1',
        '10',
      );
      assert.deepEqual(v.bids.map((l) => [l.price, l.size, l.total]), [
        ['1', '0.1', '0.1'],
        ['0', '0.20000001', '0.30000001'],
      ]);
      assert.deepEqual(v.asks.map((l) => [l.price, l.total]), [['2', '0.3']]);
    });
  });

  describe('spread, mid and bps', () => {
    it('handles tiny prices exactly', () => {
      assert.deepEqual(spreadOf('0.00001234', '0.00001240'), { spread: '0.00000006', mid: '0.00001237', bps: '48.50' });
    });
    it('adds one digit for an odd mid', () => {
      assert.deepEqual(spreadOf('1', '2'), { spread: '1', mid: '1.5', bps: '6666.66' });
    });
    it('is null when a side is empty', () => {
      assert.deepEqual(spreadOf(undefined, '2'), { spread: null, mid: null, bps: null });
      const v = buildView(snap('1', [], [['2', '1']]), '1', '1');
      assert.equal(v.spread, null);
      assert.equal(v.spreadBps, null);
      assert.equal(v.mid, null);
      assert.deepEqual(v.asks.map((l) => l.total), ['1']);
    });
    it('shows a crossed book as a negative spread', () => {
      assert.deepEqual(spreadOf('10.5', '10.4'), { spread: '-0.1', mid: '10.45', bps: '-95.69' });
    });
  });

  describe('changed levels', () => {
    it('flags grown, shrunk and new prices against the previous view, not the first one', () => {
      const prev = emptyPrevious();
      const first = buildView(BOOK, '0.05', '1', prev);
      assert.deepEqual(first.bids.map((l) => l.change), [null, null, null]);
      const second = buildView(
        snap('11', [['100.25', '1.6'], ['100.20', '0.2'], ['99.90', '1']], [['100.30', '0.1'], ['100.35', '0.2'], ['101.00', '3']]),
        '0.05',
        '1',
        prev,
      );
      assert.deepEqual(second.bids.map((l) => l.change), ['up', 'down', 'new']);
      assert.deepEqual(second.asks.map((l) => l.change), [null, null, null]);
      assert.deepEqual([...prev.bids.entries()], [['100.25', '1.6'], ['100.20', '0.2'], ['99.90', '1']]);
    });
  });

  describe('sequence ordering', () => {
    it('compares sequences beyond 2^53 exactly', () => {
      assert.equal(Number('9007199254740993') === Number('9007199254740992'), true); // why BigInt is needed
      assert.equal(parseSequence('9007199254740993') > parseSequence('9007199254740992'), true);
      assert.equal(parseSequence('14610502970'), 14610502970n);
      assert.equal(parseSequence('99') < parseSequence('100'), true);
      assert.throws(() => parseSequence('1e3'), RangeError);
      assert.throws(() => parseSequence(''), RangeError);
    });

    it('BookStore accepts only strictly newer snapshots', () => {
      const store = new BookStore('X-Y');
      assert.equal(store.accept(snap('9007199254740992', [], []), 1000), 'accepted');
      assert.equal(store.accept(snap('9007199254740992', [['1', '1']], []), 1100), 'duplicate'); // equal: not applied
      assert.equal(store.lastSeenAt, 1100); // … but it confirms the book is live
      assert.equal(store.accept(snap('9007199254740991', [], []), 1200), 'stale-sequence'); // older
      assert.equal(store.lastSeenAt, 1100);
      assert.equal(store.snapshot?.sequence, '9007199254740992');
      assert.deepEqual(store.snapshot?.bids, []);
      assert.equal(store.lastAcceptedAt, 1000);
      assert.equal(store.rejected, 2);
      assert.equal(store.accept(snap('9007199254740993', [], []), 1300), 'accepted');
      assert.equal(store.snapshot?.sequence, '9007199254740993');
      assert.equal(store.lastAcceptedAt, 1300);
      assert.equal(store.lastSeenAt, 1300);
      assert.equal(store.accept({ ...snap('9999999999999999999', [], []), symbol: 'OTHER' }, 1400), 'wrong-symbol');
      assert.equal(store.snapshot?.sequence, '9007199254740993');
    });
  });

  it('depth series are best-first Number pairs for the chart', () => {
    const v = buildView(BOOK, '0.05', '1');
    assert.deepEqual(depthSeries(v), {
      bids: [
        { x: 100.25, y: 1.5 },
        { x: 100.2, y: 1.75 },
        { x: 99.95, y: 3.75 },
      ],
      asks: [
        { x: 100.3, y: 0.1 },
        { x: 100.35, y: 0.3 },
        { x: 101, y: 3.3 },
      ],
    });
  });
});
