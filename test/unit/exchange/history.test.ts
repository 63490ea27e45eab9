/**
 * The readable history of the exchange core (spec: fills and non-active orders only within the last 3 × 24 h):
 * every query hides what lies before the window, and a user that keeps no history (Exchange.disableHistory)
 * shows none; the window never moves back with the clock.
 */
import { strict as assert } from 'node:assert';
import { HISTORY_WINDOW_MS } from '../../../src/exchange/core';
import { SYM, fund, place, throwsCode, world } from './helpers';

function setup() {
  const w = world();
  fund(w.ex, 'buyer', 'USDT', '100000');
  fund(w.ex, 'seller', 'BTC', '100');
  fund(w.ex, 'bot', 'USDT', '100000');
  fund(w.ex, 'bot', 'BTC', '100');
  return w;
}

describe('exchange core: readable history (3 × 24 h window, users without history)', () => {
  it('a done order older than the window is gone for every query: get, by clientOid, cancel ("order not exists"), its fills', () => {
    const { ex, clock } = setup();
    place(ex, 'seller', { side: 'sell', type: 'limit', price: '100', size: '1' });
    const buy = place(ex, 'buyer', { side: 'buy', type: 'limit', price: '100', size: '0.4', clientOid: 'b1' });
    const fillsOf = () => ex.fills('buyer', { symbol: SYM, orderId: buy }).items.map((f) => f.orderId);
    assert.deepEqual(fillsOf(), [buy]);
    throwsCode(() => ex.cancelOrder('buyer', SYM, buy), '400100', 'order is not active');
    clock.t += HISTORY_WINDOW_MS; // lastUpdatedAt = now − window: still readable
    assert.equal(ex.getOrder('buyer', SYM, buy).id, buy);
    assert.deepEqual(fillsOf(), [buy]);
    clock.t += 1;
    throwsCode(() => ex.getOrder('buyer', SYM, buy), '400100', 'order not exists');
    throwsCode(() => ex.getOrderByClientOid('buyer', SYM, 'b1'), '400100', 'order not exists');
    throwsCode(() => ex.cancelOrder('buyer', SYM, buy), '400100', 'order not exists');
    assert.deepEqual(fillsOf(), []);
    assert.deepEqual(ex.doneOrders('buyer', SYM, { startAt: 0 }), []);
    ex.checkInvariants();
  });

  it('a live order stays readable however old; its fills by orderId only within the window', () => {
    const { ex, clock } = setup();
    const sell = place(ex, 'seller', { side: 'sell', type: 'limit', price: '100', size: '1' });
    place(ex, 'buyer', { side: 'buy', type: 'limit', price: '100', size: '0.25' });
    clock.t += 2 * 24 * 3600 * 1000;
    place(ex, 'buyer', { side: 'buy', type: 'limit', price: '100', size: '0.5' });
    const fillsOf = () => ex.fills('seller', { symbol: SYM, orderId: sell }).items.map((f) => f.size);
    assert.deepEqual(fillsOf(), ['0.5', '0.25']);
    clock.t += 2 * 24 * 3600 * 1000;
    assert.deepEqual(fillsOf(), ['0.5']);
    assert.equal(ex.getOrder('seller', SYM, sell).remainSize, '0.25');
    assert.equal(ex.cancelOrder('seller', SYM, sell).orderId, sell);
  });

  it('the public tape keeps only trades of the window', () => {
    const { ex, clock } = setup();
    place(ex, 'seller', { side: 'sell', type: 'limit', price: '100', size: '1' });
    place(ex, 'buyer', { side: 'buy', type: 'market', size: '0.1' });
    clock.t += 24 * 3600 * 1000;
    place(ex, 'buyer', { side: 'buy', type: 'market', size: '0.2' });
    assert.deepEqual(ex.trades(SYM).map((t) => t.size), ['0.1', '0.2']);
    clock.t += 2 * 24 * 3600 * 1000 + 1;
    assert.deepEqual(ex.trades(SYM).map((t) => t.size), ['0.2']);
    assert.deepEqual(ex.trades(SYM, 0).map((t) => t.size), ['0.2']);
  });

  it('moving the clock back does not bring history back', () => {
    const { ex, clock } = setup();
    const t0 = clock.t;
    const buy = place(ex, 'buyer', { side: 'buy', type: 'limit', price: '90', size: '1' });
    ex.cancelOrder('buyer', SYM, buy);
    clock.t += HISTORY_WINDOW_MS + 1;
    throwsCode(() => ex.getOrder('buyer', SYM, buy), '400100', 'order not exists');
    clock.t = t0;
    throwsCode(() => ex.getOrder('buyer', SYM, buy), '400100', 'order not exists');
    assert.deepEqual(ex.doneOrders('buyer', SYM, { startAt: 0 }), []);
  });

  it('a user without history: live orders and balances as usual, no done order, no fill; the trade is on the tape and the other side keeps its fill', () => {
    const { ex } = setup();
    ex.disableHistory('bot');
    const ask = place(ex, 'bot', { side: 'sell', type: 'limit', price: '100', size: '1', clientOid: 'q1' });
    assert.equal(ex.getOrder('bot', SYM, ask).active, true);
    assert.equal(ex.getOrderByClientOid('bot', SYM, 'q1').id, ask);
    const buy = place(ex, 'buyer', { side: 'buy', type: 'market', size: '1' });
    throwsCode(() => ex.getOrder('bot', SYM, ask), '400100', 'order not exists');
    throwsCode(() => ex.getOrderByClientOid('bot', SYM, 'q1'), '400100', 'order not exists');
    throwsCode(() => ex.cancelOrder('bot', SYM, ask), '400100', 'order not exists');
    assert.deepEqual(ex.doneOrders('bot', SYM), []);
    assert.deepEqual(ex.fills('bot', { symbol: SYM }), { items: [], lastId: 0 });
    assert.deepEqual(ex.fills('bot', { symbol: SYM, orderId: ask }), { items: [], lastId: 0 });
    const mine = ex.fills('buyer', { symbol: SYM }).items;
    assert.deepEqual(mine.map((f) => [f.orderId, f.counterOrderId, f.size]), [[buy, ask, '1']]);
    assert.deepEqual(ex.trades(SYM).map((t) => t.size), ['1']);
    assert.equal(ex.accounts('bot', { currency: 'BTC', type: 'trade' })[0].balance, '99');
    // a self-trade of the bot: nothing recorded for anyone, both sides settled
    place(ex, 'bot', { side: 'sell', type: 'limit', price: '101', size: '1' });
    place(ex, 'bot', { side: 'buy', type: 'limit', price: '101', size: '1' });
    assert.equal(ex.trades(SYM).length, 2);
    assert.equal(ex.accounts('bot', { currency: 'BTC', type: 'trade' })[0].balance, '99');
    // fill ids keep counting across unrecorded trades
    place(ex, 'seller', { side: 'sell', type: 'limit', price: '102', size: '1' });
    place(ex, 'buyer', { side: 'buy', type: 'market', size: '0.5' });
    assert.deepEqual(ex.fills('buyer', { symbol: SYM }).items.map((f) => f.id), [5, 1]);
    ex.checkInvariants();
  });
});
