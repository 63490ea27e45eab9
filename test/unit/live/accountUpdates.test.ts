/**
 * How the private stream changes the Accounts and Active Orders views (src/features/live/accountUpdates.ts): worked examples of `applyOrderChange`, `applyBalance` and the fill grouping, and the invariant
 * that makes "no polling while the stream is up" safe — applying the stream's messages to a REST read gives
 * what a fresh REST read says. The messages are the sandbox's own (src/exchange/server/feed/payloads.ts)
 * from the real engine (src/exchange/core) driven by random command streams (fast-check), parsed with the
 * client's zod schemas (src/api/streamSchemas.ts).
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import * as D from '../../../src/api/decimal';
import type { Account, HfOrder } from '../../../src/api/schemas';
import { WsBalance, WsOrderChange } from '../../../src/api/streamSchemas';
import type { BalanceEvent, CoreEventSink, OrderEvent } from '../../../src/exchange/core';
import { balanceMessage, orderMessage } from '../../../src/exchange/server/feed/payloads';
import { applyBalance, applyOrderChange, FillAggregator, orderFromChange, type FillSummary, type OrderBucket } from '../../../src/features/live/accountUpdates';
import { Driver, USERS, engineCmdArb, ratesArb } from '../exchange/commands';
import { SYM } from '../exchange/helpers';

const TOPIC = '/spotMarket/tradeOrdersV2';

/** An order change as the client parses it. */
function change(over: Partial<Record<string, unknown>>): WsOrderChange {
  return WsOrderChange.parse({
    orderId: 'o1',
    clientOid: 'c1',
    symbol: 'BTC-USDT',
    side: 'buy',
    orderType: 'limit',
    type: 'open',
    status: 'open',
    orderTime: 1_700_000_000_000,
    ts: '1700000000001000000',
    price: '60000',
    size: '0.5',
    originSize: '0.5',
    filledSize: '0',
    remainSize: '0.5',
    canceledSize: '0',
    ...over,
  });
}

const account = (id: string, currency: string, balance: string, available: string, holds: string): Account => ({ id, currency, type: 'trade', balance, available, holds });

