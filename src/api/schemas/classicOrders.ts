/**
 * Wire schemas of KuCoin's classic (low-frequency) spot order API, the one older bots and ccxt's `hf: false`
 * path use: place (`/api/v1/orders`, `/multi`, `/test`), list, get, cancel, cancel all, the recent lists
 * (`/api/v1/limit/orders`, `/api/v1/limit/fills`) and fills (`/api/v1/fills`). Shapes follow
 * kucoin-universal-sdk 1.3.0's models ("… Old") and the published examples of KuCoin's docs
 * (test/fixtures/kucoin/orders/, SOURCES.md). Conventions as in src/api/schemas.ts.
 *
 * Imported directly rather than re-exported by src/api/schemas.ts (see schemas/hfOrders.ts: no import cycles).
 */
import { z } from 'zod';
import { DecimalString, HfFill, HfOrder, OrderType, PlaceOrderRequest, QueryInt, Side, SymbolString, pageOf } from '../schemas';
import { ClientOidString, MAX_BATCH_ORDERS } from './hfOrders';

/** `tradeType` of the classic API: spot (`TRADE`, the default) or margin; the sandbox trades spot only. */
export const ClassicTradeType = z.enum(['TRADE', 'MARGIN_TRADE', 'MARGIN_ISOLATED_TRADE']);
/** Type of {@link ClassicTradeType}. */
export type ClassicTradeType = z.infer<typeof ClassicTradeType>;

const { clientOid: _clientOid, type: _type, ...orderFields } = PlaceOrderRequest.shape;

/**
 * The fields of a classic order request: those of the HF request ({@link PlaceOrderRequest}) with
 * `clientOid` REQUIRED and `type` defaulting to `limit` (KuCoin "Add Order - Old"), plus `tradeType`.
 * The HF request's cross-field rules apply (limit needs price and size, …), reported on the same paths.
 */
const classicOrderObject = z.object({
  clientOid: ClientOidString,
  ...orderFields,
  type: OrderType.default('limit'),
  tradeType: ClassicTradeType.optional(),
});

/** The HF request's cross-field rules, applied to a classic request (issues on the same paths). */
function hfRules(o: z.output<typeof classicOrderObject>, ctx: z.RefinementCtx): void {
  const { tradeType: _tt, ...req } = o;
  const r = PlaceOrderRequest.safeParse(req);
  if (!r.success) for (const i of r.error.issues) ctx.addIssue({ code: 'custom', path: i.path, message: i.message });
}

/** POST /api/v1/orders and /api/v1/orders/test body (KuCoin "Add Order - Old"). */
export const ClassicPlaceOrderRequest = classicOrderObject.superRefine(hfRules);
/** Input type of {@link ClassicPlaceOrderRequest}. */
export type ClassicPlaceOrderRequest = z.input<typeof ClassicPlaceOrderRequest>;

/** POST /api/v1/orders `data`: `{orderId}`. */
export const ClassicPlaceOrderResult = z.object({ orderId: z.string() });
/** Type of {@link ClassicPlaceOrderResult}. */
export type ClassicPlaceOrderResult = z.infer<typeof ClassicPlaceOrderResult>;

/**
 * POST /api/v1/orders/multi body (KuCoin "Batch Add Orders - Old"): `symbol` and `orderList` of 1..5
 * orders of that symbol (each item's own `symbol`, when given, must be it). Items as
 * {@link ClassicPlaceOrderRequest} without their symbol; a malformed item fails the whole request with
 * 400100, an order the exchange refuses fails alone (`status: "fail"`, `failMsg`).
 */
export const ClassicBatchRequest = z
  .object({
    symbol: SymbolString,
    orderList: z.array(classicOrderObject.extend({ symbol: SymbolString.optional() })).min(1, 'must hold 1 to 5 orders').max(MAX_BATCH_ORDERS, 'must hold 1 to 5 orders'),
  })
  .superRefine((b, ctx) => {
    b.orderList.forEach((item, i) => {
      if (item.symbol !== undefined && item.symbol !== b.symbol) ctx.addIssue({ code: 'custom', path: ['orderList', i, 'symbol'], message: `must be the batch's symbol ${b.symbol}` });
      const { tradeType: _tt, ...req } = item;
      const r = PlaceOrderRequest.safeParse({ ...req, symbol: b.symbol });
      if (!r.success) for (const iss of r.error.issues) ctx.addIssue({ code: 'custom', path: ['orderList', i, ...iss.path], message: iss.message });
    });
  });
