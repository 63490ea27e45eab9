/**
 * Route handlers of the stop-order and OCO endpoints (rows `stopOrder*` and `oco*` of src/api/endpoints.ts;
 * KuCoin docs-new "Add Stop Order" … "Get OCO Order List"). Mutations go through `state.run` with the commands
 * of advancedCommands.ts (journaled); reads bring the clock up to date first (GTT expiry). The service status
 * rules are those of the HF order routes: `cancelonly` refuses placements, `close` refuses cancels too (400350).
 * A `tradeType` other than TRADE (margin) is refused with 400100: the sandbox trades spot only.
 */
import type { EndpointName, ParsedParamsOf, WireResponseOf } from '../../../api/endpoints';
import { SandboxError, type SandboxState, type UserRecord } from '../state';
import { E_FORBIDDEN_TO_PLACE, forbiddenToPlaceMsg, isSourceCancelOnly } from '../mirror/status';

/** What a handler here reads of the route context (routes.ts `RouteContext`). */
interface Ctx<N extends EndpointName> {
  state: SandboxState;
  user?: UserRecord;
  params: ParsedParamsOf<N>;
}

type AdvancedName =
  | 'stopOrderPlace'
  | 'stopOrderCancel'
  | 'stopOrderCancelByClientOid'
  | 'stopOrderCancelBatch'
  | 'stopOrders'
  | 'stopOrder'
  | 'stopOrderByClientOid'
  | 'ocoPlace'
  | 'ocoCancel'
  | 'ocoCancelByClientOid'
  | 'ocoCancelBatch'
  | 'ocoOrder'
  | 'ocoOrderByClientOid'
  | 'ocoOrderDetail'
  | 'ocoOrders';

/** The code of a refused operation under the service status (routes.ts E_SERVICE_STATUS). */
const E_SERVICE_STATUS = '400350';

function uidOf(ctx: Ctx<EndpointName>): string {
  if (!ctx.user) throw new SandboxError('400001', 'Please check the header of your request for KC-API-KEY, KC-API-SIGN, KC-API-TIMESTAMP, KC-API-PASSPHRASE', 401);
  return ctx.user.uid;
}

function canPlace(state: SandboxState): void {
  const s = state.status;
  if (isSourceCancelOnly(s)) throw new SandboxError(E_FORBIDDEN_TO_PLACE, forbiddenToPlaceMsg(s));
  if (s.status === 'cancelonly') throw new SandboxError(E_SERVICE_STATUS, `The service is in cancel-only mode: orders can be cancelled but not placed${s.msg ? ` (${s.msg})` : ''}`);
  if (s.status === 'close') throw new SandboxError(E_SERVICE_STATUS, `The service is closed: trading is stopped${s.msg ? ` (${s.msg})` : ''}`);
}

function canCancel(state: SandboxState): void {
  const s = state.status;
  if (s.status === 'close') throw new SandboxError(E_SERVICE_STATUS, `The service is closed: trading is stopped${s.msg ? ` (${s.msg})` : ''}`);
}

function spotOnly(tradeType: string | undefined): void {
  if (tradeType !== undefined && tradeType !== 'TRADE') throw new SandboxError('400100', `tradeType: ${tradeType} is not available, the sandbox trades spot only (TRADE)`);
}

function symbolKnown(state: SandboxState, symbol: string | undefined): void {
  if (symbol !== undefined && !state.world.symbolMap.has(symbol)) throw new SandboxError('900001', 'symbol not exists!');
}

/** A signed read: the uid, the clock brought up to date. */
function read(ctx: Ctx<EndpointName>): string {
  const uid = uidOf(ctx);
  ctx.state.syncClock();
  return uid;
}

/** One `currentPage`/`pageSize` page (defaults 1 / 50) of a list already in answer order. */
function page<T>(list: readonly T[], currentPage: number | undefined, pageSize: number | undefined) {
  const cp = currentPage ?? 1;
  const ps = pageSize ?? 50;
  return { currentPage: cp, pageSize: ps, totalNum: list.length, totalPage: Math.ceil(list.length / ps), items: list.slice((cp - 1) * ps, cp * ps) };
}

/** Only the keys whose value is defined (the core's filters take absent, not undefined). */
function defined<T extends Record<string, unknown>>(o: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out as { [K in keyof T]?: Exclude<T[K], undefined> };
}

