/**
 * The stop-order list's filters and paging through the official kucoin-universal-sdk, unmodified (only its
 * spot endpoint and credentials are set): `getStopOrdersList` (GET /api/v1/stop-order, KuCoin "Get Stop
 * Orders List", docs-new api-3470338) with each of its request fields — symbol, side, type, tradeType,
 * startAt, endAt, orderIds, stop, currentPage, pageSize. Stop orders of several symbols, sides and types
 * (and one OCO pair) are placed through the SDK's own `addStopOrder` / `addOcoOrder` at three sandbox
 * times (a manual clock, moved by a few hundred ms so the SDK's wall-clock signature stays within the
 * sandbox's ±5 s). Each answer is checked against what was placed and against the sandbox's own stop book
 * (the engine's record of every listed id), newest first, with KuCoin's paging totals.
 */
import { strict as assert } from 'node:assert';
import { DefaultClient, Spot, logger } from 'kucoin-universal-sdk';
import { sdkClient } from './sdkClient';
import type { RunningSandbox } from '../../../src/exchange/server/index';
import { admin, createUser, startTestSandbox } from './helpers';

const O = Spot.Order;
type ListReq = Parameters<typeof O.GetStopOrdersListReq.create>[0];

/** What the test placed: the order's id and the fields the filters select on. */
interface Placed {
  id: string;
  symbol: string;
  side: 'buy' | 'sell';
  type: 'limit' | 'market';
  oco: boolean;
  createdAt: number;
}

