/**
 * Realized P&L by weighted average cost (src/api/pnl.ts): worked examples with the numbers
 * written out, and property tests (fast-check) of the method's invariants in exact arithmetic:
 * - a position bought and then sold completely realises exactly Σ sell proceeds − Σ buy costs;
 * - splitting a fill into pieces at the same time does not change the result beyond rounding;
 * - cost basis + realized is conserved: Σ buy costs − cost basis left + realized = Σ proceeds (matched);
 * - input order does not matter (fills are ordered by time, then id).
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import * as D from '../../../src/api/decimal';
import { fillOrder, realizedPnl, type PnlFill } from '../../../src/api/pnl';

let nextId = 1;
function fill(side: 'buy' | 'sell', size: string, price: string, fee = '0', feeCurrency = 'USDT', createdAt = nextId): PnlFill {
  const id = String(nextId++);
  return { id, side, size, funds: D.mul(size, price), fee, feeCurrency, createdAt };
}

describe('realized P&L (weighted average cost)', () => {
  it('worked example: two buys at different prices, a partial sell, fees in the quote currency', () => {
    nextId = 1;
    const fills = [
      fill('buy', '1', '100', '0.1'), // cost 100.1
      fill('buy', '1', '200', '0.2'), // cost 200.2 → Q 2, C 300.3, average 150.15
      fill('sell', '0.5', '300', '0.15'), // proceeds 149.85, cost 75.075 → +74.775
    ];
    const p = realizedPnl(fills, 'BTC', 'USDT', 8);
    assert.equal(p.realized, '74.775');
    assert.equal(p.position, '1.5');
    assert.equal(p.costBasis, '225.225');
    assert.equal(p.averageCost, '150.15');
    assert.deepEqual([p.buys, p.sells, p.unmatchedSellSize], [2, 1, '0']);
    assert.deepEqual(p.perFill, { '1': '0', '2': '0', '3': '74.775' });
  });

  it('non-terminating average cost stays exact; only the shown result is rounded (half away from zero)', () => {
    nextId = 1;
    // 3 units for 100 → average 33.333…; selling 1 for 50 realises 50 − 100/3 = 16.666…
    const p = realizedPnl([fill('buy', '3', '33.33333333'), fill('buy', '0.00000003', '33.33333333'), fill('sell', '1', '50')], 'X', 'USDT', 2);
    // cost 100.0000000099999999 / 3.00000003 per unit → realized 16.67 at 2 digits
    assert.equal(p.realized, '16.67');
    const q = realizedPnl([fill('buy', '3', '100'), fill('sell', '1', '100'), fill('sell', '1', '100'), fill('sell', '1', '100')], 'X', 'USDT', 8);
    assert.equal(q.realized, '0'); // the three thirds of the cost add up exactly
    assert.equal(q.position, '0');
    assert.equal(q.averageCost, null);
    const loss = realizedPnl([fill('buy', '3', '1'), fill('sell', '1', '0.995')], 'X', 'USDT', 2);
    assert.equal(loss.realized, '-0.01'); // -0.005 rounds half away from zero
  });

  it('fees in the base currency change the position; fees in another currency are listed apart', () => {
    nextId = 1;
    const p = realizedPnl([fill('buy', '1', '100', '0.01', 'BTC'), fill('sell', '0.5', '120', '0.3', 'KCS'), fill('sell', '0.2', '110', '0.002', 'BTC')], 'BTC', 'USDT', 8);
    // buy: Q 0.99, C 100; sell 0.5 (+0 base fee): cost 50.50505050…, proceeds 60 → 9.4949494949…
    // sell 0.2 + 0.002 base fee: Q 0.49 → removes 0.202 of cost 49.49494949… → proceeds 22
    assert.equal(p.position, '0.288');
    assert.deepEqual(p.otherFees, { KCS: '0.3' });
    const exact = D.add(D.sub('60', D.divDown('50', '0.99', 30)), D.sub('22', D.divDown(D.mul('0.202', D.sub('100', D.divDown('50', '0.99', 30))), '0.49', 30)));
    assert.equal(p.realized, D.roundDown(D.add(exact, '0.000000005'), '0.00000001'));
  });

  it('a sell beyond the position realises only the held part and reports the rest', () => {
    nextId = 1;
    const p = realizedPnl([fill('buy', '1', '100'), fill('sell', '3', '120')], 'BTC', 'USDT', 8);
    // held 1 of 3: proceeds 360 × 1/3 = 120, cost 100
    assert.equal(p.realized, '20');
    assert.equal(p.unmatchedSellSize, '2');
    assert.equal(p.position, '0');
    const none = realizedPnl([fill('sell', '1', '50')], 'BTC', 'USDT', 8);
    assert.deepEqual([none.realized, none.unmatchedSellSize], ['0', '1']);
  });

  it('maker rebates (negative fees) lower the cost and raise the proceeds', () => {
    nextId = 1;
    const p = realizedPnl([fill('buy', '1', '100', '-0.1'), fill('sell', '1', '100', '-0.1')], 'BTC', 'USDT', 8);
    assert.equal(p.realized, '0.2');
  });

  // ---------------------------------------------------------------- properties

  const amount = (maxUnits: number, scale: number) => fc.integer({ min: 1, max: maxUnits }).map((u) => D.fromUnits(BigInt(u), scale));
  const tradeArb = fc.record({ size: amount(100_000, 4), price: amount(1_000_000, 2), fee: fc.integer({ min: -50, max: 500 }).map((u) => D.fromUnits(BigInt(u), 4)) });

  it('buy everything, sell everything: realized = Σ proceeds − Σ costs exactly (property)', () => {
    fc.assert(
      fc.property(fc.array(tradeArb, { minLength: 1, maxLength: 12 }), fc.array(fc.nat(), { minLength: 1, maxLength: 12 }), fc.array(amount(1_000_000, 2), { minLength: 1, maxLength: 12 }), (buys, cuts, prices) => {
        nextId = 1;
        const fills: PnlFill[] = buys.map((b) => fill('buy', b.size, b.price, b.fee));
        const total = buys.reduce((a, b) => D.add(a, b.size), '0');
        // sell the total in up to 12 pieces at other prices
        let left = total;
        let proceeds = '0';
        for (let i = 0; i < cuts.length && !D.isZero(left); i++) {
          const part = i === cuts.length - 1 ? left : D.min(left, D.fromUnits(BigInt(1 + (cuts[i] % 50_000)), 4));
          const price = prices[i % prices.length];
          fills.push(fill('sell', part, price, '0.0001'));
          proceeds = D.add(proceeds, D.sub(D.mul(part, price), '0.0001'));
          left = D.sub(left, part);
        }
        if (!D.isZero(left)) {
          fills.push(fill('sell', left, '1'));
          proceeds = D.add(proceeds, left);
        }
        const costs = buys.reduce((a, b) => D.add(a, D.add(D.mul(b.size, b.price), b.fee)), '0');
        const p = realizedPnl(fills, 'B', 'USDT', 12);
        assert.equal(p.position, '0');
        assert.equal(p.realized, D.normalize(D.sub(proceeds, costs)));
        assert.equal(p.unmatchedSellSize, '0');
      }),
      { numRuns: 200 },
    );
  });

  it('conservation: Σ costs − cost basis left + realized = Σ matched proceeds, within rounding (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), tradeArb), { minLength: 1, maxLength: 25 }), (steps) => {
        nextId = 1;
        let held = '0';
        const fills: PnlFill[] = [];
        for (const [buy, t] of steps) {
          if (buy || D.isZero(held)) {
            fills.push(fill('buy', t.size, t.price, t.fee));
            held = D.add(held, t.size);
          } else {
            const size = D.min(held, t.size);
            fills.push(fill('sell', size, t.price, t.fee));
            held = D.sub(held, size);
          }
        }
        const digits = 10;
        const p = realizedPnl(fills, 'B', 'USDT', digits);
        const costs = fills.filter((f) => f.side === 'buy').reduce((a, f) => D.add(a, D.add(f.funds, f.fee)), '0');
        const proceeds = fills.filter((f) => f.side === 'sell').reduce((a, f) => D.add(a, D.sub(f.funds, f.fee)), '0');
        const lhs = D.add(D.sub(costs, p.costBasis), p.realized);
        // two values rounded to 10 digits: they differ from the exact identity by at most 1e-10
        assert.ok(D.cmp(D.sub(lhs, proceeds).replace('-', ''), '0.0000000001') <= 0, `${lhs} vs ${proceeds}`);
        assert.equal(p.position, held);
      }),
      { numRuns: 200 },
    );
  });

  it('splitting a fill into same-time pieces and shuffling the input change nothing (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), tradeArb), { minLength: 1, maxLength: 12 }), fc.integer({ min: 2, max: 5 }), fc.nat(), (steps, parts, seed) => {
        nextId = 1;
        let held = '0';
        const whole: PnlFill[] = [];
        const split: PnlFill[] = [];
        let t = 1000;
        for (const [buy, tr] of steps) {
          t += 10;
          const side = buy || D.isZero(held) ? 'buy' : 'sell';
          const size = side === 'buy' ? D.mul(tr.size, String(parts)) : D.min(held, D.mul(tr.size, String(parts)));
          held = side === 'buy' ? D.add(held, size) : D.sub(held, size);
          whole.push(fill(side, size, tr.price, '0', 'USDT', t));
          const piece = D.divDown(size, String(parts), 30);
          let rest = size;
          for (let i = 0; i < parts - 1; i++) {
            split.push(fill(side, piece, tr.price, '0', 'USDT', t));
            rest = D.sub(rest, piece);
          }
          split.push(fill(side, rest, tr.price, '0', 'USDT', t));
        }
        const a = realizedPnl(whole, 'B', 'USDT', 8);
        const b = realizedPnl(split, 'B', 'USDT', 8);
        assert.equal(b.position, a.position);
        assert.ok(D.cmp(D.sub(a.realized, b.realized).replace('-', ''), '0.00000002') <= 0, `${a.realized} vs ${b.realized}`);
        // shuffled input: same answer (fills are ordered by time, then id)
        const shuffled = [...split].sort((x, y) => ((Number(x.id) * 7919 + seed) % 101) - ((Number(y.id) * 7919 + seed) % 101));
        assert.deepEqual(realizedPnl(shuffled, 'B', 'USDT', 8), b);
      }),
      { numRuns: 150 },
    );
  });

  it('fillOrder: time first, then the exact id (digit strings of any length)', () => {
    const xs = [
      { createdAt: 2, id: '1' },
      { createdAt: 1, id: '100' },
      { createdAt: 1, id: '99' },
      { createdAt: 1, id: '11029373945659393' },
    ];
    assert.deepEqual(xs.sort(fillOrder).map((x) => x.id), ['99', '100', '11029373945659393', '1']);
  });
});
