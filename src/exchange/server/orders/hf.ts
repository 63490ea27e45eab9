/**
 * Sandbox handlers of KuCoin's HF order variants (rows `hf*` of src/api/endpoints.ts): synchronous place and
 * cancel, batch place, modify, partial cancel, cancel-all over every symbol, the paged active list and the
 * dead-man's switch. They change state only through SandboxState commands (`order.place`, `order.cancel`,
 * `order.cancelByClientOid`, and orders/commands.ts), so holds, fees, matching, journaling, snapshots and
 * retention are those of every order; a synchronous answer is read back from the engine after the command.
 * KuCoin docs: https://www.kucoin.com/docs-new/rest/spot-trading/orders/ (each row's summary names the call).
 */
import { ExchangeError, type HfOrder } from '../../core';
import { SandboxError, type SandboxState } from '../state';
import { checkCanCancel, checkCanPlace, pageOfList, requireSymbol, uidOf, withTax, type OrderHandler } from './common';
import { deadCancelSymbols, type PlaceOrderSyncResult, type CancelSyncResult } from '../../../api/schemas/hfOrders';
import type * as S from '../../../api/schemas';

/** Names of the endpoints this module answers. */
export type HfOrderEndpoint =
  | 'hfPlaceOrderSync'
  | 'hfPlaceMulti'
  | 'hfPlaceMultiSync'
  | 'hfCancelOrderSync'
  | 'hfCancelByClientOidSync'
  | 'hfCancelPartial'
  | 'hfCancelAllSymbols'
  | 'hfAlterOrder'
  | 'hfActiveOrdersPage'
  | 'hfSetDeadCancel'
  | 'hfGetDeadCancel';

/** KuCoin's message for a non-limit order in a batch (error 126027 "Only limit orders are supported", as ccxt records it). */
export const BATCH_LIMIT_ONLY = 'Only limit orders are supported';

/** An order as a synchronous placement answers it (KuCoin "Add Order Sync"). */
function syncPlaced(o: HfOrder): PlaceOrderSyncResult {
  return {
    orderId: o.id,
    clientOid: o.clientOid,
    orderTime: o.createdAt,
    originSize: o.size,
    dealSize: o.dealSize,
    remainSize: o.remainSize,
    canceledSize: o.cancelledSize,
    status: o.active ? 'open' : 'done',
    matchTime: o.lastUpdatedAt,
  };
}

/** The sizes and state of an order as a synchronous cancel answers them (KuCoin "Cancel Order By OrderId Sync"). */
function syncCancelled(o: HfOrder): Omit<CancelSyncResult, 'orderId'> {
  return { originSize: o.size, dealSize: o.dealSize, remainSize: o.remainSize, canceledSize: o.cancelledSize, status: o.active ? 'open' : 'done' };
}

/**
 * Place one order of a batch: the order id, or the exchange's reason it was refused (the batch goes on).
 * @throws anything that is not a business error (a bug) — never an ExchangeError or SandboxError.
 */
function placeOne(state: SandboxState, uid: string, req: S.PlaceOrderRequest): { orderId: string } | { failMsg: string } {
  if (req.type !== 'limit') return { failMsg: BATCH_LIMIT_ONLY };
  try {
    requireSymbol(state, req.symbol);
    return { orderId: state.run('order.place', { uid, req: { ...req } }).orderId };
  } catch (e) {
    if (e instanceof ExchangeError || e instanceof SandboxError) return { failMsg: e.msg };
    throw e;
  }
}