/** Input type of {@link ClassicBatchRequest}. */
export type ClassicBatchRequest = z.input<typeof ClassicBatchRequest>;

/**
 * One answer of POST /api/v1/orders/multi, in the order of `orderList`: the order as requested
 * (`iceberge` repeats `iceberg`, as KuCoin sends it), its `id` ('' when it failed), `status` `success` or
 * `fail`, and `failMsg` (null on success).
 */
export const ClassicBatchItem = z.object({
  symbol: z.string(),
  type: z.string(),
  side: z.string(),
  price: z.string().nullable(),
  size: z.string().nullable(),
  funds: z.string().nullable(),
  stp: z.string().nullable(),
  stop: z.string().nullable(),
  stopPrice: z.string().nullable(),
  timeInForce: z.string(),
  cancelAfter: z.number().int(),
  postOnly: z.boolean(),
  hidden: z.boolean(),
  iceberge: z.boolean(),
  iceberg: z.boolean(),
  visibleSize: z.string().nullable(),
  channel: z.string(),
  id: z.string().nullable(),
  status: z.enum(['success', 'fail']),
  failMsg: z.string().nullable(),
  clientOid: z.string(),
});
/** POST /api/v1/orders/multi `data`: `{data: [...]}` (an object around the list, as KuCoin sends it). */
export const ClassicBatchResult = z.object({ data: z.array(ClassicBatchItem) });
/** Type of {@link ClassicBatchResult}. */
export type ClassicBatchResult = z.infer<typeof ClassicBatchResult>;

/**
 * A classic order (KuCoin "Get Order By OrderId - Old"): an {@link HfOrder} without the cancelled / remaining
 * amounts, `active`, `inOrderBook` and `lastUpdatedAt`; `funds` is the order's funds (market orders by funds;
 * "0" otherwise), `isActive` its state, `stop`/`stopTriggered`/`stopPrice` the stop fields ("", false, "0"
 * for an ordinary order); `type` any string and `tax`/`taxRate`/`taxCurrency` as KuCoin sends them.
 */
export const ClassicOrder = HfOrder.omit({
  cancelledSize: true,
  cancelledFunds: true,
  remainSize: true,
  remainFunds: true,
  active: true,
  inOrderBook: true,
  lastUpdatedAt: true,
  tax: true,
}).extend({
  type: z.string(),
  stop: z.string().nullable(),
  stopTriggered: z.boolean(),
  stopPrice: DecimalString.nullable(),
  isActive: z.boolean(),
  tax: DecimalString.optional(),
  taxRate: DecimalString.optional(),
  taxCurrency: z.string().nullable().optional(),
});
/** Type of {@link ClassicOrder}. */
export type ClassicOrder = z.infer<typeof ClassicOrder>;

/** `currentPage` (≥ 1, default 1) and `pageSize` (10..500, default 50) of the classic lists (KuCoin's bounds). */
const paging = {
  currentPage: QueryInt.pipe(z.number().int().min(1, 'must be >= 1')).optional(),
  pageSize: QueryInt.pipe(z.number().int().min(10, 'must be 10..500').max(500, 'must be 10..500')).optional(),
};
/** A non-negative integer of a query string (times in ms). */
const QueryNonNeg = QueryInt.pipe(z.number().int().min(0, 'must be >= 0'));

/** `startAt`/`endAt` (ms) with endAt ≥ startAt, plus the other fields. */
function timeRange<T extends z.ZodRawShape>(shape: T) {
  return z.object({ ...shape, startAt: QueryNonNeg.optional(), endAt: QueryNonNeg.optional() }).superRefine((q, ctx) => {
    const r = q as { startAt?: number; endAt?: number };
    if (r.startAt !== undefined && r.endAt !== undefined && r.endAt < r.startAt) ctx.addIssue({ code: 'custom', path: ['endAt'], message: 'must not be before startAt' });
  });
}

/**
 * Query of GET /api/v1/orders (KuCoin "Get Orders List - Old"): `status` active or done (default: both),
 * optional `symbol`, `side`, `type`, `tradeType` (default TRADE), `startAt`/`endAt` (ms, creation time),
 * `currentPage`/`pageSize`.
 */
