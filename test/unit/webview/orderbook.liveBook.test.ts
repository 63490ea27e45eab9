/**
 * The webview's streamed book (src/features/market/model/liveBook.ts): LiveBook applies deltas
 * exactly (checked against a plain map over random deltas), refuses what does not continue it, and
 * BookReceiver draws its top `depth`, asks for a resync on a gap and drops deltas until the book
 * comes. The end-to-end property with the host's feed and a real keeper is in
 * test/unit/live/marketFeed.delta.test.ts.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import * as D from '../../../src/api/decimal';
import { BookReceiver, LiveBook } from '../../../src/features/market/model/liveBook';
import type { BookDelta, BookLevel, BookSnapshot } from '../../../src/features/market/protocol';

const SYM = 'ETH-USDT';
const snap = (sequence: string, bids: BookLevel[], asks: BookLevel[]): BookSnapshot => ({ symbol: SYM, sequence, time: 1, receivedAt: 2, bids, asks });
const delta = (start: string, end: string, bids: BookLevel[], asks: BookLevel[] = []): BookDelta => ({ symbol: SYM, start, end, time: 3, receivedAt: 4, bids, asks });

describe('LiveBook (the webview\'s streamed book)', () => {
  it('property: after any deltas the book is the map model, each side sorted best first', () => {
    const price = fc.integer({ min: 1, max: 400 }).map((t) => D.normalize(D.mul(String(t), '0.25')));
    const level = fc.tuple(price, fc.constantFrom('0', '0.0', '1', '2.5', '0.00000001', '99999999999.123456789'));
    const uniq = (ls: [string, string][]): [string, string][] => [...new Map(ls)];
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.array(level, { maxLength: 12 }), fc.array(level, { maxLength: 12 })), { maxLength: 40 }), fc.integer({ min: 1, max: 50 }), (deltas, depth) => {
        const book = new LiveBook(SYM);
        assert.ok(book.load(snap('10', [], [])));
        const model = { bids: new Map<string, string>(), asks: new Map<string, string>() };
        let seq = 10n;
        for (const [b, a] of deltas) {
          const bids = uniq(b);
          const asks = uniq(a);
          const end = seq + 1n + BigInt(bids.length + asks.length);
          assert.equal(book.apply(delta((seq + 1n).toString(), end.toString(), bids, asks)), 'applied');
          seq = end;
          for (const [side, ls] of [['bids', bids], ['asks', asks]] as const) for (const [p, s] of ls) {
            if (D.cmp(s, '0') === 0) model[side].delete(p);
            else model[side].set(p, s);
          }
        }
        const want = (m: Map<string, string>, dir: number): [string, string][] => [...m].sort((x, y) => dir * D.cmp(x[0], y[0]));
        const top = book.top(depth);
        assert.equal(top.sequence, seq.toString());
        assert.deepEqual(book.top(Infinity).bids, want(model.bids, -1));
        assert.deepEqual(book.top(Infinity).asks, want(model.asks, 1));
        assert.deepEqual(top.bids, want(model.bids, -1).slice(0, depth));
        assert.deepEqual(top.asks, want(model.asks, 1).slice(0, depth));
      }),
      { numRuns: 300, seed: process.env.FC_SEED ? Number(process.env.FC_SEED) : undefined },
    );
  });

  it('applies only a delta that starts at its sequence + 1; older ones are stale, later ones a gap; none without a book', () => {
    const book = new LiveBook(SYM);
    assert.equal(book.apply(delta('1', '1', [['1', '1']])), 'no-book');
    book.load(snap('100', [['10', '1']], [['11', '1']]));
    assert.equal(book.apply(delta('95', '100', [['10', '5']])), 'stale');
    assert.equal(book.apply(delta('102', '103', [['10', '5']])), 'gap');
    assert.equal(book.apply({ ...delta('101', '101', [['10', '5']]), symbol: 'BTC-USDT' }), 'wrong-symbol');
    assert.deepEqual(book.top(5).bids, [['10', '1']], 'refused deltas changed nothing');
    assert.equal(book.apply(delta('101', '104', [['10', '0'], ['9.5', '2']], [['10.5', '3']])), 'applied');
    assert.deepEqual(book.top(5), { symbol: SYM, sequence: '104', time: 3, receivedAt: 4, bids: [['9.5', '2']], asks: [['10.5', '3'], ['11', '1']] });
    // Prices compare exactly: "11.00" is the level "11".
    assert.equal(book.apply(delta('105', '105', [], [['11.00', '0']])), 'applied');
    assert.deepEqual(book.top(5).asks, [['10.5', '3']]);
    book.clear();
    assert.equal(book.sequence, undefined);
    assert.equal(book.apply(delta('106', '106', [])), 'no-book');
  });
});

describe('BookReceiver (the market webview\'s book messages)', () => {
  it('draws the top depth of the held book; a depth change redraws from it; a gap asks one resync and drops deltas until the book-snapshot', () => {
    const r = new BookReceiver(SYM, 2);
    const o1 = r.bookSnapshot(snap('50', [['10', '1'], ['9', '1'], ['8', '1']], [['11', '1'], ['12', '1'], ['13', '1']]), 1000);
    assert.deepEqual(o1.shown?.bids, [['10', '1'], ['9', '1']], 'holds 3, draws 2');
    assert.equal(r.live.size.bids, 3);
    assert.deepEqual(r.setDepth(3, 1001).shown?.bids.length, 3);
    const o2 = r.delta(delta('51', '52', [['10', '0']]), 1002);
    assert.deepEqual(o2.shown?.bids, [['9', '1'], ['8', '1']]);
    assert.equal(r.store.snapshot?.sequence, '52');
    // 53 never came.
    const gap = r.delta(delta('54', '54', [['9', '0']]), 1003);
    assert.deepEqual(gap, { shown: undefined, alive: false, resync: true });
    assert.deepEqual(r.delta(delta('55', '55', [['8', '0']]), 1004), { shown: undefined, alive: false, resync: false });
    assert.deepEqual(r.stats, { accepted: 3, rejectedSequence: 0, deltas: 1, droppedDeltas: 1, resyncRequests: 1 });
    assert.equal(r.store.snapshot?.sequence, '52', 'the drawn book stays until the new one comes');
    const o3 = r.bookSnapshot(snap('55', [['7', '4']], [['11', '1']]), 1005);
    assert.equal(o3.shown?.sequence, '55');
    assert.equal(r.awaitingBook, false);
    assert.deepEqual(r.delta(delta('56', '56', [['7.5', '1']]), 1006).shown?.bids, [['7.5', '1'], ['7', '4']]);
  });

  it('a polled snapshot goes through the sequence gate as before and drops the held streamed book', () => {
    const r = new BookReceiver(SYM, 20);
    r.bookSnapshot(snap('50', [['10', '1']], [['11', '1']]), 0);
    const polled = snap('60', [['10', '2']], [['11', '2']]);
    assert.equal(r.snapshot(polled, 1).shown, polled);
    assert.deepEqual(r.snapshot(polled, 2), { shown: undefined, alive: true, resync: false }, 'same sequence: not drawn, still alive');
    assert.deepEqual(r.snapshot(snap('59', [], []), 3), { shown: undefined, alive: false, resync: false }, 'older: refused');
    assert.equal(r.stats.rejectedSequence, 2);
    assert.equal(r.delta(delta('61', '61', []), 4).resync, true, 'no streamed book to continue');
  });
});
