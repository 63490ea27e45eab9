/**
 * What an order costs before it is placed: notional, maker or taker, fee at the
 * user's rate, and the warnings a trader needs (crossing the spread, far from the market,
 * post-only that would be cancelled). Exact decimals.
 */
import { strict as assert } from 'assert';
import fc from 'fast-check';
import * as D from '../../../src/api/decimal';
import { estimateLines, estimateOrder, walkBook, walkSummary, type BookLevel } from '../../../src/api/orderEstimate';

const market = { bestBid: '67000.0', bestAsk: '67000.5' };
const fees = { takerFeeRate: '0.001', makerFeeRate: '0.0008' };

describe('order estimate (src/api/orderEstimate.ts)', () => {
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

  // The case: a 0.05 BTC market buy priced at the best ask, while the fill swept 5 levels.
  const ASKS: BookLevel[] = [
    ['66976.5', '0.01'],
    ['66980.0', '0.01'],
    ['67000.0', '0.01'],
    ['67100.0', '0.01'],
    ['67372.0', '0.01'],
    ['67400.0', '0.5'],
  ];

  it('a market buy by size walks the asks: volume-weighted average, slippage in bps, levels taken', () => {
    const w = walkBook('buy', ASKS, { size: '0.05' });
    // 669.765 + 669.8 + 670 + 671 + 673.72 = 3354.285 over 0.05 BTC
    assert.deepEqual([w.size, w.funds, w.averagePrice, w.levels, w.exceedsDepth], ['0.05', '3354.285', '67085.7', 5, false]);
    // (67085.7 − 66976.5) / 66976.5 × 10000 = 16.30… bps
    assert.equal(w.slippageBps, '16.3');
    assert.equal(walkSummary(w, 'buy', 'USDT'), '≈ 67085.7 USDT average over 5 ask levels, 16.3 bps above the best ask 66976.5');
    const e = estimateOrder({ side: 'buy', type: 'market', size: '0.05', base: 'BTC' }, { bestAsk: '66976.5', asks: ASKS }, fees, 'USDT', 6);
    assert.deepEqual([e.notional, e.approximate, e.fee, e.warnings], ['3354.285', true, '3.354285', []]);
    assert.deepEqual(estimateLines(e, 'USDT', 'buy', 'BTC').slice(0, 2), ['Notional: ≈ 3354.285 USDT', 'Market price: ≈ 67085.7 USDT average over 5 ask levels, 16.3 bps above the best ask 66976.5 (0.05 BTC from the visible book)']);
  });

  it('a market sell by size walks the bids (slippage below the best bid); funds orders take what their funds buy at each level, on the lot', () => {
    const bids: BookLevel[] = [['100', '1'], ['99', '1'], ['90', '10']];
    const s = walkBook('sell', bids, { size: '1.5' });
    assert.deepEqual([s.funds, s.averagePrice, s.slippageBps, s.levels], ['149.5', '99.6666', '33.33', 2]);
    assert.equal(walkSummary(s, 'sell', 'USDT'), '≈ 99.6666 USDT average over 2 bid levels, 33.33 bps below the best bid 100');
    const f = walkBook('buy', [['3', '1'], ['7', '10']], { funds: '10' }, 2);
    // 1 at 3 (3 USDT), then 7 USDT buys 1 at 7
    assert.deepEqual([f.size, f.funds, f.levels, f.exceedsDepth], ['2', '10', 2, false]);
    const one = walkBook('buy', [['3', '1'], ['7', '10']], { size: '0.5' });
    assert.deepEqual([one.averagePrice, one.slippageBps, one.levels], ['3', '0', 1]);
    assert.equal(walkSummary(one, 'buy', 'USDT'), '≈ 3 USDT average over 1 ask level (the best ask)');
  });

  it('an order larger than the visible book is flagged, with what the book holds (size and funds orders)', () => {
    const e = estimateOrder({ side: 'buy', type: 'market', size: '1', base: 'BTC' }, { bestAsk: '66976.5', asks: ASKS }, fees, 'USDT', 6);
    assert.equal(e.walk?.exceedsDepth, true);
    assert.deepEqual(e.warnings, ['Larger than the visible book: its 6 ask levels hold 0.55 BTC (37054.285 USDT); the rest fills at prices nobody can see, or not at all.']);
    const f = estimateOrder({ side: 'buy', type: 'market', funds: '50000', base: 'BTC' }, { bestAsk: '66976.5', asks: ASKS }, fees, 'USDT', 6);
    assert.equal(f.notional, '50000');
    assert.equal(f.walk?.exceedsDepth, true);
    assert.equal(f.warnings.length, 1);
    const fits = estimateOrder({ side: 'buy', type: 'market', funds: '1000', base: 'BTC' }, { bestAsk: '66976.5', asks: ASKS }, fees, 'USDT', 6);
    assert.deepEqual(fits.warnings, []);
    assert.equal(D.cmp(fits.walk!.funds, '1000') <= 0, true);
  });

  it('property: the walk never takes more than asked or than the book holds, its funds are Σ price × take, its average lies between the best and the last level taken', () => {
    const dec = (maxUnits: number, scale: number) => fc.integer({ min: 1, max: maxUnits }).map((u) => D.fromUnits(BigInt(u), scale));
    fc.assert(
      fc.property(fc.array(fc.tuple(dec(1_000_000, 2), dec(100_000, 4)), { minLength: 1, maxLength: 12 }), dec(2_000_000, 4), fc.constantFrom<'buy' | 'sell'>('buy', 'sell'), (raw, size, side) => {
        // A book side sorted best first, distinct prices.
        const byPrice = new Map(raw.map(([p, q]) => [D.normalize(p), q]));
        const levels = [...byPrice].sort((a, b) => (side === 'buy' ? D.cmp(a[0], b[0]) : D.cmp(b[0], a[0]))) as BookLevel[];
        const w = walkBook(side, levels, { size });
        const depth = levels.reduce((s, [, q]) => D.add(s, q), '0');
        assert.equal(D.cmp(w.size, D.min(size, depth)), 0);
        assert.equal(w.exceedsDepth, D.cmp(size, depth) > 0);
        let left = size;
        let funds = '0';
        for (const [p, q] of levels.slice(0, w.levels)) {
          const take = D.min(left, q);
          funds = D.add(funds, D.mul(p, take));
          left = D.sub(left, take);
        }
        assert.equal(D.cmp(w.funds, funds), 0);
        const best = levels[0][0];
        const worst = levels[w.levels - 1][0];
        const [lo, hi] = side === 'buy' ? [best, worst] : [worst, best];
        assert.ok(D.cmp(w.averagePrice!, lo) >= 0 || D.cmp(D.sub(lo, w.averagePrice!), '0.0001') <= 0, `${w.averagePrice} ≥ ${lo}`);
        assert.ok(D.cmp(w.averagePrice!, hi) <= 0, `${w.averagePrice} ≤ ${hi}`);
        assert.ok(!D.isNegative(w.slippageBps!));
      }),
    );
  });
});
