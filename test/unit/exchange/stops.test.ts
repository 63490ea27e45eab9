/**
 * Stop and OCO orders of the exchange core (src/exchange/core/stops.ts): triggering by the last trade price
 * (`loss` at or below, `entry` at or above, every trade of a sweep counts, at once when placed beyond the last
 * price), no hold while waiting (KuCoin does not pre-freeze), the order it becomes (held, matched, refused →
 * stop cancelled), cascades, OCO legs cancelling each other, cancels, queries, events, snapshots, retention;
 * and fast-check properties: after every command of random streams of orders, stops, OCO orders and cancels
 * the money invariants hold (Exchange.checkInvariants) and no OCO order ever has two legs executed.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { Exchange, ExchangeError, HISTORY_WINDOW_MS, type AdvancedOrderEvent, type CoreEventSink } from '../../../src/exchange/core';
import { SYM, fund, place, throwsCode, trade, world } from './helpers';

/** A world with a seller and a buyer who trade at `price` to set the last trade price. */
function market(): { ex: Exchange; clock: { t: number }; tradeAt: (price: string, size?: string) => void } {
  const { ex, clock } = world();
  for (const u of ['mm', 'tk']) {
    fund(ex, u, 'USDT', '1000000');
    fund(ex, u, 'BTC', '100');
  }
  const tradeAt = (price: string, size = '0.01'): void => {
    place(ex, 'mm', { side: 'sell', type: 'limit', price, size });
    place(ex, 'tk', { side: 'buy', type: 'market', size });
    clock.t += 1;
  };
  return { ex, clock, tradeAt };
}

function sinkOf(events: AdvancedOrderEvent[]): CoreEventSink {
  return { level: () => undefined, trade: () => undefined, order: () => undefined, balance: () => undefined, advanced: (e) => events.push(e) };
}

