/**
 * Stop and OCO rows of Active Orders (src/features/orders/model/advancedRows.ts): their text (trigger, state, both OCO legs
 * on one row, grouped digits), building them from the API's payloads (the sandbox's own answers for a stop order and
 * an OCO detail), and what each `/spotMarket/advancedOrders` message does to them. Also the pure parts around them:
 * the Edit Order… checks (src/features/orders/model/orderEdit.ts), the row arguments of Cancel Order
 * (src/host/commandArgs.ts `advancedOrderArg`), the remembered stop orders of Order History
 * (src/features/orders/host/stopMemory.ts) and its rows for classic, stop and OCO orders (historyRows.ts).
 */
import { strict as assert } from 'node:assert';
import type { WsStopOrder } from '../../../src/api/streamSchemas';
import { StopOrder } from '../../../src/api/schemas';
import { applyStopChange, ocoRowOf, ocoRowText, stopRowOf, stopRowText, type AdvancedData, type StopRow } from '../../../src/features/orders/model/advancedRows';
import { editPriceError, editRequest, editSizeError } from '../../../src/features/orders/model/orderEdit';
import { advancedOrderArg } from '../../../src/host/commandArgs';
import { MAX_REMEMBERED_STOPS, STOP_MEMORY_MS, StopMemory } from '../../../src/features/orders/host/stopMemory';
import { classicOrderRow, ocoOrderRow, stopOrderRow } from '../../../src/features/history/model/historyRows';
import { SandboxState } from '../../../src/exchange/server/state';
import type { SymbolRules } from '../../../src/api/orderRules';

const EN = { group: ',', decimal: '.' };
const DE = { group: '.', decimal: ',' };

/** A sandbox with one waiting stop order and one waiting OCO order of a funded user (their API views). */
function sandboxOrders() {
  const state = new SandboxState({ manualClock: true, startTime: 1_700_000_000_000 });
  const uid = '226999997';
  state.exchange.deposit(uid, 'BTC', '1');
  state.exchange.transfer(uid, 'BTC', 'main', 'trade', '1');
  const a = state.exchange.advanced;
  const stop = a.place(uid, { symbol: 'BTC-USDT', side: 'sell', type: 'limit', price: '29000', size: '0.01', stopPrice: '29500', stop: 'loss', clientOid: 's1' });
  const oco = a.placeOco(uid, { clientOid: 'o1', symbol: 'BTC-USDT', side: 'sell', price: '31000', size: '0.02', stopPrice: '29500', limitPrice: '29400' });
  // as the client reads them (the wire schema: orderTime, ns, as a digit string)
  const view = a.stopOrder(uid, stop.orderId);
  return { stop: StopOrder.parse({ ...view, orderTime: String(view.orderTime) }), oco: a.ocoOrderDetail(uid, oco.orderId) };
}

const row = (over: Partial<StopRow> = {}): StopRow => ({
  id: 'vs1',
  symbol: 'BTC-USDT',
  side: 'sell',
  type: 'limit',
  price: '29000',
  size: '0.01',
  funds: null,
  stop: 'loss',
  stopPrice: '29500',
  status: 'NEW',
  clientOid: null,
  createdAt: 1,
  ...over,
});

const msg = (over: Partial<WsStopOrder>): WsStopOrder => ({ orderId: 'vs9', symbol: 'BTC-USDT', side: 'buy', orderType: 'stop', type: 'open', createdAt: 5, ts: '1', ...over }) as WsStopOrder;

