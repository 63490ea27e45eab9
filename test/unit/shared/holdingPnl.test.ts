/**
 * Unrealized P&L of a holding — the method of src/api/pnl.ts (weighted average cost,
 * fees as KuCoin reports them) pinned on a hand-computed example with a fee in the quote currency
 * and a fee in the base currency, and the same walk as the Fills view's realized P&L.
 *
 * By hand (BTC-USDT, results to 2 decimals, half away from zero):
 *  1. buy 1 BTC for 100 USDT, fee 0.1 USDT  → Q = 1,     C = 100 + 0.1 = 100.1
 *  2. buy 1 BTC for 120 USDT, fee 0.001 BTC → Q = 1.999 (1 − 0.001 received), C = 220.1
 *  3. sell 0.5 BTC for 65 USDT, fee 0.065 USDT
 *     proceeds 65 − 0.065 = 64.935; cost of the part sold C × 0.5 / Q = 110.05 / 1.999 = 55.0525262631…
 *     realized 64.935 − 55.0525262631… = 9.8824737368… → 9.88
 *     Q = 1.499, C = 220.1 − 55.0525262631… = 165.0474737368…
 *  at last = 130: value 1.499 × 130 = 194.87; unrealized 194.87 − 165.0474737368… = 29.8225262631… → 29.82;
 *  average cost C / Q = 110.1050525262… → 110.11.
 */
import { strict as assert } from 'assert';
import { pnlText, realizedPnl, signed, unrealizedPnl, type PnlFill } from '../../../src/api/pnl';

let n = 0;
const fill = (side: 'buy' | 'sell', size: string, funds: string, fee: string, feeCurrency: string): PnlFill => ({
  id: String(++n),
  side,
  size,
  funds,
  fee,
  feeCurrency,
  createdAt: 1_700_000_000_000 + n,
});

describe('holding P&L (src/api/pnl.ts unrealizedPnl)', () => {
  const fills = [fill('buy', '1', '100', '0.1', 'USDT'), fill('buy', '1', '120', '0.001', 'BTC'), fill('sell', '0.5', '65', '0.065', 'USDT')];

  it('pins the method on the hand-computed example (fees in quote and in base)', () => {
    const h = unrealizedPnl(fills, 'BTC', 'USDT', '130', 2);
    assert.equal(h.position, '1.499');
    assert.equal(h.costBasis, '165.05');
    assert.equal(h.averageCost, '110.11');
    assert.equal(h.value, '194.87');
    assert.equal(h.unrealized, '29.82');
    assert.equal(h.realized, '9.88');
    assert.equal(h.last, '130');
  });

  it('is the same walk as the realized P&L of the Fills view', () => {
    const { last: _l, value: _v, unrealized: _u, ...rest } = unrealizedPnl(fills, 'BTC', 'USDT', '130', 2);
    assert.deepEqual(rest, realizedPnl(fills, 'BTC', 'USDT', 2));
  });

  it('is exact: more digits show the fractions, a loss is negative, nothing held is zero', () => {
    assert.equal(unrealizedPnl(fills, 'BTC', 'USDT', '130', 8).unrealized, '29.82252626');
    assert.equal(unrealizedPnl(fills, 'BTC', 'USDT', '100', 2).unrealized, '-15.15'); // 149.9 − 165.0474…
    const flat = unrealizedPnl([fill('buy', '1', '100', '0', 'USDT'), fill('sell', '1', '110', '0', 'USDT')], 'BTC', 'USDT', '500', 2);
    assert.deepEqual([flat.position, flat.unrealized, flat.realized], ['0', '0', '10']);
  });

  it('the Accounts row: signed unrealized P&L in the description, per-pair breakdown and balance coverage in the tooltip', () => {
    const h = { ...unrealizedPnl(fills, 'BTC', 'USDT', '130', 2), symbol: 'BTC-USDT' };
    const t = pnlText({ pairs: [h] }, '2.5');
    assert.equal(t.description, 'uP&L +29.82 USDT');
    assert.match(t.tooltip, /\*\*BTC-USDT\*\*: unrealized \*\*\+29\.82 USDT\*\* on 1\.499 BTC \(average cost 110\.11, last 130, value 194\.87\); realized \+9\.88 USDT/);
    assert.match(t.tooltip, /1\.001 BTC of the balance has no cost in these fills/); // 2.5 − 1.499
    assert.match(pnlText({ pairs: [h] }, '1').tooltip, /the fills hold 0\.499 BTC more than the balance/);
    assert.doesNotMatch(pnlText({ pairs: [h] }, '1.499').tooltip, /no cost|more than the balance/);
    const loss = { ...unrealizedPnl(fills, 'BTC', 'USDT', '100', 2), symbol: 'BTC-USDT' };
    assert.equal(pnlText({ pairs: [loss] }, '1.499').description, 'uP&L -15.15 USDT');
    assert.deepEqual([signed('0'), signed('1.5'), signed('-2')], ['0', '+1.5', '-2']);
  });
});