/** The handlers of the stop and OCO rows, spread into routes.ts HANDLERS. */
export const ADVANCED_HANDLERS: { [N in AdvancedName]: (ctx: Ctx<N>) => WireResponseOf<N> } = {
  stopOrderPlace: (ctx) => {
    const uid = uidOf(ctx);
    canPlace(ctx.state);
    spotOnly(ctx.params.tradeType);
    symbolKnown(ctx.state, ctx.params.symbol);
    return ctx.state.run('stop.place', { uid, req: { ...ctx.params } });
  },
  stopOrderCancel: (ctx) => {
    const uid = uidOf(ctx);
    canCancel(ctx.state);
    return { cancelledOrderIds: ctx.state.run('stop.cancel', { uid, orderId: ctx.params.orderId }) };
  },
  stopOrderCancelByClientOid: (ctx) => {
    const uid = uidOf(ctx);
    canCancel(ctx.state);
    symbolKnown(ctx.state, ctx.params.symbol);
    return ctx.state.run('stop.cancelByClientOid', { uid, clientOid: ctx.params.clientOid, ...defined({ symbol: ctx.params.symbol }) });
  },
  stopOrderCancelBatch: (ctx) => {
    const uid = uidOf(ctx);
    canCancel(ctx.state);
    spotOnly(ctx.params.tradeType);
    symbolKnown(ctx.state, ctx.params.symbol);
    return { cancelledOrderIds: ctx.state.run('stop.cancelBatch', { uid, ...defined({ symbol: ctx.params.symbol, orderIds: ctx.params.orderIds }) }) };
  },
  stopOrders: (ctx) => {
    const uid = read(ctx);
    const p = ctx.params;
    spotOnly(p.tradeType);
    symbolKnown(ctx.state, p.symbol);
    const list = ctx.state.exchange.advanced.stopOrders(uid, defined({ symbol: p.symbol, side: p.side, type: p.type, startAt: p.startAt, endAt: p.endAt, orderIds: p.orderIds, stop: p.stop }));
    return page(list, p.currentPage, p.pageSize);
  },
  stopOrder: (ctx) => ctx.state.exchange.advanced.stopOrder(read(ctx), ctx.params.orderId),
  stopOrderByClientOid: (ctx) => {
    const uid = read(ctx);
    symbolKnown(ctx.state, ctx.params.symbol);
    return ctx.state.exchange.advanced.stopOrdersByClientOid(uid, ctx.params.clientOid, ctx.params.symbol);
  },
  ocoPlace: (ctx) => {
    const uid = uidOf(ctx);
    canPlace(ctx.state);
    symbolKnown(ctx.state, ctx.params.symbol);
    return ctx.state.run('oco.place', { uid, req: { ...ctx.params } });
  },
  ocoCancel: (ctx) => {
    const uid = uidOf(ctx);
    canCancel(ctx.state);
    return { cancelledOrderIds: ctx.state.run('oco.cancel', { uid, orderId: ctx.params.orderId }) };
  },
  ocoCancelByClientOid: (ctx) => {
    const uid = uidOf(ctx);
    canCancel(ctx.state);
    return { cancelledOrderIds: ctx.state.run('oco.cancelByClientOid', { uid, clientOid: ctx.params.clientOid }) };
  },
  ocoCancelBatch: (ctx) => {
    const uid = uidOf(ctx);
    canCancel(ctx.state);
    symbolKnown(ctx.state, ctx.params.symbol);
    return { cancelledOrderIds: ctx.state.run('oco.cancelBatch', { uid, ...defined({ symbol: ctx.params.symbol, orderIds: ctx.params.orderIds }) }) };
  },
  ocoOrder: (ctx) => ctx.state.exchange.advanced.ocoOrder(read(ctx), ctx.params.orderId),
  ocoOrderByClientOid: (ctx) => ctx.state.exchange.advanced.ocoOrderByClientOid(read(ctx), ctx.params.clientOid),
  ocoOrderDetail: (ctx) => ctx.state.exchange.advanced.ocoOrderDetail(read(ctx), ctx.params.orderId),
  ocoOrders: (ctx) => {
    const uid = read(ctx);
    const p = ctx.params;
    symbolKnown(ctx.state, p.symbol);
    return page(ctx.state.exchange.advanced.ocoOrders(uid, defined({ symbol: p.symbol, startAt: p.startAt, endAt: p.endAt, orderIds: p.orderIds })), p.currentPage, p.pageSize);
  },
};