describe('exchange core: stop orders', () => {
  it('a sell loss stop holds nothing, waits above its price and fires when a trade reaches it', () => {
    const { ex, tradeAt } = market();
    fund(ex, 'u', 'BTC', '1');
    tradeAt('100');
    const { orderId } = ex.advanced.place('u', { symbol: SYM, side: 'sell', type: 'limit', price: '94', size: '0.5', stopPrice: '95', stop: 'loss' });
    assert.match(orderId, /^vs[0-9a-v]{22}$/);
    assert.deepEqual(trade(ex, 'u', 'BTC'), ['1', '1', '0'], 'KuCoin does not freeze a waiting stop');
    assert.equal(ex.advanced.stopOrder('u', orderId).status, 'NEW');
    tradeAt('95.1');
    assert.equal(ex.advanced.stopOrder('u', orderId).status, 'NEW');
    assert.deepEqual(ex.activeOrders('u', SYM), []);
    tradeAt('95');
    const s = ex.advanced.stopOrder('u', orderId);
    assert.equal(s.status, 'TRIGGERED');
    assert.equal(typeof s.stopTriggerTime, 'number');
    const act = ex.activeOrders('u', SYM);
    assert.equal(act.length, 1);
    assert.equal(act[0].price, '94');
    assert.equal(act[0].side, 'sell');
    assert.deepEqual(trade(ex, 'u', 'BTC'), ['1', '0.5', '0.5'], 'held once it fired');
    assert.deepEqual(ex.advanced.stopOrders('u', {}), [], 'the list shows waiting stops only');
    ex.checkInvariants();
  });

  it('an entry stop fires at or above; stop defaults to loss', () => {
    const { ex, tradeAt } = market();
    fund(ex, 'u', 'USDT', '1000');
    tradeAt('100');
    const a = ex.advanced.place('u', { symbol: SYM, side: 'buy', type: 'market', funds: '10', stopPrice: '105', stop: 'entry' }).orderId;
    const b = ex.advanced.place('u', { symbol: SYM, side: 'buy', type: 'limit', price: '90', size: '0.1', stopPrice: '99' }).orderId;
    assert.equal(ex.advanced.stopOrder('u', b).stop, 'loss');
    tradeAt('104.9');
    assert.equal(ex.advanced.stopOrder('u', a).status, 'NEW');
    // resting asks for the market buy to take
    place(ex, 'mm', { side: 'sell', type: 'limit', price: '106', size: '1' });
    tradeAt('105');
    assert.equal(ex.advanced.stopOrder('u', a).status, 'TRIGGERED');
    // the market buy of 10 USDT bought at 106 from mm's resting ask
    const [bal] = trade(ex, 'u', 'BTC');
    assert.ok(Number(bal) > 0.09 && Number(bal) < 0.1, bal);
    assert.equal(ex.advanced.stopOrder('u', b).status, 'NEW');
    ex.checkInvariants();
  });

  it('fires at once when the last trade price already meets it (KuCoin: a buy stop above the market with the default loss)', () => {
    const { ex, tradeAt } = market();
    fund(ex, 'u', 'USDT', '1000');
    tradeAt('100');
    const id = ex.advanced.place('u', { symbol: SYM, side: 'buy', type: 'limit', price: '99', size: '0.1', stopPrice: '120' }).orderId;
    assert.equal(ex.advanced.stopOrder('u', id).status, 'TRIGGERED');
    assert.equal(ex.activeOrders('u', SYM).length, 1);
  });

  it('no trade yet: nothing fires', () => {
    const { ex } = world();
    fund(ex, 'u', 'USDT', '1000');
    const id = ex.advanced.place('u', { symbol: SYM, side: 'buy', type: 'limit', price: '99', size: '0.1', stopPrice: '120' }).orderId;
    assert.equal(ex.advanced.stopOrder('u', id).status, 'NEW');
  });

  it('every trade of a sweep counts, not only the last', () => {
    const { ex, clock, tradeAt } = market();
    fund(ex, 'u', 'BTC', '1');
    tradeAt('90');
    // entry stop at 96, last price 90: a sell sweep from bids 100 down to 95 passes 96
    const id = ex.advanced.place('u', { symbol: SYM, side: 'sell', type: 'limit', price: '200', size: '0.1', stopPrice: '96', stop: 'entry' }).orderId;
    place(ex, 'mm', { side: 'buy', type: 'limit', price: '100', size: '0.01' });
    place(ex, 'mm', { side: 'buy', type: 'limit', price: '95', size: '0.01' });
    clock.t += 1;
    place(ex, 'tk', { side: 'sell', type: 'market', size: '0.02' });
    assert.equal(ex.trades(SYM).at(-1)?.price, '95');
    assert.equal(ex.advanced.stopOrder('u', id).status, 'TRIGGERED');
  });

  it('a refused order cancels its stop (balance checked when it fires, not before) and changes nothing else', () => {
    const { ex, tradeAt } = market();
    fund(ex, 'u', 'USDT', '5');
    tradeAt('100');
    const id = ex.advanced.place('u', { symbol: SYM, side: 'buy', type: 'limit', price: '100', size: '1', stopPrice: '99' }).orderId;
    const before = ex.accounts('u');
    tradeAt('99');
    const s = ex.advanced.stopOrder('u', id);
    assert.equal(s.status, 'CANCELLED');
    assert.deepEqual(ex.accounts('u'), before);
    assert.deepEqual(ex.activeOrders('u', SYM), []);
    ex.checkInvariants();
  });

  it('rules are checked at placement; nothing changes on error', () => {
    const { ex } = market();
    throwsCode(() => ex.advanced.place('u', { symbol: SYM, side: 'buy', type: 'limit', price: '99', size: '0.1', stopPrice: '99.05' }), '400100', /stopPrice must be/);
    throwsCode(() => ex.advanced.place('u', { symbol: SYM, side: 'buy', type: 'limit', price: '99.05', size: '0.1', stopPrice: '99' }), '400100', /priceIncrement/);
    throwsCode(() => ex.advanced.place('u', { symbol: SYM, side: 'buy', type: 'limit', price: '99', size: '0.00001', stopPrice: '99' }), '400100');
    throwsCode(() => ex.advanced.place('u', { symbol: 'ETH-USDT', side: 'buy', type: 'limit', price: '99', size: '0.1', stopPrice: '99' }), '900001');
    throwsCode(() => ex.advanced.place('u', { symbol: SYM, side: 'buy', type: 'limit', price: '99', size: '0.1', stopPrice: '99', tradeType: 'MARGIN_TRADE' }), '400100');
    ex.advanced.place('u', { symbol: SYM, side: 'buy', type: 'limit', price: '99', size: '0.1', stopPrice: '98', clientOid: 'c1' });
    throwsCode(() => ex.advanced.place('u', { symbol: SYM, side: 'buy', type: 'limit', price: '99', size: '0.1', stopPrice: '98', clientOid: 'c1' }), '400100', 'clientOid already exists');
    assert.equal(ex.advanced.waitingCount(), 1);
  });

  it('cancel by id, by clientOid and in a batch; the list filters', () => {
    const { ex, clock } = market();
    const mk = (price: string, clientOid?: string, side: 'buy' | 'sell' = 'buy') => {
      clock.t += 1;
      return ex.advanced.place('u', { symbol: SYM, side, type: 'limit', price, size: '0.1', stopPrice: price, ...(clientOid ? { clientOid } : {}) }).orderId;
    };
    const a = mk('90', 'a');
    const b = mk('91', 'b');
    const c = mk('92', undefined, 'sell');
    const d = mk('93');
    assert.deepEqual(ex.advanced.stopOrders('u', {}).map((s) => s.id), [d, c, b, a], 'newest first');
    assert.deepEqual(ex.advanced.stopOrders('u', { side: 'sell' }).map((s) => s.id), [c]);
    assert.deepEqual(ex.advanced.stopOrders('u', { orderIds: [a, d] }).map((s) => s.id), [d, a]);
    assert.deepEqual(ex.advanced.stopOrdersByClientOid('u', 'b').map((s) => s.id), [b]);
    assert.deepEqual(ex.advanced.cancel('u', a), [a]);
    throwsCode(() => ex.advanced.cancel('u', a), '400100', 'order not exists');
    throwsCode(() => ex.advanced.cancel('v', b), '400100', 'order not exists');
    assert.deepEqual(ex.advanced.cancelByClientOid('u', 'b'), { cancelledOrderId: b, clientOid: 'b' });
    throwsCode(() => ex.advanced.cancelByClientOid('u', 'b'), '400100');
    assert.equal(ex.advanced.stopOrder('u', a).status, 'CANCELLED');
    assert.deepEqual(ex.advanced.cancelBatch('u', { orderIds: [d] }), [d]);
    assert.deepEqual(ex.advanced.cancelBatch('u', {}), [c]);
    assert.equal(ex.advanced.waitingCount(), 0);
  });

  it('a triggered market order trades and its trades fire further stops (cascade), highest loss stop first', () => {
    const { ex, clock, tradeAt } = market();
    fund(ex, 'u', 'BTC', '1');
    fund(ex, 'w', 'BTC', '1');
    tradeAt('100');
    for (const [p, s] of [['99', '0.01'], ['98', '0.01'], ['97', '0.01']]) place(ex, 'mm', { side: 'buy', type: 'limit', price: p, size: s });
    clock.t += 1;
    const first = ex.advanced.place('u', { symbol: SYM, side: 'sell', type: 'market', size: '0.01', stopPrice: '99.5' }).orderId;
    const second = ex.advanced.place('w', { symbol: SYM, side: 'sell', type: 'market', size: '0.01', stopPrice: '98.5' }).orderId;
    // a sale at 99.5 fires `first` (sells to the 99 bid: last 99, which does not reach 98.5); then a sale at 99 …
    place(ex, 'mm', { side: 'buy', type: 'limit', price: '99.5', size: '0.01' });
    place(ex, 'tk', { side: 'sell', type: 'market', size: '0.01' });
    assert.equal(ex.advanced.stopOrder('u', first).status, 'TRIGGERED');
    assert.equal(ex.advanced.stopOrder('w', second).status, 'NEW');
    // … the next sale takes the 98 bid: `second` fires and sells to the 97 bid
    place(ex, 'tk', { side: 'sell', type: 'market', size: '0.01' });
    assert.equal(ex.advanced.stopOrder('w', second).status, 'TRIGGERED');
    assert.equal(ex.trades(SYM).at(-1)?.price, '97');
    ex.checkInvariants();
  });

  it('events: open, triggered (with the order id), cancel', () => {
    const { ex, tradeAt } = market();
    const events: AdvancedOrderEvent[] = [];
    ex.setEventSink(sinkOf(events));
    ex.watchUser('u', true);
    fund(ex, 'u', 'USDT', '1000');
    tradeAt('100');
    const a = ex.advanced.place('u', { symbol: SYM, side: 'buy', type: 'limit', price: '90', size: '0.1', stopPrice: '95' }).orderId;
    const b = ex.advanced.place('u', { symbol: SYM, side: 'buy', type: 'limit', price: '80', size: '0.1', stopPrice: '85' }).orderId;
    ex.advanced.cancel('u', b);
    tradeAt('95');
    assert.deepEqual(
      events.map((e) => [e.orderId, e.type, e.stop, e.stopPrice, e.orderPrice, e.triggerSuccess]),
      [
        [a, 'open', 'loss', '95', '90', undefined],
        [b, 'open', 'loss', '85', '80', undefined],
        [b, 'cancel', 'loss', '85', '80', undefined],
        [a, 'triggered', 'loss', '95', '90', true],
      ],
    );
    assert.equal(events[3].triggeredOrderId, ex.activeOrders('u', SYM)[0].id);
  });
});

