/**
 * Core events (src/exchange/core/events.ts, contract docs/events.md): property tests over random command
 * streams (commands.ts) into an engine with an event sink, checked after every command against what the
 * engine's queries say, plus a few exact examples.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import * as D from '../../../src/api/decimal';
import type { BalanceEvent, CoreEventSink, LevelEvent, OrderEvent, TradeEvent } from '../../../src/exchange/core';
import { Driver, USERS, engineCmdArb, ratesArb, type EngineCmd } from './commands';
import { SYM, fund, place, world } from './helpers';

type Ev = { k: 'level'; e: LevelEvent } | { k: 'trade'; e: TradeEvent } | { k: 'order'; e: OrderEvent } | { k: 'balance'; e: BalanceEvent };

/** A sink recording every event in order. */
class Recorder implements CoreEventSink {
  events: Ev[] = [];
  level(e: LevelEvent): void {
    this.events.push({ k: 'level', e });
  }
  trade(e: TradeEvent): void {
    this.events.push({ k: 'trade', e });
  }
  order(e: OrderEvent): void {
    this.events.push({ k: 'order', e });
  }
  balance(e: BalanceEvent): void {
    this.events.push({ k: 'balance', e });
  }
  take(): Ev[] {
    const out = this.events;
    this.events = [];
    return out;
  }
}

type Book = { buy: Map<string, string>; sell: Map<string, string> };
/** A visible book from a level-2 snapshot. */
function bookOf(l2: { bids: [string, string][]; asks: [string, string][] }): Book {
  return { buy: new Map(l2.bids), sell: new Map(l2.asks) };
}
/** A book as level-2 arrays (bids descending, asks ascending). */
function arrays(b: Book): { bids: [string, string][]; asks: [string, string][] } {
  const sorted = (m: Map<string, string>, desc: boolean): [string, string][] => [...m].sort((x, y) => (desc ? D.cmp(y[0], x[0]) : D.cmp(x[0], y[0])));
  return { bids: sorted(b.buy, true), asks: sorted(b.sell, false) };
}
function applyLevel(b: Book, e: LevelEvent): void {
  if (e.size === '0') b[e.side].delete(e.price);
  else b[e.side].set(e.price, e.size);
}

/** Order event grammar: received → (match|update)* → open → (match|update)* → filled|canceled, or done at once. */
const NEXT: Record<string, string[]> = {
  none: ['received'],
  received: ['match', 'update', 'open', 'filled', 'canceled'],
  open: ['match', 'update', 'filled', 'canceled'],
  done: [],
};
const stateAfter = (t: string, cur: string): string => (t === 'received' ? 'received' : t === 'open' ? 'open' : t === 'filled' || t === 'canceled' ? 'done' : cur);

/**
 * The fill of `orderId` for trade `tradeId` on `liquidity`'s side. A query by orderId answers at most 100 fills
 * (newest first): an order with more (e.g. a taker eating 101 iceberg tranches) is looked up in the user's
 * fills paged by lastId.
 */
function fillOf(ex: Driver['ex'], uid: string, orderId: string, tradeId: number, liquidity: 'taker' | 'maker') {
  const hit = (f: ReturnType<typeof ex.fills>['items'][number]) => f.orderId === orderId && f.tradeId === tradeId && f.liquidity === liquidity;
  const direct = ex.fills(uid, { symbol: SYM, orderId }).items.find(hit);
  if (direct) return direct;
  for (let lastId: number | undefined; ; ) {
    const page = ex.fills(uid, { symbol: SYM, ...(lastId !== undefined ? { lastId } : {}) });
    const f = page.items.find(hit);
    if (f || page.items.length === 0) return f;
    lastId = page.lastId;
  }
}

/** Coverage of the property runs (printed, so a weak generator is visible). */
const seen = { commands: 0, level: 0, trade: 0, order: 0, balance: 0, update: 0, hiddenRests: 0, icebergRests: 0, expiries: 0 };

/**
 * Run one stream: `watched` users and (watchSym) the symbol are watched from the start. After every command
 * the checks of the contract run; a second engine without any sink runs the same commands and must give the
 * same results and state.
 */
