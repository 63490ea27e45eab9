/**
 * Sandbox handlers of KuCoin's classic (low-frequency) spot order API (rows `classic*` of
 * src/api/endpoints.ts; KuCoin docs "… - Old", https://www.kucoin.com/docs-new/api-3470333 and after): the
 * API older bots and ccxt's `hf: false` path use.
 *
 * The sandbox is a KuCoin account migrated to high-frequency trading (GET /api/v1/hf/accounts/opened →
 * true), on which KuCoin merged the low-frequency `trade` and the high-frequency `trade_hf` account into one
 * spot trading account; the classic API is a second door to the same orders, book, fills and account
 * (docs/sandbox.md, "Classic order API"). So a classic order is an engine order like any other: placed with
 * `order.place`, matched in the one book by price-time priority, holding in the one trading account, listed
 * by both APIs. Only the wire shapes differ (classic order: `funds` only for market orders by funds,
 * `isActive`, the stop fields; classic fill: `tradeId` a string) and what the classic API adds: lists over
 * every symbol with `currentPage`/`pageSize`, lookups and cancels without a symbol, the last-24-h lists.
 */
import type * as S from '../../../api/schemas';
import type * as C from '../../../api/schemas/classicOrders';
import { ExchangeError, type HfFill, type HfOrder } from '../../core';
import { randomHex, SandboxError, type SandboxState } from '../state';
import { allDoneOrders, checkCanCancel, checkCanPlace, pageOfList, requireSymbol, symbolsOf, uidOf, type OrderHandler } from './common';

/** Names of the endpoints this module answers. */
export type ClassicOrderEndpoint =
  | 'classicPlaceOrder'
  | 'classicTestOrder'
  | 'classicPlaceMulti'
  | 'classicCancelOrder'
  | 'classicCancelByClientOid'
  | 'classicCancelAll'
  | 'classicOrders'
  | 'classicRecentOrders'
  | 'classicOrder'
  | 'classicOrderByClientOid'
  | 'classicFills'
  | 'classicRecentFills';

/** KuCoin's classic answer for an order that is unknown (or another user's, or no longer readable), as ccxt's error map records it. */
export const CLASSIC_ORDER_NOT_EXIST = 'order not exist.';
/** KuCoin's classic answer for a cancel of an order that does not exist or is done ({"code":"400100","msg":"order_not_exist_or_not_allow_to_cancel"}, ccxt). */
export const CLASSIC_NOT_CANCELLABLE = 'order_not_exist_or_not_allow_to_cancel';
/** The window of GET /api/v1/limit/orders and /api/v1/limit/fills (24 h) and their cap (1000 items). */
const RECENT_MS = 24 * 3600 * 1000;
const RECENT_MAX = 1000;

/** An engine order (the core's HF view) as the classic API shows it (KuCoin "Get Order By OrderId - Old"). */
export function classicOrderView(o: HfOrder): C.ClassicOrder {
  return {
    id: o.id,
    symbol: o.symbol,
    opType: o.opType,
    type: o.type,
    side: o.side,
    price: o.price,
    size: o.size,
    // the classic order's funds is the request's funds: market orders by funds only ("0" for limit orders,
    // unlike the HF view's price × size)
    funds: o.type === 'market' ? o.funds : '0',
    dealFunds: o.dealFunds,
    dealSize: o.dealSize,
    fee: o.fee,
    feeCurrency: o.feeCurrency,
    stp: o.stp ?? '',
    stop: '',
    stopTriggered: false,
    stopPrice: '0',
    timeInForce: o.timeInForce,
    postOnly: o.postOnly,
    hidden: o.hidden,
    iceberg: o.iceberg,
    visibleSize: o.visibleSize,
    cancelAfter: o.cancelAfter,
    channel: o.channel,
    clientOid: o.clientOid,
    remark: o.remark,
    tags: o.tags,
    isActive: o.active,
    cancelExist: o.cancelExist,
    createdAt: o.createdAt,
    tradeType: 'TRADE',
    tax: '0',
  };
}

/** An engine fill as the classic API shows it (KuCoin "Get Trade History - Old": `tradeId` a string, no fill id). */
export function classicFillView(f: HfFill): C.ClassicFill {
  return {
    symbol: f.symbol,
    tradeId: String(f.tradeId),
    orderId: f.orderId,
    counterOrderId: f.counterOrderId,
    side: f.side,
    liquidity: f.liquidity,
    forceTaker: f.forceTaker,
    price: f.price,
    size: f.size,
    funds: f.funds,
    fee: f.fee,
    feeRate: f.feeRate,
    feeCurrency: f.feeCurrency,
    stop: '',
    tradeType: 'TRADE',
    type: f.type,
    createdAt: f.createdAt,
    tax: '0',
    taxRate: '0',
  };
}

/** @throws SandboxError 400100 for a margin `tradeType`: the sandbox trades spot only. */
function requireSpot(tradeType: C.ClassicTradeType | undefined): void {
  if (tradeType !== undefined && tradeType !== 'TRADE') throw new SandboxError('400100', `tradeType: ${tradeType} is margin trading, which the sandbox does not have; use TRADE`);
}