describe('Active Orders: stop and OCO rows (advancedRows.ts)', () => {
  it('a stop row: side, stop-limit, size @ price, trigger with its direction and kind, state; digits grouped by locale', () => {
    assert.deepEqual(stopRowText(row(), EN), { label: 'SELL stop-limit 0.01 @ 29,000', description: 'trigger ≤ 29,500 (loss) · waiting' });
    assert.deepEqual(stopRowText(row({ side: 'buy', type: 'market', price: null, stop: 'entry', stopPrice: '31000.5' }), DE), {
      label: 'BUY stop-market 0.01 @ market',
      description: 'trigger ≥ 31.000,5 (entry) · waiting',
    });
    assert.equal(stopRowText(row({ type: 'market', size: null, funds: '100', status: 'TRIGGERED' }), EN).label, 'SELL stop-market funds 100 @ market');
    assert.match(stopRowText(row({ status: 'TRIGGERED' }), EN).description, /· triggered$/);
  });

  it('rows from the sandbox answers: a stop order of GET /api/v1/stop-order, an OCO order with its two legs on one row', () => {
    const { stop, oco } = sandboxOrders();
    const s = stopRowOf(stop);
    assert.deepEqual([s.side, s.type, s.price, s.size, s.stop, s.stopPrice, s.status, s.clientOid], ['sell', 'limit', '29000', '0.01', 'loss', '29500', 'NEW', 's1']);
    const o = ocoRowOf(oco)!;
    assert.equal(o.id, oco.orderId);
    assert.deepEqual([o.takeProfit.price, o.takeProfit.stopPrice, o.stopLoss.price, o.stopLoss.stopPrice], ['31000', '31000', '29400', '29500']);
    assert.deepEqual(ocoRowText(o, EN), { label: 'SELL OCO 0.02', description: 'take profit ≥ 31,000 @ 31,000 · stop ≤ 29,500 @ 29,400 · waiting' });
    // a buy OCO takes profit below and stops above; the legs may come in any order
    const buy = ocoRowOf({ ...oco, orders: [...oco.orders].reverse().map((l) => ({ ...l, side: 'buy' as const, stopPrice: l.stopPrice === '31000' ? '28000' : '30500', price: l.price === '31000' ? '28000' : '30600' })) })!;
    assert.deepEqual(ocoRowText(buy, EN).description, 'take profit ≤ 28,000 @ 28,000 · stop ≥ 30,500 @ 30,600 · waiting');
    assert.equal(ocoRowOf({ ...oco, orders: oco.orders.slice(0, 1) }), undefined);
  });

  it('/spotMarket/advancedOrders: a stop opens, then leaves when triggered or cancelled; an OCO leg removes its row or asks for a reload', () => {
    const { oco } = sandboxOrders();
    const o = ocoRowOf(oco)!;
    const data: AdvancedData = { stops: [row()], ocos: [o] };
    // a new plain stop is added from the message
    assert.deepEqual(applyStopChange(data, msg({ orderId: 'vs9', type: 'open', stop: 'entry', stopPrice: '31000', orderPrice: '31100', size: '0.5' })), { changed: true, reload: false });
    assert.deepEqual(stopRowText(data.stops[0], EN), { label: 'BUY stop-limit 0.5 @ 31,100', description: 'trigger ≥ 31,000 (entry) · waiting' });
    assert.deepEqual(applyStopChange(data, msg({ orderId: 'vs9', type: 'open', stop: 'entry' })), { changed: false, reload: false }, 'already there');
    assert.deepEqual(applyStopChange(data, msg({ orderId: 'vs9', type: 'triggered', stop: 'entry', triggerSuccess: true })), { changed: true, reload: false });
    assert.deepEqual(applyStopChange(data, msg({ orderId: 'vs1', type: 'cancel', stop: 'loss' })), { changed: true, reload: false });
    assert.deepEqual(data.stops, []);
    assert.deepEqual(applyStopChange(data, msg({ orderId: 'vs1', type: 'cancel', stop: 'loss' })), { changed: false, reload: false }, 'unknown: nothing');
    // an OCO leg: its row leaves when a leg fires or is cancelled; a leg of an OCO the view lacks: reload
    assert.deepEqual(applyStopChange(data, msg({ orderId: 'vsX', type: 'open', stop: 'e_l_o' })), { changed: false, reload: true });
    assert.deepEqual(applyStopChange(data, msg({ orderId: o.takeProfit.id, type: 'open', stop: 'e_l_o' })), { changed: false, reload: false });
    assert.deepEqual(applyStopChange(data, msg({ orderId: o.stopLoss.id, type: 'triggered', stop: 'l_s_o' })), { changed: true, reload: false });
    assert.deepEqual(data.ocos, []);
  });
});

describe('Edit Order… checks (orderEdit.ts)', () => {
  const rules: SymbolRules = { symbol: 'BTC-USDT', baseCurrency: 'BTC', quoteCurrency: 'USDT', baseIncrement: '0.00000001', priceIncrement: '0.1', quoteIncrement: '0.000001', baseMinSize: '0.00001', quoteMinSize: '0.1', baseMaxSize: '10000', quoteMaxSize: '99999999', minFunds: '0.1' };
  const order = { symbol: 'BTC-USDT', side: 'buy' as const, price: '29000', size: '0.01', dealSize: '0.004' };
  it('the new price: positive and on the tick', () => {
    assert.equal(editPriceError('29500', rules), undefined);
    assert.match(editPriceError('29500.05', rules)!, /multiple of 0\.1 \(nearest: 29500 or 29500\.1\)/);
    assert.match(editPriceError('0', rules)!, /greater than 0/);
    assert.match(editPriceError('1e3', rules)!, /plain decimal/);
  });
  it('the new total size: on the lot, above the filled size, the new order (size − filled) within the rules', () => {
    assert.equal(editSizeError('0.02', '29500', order, rules), undefined);
    assert.match(editSizeError('0.020000001', '29500', order, rules)!, /multiple of 0\.00000001/);
    assert.match(editSizeError('0.004', '29500', order, rules)!, /above the 0\.004 already filled/);
    assert.match(editSizeError('0.004005', '29500', order, rules)!, /^The new order \(0\.000005 left to fill\): size 0\.000005 BTC is below baseMinSize/);
  });
  it('only what changed is sent; nothing when nothing changed', () => {
    assert.deepEqual(editRequest(order, '29500', '0.01'), { newPrice: '29500' });
    assert.deepEqual(editRequest(order, '29000.0', '0.02'), { newSize: '0.02' });
    assert.equal(editRequest(order, '29000', '0.010'), null);
  });
});