function run(rates: [string, string][], cmds: EngineCmd[], watched: boolean[], watchSym: boolean): void {
  const d = new Driver(rates);
  const plain = new Driver(rates);
  const ex = d.ex;
  const rec = new Recorder();
  ex.setEventSink(rec);
  if (watchSym) ex.watchSymbol(SYM, true);
  const watchedUids = USERS.filter((_, i) => watched[i]);
  for (const u of watchedUids) ex.watchUser(u, true);
  // what the sink was told so far
  const start = ex.level2(SYM, Number.MAX_SAFE_INTEGER);
  const mirror = bookOf(start);
  let lastSeq = ex.sequence(SYM);
  // level-2 snapshots after each command, and every level event (numbered from the first snapshot's sequence + 1)
  const snapshots: { seq: number; book: Book }[] = [{ seq: lastSeq, book: bookOf(start) }];
  const levels: LevelEvent[] = [];
  const accs = new Map<string, { total: string; hold: string }>();
  for (const u of watchedUids) for (const a of ex.accounts(u)) accs.set(a.id, { total: a.balance, hold: a.holds });
  const orderState = new Map<string, string>();
  const matched = new Map<string, string>();
  let tradesSeen = ex.trades(SYM).length;

  cmds.forEach((c, step) => {
    const where = `step ${step} ${JSON.stringify(c)}`;
    const out = d.apply(c);
    assert.deepEqual(plain.apply(c), out, `${where}: result without a sink`);
    const evs = rec.take();
    seen.commands++;
    if ('err' in out) assert.deepEqual(evs, [], `${where}: a rejected command emits nothing`);
    if (c.k === 'time' && evs.some((x) => x.k === 'order' && x.e.type === 'canceled')) seen.expiries++;
    const trades = ex.trades(SYM).slice(tradesSeen);
    tradesSeen += trades.length;
    let ti = 0;
    for (const x of evs) {
      seen[x.k]++;
      // a command's time; GTT expiries (on 'time') are stamped with their expiry time
      if (c.k === 'time') assert.ok(x.e.time <= d.clock.t, `${where}: event time`);
      else assert.equal(x.e.time, d.clock.t, `${where}: event time`);
      if (x.k === 'level') {
        const e = x.e;
        assert.ok(watchSym, `${where}: level event of an unwatched symbol`);
        assert.equal(e.symbol, SYM);
        assert.equal(e.sequence, lastSeq + 1, `${where}: level sequences are contiguous`);
        lastSeq = e.sequence;
        assert.notEqual(mirror[e.side].get(e.price) ?? '0', e.size, `${where}: every level event changes the visible size`);
        applyLevel(mirror, e);
        levels.push(e);
      } else if (x.k === 'trade') {
        const e = x.e;
        assert.ok(watchSym, `${where}: trade event of an unwatched symbol`);
        // the trade tape's entry for this trade, and the sequence of its fill's visible change
        const t = trades[ti++];
        assert.deepEqual([e.tradeId, String(e.sequence), e.price, e.size, e.side, e.time], [t.tradeId, t.sequence, t.price, t.size, t.side, t.time], `${where}: trade event vs trades()`);
        assert.equal(e.sequence, lastSeq, `${where}: a trade carries the sequence of its fill's visible change`);
        const tf = fillOf(ex, e.takerUid, e.takerOrderId, e.tradeId, 'taker');
        const mf = fillOf(ex, e.makerUid, e.makerOrderId, e.tradeId, 'maker');
        assert.ok(tf && mf, `${where}: trade ${e.tradeId} has its taker and maker fills`);
        assert.deepEqual([tf.counterOrderId, tf.price, tf.size, tf.side, mf.counterOrderId], [e.makerOrderId, e.price, e.size, e.side, e.takerOrderId], `${where}: trade event vs fills`);
      } else if (x.k === 'order') {
        const e = x.e;
        assert.ok(watchedUids.includes(e.uid), `${where}: order event of an unwatched user`);
        const cur = orderState.get(e.orderId) ?? 'none';
        assert.ok(NEXT[cur].includes(e.type), `${where}: order ${e.orderId}: ${e.type} after ${cur}`);
        orderState.set(e.orderId, stateAfter(e.type, cur));
        if (e.type === 'match') {
          const m = e.match as NonNullable<OrderEvent['match']>;
          matched.set(e.orderId, D.add(matched.get(e.orderId) ?? '0', m.size));
          const f = fillOf(ex, e.uid, e.orderId, Number(m.tradeId), m.liquidity);
          assert.ok(f, `${where}: match event ${m.tradeId} has its fill`);
          assert.deepEqual([m.price, m.size, m.fee, m.feeCurrency], [f.price, f.size, f.fee, f.feeCurrency], `${where}: match event vs fill`);
        } else {
          assert.equal(e.match, undefined);
        }
        if (e.type === 'update') {
          seen.update++;
          assert.ok(D.cmp(e.oldSize as string, e.remainSize) > 0, `${where}: an update decreases the remaining size`);
        }
      } else {
        const e = x.e;
        assert.ok(watchedUids.includes(e.uid), `${where}: balance event of an unwatched user`);
        const prev = accs.get(e.accountId) ?? { total: '0', hold: '0' };
        assert.equal(e.available, D.sub(e.total, e.hold), `${where}: available = total - hold`);
        assert.equal(D.add(D.sub(prev.total, prev.hold), e.availableChange), e.available, `${where}: availableChange adds up`);
        assert.equal(D.add(prev.hold, e.holdChange), e.hold, `${where}: holdChange adds up`);
        assert.ok(e.total !== prev.total || e.hold !== prev.hold, `${where}: a balance event changes something`);
        accs.set(e.accountId, { total: e.total, hold: e.hold });
      }
    }
    if (watchSym) assert.equal(ti, trades.length, `${where}: one trade event per trade`);
    else lastSeq = ex.sequence(SYM);
    // hidden orders never change the visible book; an iceberg shows its tranche (orders without STP, which
    // could cancel or decrease the user's own visible orders)
    if (c.k === 'place' && 'ok' in out && trades.length === 0 && c.r.type === 'limit' && c.r.stp === undefined && watchSym) {
      const lv = evs.filter((x) => x.k === 'level');
      if (c.r.hidden) {
        seen.hiddenRests++;
        assert.deepEqual(lv, [], `${where}: a hidden order that did not trade produced level events`);
      } else if (c.r.iceberg && lv.length === 1 && lv[0].k === 'level') {
        seen.icebergRests++;
        const before = snapshots[snapshots.length - 1].book[lv[0].e.side].get(lv[0].e.price) ?? '0';
        assert.equal(D.sub(lv[0].e.size, before), c.r.visibleSize, `${where}: an iceberg rests showing its tranche`);
      }
    }
    // after the command: the book, the sequence, orders and balances as the engine tells them
    const l2 = ex.level2(SYM, Number.MAX_SAFE_INTEGER);
    assert.equal(ex.sequence(SYM), lastSeq, `${where}: sequence() = the last level event's`);
    if (watchSym) {
      assert.deepEqual(arrays(mirror), { bids: l2.bids, asks: l2.asks }, `${where}: book rebuilt from the events`);
      // a snapshot taken after an earlier command plus the level events after its sequence
      const j = (step * 7919) % snapshots.length;
      const b = bookOf(arrays(snapshots[j].book));
      for (const e of levels) if (e.sequence > snapshots[j].seq) applyLevel(b, e);
      assert.deepEqual(arrays(b), { bids: l2.bids, asks: l2.asks }, `${where}: snapshot ${j} + the level events after its sequence`);
      snapshots.push({ seq: lastSeq, book: bookOf(l2) });
    }
    const active = new Set(watchedUids.flatMap((u) => ex.activeOrders(u, SYM).map((o) => o.id)));
    for (const [id, st] of orderState) {
      assert.equal(active.has(id), st === 'open', `${where}: order ${id} is ${active.has(id) ? 'active' : 'done'}, its events say ${st}`);
    }
    const last = new Map<string, OrderEvent>();
    for (const x of evs) if (x.k === 'order') last.set(x.e.orderId, x.e);
    for (const [id, e] of last) {
      const o = ex.getOrder(e.uid, SYM, id);
      assert.deepEqual(
        [e.clientOid, e.side, e.orderType, e.price, e.size, e.funds, e.filledSize, e.remainSize, e.canceledSize, e.remainFunds, e.orderTime],
        [o.clientOid, o.side, o.type, o.price, o.size, o.funds, o.dealSize, o.remainSize, o.cancelledSize, o.remainFunds, o.createdAt],
        `${where}: the last event of order ${id} vs getOrder`,
      );
      assert.equal(D.cmp(matched.get(id) ?? '0', o.dealSize), 0, `${where}: match events of ${id} add up to its dealSize`);
    }
    for (const u of watchedUids) {
      for (const a of ex.accounts(u)) {
        const told = accs.get(a.id) ?? { total: '0', hold: '0' };
        assert.deepEqual([told.total, told.hold], [a.balance, a.holds], `${where}: balance events of ${u} ${a.currency} ${a.type} vs accounts()`);
      }
    }
    assert.deepEqual(rec.take(), [], `${where}: queries emit nothing`);
    assert.deepEqual(plain.observe(), d.observe(), `${where}: state without a sink`);
  });
  d.ex.checkInvariants();
}