export const ClassicOrdersQuery = timeRange({
  status: z.enum(['active', 'done']).optional(),
  symbol: SymbolString.optional(),
  side: Side.optional(),
  type: OrderType.optional(),
  tradeType: ClassicTradeType.optional(),
  ...paging,
});
/** Input type of {@link ClassicOrdersQuery}. */
export type ClassicOrdersQuery = z.input<typeof ClassicOrdersQuery>;

/** GET /api/v1/orders `data`: one page, newest first (creation time). */
export const ClassicOrdersPage = pageOf(ClassicOrder);
/** Type of {@link ClassicOrdersPage}. */
export type ClassicOrdersPage = z.infer<typeof ClassicOrdersPage>;

/** GET /api/v1/limit/orders `data` (KuCoin "Get Recent Orders List - Old"): the orders of the last 24 h, at most 1000, newest first. */
export const ClassicOrderList = z.array(ClassicOrder);

/** Path of GET/DELETE /api/v1/orders/{orderId}. */
export const ClassicOrderIdPath = z.object({ orderId: z.string().min(1) });
/** Path of GET/DELETE /api/v1/order/client-order/{clientOid}. */
export const ClassicClientOidPath = z.object({ clientOid: ClientOidString });

/** DELETE /api/v1/orders/{orderId} and DELETE /api/v1/orders `data`: the ids of the cancelled orders. */
export const ClassicCancelResult = z.object({ cancelledOrderIds: z.array(z.string()) });
/** Type of {@link ClassicCancelResult}. */
export type ClassicCancelResult = z.infer<typeof ClassicCancelResult>;

/** DELETE /api/v1/order/client-order/{clientOid} `data`: the cancelled order's id and clientOid (`cancelledOcoOrderIds` null). */
export const ClassicCancelByClientOidResult = z.object({
  cancelledOrderId: z.string(),
  clientOid: z.string(),
  cancelledOcoOrderIds: z.array(z.string()).nullable(),
});
/** Type of {@link ClassicCancelByClientOidResult}. */
export type ClassicCancelByClientOidResult = z.infer<typeof ClassicCancelByClientOidResult>;

/** Query of DELETE /api/v1/orders (KuCoin "Batch Cancel Order - Old"): optional `symbol` (default every symbol) and `tradeType`. */
export const ClassicCancelAllQuery = z.object({ symbol: SymbolString.optional(), tradeType: ClassicTradeType.optional() });

/**
 * A classic fill (KuCoin "Get Trade History - Old"): an {@link HfFill} without `id`, with `tradeId` a digit
 * string, `type` the order's type (any string) and `tax`/`taxRate`/`taxCurrency` as KuCoin sends them.
 */
export const ClassicFill = HfFill.omit({ id: true, taxRate: true, tax: true }).extend({
  tradeId: z.string(),
  type: z.string(),
  tax: DecimalString.optional(),
  taxRate: DecimalString.optional(),
  taxCurrency: z.string().nullable().optional(),
});
/** Type of {@link ClassicFill}. */
export type ClassicFill = z.infer<typeof ClassicFill>;

/**
 * Query of GET /api/v1/fills (KuCoin "Get Trade History - Old"): optional `symbol`, `orderId` (then the
 * other filters are ignored), `side`, `type`, `tradeType`, `startAt`/`endAt` (ms), `currentPage`/`pageSize`.
 */
export const ClassicFillsQuery = timeRange({
  symbol: SymbolString.optional(),
  orderId: z.string().min(1).optional(),
  side: Side.optional(),
  type: OrderType.optional(),
  tradeType: ClassicTradeType.optional(),
  ...paging,
});
/** Input type of {@link ClassicFillsQuery}. */
export type ClassicFillsQuery = z.input<typeof ClassicFillsQuery>;

/** GET /api/v1/fills `data`: one page, newest first. */
export const ClassicFillsPage = pageOf(ClassicFill);
/** Type of {@link ClassicFillsPage}. */
export type ClassicFillsPage = z.infer<typeof ClassicFillsPage>;

/** GET /api/v1/limit/fills `data` (KuCoin "Get Recent Trade History - Old"): fills of the last 24 h, at most 1000, newest first. */
export const ClassicFillList = z.array(ClassicFill);