describe('exchange core: OCO orders', () => {
  it('sell OCO: the take-profit leg fires at or above price and cancels the stop leg', () => {
    const { ex, tradeAt } = market();
    fund(ex, 'u', 'BTC', '1');
    tradeAt('100');
    const id = ex.advanced.placeOco('u', { symbol: SYM, side: 'sell', price: '110', size: '0.5', stopPrice: '90', limitPrice: '89', clientOid: 'oco1' }).orderId;
    assert.match(id, /^[0-9a-f]{24}$/);
    const d0 = ex.advanced.ocoOrderDetail('u', id);
    assert.equal(d0.status, 'NEW');
    assert.deepEqual(d0.orders.map((l) => [l.price, l.stopPrice, l.size, l.status]), [['110', '110', '0.5', 'NEW'], ['89', '90', '0.5', 'NEW']]);
    assert.deepEqual(ex.advanced.stopOrders('u', { stop: 'oco' }).map((s) => s.stop).sort(), ['e_l_o', 'l_s_o']);
    assert.deepEqual(ex.advanced.stopOrders('u', { stop: 'stop' }), []);
    assert.deepEqual(trade(ex, 'u', 'BTC'), ['1', '1', '0']);
    tradeAt('110');
    const d = ex.advanced.ocoOrderDetail('u', id);
    assert.equal(d.status, 'TRIGGERED');
    assert.deepEqual(d.orders.map((l) => l.status), ['TRIGGERED', 'CANCELLED']);
    assert.equal(ex.activeOrders('u', SYM)[0].price, '110');
    assert.equal(ex.activeOrders('u', SYM)[0].clientOid, 'oco1');
    assert.equal(ex.advanced.waitingCount(), 0);
    // falling through the stop leg's trigger now does nothing
    tradeAt('80');
    assert.equal(ex.activeOrders('u', SYM).length, 1);
    ex.checkInvariants();
  });

  it('both triggers reached by one sweep: exactly one leg executes', () => {
    const { ex, clock, tradeAt } = market();
    fund(ex, 'u', 'USDT', '1000');
    tradeAt('100');
    // buy OCO: limit leg fires at or below 95, stop leg at or above 101
    const id = ex.advanced.placeOco('u', { symbol: SYM, side: 'buy', price: '95', size: '0.1', stopPrice: '101', limitPrice: '102', clientOid: 'b1' }).orderId;
    place(ex, 'mm', { side: 'buy', type: 'limit', price: '101', size: '0.01' });
    place(ex, 'mm', { side: 'buy', type: 'limit', price: '95', size: '0.01' });
    clock.t += 1;
    place(ex, 'tk', { side: 'sell', type: 'market', size: '0.02' });
    const d = ex.advanced.ocoOrderDetail('u', id);
    assert.deepEqual(d.orders.map((l) => l.status).sort(), ['CANCELLED', 'TRIGGERED']);
    assert.equal(ex.activeOrders('u', SYM).length + ex.doneOrders('u', SYM).length, 1);
  });

  it('validation, cancel by id / clientOid / batch, queries', () => {
    const { ex, clock } = market();
    throwsCode(() => ex.advanced.placeOco('u', { symbol: SYM, side: 'sell', price: '90', size: '0.5', stopPrice: '95', limitPrice: '94', clientOid: 'x' }), '400100', /above stopPrice/);
    throwsCode(() => ex.advanced.placeOco('u', { symbol: SYM, side: 'buy', price: '96', size: '0.5', stopPrice: '95', limitPrice: '94', clientOid: 'x' }), '400100', /below stopPrice/);
    const a = ex.advanced.placeOco('u', { symbol: SYM, side: 'sell', price: '110', size: '0.5', stopPrice: '90', limitPrice: '89', clientOid: 'a' }).orderId;
    throwsCode(() => ex.advanced.placeOco('u', { symbol: SYM, side: 'sell', price: '110', size: '0.5', stopPrice: '90', limitPrice: '89', clientOid: 'a' }), '400100', 'clientOid already exists');
    clock.t += 1;
    const b = ex.advanced.placeOco('u', { symbol: SYM, side: 'sell', price: '111', size: '0.5', stopPrice: '90', limitPrice: '89', clientOid: 'b' }).orderId;
    clock.t += 1;
    const c = ex.advanced.placeOco('u', { symbol: SYM, side: 'sell', price: '112', size: '0.5', stopPrice: '90', limitPrice: '89', clientOid: 'c' }).orderId;
    assert.deepEqual(ex.advanced.ocoOrders('u', {}).map((o) => o.orderId), [c, b, a]);
    assert.equal(ex.advanced.ocoOrderByClientOid('u', 'b').orderId, b);
    const legs = ex.advanced.ocoOrderDetail('u', a).orders.map((l) => l.id);
    assert.deepEqual(ex.advanced.cancelOco('u', a), legs);
    assert.equal(ex.advanced.ocoOrder('u', a).status, 'CANCELLED');
    throwsCode(() => ex.advanced.cancelOco('u', a), '400100', 'order not exists');
    assert.equal(ex.advanced.cancelOcoByClientOid('u', 'b').length, 2);
    // a leg's id through the stop-order cancel cancels the whole OCO order
    const cLeg = ex.advanced.ocoOrderDetail('u', c).orders[1].id;
    assert.equal(ex.advanced.cancel('u', cLeg).length, 2);
    assert.equal(ex.advanced.ocoOrder('u', c).status, 'CANCELLED');
    const d = ex.advanced.placeOco('u', { symbol: SYM, side: 'sell', price: '112', size: '0.5', stopPrice: '90', limitPrice: '89', clientOid: 'd' }).orderId;
    assert.equal(ex.advanced.cancelOcoBatch('u', { symbol: SYM }).length, 2);
    assert.equal(ex.advanced.ocoOrder('u', d).status, 'CANCELLED');
    throwsCode(() => ex.advanced.ocoOrder('v', d), '400100');
    assert.equal(ex.advanced.waitingCount(), 0);
  });
});