describe('stop-order list filters and paging through kucoin-universal-sdk getStopOrdersList (unmodified)', function () {
  this.timeout(60_000);
  let sb: RunningSandbox;
  let uid: string;
  let client: DefaultClient;
  const placed: Placed[] = [];
  const times: number[] = [];
  const orders = () => client.restService().getSpotService().getOrderApi();
  const list = (req: ListReq) => orders().getStopOrdersList(O.GetStopOrdersListReq.create(req));
  /** Ids, newest first (KuCoin's order; equal times keep the reverse of placement, as the stop book does). */
  const newestFirst = (ps: Placed[]) => ps.map((p, i) => ({ p, i })).sort((a, b) => b.p.createdAt - a.p.createdAt || b.i - a.i).map((x) => x.p.id);

  /** A price far from the market for `sym`: the book's deepest bid (a loss stop that waits) or ask (an entry stop that waits). */
  const far = (sym: string, where: 'bid' | 'ask') => {
    const b = sb.state.exchange.level2(sym, 20);
    return where === 'bid' ? b.bids[b.bids.length - 1][0] : b.asks[b.asks.length - 1][0];
  };

  async function stop(symbol: string, side: 'buy' | 'sell', type: 'limit' | 'market', n: number): Promise<void> {
    const rules = sb.state.world.symbolMap.get(symbol)!;
    // the SDK's AddStopOrderReq has no `stop` field, so every one is KuCoin's default `loss` (fires when the
    // last trade price falls to stopPrice): at the book's deepest bid it waits, no trade happens in this test
    const stopPrice = far(symbol, 'bid');
    const r = await orders().addStopOrder(
      O.AddStopOrderReq.create({
        clientOid: `flt-${n}`,
        symbol,
        side: side === 'buy' ? O.AddStopOrderReq.SideEnum.BUY : O.AddStopOrderReq.SideEnum.SELL,
        type: type === 'limit' ? O.AddStopOrderReq.TypeEnum.LIMIT : O.AddStopOrderReq.TypeEnum.MARKET,
        stopPrice,
        size: rules.baseMinSize,
        ...(type === 'limit' ? { price: stopPrice } : {}),
      }),
    );
    placed.push({ id: r.orderId, symbol, side, type, oco: false, createdAt: sb.state.exchange.advanced.stopOrder(uid, r.orderId).createdAt });
  }

  before(async () => {
    logger.setGlobalLogger({}, { level: 'warn', format: () => '' });
    sb = await startTestSandbox({ port: 0 });
    const u = await createUser(sb, { balances: [{ currency: 'USDT', type: 'trade', amount: '100000' }, { currency: 'BTC', type: 'trade', amount: '5' }, { currency: 'ETH', type: 'trade', amount: '50' }] });
    uid = u.uid;
    client = sdkClient(sb.baseUrl, u);
    let n = 0;
    const slots: [string, 'buy' | 'sell', 'limit' | 'market'][][] = [
      [['BTC-USDT', 'sell', 'limit'], ['BTC-USDT', 'buy', 'limit'], ['ETH-USDT', 'sell', 'market']],
      [['ETH-USDT', 'buy', 'limit'], ['BTC-USDT', 'sell', 'market'], ['BTC-USDT', 'buy', 'market']],
      [['ETH-USDT', 'sell', 'limit'], ['BTC-USDT', 'buy', 'limit'], ['ETH-USDT', 'buy', 'market']],
    ];
    for (const [si, slot] of slots.entries()) {
      if (si > 0) await admin(sb, 'POST', '/sandbox/v1/clock', { advanceMs: 250 });
      times.push(sb.state.now());
      for (const [sym, side, type] of slot) await stop(sym, side, type, ++n);
    }
    // one OCO pair on BTC-USDT in the last slot: its legs are stop-book entries of kind `oco`
    const rules = sb.state.world.symbolMap.get('BTC-USDT')!;
    const oco = await orders().addOcoOrder(
      O.AddOcoOrderReq.create({ clientOid: 'flt-oco', symbol: 'BTC-USDT', side: O.AddOcoOrderReq.SideEnum.SELL, price: far('BTC-USDT', 'ask'), size: rules.baseMinSize, stopPrice: far('BTC-USDT', 'bid'), limitPrice: far('BTC-USDT', 'bid') }),
    );
    const legs = sb.state.exchange.advanced.ocoOrderDetail(uid, oco.orderId).orders;
    for (const l of legs) placed.push({ id: l.id, symbol: 'BTC-USDT', side: l.side as 'buy' | 'sell', type: 'limit', oco: true, createdAt: sb.state.exchange.advanced.stopOrder(uid, l.id).createdAt });
  });
  after(async () => {
    await sb?.close();
  });

  it('setup: nine stop orders and the OCO legs wait in the sandbox\'s stop book at three distinct times', () => {
    assert.equal(placed.filter((p) => !p.oco).length, 9);
    assert.ok(placed.some((p) => p.oco));
    for (const p of placed) assert.equal(sb.state.exchange.advanced.stopOrder(uid, p.id).status, 'NEW', p.id);
    assert.deepEqual([...new Set(placed.filter((p) => !p.oco).map((p) => p.createdAt))], times);
  });

  it('no filter: every waiting order, newest first, each item equal to the engine\'s record', async () => {
    const r = await list({ pageSize: 50 });
    assert.deepEqual(r.items.map((i) => i.id), newestFirst(placed));
    assert.deepEqual([r.currentPage, r.pageSize, r.totalNum, r.totalPage], [1, 50, placed.length, 1]);
    for (const i of r.items) {
      const e = sb.state.exchange.advanced.stopOrder(uid, i.id);
      assert.deepEqual([i.symbol, i.side, i.type, i.stop, i.stopPrice, i.price, i.size, i.status, i.createdAt, i.clientOid], [e.symbol, e.side, e.type, e.stop, e.stopPrice, e.price, e.size, e.status, e.createdAt, e.clientOid], i.id);
    }
  });

  it('symbol, side, type and their combination: exactly the matching orders', async () => {
    const cases: [ListReq, (p: Placed) => boolean][] = [
      [{ symbol: 'ETH-USDT' }, (p) => p.symbol === 'ETH-USDT'],
      [{ side: 'buy' }, (p) => p.side === 'buy'],
      [{ side: 'sell' }, (p) => p.side === 'sell'],
      [{ type: O.GetStopOrdersListReq.TypeEnum.MARKET }, (p) => p.type === 'market'],
      [{ type: O.GetStopOrdersListReq.TypeEnum.LIMIT }, (p) => p.type === 'limit'],
      [{ symbol: 'BTC-USDT', side: 'buy', type: O.GetStopOrdersListReq.TypeEnum.LIMIT }, (p) => p.symbol === 'BTC-USDT' && p.side === 'buy' && p.type === 'limit'],
      [{ tradeType: 'TRADE', symbol: 'BTC-USDT' }, (p) => p.symbol === 'BTC-USDT'],
    ];
    for (const [req, keep] of cases) {
      const want = newestFirst(placed.filter(keep));
      assert.ok((want.length > 0 && want.length < placed.length) || req.tradeType !== undefined, JSON.stringify(req));
      const r = await list(req);
      assert.deepEqual(r.items.map((i) => i.id), want, JSON.stringify(req));
      assert.equal(r.totalNum, want.length, JSON.stringify(req));
    }
  });

  it('stop: `stop` lists the plain stop orders, `oco` the OCO legs', async () => {
    assert.deepEqual((await list({ stop: 'stop' })).items.map((i) => i.id), newestFirst(placed.filter((p) => !p.oco)));
    assert.deepEqual((await list({ stop: 'oco' })).items.map((i) => i.id), newestFirst(placed.filter((p) => p.oco)));
  });

  it('startAt / endAt (ms, inclusive): the middle slot alone, from it on, up to it', async () => {
    const [, t1] = times;
    const at = (keep: (t: number) => boolean) => newestFirst(placed.filter((p) => keep(p.createdAt)));
    assert.deepEqual((await list({ startAt: t1, endAt: t1 })).items.map((i) => i.id), at((t) => t === t1));
    assert.deepEqual((await list({ startAt: t1 })).items.map((i) => i.id), at((t) => t >= t1));
    assert.deepEqual((await list({ endAt: t1 })).items.map((i) => i.id), at((t) => t <= t1));
    assert.deepEqual((await list({ startAt: t1 + 1, endAt: times[2] - 1 })).items, []);
  });

  it('orderIds (comma-separated): those orders only, an unknown id ignored; with a filter that excludes some of them', async () => {
    const pick = [placed[0].id, placed[4].id, placed[7].id];
    const r = await list({ orderIds: [...pick, 'vs0000000000000000000000'].join(',') });
    assert.deepEqual(r.items.map((i) => i.id), newestFirst(placed.filter((p) => pick.includes(p.id))));
    const sells = await list({ orderIds: pick.join(','), side: 'sell' });
    assert.deepEqual(sells.items.map((i) => i.id), newestFirst(placed.filter((p) => pick.includes(p.id) && p.side === 'sell')));
  });

  it('currentPage / pageSize: pages of 10 cut the newest-first list; the totals are the whole list\'s', async () => {
    // add stop orders until there are more than one page of the smallest size (10)
    let n = 100;
    while (placed.length < 23) await stop('BTC-USDT', 'sell', 'limit', ++n);
    const all = newestFirst(placed);
    const pages: string[] = [];
    const totalPage = Math.ceil(all.length / 10);
    for (let cp = 1; cp <= totalPage + 1; cp++) {
      const r = await list({ currentPage: cp, pageSize: 10 });
      assert.deepEqual([r.currentPage, r.pageSize, r.totalNum, r.totalPage], [cp, 10, all.length, totalPage], `page ${cp}`);
      assert.equal(r.items.length, cp <= totalPage ? Math.min(10, all.length - (cp - 1) * 10) : 0, `page ${cp}`);
      pages.push(...r.items.map((i) => i.id));
    }
    assert.deepEqual(pages, all);
    // paging applies after the filters
    const btc = newestFirst(placed.filter((p) => p.symbol === 'BTC-USDT'));
    const p2 = await list({ symbol: 'BTC-USDT', currentPage: 2, pageSize: 10 });
    assert.deepEqual([p2.totalNum, p2.totalPage, p2.items.map((i) => i.id)], [btc.length, Math.ceil(btc.length / 10), btc.slice(10, 20)]);
  });

  it('refusals in KuCoin\'s envelope, nothing changed: pageSize out of 10..500, an unknown symbol, a margin tradeType', async () => {
    const before = JSON.stringify(newestFirst(placed).map((id) => sb.state.exchange.advanced.stopOrder(uid, id)));
    const codeOf = async (req: ListReq): Promise<string> => {
      try {
        await list(req);
        return 'ok';
      } catch (e) {
        // an HTTP error carries the envelope (the interceptor above); a 200 with a failing code, the SDK's "server code: N"
        const text = `${String(e)} ${String((e as Error).message)}`;
        const m = /"code":"(\d+)"/.exec(text) ?? /server code: (\d+)/.exec(text);
        return m ? m[1] : text;
      }
    };
    assert.equal(await codeOf({ pageSize: 5 }), '400100');
    assert.equal(await codeOf({ pageSize: 501 }), '400100');
    assert.equal(await codeOf({ symbol: 'NOPE-USDT' }), '900001');
    assert.equal(await codeOf({ tradeType: 'MARGIN_TRADE' }), '400100');
    assert.equal(JSON.stringify(newestFirst(placed).map((id) => sb.state.exchange.advanced.stopOrder(uid, id))), before);
  });
});
