/**
 * What every order handler of the sandbox needs (the HF variants of orders/hf.ts, the classic API of
 * orders/classic.ts, and routes.ts): the handler type of an order endpoint, the caller's uid, the symbol
 * check, the service-status gates and the listing helpers that walk a user's orders over every symbol.
 */
import type { EndpointName, ParsedParamsOf, WireResponseOf } from '../../../api/endpoints';
import type { HfFill, HfOrder } from '../../core';
import { E_FORBIDDEN_TO_PLACE, forbiddenToPlaceMsg, isSourceCancelOnly } from '../mirror/status';
import { SandboxError, type SandboxState, type UserRecord } from '../state';

/**
 * Context of an order endpoint's request: what routes.ts's RouteContext carries that these handlers read
 * (routes.ts hands its RouteContext, which has these fields).
 */
export interface OrderRouteContext<N extends EndpointName> {
  state: SandboxState;
  /** the authenticated user (every order endpoint is private) */
  user?: UserRecord;
  /** params validated by the row's schema (query + path for GET/DELETE; JSON body for POST) */
  params: ParsedParamsOf<N>;
}

/** The handler of order endpoint `N`: its parsed params in, its wire payload out. @throws SandboxError / ExchangeError. */
export type OrderHandler<N extends EndpointName> = (ctx: OrderRouteContext<N>) => WireResponseOf<N>;

/** Code answered when the service status forbids an operation (sandbox choice, documented in docs/sandbox.md). */
export const E_SERVICE_STATUS = '400350';

/** The caller's uid. @throws SandboxError 400001 (HTTP 401) when the request carries no user. */
export function uidOf(ctx: { user?: UserRecord }): string {
  if (!ctx.user) throw new SandboxError('400001', 'Please check the header of your request for KC-API-KEY, KC-API-SIGN, KC-API-TIMESTAMP, KC-API-PASSPHRASE', 401);
  return ctx.user.uid;
}

/** @throws SandboxError 900001 "symbol not exists!" (KuCoin's answer) for a pair the world lacks. */
export function requireSymbol(state: SandboxState, symbol: string): void {
  if (!state.world.symbolMap.has(symbol)) throw new SandboxError('900001', 'symbol not exists!');
}

/**
 * @throws SandboxError 400350 when the service status (admin PUT /sandbox/v1/status) forbids placing orders; 400200
 *   "Forbidden to place an order" when a mirror's or replay's upstream is not live (mirror/status.ts).
 */
export function checkCanPlace(state: SandboxState): void {
  const s = state.status;
  // a mirror's or replay's upstream is down or resyncing: KuCoin's answer of a market that takes no orders now
  if (isSourceCancelOnly(s)) throw new SandboxError(E_FORBIDDEN_TO_PLACE, forbiddenToPlaceMsg(s));
  if (s.status === 'cancelonly') throw new SandboxError(E_SERVICE_STATUS, `The service is in cancel-only mode: orders can be cancelled but not placed${s.msg ? ` (${s.msg})` : ''}`);
  if (s.status === 'close') throw new SandboxError(E_SERVICE_STATUS, `The service is closed: trading is stopped${s.msg ? ` (${s.msg})` : ''}`);
}

/** @throws SandboxError 400350 when the service is closed (cancels work in cancel-only mode). */
export function checkCanCancel(state: SandboxState): void {
  const s = state.status;
  if (s.status === 'close') throw new SandboxError(E_SERVICE_STATUS, `The service is closed: trading is stopped${s.msg ? ` (${s.msg})` : ''}`);
}

/** An HF order as the HF endpoints send it: the core's view plus `tax` "0" (the sandbox charges no tax; KuCoin sends the field). */
export function withTax(o: HfOrder): HfOrder {
  return { ...o, tax: '0' };
}

/**
 * An HF fill as GET /api/v1/hf/fills sends it: the core's view plus `taxRate` and `tax` "0" (the sandbox
 * charges no tax). KuCoin sends both on every HF fill (docs-new "Get Trade History", the spec fixture
 * GET_api_v1_hf_fills.json), and kucoin-universal-sdk's GetTradeHistoryItems declares them required.
 */
export function fillWithTax(f: HfFill): HfFill {
  return { ...f, taxRate: '0', tax: '0' };
}

/** The symbols to list: the one asked for (checked: 900001) or every symbol of the world, in world order. */
export function symbolsOf(state: SandboxState, symbol: string | undefined): string[] {
  if (symbol !== undefined) {
    requireSymbol(state, symbol);
    return [symbol];
  }
  return state.world.symbols.map((s) => s.symbol);
}

/**
 * Every done order of `uid` on `symbol` still readable (the 3 × 24 h window), newest first, following the
 * core's `lastId` pages (Exchange.doneOrders).
 */
export function allDoneOrders(state: SandboxState, uid: string, symbol: string): HfOrder[] {
  const out: HfOrder[] = [];
  let lastId: number | undefined;
  for (;;) {
    const page = state.exchange.doneOrders(uid, symbol, { limit: 100, ...(lastId !== undefined ? { lastId } : {}) });
    out.push(...page);
    if (page.length < 100) return out;
    lastId = parseInt(page[page.length - 1].id.slice(-16), 16);
  }
}

/** One `currentPage`/`pageSize` page of `list` (already in answer order), each item mapped; a page past the end is empty. */
export function pageOfList<T, U>(list: readonly T[], currentPage: number, pageSize: number, item: (x: T) => U): { currentPage: number; pageSize: number; totalNum: number; totalPage: number; items: U[] } {
  const start = (currentPage - 1) * pageSize;
  return { currentPage, pageSize, totalNum: list.length, totalPage: Math.ceil(list.length / pageSize), items: list.slice(start, start + pageSize).map(item) };
}
