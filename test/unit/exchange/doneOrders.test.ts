/**
 * Exchange.doneOrders paging and filters (GET /api/v1/hf/orders/done): following `lastId` page by
 * page, for any page size and any side/type filter, lists exactly the filtered done orders once each,
 * newest first — also when many orders were done in the same millisecond (ties broken by sequence) —
 * and a lastId that is no done order of the list gives an empty page, as KuCoin answers it (property test, fast-check).
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import type { HfOrder } from '../../../src/exchange/core';
import { fund, place, SYM, world } from './helpers';

describe('exchange core: doneOrders pages by lastId, with side/type filters', () => {
  it('pages reproduce the filtered list, ties included (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ side: fc.constantFrom('buy' as const, 'sell' as const), market: fc.boolean(), gap: fc.constantFrom(0, 0, 0, 1, 500) }), { minLength: 1, maxLength: 150, size: 'large' }),
        fc.integer({ min: 1, max: 100 }),
        fc.constantFrom(undefined, 'buy' as const, 'sell' as const),
        fc.constantFrom(undefined, 'limit' as const, 'market' as const),
        (steps, limit, side, type) => {
          const { ex, clock } = world();
          fund(ex, 'u', 'USDT', '10000000');
          fund(ex, 'u', 'BTC', '1000');
          fund(ex, 'mm', 'USDT', '10000000');
          fund(ex, 'mm', 'BTC', '1000');
          // liquidity for the market orders
          place(ex, 'mm', { side: 'sell', type: 'limit', price: '30000', size: '100' });
          place(ex, 'mm', { side: 'buy', type: 'limit', price: '20000', size: '100' });
          for (const s of steps) {
            clock.t += s.gap;
            if (s.market) place(ex, 'u', { side: s.side, type: 'market', size: '0.001' });
            else {
              const id = place(ex, 'u', { side: s.side, type: 'limit', price: s.side === 'buy' ? '10000' : '40000', size: '0.001' });
              ex.cancelOrder('u', SYM, id);
            }
          }
          const all = ex.doneOrders('u', SYM, { limit: 100, ...(side ? { side } : {}), ...(type ? { type } : {}) });
          const expected = ex
            .doneOrders('u', SYM, { limit: 100 })
            .filter((o) => (side === undefined || o.side === side) && (type === undefined || o.type === type));
          if (steps.length <= 100) assert.deepEqual(all.map((o) => o.id), expected.map((o) => o.id));
          const paged: HfOrder[] = [];
          let lastId: number | undefined;
          for (let guard = 0; guard < 200; guard++) {
            const page = ex.doneOrders('u', SYM, { limit, ...(side ? { side } : {}), ...(type ? { type } : {}), ...(lastId !== undefined ? { lastId } : {}) });
            paged.push(...page);
            if (page.length < limit) break;
            lastId = parseInt(page[page.length - 1].id.slice(-16), 16);
          }
          // every filtered done order once, newest first (lastUpdatedAt, then sequence, descending)
          const ids = paged.map((o) => o.id);
          assert.equal(new Set(ids).size, ids.length);
          const want = steps.filter((s) => (side === undefined || s.side === side) && (type === undefined || (type === 'market') === s.market)).length;
          assert.equal(paged.length, want);
          for (let i = 1; i < paged.length; i++) {
            const a = paged[i - 1];
            const b = paged[i];
            assert.ok(a.lastUpdatedAt > b.lastUpdatedAt || (a.lastUpdatedAt === b.lastUpdatedAt && a.id > b.id), `order ${i}`);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('130 orders done in the same millisecond: pages of 100 then 30, by sequence', () => {
    const { ex } = world();
    fund(ex, 'u', 'USDT', '10000000');
    const ids: string[] = [];
    for (let i = 0; i < 130; i++) ids.push(place(ex, 'u', { side: 'buy', type: 'limit', price: '10000', size: '0.001' }));
    ex.cancelAll('u', SYM); // one command: every order done at the same time
    const p1 = ex.doneOrders('u', SYM, { limit: 100 });
    const p2 = ex.doneOrders('u', SYM, { limit: 100, lastId: parseInt(p1[99].id.slice(-16), 16) });
    assert.deepEqual([...p1, ...p2].map((o) => o.id), ids.slice().reverse());
    assert.equal(new Set(p1.map((o) => o.lastUpdatedAt)).size, 1);
  });

  it('a lastId that is no done order of this user and symbol gives an empty page (KuCoin), not an error', () => {
    const { ex, clock } = world();
    fund(ex, 'u', 'USDT', '100000');
    const live = place(ex, 'u', { side: 'buy', type: 'limit', price: '10000', size: '0.001' });
    const done = place(ex, 'u', { side: 'buy', type: 'limit', price: '10000', size: '0.001' });
    ex.cancelOrder('u', SYM, done);
    const seq = (id: string) => parseInt(id.slice(-16), 16);
    // the list is not empty, so an empty page can only come from the lastId
    assert.deepEqual(ex.doneOrders('u', SYM).map((o) => o.id), [done]);
    assert.deepEqual(ex.doneOrders('u', SYM, { lastId: seq(live) }), [], 'a live order');
    assert.deepEqual(ex.doneOrders('other', SYM, { lastId: seq(done) }), [], "another user's order");
    assert.deepEqual(ex.doneOrders('u', SYM, { lastId: 999999 }), [], 'an unknown sequence');
    assert.deepEqual(ex.doneOrders('u', SYM, { lastId: seq(done) }), [], 'after the last done order');
    clock.t += 1000;
    ex.cancelOrder('u', SYM, live);
    assert.deepEqual(ex.doneOrders('u', SYM, { lastId: seq(live) }).map((o) => o.id), [done], 'now a done order: the page after it');
  });
});