/** The engine request of a classic request: the HF fields (tradeType and the batch item's own symbol dropped). */
function engineRequest(p: Omit<S.PlaceOrderRequest, 'symbol'> & { tradeType?: string; symbol?: string }, symbol: string): S.PlaceOrderRequest {
  const { tradeType: _tt, symbol: _s, ...rest } = p;
  return { ...rest, symbol };
}

let testOrderSeq = 0;
const TEST_ORDER_PREFIX = `f${randomHex(4).slice(1)}`;
/** Order id answered by the classic order test: 24 hex chars outside the engine's id space (never queryable). */
function nextTestOrderId(): string {
  return TEST_ORDER_PREFIX + (++testOrderSeq).toString(16).padStart(16, '0');
}

/** Every order of `uid` (active and done within the window) of the symbols listed, newest first by creation time. */
function ordersOf(state: SandboxState, uid: string, symbols: readonly string[], which: 'active' | 'done' | 'both'): HfOrder[] {
  state.syncClock();
  const out: HfOrder[] = [];
  for (const s of symbols) {
    if (which !== 'done') out.push(...state.exchange.activeOrders(uid, s));
    if (which !== 'active') out.push(...allDoneOrders(state, uid, s));
  }
  return out.sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

/** Every fill of `uid` on the symbols listed matching the filters (the core's: side, type, startAt/endAt, or orderId), newest first. */
function fillsOf(state: SandboxState, uid: string, symbols: readonly string[], q: { orderId?: string; side?: 'buy' | 'sell'; type?: 'limit' | 'market'; startAt?: number; endAt?: number }): HfFill[] {
  state.syncClock();
  const out: HfFill[] = [];
  for (const symbol of symbols) {
    let lastId: number | undefined;
    for (;;) {
      const page = state.exchange.fills(uid, { symbol, limit: 100, ...q, ...(lastId !== undefined ? { lastId } : {}) });
      out.push(...page.items);
      if (page.items.length < 100 || q.orderId !== undefined) break;
      lastId = page.lastId;
    }
  }
  return out.sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
}

/** The symbol of an order the user can read, or the error a classic call answers. */
function symbolOfOrder(state: SandboxState, uid: string, orderId: string, msg: string): string {
  const s = state.exchange.orderSymbol(uid, orderId);
  if (s === null) throw new SandboxError('400100', msg);
  return s;
}

/** The handlers (see the module doc); routes.ts spreads them into its table. */
export const CLASSIC_ORDER_HANDLERS: { [N in ClassicOrderEndpoint]: OrderHandler<N> } = {
  classicPlaceOrder: (ctx) => {
    const uid = uidOf(ctx);
    checkCanPlace(ctx.state);
    const p = ctx.params;
    requireSpot(p.tradeType);
    requireSymbol(ctx.state, p.symbol);
    const r = ctx.state.run('order.place', { uid, req: engineRequest(p, p.symbol) });
    return { orderId: r.orderId };
  },
  classicTestOrder: (ctx) => {
    const uid = uidOf(ctx);
    checkCanPlace(ctx.state);
    const p = ctx.params;
    requireSpot(p.tradeType);
    requireSymbol(ctx.state, p.symbol);
    ctx.state.syncClock();
    ctx.state.exchange.validateOrder(uid, engineRequest(p, p.symbol));
    return { orderId: nextTestOrderId() };
  },
  classicPlaceMulti: (ctx) => {
    const uid = uidOf(ctx);
    checkCanPlace(ctx.state);
    const { symbol, orderList } = ctx.params;
    requireSymbol(ctx.state, symbol);
    const data = orderList.map((item): C.ClassicBatchResult['data'][number] => {
      let id: string | null = null;
      let failMsg: string | null = null;
      if (item.type !== 'limit') failMsg = 'Only limit orders are supported';
      else {
        try {
          requireSpot(item.tradeType);
          id = ctx.state.run('order.place', { uid, req: engineRequest(item, symbol) }).orderId;
        } catch (e) {
          if (!(e instanceof ExchangeError || e instanceof SandboxError)) throw e;
          failMsg = e.msg;
        }
      }
      return {
        symbol,
        type: item.type,
        side: item.side,
        price: item.price ?? null,
        size: item.size ?? null,
        funds: item.funds ?? null,
        stp: item.stp ?? '',
        stop: '',
        stopPrice: null,
        timeInForce: item.timeInForce ?? 'GTC',
        cancelAfter: item.cancelAfter ?? 0,
        postOnly: item.postOnly ?? false,
        hidden: item.hidden ?? false,
        iceberge: item.iceberg ?? false,
        iceberg: item.iceberg ?? false,
        visibleSize: item.visibleSize ?? null,
        channel: 'API',
        id,
        status: failMsg === null ? 'success' : 'fail',
        failMsg,
        clientOid: item.clientOid,
      };
    });
    return { data };
  },
  classicCancelOrder: (ctx) => {
    const uid = uidOf(ctx);
    checkCanCancel(ctx.state);
    const { orderId } = ctx.params;
    const symbol = symbolOfOrder(ctx.state, uid, orderId, CLASSIC_NOT_CANCELLABLE);
    if (!ctx.state.exchange.isActiveOrder(uid, orderId)) throw new SandboxError('400100', CLASSIC_NOT_CANCELLABLE);
    ctx.state.run('order.cancel', { uid, symbol, orderId });
    return { cancelledOrderIds: [orderId] };
  },
  classicCancelByClientOid: (ctx) => {
    const uid = uidOf(ctx);
    checkCanCancel(ctx.state);
    const { clientOid } = ctx.params;
    const symbol = ctx.state.exchange.orderSymbolByClientOid(uid, clientOid);
    const o = symbol === null ? null : ctx.state.exchange.getOrderByClientOid(uid, symbol, clientOid);
    if (symbol === null || o === null || !o.active) throw new SandboxError('400100', CLASSIC_NOT_CANCELLABLE);
    ctx.state.run('order.cancelByClientOid', { uid, symbol, clientOid });
    return { cancelledOrderId: o.id, clientOid, cancelledOcoOrderIds: null };
  },
  classicCancelAll: (ctx) => {
    const uid = uidOf(ctx);
    checkCanCancel(ctx.state);
    const p = ctx.params;
    if (p.tradeType !== undefined && p.tradeType !== 'TRADE') return { cancelledOrderIds: [] };
    if (p.symbol !== undefined) {
      requireSymbol(ctx.state, p.symbol);
      return { cancelledOrderIds: ctx.state.run('order.cancelAll', { uid, symbol: p.symbol }) };
    }
    return { cancelledOrderIds: ctx.state.run('order.cancelAllSymbols', { uid }).cancelledOrderIds };
  },
  classicOrders: (ctx) => {
    const uid = uidOf(ctx);
    const p = ctx.params;
    const cp = p.currentPage ?? 1;
    const ps = p.pageSize ?? 50;
    if (p.tradeType !== undefined && p.tradeType !== 'TRADE') return pageOfList([], cp, ps, classicOrderView);
    // KuCoin's default status is done
    const list = ordersOf(ctx.state, uid, symbolsOf(ctx.state, p.symbol), p.status ?? 'done').filter(
      (o) =>
        (p.side === undefined || o.side === p.side) &&
        (p.type === undefined || o.type === p.type) &&
        (p.startAt === undefined || o.createdAt >= p.startAt) &&
        (p.endAt === undefined || o.createdAt <= p.endAt),
    );
    return pageOfList(list, cp, ps, classicOrderView);
  },
  classicRecentOrders: (ctx) => {
    const uid = uidOf(ctx);
    const since = ctx.state.now() - RECENT_MS;
    return ordersOf(ctx.state, uid, symbolsOf(ctx.state, undefined), 'both')
      .filter((o) => o.createdAt >= since)
      .slice(0, RECENT_MAX)
      .map(classicOrderView);
  },
  classicOrder: (ctx) => {
    const uid = uidOf(ctx);
    ctx.state.syncClock();
    const { orderId } = ctx.params;
    const symbol = symbolOfOrder(ctx.state, uid, orderId, CLASSIC_ORDER_NOT_EXIST);
    return classicOrderView(ctx.state.exchange.getOrder(uid, symbol, orderId));
  },
  classicOrderByClientOid: (ctx) => {
    const uid = uidOf(ctx);
    ctx.state.syncClock();
    const { clientOid } = ctx.params;
    const symbol = ctx.state.exchange.orderSymbolByClientOid(uid, clientOid);
    // KuCoin: "the system will send a prompt that the order does not exist if the order does not exist or has been settled"
    const o = symbol === null ? null : ctx.state.exchange.getOrderByClientOid(uid, symbol, clientOid);
    if (o === null || !o.active) throw new SandboxError('400100', CLASSIC_ORDER_NOT_EXIST);
    return classicOrderView(o);
  },
  classicFills: (ctx) => {
    const uid = uidOf(ctx);
    const p = ctx.params;
    const cp = p.currentPage ?? 1;
    const ps = p.pageSize ?? 50;
    if (p.tradeType !== undefined && p.tradeType !== 'TRADE') return pageOfList([], cp, ps, classicFillView);
    let symbols = symbolsOf(ctx.state, p.symbol);
    if (p.orderId !== undefined) {
      // an order's fills whatever the other filters (as HF fills do); an unknown order has none
      const s = ctx.state.exchange.orderSymbol(uid, p.orderId);
      symbols = s === null || (p.symbol !== undefined && s !== p.symbol) ? [] : [s];
    }
    const q = p.orderId !== undefined ? { orderId: p.orderId } : { side: p.side, type: p.type, startAt: p.startAt, endAt: p.endAt };
    const defined = Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined)) as typeof q;
    return pageOfList(fillsOf(ctx.state, uid, symbols, defined), cp, ps, classicFillView);
  },
  classicRecentFills: (ctx) => {
    const uid = uidOf(ctx);
    const now = ctx.state.now();
    return fillsOf(ctx.state, uid, symbolsOf(ctx.state, undefined), { startAt: now - RECENT_MS, endAt: now })
      .slice(0, RECENT_MAX)
      .map(classicFillView);
  },
};
