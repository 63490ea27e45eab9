/**
 * The mirror market's queue model (src/exchange/server/mirror/commands.ts), as property tests on the journaled
 * commands themselves (a SandboxState, no network): a sandbox user's resting bid meets random upstream level
 * changes and prints, and its fills are held to a reference of hftbacktest's risk-averse queue model:
 * - at arrival, the volume ahead is the upstream's size at its price;
 * - a level change at its price to n: ahead = min(ahead, n) (cancels come from behind);
 * - a print at its price of s: the first min(ahead, s) is the queue ahead, the rest fills the order;
 * - a print through its price fills it first (the queue ahead at its price is gone).
 * So the order never fills before the volume ahead of it has printed, never more than the printed volume; the
 * tape gets every print's whole size; the money invariants hold after every command; and a state rebuilt from
 * the journal gives the same fills.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import * as D from '../../../src/api/decimal';
import { mirrorLiquidity } from '../../../src/exchange/server/mirror/commands';
import { MemoryJournal, newKeyMaterial, SandboxState, type UserRecord } from '../../../src/exchange/server/state';

const SYMBOL = 'BTC-USDT';
/** BTC-USDT of the seeded world: priceIncrement 0.1, baseMinSize 0.00001 (the unit of sizes here). */
const TICK = '0.1';
const LOT = '0.00001';
const P = 600_000; // the user's bid, in ticks (60,000.0)
const ASK = P + 1_000;

const price = (ticks: number): string => D.mul(String(ticks), TICK);
const size = (lots: number): string => D.mul(String(lots), LOT);
const lotsOf = (s: string): number => Number(D.toUnits(s, 8) / 1000n);

type Action =
  | { k: 'level'; dt: number; lots: number }
  | { k: 'print'; side: 'buy' | 'sell'; dt: number; lots: number; bookHasIt: boolean };

const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ k: fc.constant('level' as const), dt: fc.integer({ min: -2, max: 2 }), lots: fc.integer({ min: 0, max: 60 }) }),
  fc.record({ k: fc.constant('print' as const), side: fc.constantFrom<'buy' | 'sell'>('sell', 'sell', 'buy'), dt: fc.integer({ min: -2, max: 2 }), lots: fc.integer({ min: 1, max: 50 }), bookHasIt: fc.boolean() }),
);

function freshState(journal: MemoryJournal): { state: SandboxState; uid: string } {
  const state = new SandboxState({ manualClock: true, startTime: 1_700_000_000_000 });
  state.attachJournal(journal);
  const u = state.run('user.create', {
    ...newKeyMaterial(),
    keyVersion: '2',
    permissions: ['General', 'Spot'],
    balances: [
      { currency: 'USDT', type: 'trade', amount: '1000000' },
      { currency: 'BTC', type: 'trade', amount: '10' },
    ],
  }) as UserRecord;
  return { state, uid: u.uid };
}