describe('exchange core: stops in snapshots and history', () => {
  it('a snapshot carries waiting and done stops and OCO orders; the restored engine fires them the same way', () => {
    const build = () => {
      const m = market();
      fund(m.ex, 'u', 'BTC', '1');
      m.tradeAt('100');
      m.ex.advanced.place('u', { symbol: SYM, side: 'sell', type: 'limit', price: '94', size: '0.1', stopPrice: '95', clientOid: 's1' });
      m.ex.advanced.placeOco('u', { symbol: SYM, side: 'sell', price: '110', size: '0.1', stopPrice: '90', limitPrice: '89', clientOid: 'o1' });
      const gone = m.ex.advanced.place('u', { symbol: SYM, side: 'sell', type: 'limit', price: '94', size: '0.1', stopPrice: '96' }).orderId;
      m.ex.advanced.cancel('u', gone);
      return m;
    };
    const a = build();
    const clockB = { t: a.clock.t };
    const b = Exchange.importSnapshot({ now: () => clockB.t }, [...a.ex.exportSnapshot()]);
    const view = (ex: Exchange) => ({ stops: ex.advanced.stopOrders('u', {}), ocos: ex.advanced.ocoOrders('u', {}), byCoid: ex.advanced.stopOrdersByClientOid('u', 's1') });
    assert.deepEqual(view(b), view(a.ex));
    // the same trade on both: the same stops fire, the same orders result
    for (const [ex, clock] of [[a.ex, a.clock], [b, clockB]] as const) {
      clock.t += 5;
      ex.placeOrder('mm', { symbol: SYM, side: 'buy', type: 'limit', price: '95', size: '0.01' });
      ex.placeOrder('tk', { symbol: SYM, side: 'sell', type: 'market', size: '0.01' });
      // a stop placed after the restore gets the next id on both
      ex.advanced.place('u', { symbol: SYM, side: 'sell', type: 'limit', price: '50', size: '0.1', stopPrice: '60' });
    }
    assert.deepEqual(view(b), view(a.ex));
    assert.deepEqual(b.activeOrders('u', SYM), a.ex.activeOrders('u', SYM));
    assert.deepEqual(b.accounts('u'), a.ex.accounts('u'));
    b.checkInvariants();
  });

  it('done stops and OCO orders are readable for 3 x 24 h after they are done, then gone', () => {
    const { ex, clock } = market();
    const s = ex.advanced.place('u', { symbol: SYM, side: 'buy', type: 'limit', price: '90', size: '0.1', stopPrice: '91' }).orderId;
    const o = ex.advanced.placeOco('u', { symbol: SYM, side: 'sell', price: '110', size: '0.1', stopPrice: '90', limitPrice: '89', clientOid: 'o' }).orderId;
    clock.t += 1000;
    ex.advanced.cancel('u', s);
    ex.advanced.cancelOco('u', o);
    clock.t += HISTORY_WINDOW_MS;
    assert.equal(ex.advanced.stopOrder('u', s).status, 'CANCELLED');
    assert.equal(ex.advanced.ocoOrder('u', o).status, 'CANCELLED');
    clock.t += 1;
    throwsCode(() => ex.advanced.stopOrder('u', s), '400100');
    throwsCode(() => ex.advanced.ocoOrder('u', o), '400100');
    assert.deepEqual(ex.advanced.ocoOrders('u', {}), []);
    // a snapshot leaves out what nobody can read
    const recs = [...ex.exportSnapshot()];
    const st = recs.find((r) => r.t === 'stops');
    assert.ok(st && st.t === 'stops');
    assert.deepEqual([st.stops.length, st.ocos.length], [0, 0]);
  });
});