describe('the other pure parts of stop and OCO orders in the extension', () => {
  it('Cancel Order takes only the id of a stop or OCO row', () => {
    assert.deepEqual(advancedOrderArg({ kind: 'stopOrder', symbol: 'BTC-USDT', row: { id: 'vs1', price: 'forged' } }), { kind: 'stop', orderId: 'vs1' });
    assert.deepEqual(advancedOrderArg({ kind: 'ocoOrder', row: { id: 'abc123' } }), { kind: 'oco', orderId: 'abc123' });
    assert.equal(advancedOrderArg({ kind: 'order', order: { id: 'x' } }), undefined);
    assert.equal(advancedOrderArg({ kind: 'stopOrder', row: { id: '../x' } }), undefined);
    assert.equal(advancedOrderArg('vs1'), undefined);
  });

  it('the stop orders seen are remembered per profile, newest first, 3 days at most, 50 at most; forgotten on request', () => {
    const store = new Map<string, unknown>();
    const memento = { get: <T>(k: string) => store.get(k) as T | undefined, update: (k: string, v: unknown) => (store.set(k, v), Promise.resolve()) };
    let now = 1_000_000_000;
    let profile = 'sandbox';
    const m = new StopMemory(memento as never, () => profile, () => now);
    m.note([{ id: 'a', symbol: 'BTC-USDT' }]);
    now += 1000;
    m.note([{ id: 'b', symbol: 'ETH-USDT' }, { id: 'a', symbol: 'BTC-USDT' }]);
    assert.deepEqual(m.list().map((s) => [s.id, s.at]), [['b', 1_000_001_000], ['a', 1_000_000_000]]);
    profile = 'user:x';
    assert.deepEqual(m.list(), []);
    profile = 'sandbox';
    m.forget(['b']);
    assert.deepEqual(m.list().map((s) => s.id), ['a']);
    now += STOP_MEMORY_MS + 1;
    assert.deepEqual(m.list(), [], 'older than the window');
    m.note(Array.from({ length: MAX_REMEMBERED_STOPS + 5 }, (_, i) => ({ id: `s${i}`, symbol: 'BTC-USDT' })));
    assert.equal(m.list().length, MAX_REMEMBERED_STOPS);
  });

  it('Order History rows: a classic done order, a stop order that fired, an OCO order with its legs', () => {
    const { stop, oco } = sandboxOrders();
    const fired = stopOrderRow({ ...stop, status: 'TRIGGERED', stopTriggerTime: 1_700_000_060_000 });
    assert.deepEqual([fired.label, fired.description], ['SELL stop-limit', '0.01 @ 29000 · trigger ≤ 29500 (loss) · triggered 2023-11-14T22:14:20.000Z']);
    const done = ocoOrderRow({ ...oco, status: 'CANCELLED' });
    assert.deepEqual([done.label, done.description], ['SELL OCO', '0.02 · take profit 31000 · stop 29500 → 29400 · cancelled · 2023-11-14T22:13:20.000Z']);
    assert.equal(done.tooltip.filter((l) => l.startsWith('leg ')).length, 2);
    const classic = classicOrderRow({
      id: 'c1', symbol: 'BTC-USDT', opType: 'DEAL', type: 'limit', side: 'buy', price: '29000', size: '0.01', funds: '0', dealFunds: '116', dealSize: '0.004', fee: '0', feeCurrency: 'USDT',
      stp: null, stop: null, stopTriggered: false, stopPrice: '0', timeInForce: 'GTC', postOnly: false, hidden: false, iceberg: false, visibleSize: '0', cancelAfter: 0, channel: 'API',
      clientOid: 'k', remark: null, tags: null, isActive: false, cancelExist: true, createdAt: 1_700_000_000_000, tradeType: 'TRADE',
    });
    assert.deepEqual([classic.label, classic.description], ['BUY limit', '0.01 @ 29000 · filled 0.004 · partially filled, cancelled · created 2023-11-14T22:13:20.000Z · classic']);
  });
});