describe('mirror queue model (property)', function () {
  this.timeout(60_000);

  it('a resting bid fills exactly as the risk-averse queue model says, never before the volume ahead printed, never beyond the prints', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: -2, max: 2 }), fc.integer({ min: 1, max: 40 })), { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 1, max: 80 }),
        fc.array(action, { minLength: 1, maxLength: 40 }),
        (levels, userLots, actions) => {
          const journal = new MemoryJournal();
          const { state, uid } = freshState(journal);
          const bids = new Map<number, number>();
          for (const [dt, n] of levels) bids.set(P + dt, n);
          state.run('mirror.book', {
            symbol: SYMBOL,
            reset: true,
            bids: [...bids].map(([t, n]) => [price(t), size(n)]),
            asks: [[price(ASK), size(1_000)]],
          });
          // the user's bid arrives: ahead = the upstream's size at its price
          let ahead = bids.get(P) ?? 0;
          const { orderId } = state.run('order.place', { uid, req: { symbol: SYMBOL, side: 'buy', type: 'limit', price: price(P), size: size(userLots) } });
          let filled = 0;
          let printedAtOrThrough = 0;
          for (const a of actions) {
            const t = P + a.dt;
            if (a.k === 'level') {
              state.run('mirror.book', { symbol: SYMBOL, bids: [[price(t), size(a.lots)]], asks: [] });
              if (t === P) ahead = Math.min(ahead, a.lots);
              continue;
            }
            const n0 = state.exchange.trades(SYMBOL).length;
            const p = a.side === 'sell' ? t : ASK;
            state.run('mirror.print', { symbol: SYMBOL, side: a.side, price: price(p), size: size(a.lots), ...(a.bookHasIt ? { bookHasIt: true } : {}) });
            // the tape gets the whole print
            const printed = state.exchange.trades(SYMBOL).slice(n0).reduce((s, x) => s + lotsOf(x.size), 0);
            assert.equal(printed, a.lots, 'the whole print reaches the tape');
            if (a.side === 'buy') continue;
            if (t > P) continue;
            printedAtOrThrough += a.lots;
            const rem = userLots - filled;
            if (t < P) {
              // through its price: the queue ahead at P is gone, the order fills first
              ahead = 0;
              filled += Math.min(rem, a.lots);
            } else {
              const x = Math.min(ahead, a.lots);
              ahead -= x;
              filled += Math.min(rem, a.lots - x);
            }
            const o = state.exchange.getOrder(uid, SYMBOL, orderId);
            assert.equal(lotsOf(o.dealSize), filled, `fills of the user's bid after ${JSON.stringify(a)}`);
            assert.ok(lotsOf(o.dealSize) <= printedAtOrThrough, 'never more than the printed volume');
            state.exchange.checkInvariants();
          }
          state.exchange.checkInvariants();
          // the journal rebuilds the same state
          const again = new SandboxState({ manualClock: true, startTime: 1_700_000_000_000 });
          again.replay(journal.commands);
          assert.deepEqual(again.exchange.getOrder(uid, SYMBOL, orderId), state.exchange.getOrder(uid, SYMBOL, orderId));
          assert.deepEqual(mirrorLiquidity(again, SYMBOL), mirrorLiquidity(state, SYMBOL));
          assert.deepEqual(again.exchange.level2(SYMBOL, 100), state.exchange.level2(SYMBOL, 100));
        },
      ),
      { numRuns: 100 },
    );
  });

  it('marketable orders take the visible levels at their prices, never beyond the visible size; what they took is back only when the upstream sets the level again', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 50 })), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 400 }),
        (levels, want) => {
          const journal = new MemoryJournal();
          const { state, uid } = freshState(journal);
          const asks = new Map<number, number>();
          for (const [dt, n] of levels) asks.set(P + dt, n);
          state.run('mirror.book', { symbol: SYMBOL, reset: true, bids: [[price(P - 10), size(100)]], asks: [...asks].map(([t, n]) => [price(t), size(n)]) });
          const total = [...asks.values()].reduce((a, b) => a + b, 0);
          // a limit IOC buy far above: it walks every visible ask, at the asks' prices
          const { orderId } = state.run('order.place', { uid, req: { symbol: SYMBOL, side: 'buy', type: 'limit', price: price(P + 100), size: size(want), timeInForce: 'IOC' } });
          const fills = state.exchange.fills(uid, { symbol: SYMBOL, orderId }).items;
          const got = fills.reduce((s, f) => s + lotsOf(f.size), 0);
          assert.equal(got, Math.min(want, total));
          let left = want;
          for (const [t, n] of [...asks].sort((x, y) => x[0] - y[0])) {
            const take = Math.min(left, n);
            left -= take;
            const at = fills.filter((f) => f.price === price(t) || D.cmp(f.price, price(t)) === 0).reduce((s, f) => s + lotsOf(f.size), 0);
            assert.equal(at, take, `fills at ${price(t)}`);
          }
          // the consumed liquidity is gone: a second order gets only what the first left
          const again = state.run('order.place', { uid, req: { symbol: SYMBOL, side: 'buy', type: 'limit', price: price(P + 100), size: size(400), timeInForce: 'IOC' } });
          const got2 = state.exchange.fills(uid, { symbol: SYMBOL, orderId: again.orderId }).items.reduce((s, f) => s + lotsOf(f.size), 0);
          assert.equal(got2, Math.max(0, total - want));
          // the upstream sets one level again: that size is available again
          const [t0, n0] = [...asks][0];
          state.run('mirror.book', { symbol: SYMBOL, bids: [], asks: [[price(t0), size(n0)]] });
          assert.deepEqual(mirrorLiquidity(state, SYMBOL).asks, [[price(t0), size(n0)]].map(([p, s]) => [D.mul(p, '1'), D.mul(s, '1')]));
          state.exchange.checkInvariants();
        },
      ),
      { numRuns: 100 },
    );
  });
  it('a level changed twice in one increment takes its last size; a level that would cross a user order is not shown; bad levels change nothing', () => {
    const { state, uid } = freshState(new MemoryJournal());
    state.run('mirror.book', { symbol: SYMBOL, reset: true, bids: [[price(P), size(10)]], asks: [[price(ASK), size(10)]] });
    state.run('mirror.book', { symbol: SYMBOL, bids: [[price(P), size(50)], [price(P), size(3)]], asks: [] });
    assert.deepEqual(mirrorLiquidity(state, SYMBOL).bids, [[price(P), size(3)]].map(([p, s]) => [D.mul(p, '1'), D.mul(s, '1')]));
    // a user bid above the upstream's: an upstream ask at or below it is refused (not shown), the user order stays
    const { orderId } = state.run('order.place', { uid, req: { symbol: SYMBOL, side: 'buy', type: 'limit', price: price(P + 5), size: size(2) } });
    const r = state.run('mirror.book', { symbol: SYMBOL, bids: [], asks: [[price(P + 4), size(7)]] });
    assert.deepEqual(r, { levels: 1, refused: 1 });
    assert.equal(state.exchange.getOrder(uid, SYMBOL, orderId).dealSize, '0');
    assert.equal(state.exchange.level2(SYMBOL, 1).asks[0][0], price(ASK));
    const before = JSON.stringify(state.exchange.level2(SYMBOL, 100));
    assert.throws(() => state.run('mirror.book', { symbol: SYMBOL, bids: [[price(P - 1), size(1)], ['60000.05', '1']], asks: [] }), /price 60000.05 is not a multiple of 0.1/);
    assert.throws(() => state.run('mirror.print', { symbol: 'NOPE-USDT', side: 'buy', price: '1', size: '1' }), /not in the sandbox's world/);
    assert.equal(JSON.stringify(state.exchange.level2(SYMBOL, 100)), before);
    state.exchange.checkInvariants();
  });
});