// ───────────────────────────── properties ─────────────────────────────

const USERS = ['p0', 'p1', 'p2'];
const priceT = fc.integer({ min: 990, max: 1010 }).map((t) => (t / 10).toFixed(1));
const sizeT = fc.integer({ min: 1, max: 80 }).map((l) => (l / 100).toFixed(2));

type PCmd =
  | { k: 'limit'; u: number; side: 'buy' | 'sell'; price: string; size: string }
  | { k: 'market'; u: number; side: 'buy' | 'sell'; size: string }
  | { k: 'stop'; u: number; side: 'buy' | 'sell'; market: boolean; price: string; size: string; stopPrice: string; stop: 'loss' | 'entry' }
  | { k: 'oco'; u: number; side: 'buy' | 'sell'; a: string; b: string; limitPrice: string; size: string }
  | { k: 'cancelStop'; u: number; pick: number }
  | { k: 'cancelOco'; u: number; pick: number }
  | { k: 'cancelOrder'; u: number; pick: number }
  | { k: 'time'; ms: number };

const u = fc.integer({ min: 0, max: USERS.length - 1 });
const side = fc.constantFrom('buy' as const, 'sell' as const);
const pcmd: fc.Arbitrary<PCmd> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ k: fc.constant('limit' as const), u, side, price: priceT, size: sizeT }) },
  { weight: 3, arbitrary: fc.record({ k: fc.constant('market' as const), u, side, size: sizeT }) },
  { weight: 4, arbitrary: fc.record({ k: fc.constant('stop' as const), u, side, market: fc.boolean(), price: priceT, size: sizeT, stopPrice: priceT, stop: fc.constantFrom('loss' as const, 'entry' as const) }) },
  { weight: 3, arbitrary: fc.record({ k: fc.constant('oco' as const), u, side, a: priceT, b: priceT, limitPrice: priceT, size: sizeT }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('cancelStop' as const), u, pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('cancelOco' as const), u, pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('cancelOrder' as const), u, pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('time' as const), ms: fc.integer({ min: 0, max: 5000 }) }) },
);