describe('live account updates (src/features/live/accountUpdates.ts)', () => {
  describe('applyOrderChange', () => {
    it('an order appears on received/open, changes on match, leaves on filled', () => {
      const buckets: OrderBucket[] = [];
      assert.deepEqual(applyOrderChange(buckets, change({ type: 'received', status: 'new' })), { changed: true, needsDetail: true });
      assert.equal(buckets[0].orders[0].inOrderBook, false);
      assert.deepEqual(applyOrderChange(buckets, change({ type: 'open' })), { changed: true, needsDetail: false });
      assert.equal(buckets[0].orders[0].inOrderBook, true);
      applyOrderChange(buckets, change({ type: 'match', status: 'open', matchPrice: '60000', matchSize: '0.2', filledSize: '0.2', remainSize: '0.3', tradeId: 't1', liquidity: 'maker' }));
      const o = buckets[0].orders[0];
      assert.deepEqual([o.id, o.symbol, o.side, o.price, o.size, o.dealSize, o.remainSize, o.lastUpdatedAt], ['o1', 'BTC-USDT', 'buy', '60000', '0.5', '0.2', '0.3', 1_700_000_000_001]);
      assert.deepEqual(applyOrderChange(buckets, change({ type: 'filled', status: 'done', filledSize: '0.5', remainSize: '0' })), { changed: true, needsDetail: false });
      assert.deepEqual(buckets, [{ symbol: 'BTC-USDT', orders: [] }], 'the bucket stays (hidden) so that its symbol keeps being resynced');
    });

    it('an update (STP decrease) changes the size; a cancel of an unknown order changes nothing', () => {
      const buckets: OrderBucket[] = [{ symbol: 'BTC-USDT', orders: [orderFromChange(change({}))] }];
      applyOrderChange(buckets, change({ type: 'update', size: '0.4', oldSize: '0.5', remainSize: '0.4' }));
      assert.deepEqual([buckets[0].orders[0].size, buckets[0].orders[0].remainSize], ['0.4', '0.4']);
      assert.deepEqual(applyOrderChange(buckets, change({ orderId: 'zz', type: 'canceled', status: 'done' })), { changed: false, needsDetail: false });
      assert.deepEqual(applyOrderChange([], change({ type: 'canceled', status: 'done' })), { changed: false, needsDetail: false });
    });
  });

  describe('applyBalance', () => {
    it('replaces balance, available and hold of the account; says when nothing changed or the account is unknown', () => {
      const accounts = [account('a1', 'USDT', '100', '100', '0'), account('a2', 'BTC', '1', '1', '0')];
      const msg = (over: Partial<Record<string, unknown>>) =>
        WsBalance.parse({ accountId: 'a1', currency: 'USDT', total: '100', available: '70', hold: '30', availableChange: '-30', holdChange: '30', relationEvent: 'trade.hold', relationEventId: 'o1', time: '1700000000000', ...over });
      assert.equal(applyBalance(accounts, msg({})), 'updated');
      assert.deepEqual(accounts[0], account('a1', 'USDT', '100', '70', '30'));
      assert.equal(applyBalance(accounts, msg({})), 'unchanged');
      assert.equal(applyBalance(accounts, msg({ accountId: 'a9', currency: 'ETH' })), 'unknown');
      assert.deepEqual(accounts[1], account('a2', 'BTC', '1', '1', '0'));
    });
  });

  describe('FillAggregator', () => {
    it('groups the fills of one order into one summary: exact size, size-weighted price, trade ids; `filled` emits it at once', () => {
      const out: FillSummary[] = [];
      const agg = new FillAggregator((s) => out.push(s), 60_000);
      agg.add(change({ type: 'match', status: 'match', side: 'sell', matchPrice: '60000.1', matchSize: '0.1', filledSize: '0.1', remainSize: '0.4', tradeId: 't1', liquidity: 'taker' }));
      agg.add(change({ type: 'match', status: 'match', side: 'sell', matchPrice: '59999.9', matchSize: '0.3', filledSize: '0.4', remainSize: '0.1', tradeId: 't2', liquidity: 'taker' }));
      agg.add(change({ orderId: 'o2', type: 'open' })); // not a fill
      assert.equal(out.length, 0, 'nothing before the window ends or the order is filled');
      agg.add(change({ type: 'filled', status: 'done', filledSize: '0.4', remainSize: '0', canceledSize: '0.1' }));
      assert.equal(out.length, 1);
      const s = out[0];
      // (60000.1 × 0.1 + 59999.9 × 0.3) / 0.4 = 23999.98 / 0.4 = 59999.95
      assert.deepEqual(
        [s.orderId, s.symbol, s.side, s.size, s.funds, s.price, s.fills, s.tradeIds, s.complete, s.filledSize, s.orderSize, s.liquidity],
        ['o1', 'BTC-USDT', 'sell', '0.4', '23999.98', '59999.95', 2, ['t1', 't2'], true, '0.4', '0.5', 'taker'],
      );
      agg.clear();
    });

    it('a partial fill is emitted when the window ends (flushAll), not complete; clear() drops pending ones', () => {
      const out: FillSummary[] = [];
      const agg = new FillAggregator((s) => out.push(s), 60_000);
      agg.add(change({ type: 'match', status: 'open', matchPrice: '60000', matchSize: '0.2', filledSize: '0.2', remainSize: '0.3', tradeId: 't1', liquidity: 'maker' }));
      agg.flushAll();
      assert.deepEqual(out.map((s) => [s.size, s.price, s.complete, s.liquidity]), [['0.2', '60000', false, 'maker']]);
      agg.add(change({ orderId: 'o3', type: 'match', status: 'open', matchPrice: '1', matchSize: '1', tradeId: 't9' }));
      agg.clear();
      agg.flushAll();
      assert.equal(out.length, 1);
    });
  });

  describe('stream replay = REST re-read (property, on the sandbox engine and its feed messages)', () => {
    /** The fields the Active Orders view shows, normalised, sorted by id. */
    const view = (orders: readonly HfOrder[]) =>
      orders
        .map((o) => ({ id: o.id, side: o.side, type: o.type, price: D.normalize(o.price), size: D.normalize(o.size), dealSize: D.normalize(o.dealSize), remainSize: D.normalize(o.remainSize) }))
        .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const accView = (accounts: readonly Account[]) =>
      accounts.map((a) => ({ id: a.id, balance: D.normalize(a.balance), available: D.normalize(a.available), holds: D.normalize(a.holds) })).sort((a, b) => (a.id < b.id ? -1 : 1));

    it('applying every orderChange and account.balance message to the first REST read gives the Active Orders and Accounts of a fresh REST read', () => {
      let messages = 0;
      fc.assert(
        fc.property(ratesArb, fc.array(engineCmdArb, { minLength: 1, maxLength: 80, size: 'max' }), fc.integer({ min: 0, max: 20 }), (rates, cmds, startAt) => {
          const d = new Driver(rates);
          const me = USERS[0];
          // some history before the view's first REST read
          cmds.slice(0, Math.min(startAt, cmds.length)).forEach((c) => d.apply(c));
          const buckets: OrderBucket[] = [{ symbol: SYM, orders: d.ex.activeOrders(me, SYM) }];
          let accounts = d.ex.accounts(me);
          let resyncs = 0;
          const sink: CoreEventSink = {
            level: () => undefined,
            trade: () => undefined,
            order: (e: OrderEvent) => {
              if (e.uid !== me) return;
              const m = JSON.parse(orderMessage(TOPIC, e, String(BigInt(e.time) * 1_000_000n))) as { data: unknown };
              applyOrderChange(buckets, WsOrderChange.parse(m.data));
              messages++;
            },
            balance: (e: BalanceEvent) => {
              if (e.uid !== me) return;
              const m = JSON.parse(balanceMessage(e)) as { data: unknown };
              // an account new to the view: the view reloads the accounts from REST (as src/features/live/host/index.ts does)
              if (applyBalance(accounts, WsBalance.parse(m.data)) === 'unknown') {
                accounts = d.ex.accounts(me);
                resyncs++;
              }
              messages++;
            },
          };
          d.ex.setEventSink(sink);
          d.ex.watchUser(me, true);
          for (const c of cmds.slice(startAt)) {
            d.apply(c);
            assert.deepEqual(view(buckets[0].orders), view(d.ex.activeOrders(me, SYM)), `Active Orders after ${JSON.stringify(c)}`);
            assert.deepEqual(accView(accounts), accView(d.ex.accounts(me)), `Accounts after ${JSON.stringify(c)}`);
          }
          assert.ok(resyncs <= 2, `at most one resync per new account (${resyncs})`);
        }),
        { numRuns: 150 },
      );
      assert.ok(messages > 3000, `the runs exercised the feed (${messages} messages)`);
    });
  });
});