/** The handlers (see the module doc); routes.ts spreads them into its table. */
export const HF_ORDER_HANDLERS: { [N in HfOrderEndpoint]: OrderHandler<N> } = {
  hfPlaceOrderSync: (ctx) => {
    const uid = uidOf(ctx);
    checkCanPlace(ctx.state);
    const req = ctx.params;
    requireSymbol(ctx.state, req.symbol);
    const r = ctx.state.run('order.place', { uid, req: { ...req } });
    return syncPlaced(ctx.state.exchange.getOrder(uid, req.symbol, r.orderId));
  },
  hfPlaceMulti: (ctx) => {
    const uid = uidOf(ctx);
    checkCanPlace(ctx.state);
    return ctx.params.orderList.map((req) => {
      const r = placeOne(ctx.state, uid, req);
      return 'orderId' in r ? { orderId: r.orderId, clientOid: req.clientOid ?? '', success: true } : { success: false, failMsg: r.failMsg };
    });
  },
  hfPlaceMultiSync: (ctx) => {
    const uid = uidOf(ctx);
    checkCanPlace(ctx.state);
    return ctx.params.orderList.map((req) => {
      const r = placeOne(ctx.state, uid, req);
      return 'orderId' in r ? { ...syncPlaced(ctx.state.exchange.getOrder(uid, req.symbol, r.orderId)), success: true } : { success: false, failMsg: r.failMsg };
    });
  },
  hfCancelOrderSync: (ctx) => {
    const uid = uidOf(ctx);
    checkCanCancel(ctx.state);
    const { symbol, orderId } = ctx.params;
    requireSymbol(ctx.state, symbol);
    ctx.state.run('order.cancel', { uid, symbol, orderId });
    return { orderId, ...syncCancelled(ctx.state.exchange.getOrder(uid, symbol, orderId)) };
  },
  hfCancelByClientOidSync: (ctx) => {
    const uid = uidOf(ctx);
    checkCanCancel(ctx.state);
    const { symbol, clientOid } = ctx.params;
    requireSymbol(ctx.state, symbol);
    ctx.state.run('order.cancelByClientOid', { uid, symbol, clientOid });
    return { clientOid, ...syncCancelled(ctx.state.exchange.getOrderByClientOid(uid, symbol, clientOid)) };
  },
  hfCancelPartial: (ctx) => {
    const uid = uidOf(ctx);
    checkCanCancel(ctx.state);
    const { symbol, orderId, cancelSize } = ctx.params;
    requireSymbol(ctx.state, symbol);
    return ctx.state.run('order.cancelPartial', { uid, symbol, orderId, cancelSize });
  },
  hfCancelAllSymbols: (ctx) => {
    const uid = uidOf(ctx);
    checkCanCancel(ctx.state);
    const r = ctx.state.run('order.cancelAllSymbols', { uid });
    return { succeedSymbols: r.succeedSymbols, failedSymbols: r.failedSymbols };
  },
  hfAlterOrder: (ctx) => {
    const uid = uidOf(ctx);
    checkCanPlace(ctx.state);
    const p = ctx.params;
    requireSymbol(ctx.state, p.symbol);
    return ctx.state.run('order.alter', {
      uid,
      symbol: p.symbol,
      ...(p.orderId !== undefined ? { orderId: p.orderId } : { clientOid: p.clientOid }),
      ...(p.newPrice !== undefined ? { newPrice: p.newPrice } : {}),
      ...(p.newSize !== undefined ? { newSize: p.newSize } : {}),
    });
  },
  hfActiveOrdersPage: (ctx) => {
    const uid = uidOf(ctx);
    const p = ctx.params;
    requireSymbol(ctx.state, p.symbol);
    ctx.state.syncClock();
    // newest first by creation time (KuCoin "Get Open Orders By Page"); same-millisecond orders by id
    const list = ctx.state.exchange.activeOrders(uid, p.symbol).sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    return pageOfList(list, p.pageNum ?? 1, p.pageSize ?? 20, withTax);
  },
  hfSetDeadCancel: (ctx) => {
    const uid = uidOf(ctx);
    return ctx.state.run('order.deadCancel', { uid, timeout: ctx.params.timeout, symbols: deadCancelSymbols(ctx.params.symbols) });
  },
  hfGetDeadCancel: (ctx) => {
    const uid = uidOf(ctx);
    ctx.state.syncClock();
    return ctx.state.exchange.deadCancelOf(uid);
  },
};
