/**
 * The user's own orders on the market panel (src/features/market/model/ownOrders.ts): which book rows they
 * mark (at the grouped level the book shows, buys among the bids, sells among the asks, sizes summed
 * exactly, untriggered stops not at all) and which chart price lines they draw (one per side and
 * price, a dashed one per stop trigger).
 */
import { strict as assert } from 'assert';
import { canonicalPrice, ownLevels, ownPriceLines, ownStopOrders } from '../../../src/features/market/model/ownOrders';
import { buildView } from '../../../src/features/market/model/viewModel';
import type { OwnOrder } from '../../../src/features/market/protocol';

const buy = (id: string, price: string, remain: string): OwnOrder => ({ id, side: 'buy', price, remain });
const sell = (id: string, price: string, remain: string): OwnOrder => ({ id, side: 'sell', price, remain });
const plain = (m: ReadonlyMap<string, { size: string; count: number }>) => Object.fromEntries([...m].map(([k, v]) => [k, v]));

describe('own orders on the market panel (src/features/market/model/ownOrders.ts)', () => {
  it('canonical prices drop leading and trailing zeros', () => {
    assert.equal(canonicalPrice('067000.10'), '67000.1');
    assert.equal(canonicalPrice('67000.000'), '67000');
    assert.equal(canonicalPrice('0.0500'), '0.05');
    assert.equal(canonicalPrice('100'), '100');
  });

  it('at grouping ×1 each resting order marks its own price; several at one price add up exactly', () => {
    const own = ownLevels([buy('a', '66842.30', '0.0012'), buy('b', '66842.3', '0.00000008'), sell('c', '67010.3', '0.5'), buy('d', '66000', '1')], '0.1', '1');
    assert.deepEqual(plain(own.bids), { '66842.3': { size: '0.00120008', count: 2 }, '66000': { size: '1', count: 1 } });
    assert.deepEqual(plain(own.asks), { '67010.3': { size: '0.5', count: 1 } });
  });

  it('grouped, an order marks the bucket the book puts its price in: bids round down, asks round up', () => {
    const orders = [buy('a', '66842.3', '0.1'), buy('b', '66849.9', '0.2'), sell('c', '67010.3', '0.3'), sell('d', '67019.9', '0.4'), sell('e', '67020', '0.5')];
    const own = ownLevels(orders, '0.1', '100'); // step 10
    assert.deepEqual(plain(own.bids), { '66840': { size: '0.3', count: 2 } });
    assert.deepEqual(plain(own.asks), { '67020': { size: '1.2', count: 3 } });
    // The keys are the rows the book shows for the same prices.
    const view = buildView({ symbol: 'BTC-USDT', sequence: '1', time: 0, receivedAt: 0, bids: [['66849.9', '1'], ['66842.3', '1']], asks: [['67010.3', '1'], ['67019.9', '1'], ['67020', '1']] }, '0.1', '100');
    assert.deepEqual(view.bids.map((l) => canonicalPrice(l.price)), ['66840']);
    assert.deepEqual(view.asks.map((l) => canonicalPrice(l.price)), ['67020']);
  });

  it('an untriggered stop order is not in the book: it marks no row', () => {
    const stop: OwnOrder = { id: 's', side: 'sell', price: '64000', remain: '0.5', stop: 'loss', stopPrice: '64500' };
    const own = ownLevels([stop], '0.1', '1');
    assert.equal(own.asks.size + own.bids.size, 0);
  });

  it('price lines: one per side and price (sizes summed, the count when several), then one dashed line per stop trigger', () => {
    const orders: OwnOrder[] = [
      buy('a', '66842.3', '0.0012'),
      buy('b', '66842.30', '0.0012'),
      sell('c', '67010.3', '0.5'),
      buy('d', '60000', '2'),
      { id: 's1', side: 'sell', price: '64000', remain: '0.50', stop: 'loss', stopPrice: '64500.0' },
      { id: 's2', side: 'buy', price: '0', remain: '0.1', stop: 'entry', stopPrice: '70000' },
    ];
    assert.deepEqual(ownPriceLines(orders), [
      { key: 'order:sell:67010.3', price: '67010.3', side: 'sell', kind: 'order', title: 'Sell 0.5' },
      { key: 'order:buy:66842.3', price: '66842.3', side: 'buy', kind: 'order', title: 'Buy 0.0024 (2)' },
      { key: 'order:buy:60000', price: '60000', side: 'buy', kind: 'order', title: 'Buy 2' },
      { key: 'stop:s2', price: '70000', side: 'buy', kind: 'stop', title: 'Stop buy 0.1 at market' },
      { key: 'stop:s1', price: '64500', side: 'sell', kind: 'stop', title: 'Stop sell 0.5 → 64000' },
    ]);
  });

  it('waiting stop orders (GET /api/v1/stop-order items) become dashed trigger lines: limit price, or market', () => {
    const base = { id: 'x', side: 'sell' as const, type: 'limit' as const, price: '64000', size: '0.5', stop: 'loss', stopPrice: '64500' };
    const own = ownStopOrders([
      base,
      { ...base, id: 'm', side: 'buy', type: 'market', price: null, size: '0.1', stop: 'entry', stopPrice: '70000' },
      { ...base, id: 'f', type: 'market', price: null, size: null }, // by funds: no size to show
      { ...base, id: 'o', stop: 'oco' },
    ]);
    assert.deepEqual(own, [
      { id: 'x', side: 'sell', price: '64000', remain: '0.5', stop: 'loss', stopPrice: '64500' },
      { id: 'm', side: 'buy', price: '0', remain: '0.1', stop: 'entry', stopPrice: '70000' },
    ]);
    assert.deepEqual(ownPriceLines(own).map((l) => l.title), ['Stop buy 0.1 at market', 'Stop sell 0.5 → 64000']);
    assert.equal(ownLevels(own, '0.1', '1').asks.size, 0);
  });

  it('no orders: no marks and no lines', () => {
    assert.deepEqual(plain(ownLevels([], '0.1', '10').bids), {});
    assert.deepEqual(ownPriceLines([]), []);
  });
});
