/**
 * The order tooltip shows what a trader reads: side, type, price, size, filled,
 * remaining, time in force, flags and age — not the raw API fields.
 */
import { strict as assert } from 'assert';
import type { HfOrder } from '../../../src/api/schemas';
import { age, orderRows } from '../../../src/features/orders/model/orderText';

const base: HfOrder = {
  id: '6a5d0c000000000000000025d', symbol: 'BTC-USDT', opType: 'DEAL', type: 'limit', side: 'buy', price: '33488.2', size: '0.0015', funds: '50.2323',
  dealSize: '0.0005', dealFunds: '16.7441', cancelledSize: '0', cancelledFunds: '0', remainSize: '0.001', remainFunds: '33.4882', fee: '0', feeCurrency: 'USDT',
  stp: null, timeInForce: 'GTC', postOnly: true, hidden: false, iceberg: true, visibleSize: '0.0001', cancelAfter: 0, channel: 'API', clientOid: 'x',
  remark: null, tags: null, active: true, inOrderBook: true, cancelExist: false, createdAt: Date.UTC(2026, 0, 2, 3, 4, 5), lastUpdatedAt: 0, tradeType: 'TRADE',
};

describe('the order tooltip (src/features/orders/model/orderText.ts)', () => {
  it('a resting limit order: the nine things a trader reads, exact amounts with their currencies', () => {
    assert.deepEqual(orderRows(base, base.createdAt + 192_000), [
      ['Side', 'Buy'],
      ['Type', 'Limit'],
      ['Price', '33488.2 USDT'],
      ['Size', '0.0015 BTC'],
      ['Filled', '0.0005 BTC (33.33 %)'],
      ['Remaining', '0.001 BTC'],
      ['Time in force', 'GTC — good till cancelled'],
      ['Flags', 'post-only · iceberg (shows 0.0001 BTC)'],
      ['Age', '3 min 12 s (placed 2026-01-02 03:04:05 UTC)'],
    ]);
  });

  it('a market order by funds and a GTT order say so', () => {
    const market = orderRows({ ...base, type: 'market', size: '0', funds: '100', dealFunds: '25', remainFunds: '75', postOnly: false, iceberg: false, stp: 'CN' }, base.createdAt);
    assert.deepEqual(market.slice(2, 6), [['Price', 'market'], ['Funds', '100 USDT'], ['Filled', '25 USDT (25 %)'], ['Remaining', '75 USDT']]);
    assert.deepEqual(market.find(([k]) => k === 'Flags'), ['Flags', 'self-trade prevention CN']);
    assert.ok(!market.some(([k]) => k === 'Time in force'), 'market orders have none');
    const gtt = orderRows({ ...base, timeInForce: 'GTT', cancelAfter: 3600 }, base.createdAt);
    assert.deepEqual(gtt.find(([k]) => k === 'Time in force'), ['Time in force', 'GTT — good till time, cancelled 1 h after placement']);
  });

  it('ages read in their two largest units', () => {
    assert.equal(age(0), '0 s');
    assert.equal(age(45_000), '45 s');
    assert.equal(age(3_600_000), '1 h');
    assert.equal(age(3_725_000), '1 h 2 min');
    assert.equal(age(2 * 86_400_000 + 5_000), '2 d');
  });
});