const pstats = { commands: 0, stopsFired: 0, ocoFired: 0, refused: 0 };

/** Run one stream; after every command: the money invariants and the OCO rule. Returns the engine. */
function runStream(cmds: PCmd[], bigIntOnly = false): Exchange {
  const { ex, clock } = world(1_700_000_000_000, bigIntOnly);
  for (const id of USERS) {
    fund(ex, id, 'USDT', '120');
    fund(ex, id, 'BTC', '1.2');
  }
  // a first trade so that stops have a last price
  ex.placeOrder('p0', { symbol: SYM, side: 'sell', type: 'limit', price: '100', size: '0.01' });
  ex.placeOrder('p1', { symbol: SYM, side: 'buy', type: 'market', size: '0.01' });
  const stops: [string, string][] = [];
  const ocos: [string, string][] = [];
  for (const c of cmds) {
    pstats.commands++;
    try {
      switch (c.k) {
        case 'limit':
          ex.placeOrder(USERS[c.u], { symbol: SYM, side: c.side, type: 'limit', price: c.price, size: c.size });
          break;
        case 'market':
          ex.placeOrder(USERS[c.u], { symbol: SYM, side: c.side, type: 'market', size: c.size });
          break;
        case 'stop':
          stops.push([USERS[c.u], ex.advanced.place(USERS[c.u], { symbol: SYM, side: c.side, type: c.market ? 'market' : 'limit', size: c.size, ...(c.market ? {} : { price: c.price }), stopPrice: c.stopPrice, stop: c.stop }).orderId]);
          break;
        case 'oco': {
          const [lo, hi] = c.a < c.b ? [c.a, c.b] : [c.b, c.a];
          if (lo === hi) break;
          const [price, stopPrice] = c.side === 'sell' ? [hi, lo] : [lo, hi];
          ocos.push([USERS[c.u], ex.advanced.placeOco(USERS[c.u], { symbol: SYM, side: c.side, price, size: c.size, stopPrice, limitPrice: c.limitPrice, clientOid: `o${ocos.length}` }).orderId]);
          break;
        }
        case 'cancelStop':
          if (stops.length) ex.advanced.cancel(...(stops[c.pick % stops.length]));
          break;
        case 'cancelOco':
          if (ocos.length) ex.advanced.cancelOco(...(ocos[c.pick % ocos.length]));
          break;
        case 'cancelOrder': {
          const act = ex.activeOrders(USERS[c.u], SYM);
          if (act.length) ex.cancelOrder(USERS[c.u], SYM, act[c.pick % act.length].id);
          break;
        }
        case 'time':
          clock.t += c.ms;
          break;
      }
    } catch (e) {
      if (!(e instanceof ExchangeError)) throw e;
    }
    clock.t += 1;
    ex.checkInvariants();
    for (const [owner, id] of ocos) {
      const d = ex.advanced.ocoOrderDetail(owner, id);
      const fired = d.orders.filter((l) => l.status === 'TRIGGERED').length;
      assert.ok(fired <= 1, `OCO ${id}: both legs executed`);
      if (d.status === 'NEW') assert.deepEqual(d.orders.map((l) => l.status), ['NEW', 'NEW']);
      else assert.ok(d.orders.every((l) => l.status !== 'NEW'), `OCO ${id} ${d.status} with a waiting leg`);
    }
    // a waiting stop's trigger is never met by the last trade price (it would have fired)
    const last = ex.trades(SYM).at(-1)?.price;
    if (last !== undefined) {
      for (const s of ex.advanced.stopOrders(USERS[0], {}).concat(ex.advanced.stopOrders(USERS[1], {}), ex.advanced.stopOrders(USERS[2], {}))) {
        const down = s.stop === 'loss' || s.stop.startsWith('l_');
        assert.ok(down ? Number(last) > Number(s.stopPrice) : Number(last) < Number(s.stopPrice), `stop ${s.id} (${s.stop} ${s.stopPrice}) waits at last price ${last}`);
      }
    }
  }
  for (const [owner, id] of stops) {
    const s = ex.advanced.stopOrder(owner, id);
    if (s.status === 'TRIGGERED') pstats.stopsFired++;
    if (s.status === 'CANCELLED' && s.stopTriggerTime !== null) pstats.refused++;
  }
  for (const [owner, id] of ocos) if (ex.advanced.ocoOrder(owner, id).status === 'TRIGGERED') pstats.ocoFired++;
  return ex;
}

