/**
 * What an order costs before it is placed (issue 25): notional, maker or taker, fee at the
 * user's rate, and the warnings a trader needs (crossing the spread, far from the market,
 * post-only that would be cancelled). Exact decimals.
 */
import { strict as assert } from 'assert';
import { estimateLines, estimateOrder } from '../../../src/shared/orderEstimate';

const market = { bestBid: '67000.0', bestAsk: '67000.5' };
const fees = { takerFeeRate: '0.001', makerFeeRate: '0.0008' };

describe('order estimate (src/shared/orderEstimate.ts)', () => {
  it('a resting limit buy: notional price × size, maker fee, no warning', () => {
    const e = estimateOrder({ side: 'buy', type: 'limit', price: '66990.1', size: '0.0015' }, market, fees, 'USDT', 6);
    assert.deepEqual(e, { notional: '100.48515', approximate: false, liquidity: 'maker', feeRate: '0.0008', fee: '0.080389', warnings: [] });
    assert.deepEqual(estimateLines(e, 'USDT'), ['Notional: 100.48515 USDT', 'Estimated fee: 0.080389 USDT (maker rate 0.08 %)']);
  });

  it('a limit buy at or above the best ask crosses the spread: a taker, said so', () => {
    const e = estimateOrder({ side: 'buy', type: 'limit', price: '67000.5', size: '1' }, market, fees, 'USDT', 6);
    assert.equal(e.liquidity, 'taker');
    assert.equal(e.fee, '67.0005');
    assert.deepEqual(e.warnings, ['This limit buy at 67000.5 USDT crosses the spread (best ask 67000.5 USDT): it executes at once, as a taker.']);
    const post = estimateOrder({ side: 'sell', type: 'limit', price: '66000', size: '1', postOnly: true }, market, fees, 'USDT');
    assert.match(post.warnings[0], /^Post-only, but the price crosses the spread \(best bid 67000\.0 USDT\): the exchange cancels it/);
  });

  it('a limit price far from the market is flagged with how far', () => {
    const e = estimateOrder({ side: 'buy', type: 'limit', price: '33500', size: '0.001' }, market, fees, 'USDT');
    assert.deepEqual(e.warnings, ['The price is 50 % below the market (mid 67000.25 USDT).']);
  });

  it('market orders: taker; by funds exact, by size at the opposite best price (≈); unknown without a market', () => {
    assert.deepEqual(estimateOrder({ side: 'buy', type: 'market', funds: '100' }, {}, fees, 'USDT', 6), { notional: '100', approximate: false, liquidity: 'taker', feeRate: '0.001', fee: '0.1', warnings: [] });
    const bySize = estimateOrder({ side: 'sell', type: 'market', size: '0.5' }, market, fees, 'USDT', 6);
    assert.deepEqual([bySize.notional, bySize.approximate, bySize.fee], ['33500', true, '33.5']);
    assert.deepEqual(estimateLines(bySize, 'USDT').slice(0, 2), ['Notional: ≈ 33500 USDT', 'Estimated fee: ≈ 33.5 USDT (taker rate 0.1 %)']);
    const blind = estimateOrder({ side: 'buy', type: 'market', size: '1' }, {}, undefined, 'USDT');
    assert.deepEqual(blind.warnings, ['No market price is known: the cost of this market order cannot be estimated.']);
    assert.deepEqual(estimateLines(blind, 'USDT').slice(0, 2), ['Notional: unknown', 'Estimated fee: unknown (your fee rate could not be read)']);
  });
});