describe('exchange core: events (level, trade, order, balance)', function () {
  this.timeout(180_000);
  it('random command streams: the book rebuilt from any snapshot + later level events = level2; contiguous sequences; trades, orders and balances as the engine tells them; no change without a sink', () => {
    fc.assert(
      fc.property(
        ratesArb,
        fc.array(engineCmdArb, { minLength: 1, maxLength: 80, size: 'max' }),
        fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
        fc.oneof({ weight: 9, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
        (rates, cmds, watched, watchSym) => {
          run(rates as [string, string][], cmds, watched, watchSym);
        },
      ),
      { numRuns: Number(process.env.EXCHANGE_MODEL_RUNS ?? 200), seed: process.env.FC_SEED ? Number(process.env.FC_SEED) : undefined },
    );
    console.log(`      event runs: ${JSON.stringify(seen)}`);
    for (const k of ['level', 'trade', 'order', 'balance', 'update', 'hiddenRests', 'icebergRests', 'expiries'] as const) assert.ok(seen[k] > 0, `the streams produced ${k}`);
  });

  it('a resting order, a market order filling part of it and a cancel: the events in order, with their fields', () => {
    const { ex, clock } = world();
    fund(ex, 'maker', 'BTC', '2');
    fund(ex, 'taker', 'USDT', '1000');
    const rec = new Recorder();
    ex.setEventSink(rec);
    ex.watchSymbol(SYM, true);
    ex.watchUser('maker', true);
    ex.watchUser('taker', true);
    const s0 = ex.sequence(SYM);
    const t0 = clock.t;
    const show = (x: Ev): unknown[] => {
      if (x.k === 'level') return ['level', x.e.side, x.e.price, x.e.size, x.e.sequence - s0];
      if (x.k === 'trade') return ['trade', x.e.tradeId, x.e.sequence - s0, x.e.price, x.e.size, x.e.side, x.e.takerUid, x.e.makerUid];
      if (x.k === 'order') return ['order', x.e.uid, x.e.type, x.e.filledSize, x.e.remainSize, x.e.canceledSize, x.e.match?.liquidity ?? '', x.e.match?.fee ?? ''];
      return ['balance', x.e.uid, x.e.currency, x.e.relationEvent, x.e.total, x.e.hold, x.e.availableChange, x.e.holdChange];
    };
    const mk = place(ex, 'maker', { side: 'sell', type: 'limit', price: '100', size: '1' });
    assert.deepEqual(rec.take().map(show), [
      ['order', 'maker', 'received', '0', '1', '0', '', ''],
      ['balance', 'maker', 'BTC', 'trade.hold', '2', '1', '-1', '1'],
      ['level', 'sell', '100', '1', 1],
      ['order', 'maker', 'open', '0', '1', '0', '', ''],
    ]);
    clock.t = t0 + 1000;
    const tk = place(ex, 'taker', { side: 'buy', type: 'market', size: '0.4' });
    const evs = rec.take();
    assert.deepEqual(evs.map(show), [
      ['order', 'taker', 'received', '0', '0.4', '0', '', ''],
      ['balance', 'taker', 'USDT', 'trade.hold', '1000', '40.04', '-40.04', '40.04'],
      ['level', 'sell', '100', '0.6', 2],
      ['trade', 1, 2, '100', '0.4', 'buy', 'taker', 'maker'],
      ['order', 'taker', 'match', '0.4', '0', '0', 'taker', '0.04'],
      ['order', 'maker', 'match', '0.4', '0.6', '0', 'maker', '0.04'],
      ['balance', 'taker', 'USDT', 'trade.setted', '959.96', '0', '0', '-40.04'],
      ['balance', 'taker', 'BTC', 'trade.setted', '0.4', '0', '0.4', '0'],
      ['balance', 'maker', 'USDT', 'trade.setted', '39.96', '0', '39.96', '0'],
      ['balance', 'maker', 'BTC', 'trade.setted', '1.6', '0.6', '0', '-0.4'],
      ['order', 'taker', 'filled', '0.4', '0', '0', '', ''],
    ]);
    const tr = evs.find((x) => x.k === 'trade');
    assert.ok(tr && tr.k === 'trade');
    assert.deepEqual([tr.e.takerOrderId, tr.e.makerOrderId, tr.e.time], [tk, mk, t0 + 1000]);
    clock.t = t0 + 2000;
    ex.cancelOrder('maker', SYM, mk);
    assert.deepEqual(rec.take().map(show), [
      ['level', 'sell', '100', '0', 3],
      ['order', 'maker', 'canceled', '0.4', '0', '0.6', '', ''],
      ['balance', 'maker', 'BTC', 'trade.hold', '1.6', '0', '0.6', '-0.6'],
    ]);
    // ledger commands of a watched user
    ex.deposit('maker', 'USDT', '5');
    ex.transfer('maker', 'USDT', 'main', 'trade', '2');
    const wh = ex.holdWithdrawal('maker', 'USDT', '3');
    ex.settleWithdrawal(wh, '0.5');
    assert.deepEqual(
      rec.take().map((x) => (x.k === 'balance' ? [x.e.accountType, x.e.relationEvent, x.e.relationEventId, x.e.total, x.e.hold] : [x.k])),
      [
        ['main', 'main.deposit', '', '5', '0'],
        ['main', 'main.transfer', '', '3', '0'],
        ['trade', 'trade.transfer', '', '41.96', '0'],
        ['main', 'main.withdraw_hold', wh, '3', '3'],
        ['main', 'main.withdraw_done', wh, '0', '0'],
      ],
    );
  });

  it('events only for watched symbols and users, from the moment they are watched; none without a sink; a rejected command emits nothing', () => {
    const { ex } = world();
    fund(ex, 'a', 'BTC', '5');
    fund(ex, 'b', 'USDT', '1000');
    const rec = new Recorder();
    place(ex, 'a', { side: 'sell', type: 'limit', price: '100', size: '1' });
    ex.watchSymbol(SYM, true);
    ex.watchUser('a', true);
    place(ex, 'a', { side: 'sell', type: 'limit', price: '101', size: '1' });
    assert.deepEqual(rec.take(), [], 'no sink: nothing');
    ex.setEventSink(rec);
    place(ex, 'b', { side: 'buy', type: 'limit', price: '99', size: '1' });
    assert.deepEqual(rec.take().map((x) => x.k), ['level'], 'b is not watched: only the level');
    place(ex, 'a', { side: 'sell', type: 'limit', price: '102', size: '0.1' });
    const evs = rec.take();
    assert.deepEqual(evs.map((x) => x.k), ['order', 'balance', 'level', 'order']);
    // a's hold changes are counted from when the sink was set (holds 2 already, then 0.1 more)
    const b = evs[1];
    assert.ok(b.k === 'balance');
    assert.deepEqual([b.e.hold, b.e.holdChange], ['2.1', '0.1']);
    assert.throws(() => ex.placeOrder('a', { symbol: SYM, side: 'sell', type: 'limit', price: '103', size: '1000' }));
    assert.deepEqual(rec.take(), [], 'a rejected order emits nothing');
    ex.watchSymbol(SYM, false);
    ex.watchUser('a', false);
    place(ex, 'a', { side: 'sell', type: 'limit', price: '104', size: '0.1' });
    assert.deepEqual(rec.take(), []);
    // a user watched before it exists gets events once created
    ex.watchUser('c', true);
    fund(ex, 'c', 'USDT', '10');
    assert.deepEqual(rec.take().map((x) => (x.k === 'balance' ? x.e.relationEvent : x.k)), ['main.deposit', 'main.transfer', 'trade.transfer']);
    ex.setEventSink(null);
    fund(ex, 'c', 'USDT', '10');
    assert.deepEqual(rec.take(), []);
  });

  it('GTT expiries due at a command\'s time come first, stamped with their expiry time, even when the command then fails; after tick() a failing command emits nothing', () => {
    const { ex, clock } = world();
    fund(ex, 'a', 'BTC', '5');
    const rec = new Recorder();
    ex.setEventSink(rec);
    ex.watchSymbol(SYM, true);
    ex.watchUser('a', true);
    const t0 = clock.t;
    const g1 = place(ex, 'a', { side: 'sell', type: 'limit', price: '100', size: '1', timeInForce: 'GTT', cancelAfter: 5 });
    const g2 = place(ex, 'a', { side: 'sell', type: 'limit', price: '101', size: '1', timeInForce: 'GTT', cancelAfter: 7 });
    rec.take();
    clock.t = t0 + 6000;
    assert.throws(() => ex.placeOrder('a', { symbol: SYM, side: 'sell', type: 'limit', price: '102', size: '1000' }));
    assert.deepEqual(
      rec.take().map((x) => [x.k, x.k === 'order' ? x.e.orderId : x.k === 'level' ? x.e.price : '', x.e.time]),
      [
        ['level', '100', t0 + 5000],
        ['order', g1, t0 + 5000],
        ['balance', '', t0 + 5000],
      ],
    );
    clock.t = t0 + 8000;
    ex.tick();
    assert.deepEqual(rec.take().map((x) => [x.k, x.e.time]), [['level', t0 + 7000], ['order', t0 + 7000], ['balance', t0 + 7000]]);
    assert.equal(ex.getOrder('a', SYM, g2).cancelExist, true);
    assert.throws(() => ex.placeOrder('a', { symbol: SYM, side: 'sell', type: 'limit', price: '102', size: '1000' }));
    assert.deepEqual(rec.take(), []);
  });
});