describe('exchange core: stop and OCO properties (fast-check)', function () {
  this.timeout(120_000);
  after(() => console.log(`      stop/OCO property coverage: ${JSON.stringify(pstats)}`));

  it('after every command the money invariants hold, waiting stops are not met by the last price, and no OCO executes both legs', () => {
    fc.assert(
      fc.property(fc.array(pcmd, { minLength: 1, maxLength: 60 }), (cmds) => {
        runStream(cmds);
      }),
      { numRuns: 150 },
    );
  });

  it('the BigInt-only engine gives the same results; a snapshot after a random prefix restores the same stops, OCO orders and balances', () => {
    fc.assert(
      fc.property(fc.array(pcmd, { minLength: 2, maxLength: 40 }), fc.nat(), (cmds, cut) => {
        const a = runStream(cmds);
        const b = runStream(cmds, true);
        for (const id of USERS) {
          assert.deepEqual(b.accounts(id), a.accounts(id));
          assert.deepEqual(b.advanced.stopOrders(id, {}), a.advanced.stopOrders(id, {}));
          assert.deepEqual(b.advanced.ocoOrders(id, {}), a.advanced.ocoOrders(id, {}));
        }
        const k = cut % cmds.length;
        const prefix = runStream(cmds.slice(0, k));
        const restored = Exchange.importSnapshot({ now: () => 1_700_000_000_000 }, [...prefix.exportSnapshot()]);
        for (const id of USERS) {
          assert.deepEqual(restored.advanced.stopOrders(id, {}), prefix.advanced.stopOrders(id, {}));
          assert.deepEqual(restored.advanced.ocoOrders(id, {}), prefix.advanced.ocoOrders(id, {}));
          assert.deepEqual(restored.accounts(id), prefix.accounts(id));
        }
      }),
      { numRuns: 40 },
    );
  });
});
