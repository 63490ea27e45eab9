/**
 * Wire schemas of KuCoin's spot "advanced" orders: stop orders (`/api/v1/stop-order…`, KuCoin docs-new
 * "Spot Trading → Orders → Add Stop Order" and the six stop-order endpoints after it) and OCO orders
 * (`/api/v3/oco/…`, "Add OCO Order" and the seven OCO endpoints after it), as the official
 * kucoin-universal-sdk's models (generate/spot/order/model_*stop*, model_*oco*) and its published examples
 * show them. Requests strip unknown fields (KuCoin ignores them; ccxt sends `status` and `tradeType` to the
 * stop-order list); responses keep KuCoin's `null`s.
 *
 * This module does not import ../schemas (it is re-exported from there), so its few primitives are its own.
 */
import { z } from 'zod';
import { isDecimal, isNegative, isZero } from '../decimal';

/** A plain decimal string ("0.01"). */
const Dec = z.string().refine(isDecimal, { message: 'must be a plain decimal string' });
/** A strictly positive decimal string (request prices, sizes, funds). */
const PosDec = z.string().superRefine((s, ctx) => {
  if (!isDecimal(s)) ctx.addIssue({ code: 'custom', message: 'must be a plain decimal string (digits with an optional fraction; no exponent, NaN or "+")' });
  else if (isNegative(s) || isZero(s)) ctx.addIssue({ code: 'custom', message: 'must be greater than 0' });
});
const SymbolStr = z.string().regex(/^[A-Za-z0-9]{1,20}-[A-Za-z0-9]{1,20}$/, 'must be a trading pair like BTC-USDT');
const ClientOid = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, 'must be 1-40 characters of letters, digits, "_" or "-"');
/** An integer of a query string ("100") or JSON (100). */
const QInt = z.union([z.number().int(), z.string().regex(/^-?\d{1,15}$/, 'must be an integer')]).transform(Number);
const QNonNeg = QInt.pipe(z.number().int().min(0, 'must be >= 0'));
/** An exact integer (ns times above 2^53): a safe number, a digit string or a bigint; outputs the digit string. */
const ExactInt = z.union([z.string().regex(/^\d{1,40}$/), z.number().int().nonnegative(), z.bigint()]).transform((v, ctx) => {
  if (typeof v === 'number' && !Number.isSafeInteger(v)) {
    ctx.addIssue({ code: 'custom', message: 'a JSON number above 2^53 lost digits (decode with parseJson)' });
    return z.NEVER;
  }
  return String(v);
});
/** A comma-separated list of ids (`orderIds=a,b`), at most `max`; outputs the array. */
function idList(max: number) {
  return z.string().transform((v, ctx) => {
    const parts = v.split(',').map((p) => p.trim()).filter((p) => p !== '');
    if (parts.length > max) {
      ctx.addIssue({ code: 'custom', message: `at most ${max} order ids` });
      return z.NEVER;
    }
    return parts;
  });
}
/**
 * An optional query field that may also arrive empty (`side=`) or as the word `undefined`: the official
 * kucoin-universal-sdk copies every field of its request model into the query, unset ones as
 * `encodeURIComponent(undefined)` (`side=undefined&type=undefined…`), and runs against KuCoin as it is; both
 * read as absent.
 */
function opt<T extends z.ZodType>(schema: T) {
  return z
    .union([z.literal(''), z.literal('undefined'), schema])
    .optional()
    .transform((v) => (v === '' || v === 'undefined' ? undefined : (v as z.output<T> | undefined)));
}

/** KuCoin's `tradeType`: TRADE (spot), MARGIN_TRADE, MARGIN_ISOLATED_TRADE. The sandbox trades spot only. */
export const StopTradeType = z.enum(['TRADE', 'MARGIN_TRADE', 'MARGIN_ISOLATED_TRADE']);

/** `currentPage` ≥ 1 and `pageSize` 10..500 of the paged lists (KuCoin's bounds). */
const paging = {
  currentPage: QInt.pipe(z.number().int().min(1, 'must be >= 1')).optional(),
  pageSize: QInt.pipe(z.number().int().min(10, 'must be 10..500').max(500, 'must be 10..500')).optional(),
};

/** A `{currentPage, pageSize, totalNum, totalPage, items}` page. */
function page<T extends z.ZodType>(item: T) {
  return z.object({ currentPage: z.number().int(), pageSize: z.number().int(), totalNum: z.number().int(), totalPage: z.number().int(), items: z.array(item) });
}

// ---------------------------------------------------------------------------------------------
// Stop orders
// ---------------------------------------------------------------------------------------------

/**
 * Trigger direction of a stop order (KuCoin "Stop Order" introduction): `loss` triggers when the last trade
 * price is at or below `stopPrice`, `entry` when it is at or above. OCO legs carry KuCoin's OCO kinds
 * (`l_l_o`/`l_s_o`: the limit / stop leg triggered at or below, `e_l_o`/`e_s_o`: at or above).
 */
export const StopKind = z.enum(['loss', 'entry', 'l_l_o', 'l_s_o', 'e_l_o', 'e_s_o']);
/** Type of {@link StopKind}. */
export type StopKind = z.infer<typeof StopKind>;

/**
 * POST /api/v1/stop-order body (KuCoin "Add Stop Order"): the order fields of an HF order (limit: price +
 * size; market: exactly one of size / funds; timeInForce, cancelAfter with GTT, postOnly, hidden, iceberg +
 * visibleSize, stp, remark ≤ 20, tags ≤ 20, clientOid ≤ 40) plus `stopPrice` (required, a multiple of the
 * symbol's priceIncrement) and `stop` (`loss` | `entry`, default `loss` as KuCoin's v1 docs say).
 * `tradeType` other than TRADE is refused by the sandbox (no margin).
 */
export const StopOrderRequest = z
  .object({
    clientOid: ClientOid.optional(),
    symbol: SymbolStr,
    side: z.enum(['buy', 'sell']),
    type: z.enum(['limit', 'market']),
    price: PosDec.optional(),
    size: PosDec.optional(),
    funds: PosDec.optional(),
    timeInForce: z.enum(['GTC', 'GTT', 'IOC', 'FOK']).optional(),
    cancelAfter: z
      .number()
      .int()
      .refine((v) => v === -1 || v > 0, 'must be a positive number of seconds (or -1: no automatic cancel)')
      .transform((v) => (v === -1 ? undefined : v))
      .optional(),
    postOnly: z.boolean().optional(),
    hidden: z.boolean().optional(),
    iceberg: z.boolean().optional(),
    visibleSize: PosDec.optional(),
    stp: z.enum(['', 'DC', 'CO', 'CN', 'CB']).optional(),
    remark: z.string().max(20).optional(),
    tags: z.string().max(20).optional(),
    stop: z.enum(['loss', 'entry']).optional().describe('Stop orders: "loss" (default) fires when the last trade price is at or below stopPrice, "entry" when it is at or above.'),
    stopPrice: PosDec.describe("Stop orders: the trigger, a last trade price that is a multiple of the symbol's priceIncrement. Nothing is held until it fires."),
    tradeType: StopTradeType.optional(),
  })
  .superRefine((o, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (o.type === 'limit') {
      if (o.price === undefined) issue('price', 'is required for a limit order');
      if (o.size === undefined) issue('size', 'is required for a limit order');
      if (o.funds !== undefined) issue('funds', 'is only allowed for a market order');
    } else if ((o.size === undefined) === (o.funds === undefined)) {
      issue('size', 'a market order needs exactly one of size or funds');
    }
    if (o.cancelAfter !== undefined && o.timeInForce !== 'GTT') issue('cancelAfter', 'is only allowed with timeInForce GTT');
    if (o.timeInForce === 'GTT' && o.cancelAfter === undefined) issue('cancelAfter', 'is required with timeInForce GTT');
    if (o.iceberg && o.visibleSize === undefined) issue('visibleSize', 'is required for an iceberg order');
    if (o.hidden && o.iceberg) issue('iceberg', 'an order cannot be both hidden and iceberg');
    if (o.postOnly && (o.timeInForce === 'IOC' || o.timeInForce === 'FOK')) issue('postOnly', `is invalid with timeInForce ${o.timeInForce}`);
  });
/** Parsed (output) type of {@link StopOrderRequest}. */
export type StopOrderRequest = z.infer<typeof StopOrderRequest>;

/** POST /api/v1/stop-order `data`: `{orderId, clientOid}` (the stop order's id, `vs…`). */
export const StopOrderResult = z.object({ orderId: z.string(), clientOid: z.string().optional() });
/** Type of {@link StopOrderResult}. */
export type StopOrderResult = z.infer<typeof StopOrderResult>;

/**
 * A stop order (GET /api/v1/stop-order/{orderId}, the list's items, the clientOid query's elements):
 * `status` NEW (waiting for its trigger) or TRIGGERED (its order entered matching; `stopTriggerTime` ms),
 * and in the sandbox CANCELLED (cancelled, or its order was refused when it triggered). `orderTime` is in
 * nanoseconds (above 2^53: the exact digit string), `createdAt` ms. Amounts are decimal strings; KuCoin sends
 * `null` for what an order does not have (funds of a size order, visibleSize, stp, remark, tags).
 */
export const StopOrder = z.object({
  id: z.string(),
  symbol: z.string(),
  userId: z.string(),
  status: z.string(),
  type: z.enum(['limit', 'market']),
  side: z.enum(['buy', 'sell']),
  price: Dec.nullable(),
  size: Dec.nullable(),
  funds: Dec.nullable(),
  stp: z.string().nullable(),
  timeInForce: z.string(),
  cancelAfter: z.number().int(),
  postOnly: z.boolean(),
  hidden: z.boolean(),
  iceberg: z.boolean(),
  visibleSize: Dec.nullable(),
  channel: z.string(),
  clientOid: z.string().nullable(),
  remark: z.string().nullable(),
  tags: z.string().nullable(),
  orderTime: ExactInt,
  domainId: z.string(),
  tradeSource: z.string(),
  tradeType: z.string(),
  feeCurrency: z.string(),
  takerFeeRate: Dec,
  makerFeeRate: Dec,
  createdAt: z.number().int(),
  stop: z.string(),
  stopTriggerTime: z.number().int().nullable(),
  stopPrice: Dec,
});
/** Type of {@link StopOrder}. */
export type StopOrder = z.infer<typeof StopOrder>;

/** GET /api/v1/stop-order `data`: a page of active stop orders, newest first. */
export const StopOrderPage = page(StopOrder);
/** Type of {@link StopOrderPage}. */
export type StopOrderPage = z.infer<typeof StopOrderPage>;
/** GET /api/v1/stop-order/queryOrderByClientOid `data`: the stop orders of that clientOid (an array). */
export const StopOrderList = z.array(StopOrder);

/**
 * GET /api/v1/stop-order query (KuCoin "Get Stop Orders List"): `symbol`, `side`, `type` (limit | market),
 * `startAt`/`endAt` (ms), `orderIds` (comma-separated, ≤ 500), `stop` (`stop`: plain stop orders, `oco`: OCO
 * legs; absent: both), `currentPage`/`pageSize` (default 1 / 50, 10..500), `tradeType`.
 */
export const StopOrdersQuery = z.object({
  symbol: opt(SymbolStr),
  side: opt(z.enum(['buy', 'sell'])),
  type: opt(z.enum(['limit', 'market'])),
  tradeType: opt(StopTradeType),
  startAt: opt(QNonNeg),
  endAt: opt(QNonNeg),
  orderIds: opt(idList(500)),
  stop: opt(z.enum(['stop', 'oco'])),
  currentPage: opt(paging.currentPage.unwrap()),
  pageSize: opt(paging.pageSize.unwrap()),
});
/** Input type of {@link StopOrdersQuery}. */
export type StopOrdersQuery = z.input<typeof StopOrdersQuery>;

/** The `{orderId}` path of GET / DELETE /api/v1/stop-order/{orderId} and the OCO order paths. */
export const AdvancedOrderIdPath = z.object({ orderId: z.string().regex(/^[A-Za-z0-9]{1,40}$/, 'must be an order id') });
/** Input type of {@link AdvancedOrderIdPath}. */
export type AdvancedOrderIdPath = z.input<typeof AdvancedOrderIdPath>;

/** Query of GET /api/v1/stop-order/queryOrderByClientOid and DELETE /api/v1/stop-order/cancelOrderByClientOid. */
export const StopClientOidQuery = z.object({ clientOid: ClientOid, symbol: opt(SymbolStr) });
/** Input type of {@link StopClientOidQuery}. */
export type StopClientOidQuery = z.input<typeof StopClientOidQuery>;

/** Query of DELETE /api/v1/stop-order/cancel (KuCoin "Batch Cancel Stop Orders"): all of the user's, or of `symbol`, or the `orderIds`. */
export const StopBatchCancelQuery = z.object({ symbol: opt(SymbolStr), tradeType: opt(StopTradeType), orderIds: opt(idList(500)) });
/** Input type of {@link StopBatchCancelQuery}. */
export type StopBatchCancelQuery = z.input<typeof StopBatchCancelQuery>;

/** DELETE /api/v1/stop-order/{orderId}, /api/v1/stop-order/cancel and the OCO cancels `data`: the cancelled ids. */
export const CancelledOrderIds = z.object({ cancelledOrderIds: z.array(z.string()) });
/** Type of {@link CancelledOrderIds}. */
export type CancelledOrderIds = z.infer<typeof CancelledOrderIds>;

/** DELETE /api/v1/stop-order/cancelOrderByClientOid `data`. */
export const CancelStopByClientOidResult = z.object({ cancelledOrderId: z.string(), clientOid: z.string() });
/** Type of {@link CancelStopByClientOidResult}. */
export type CancelStopByClientOidResult = z.infer<typeof CancelStopByClientOidResult>;

// ---------------------------------------------------------------------------------------------
// OCO orders
// ---------------------------------------------------------------------------------------------

/**
 * POST /api/v3/oco/order body (KuCoin "Add OCO Order"): two limit legs of `size` on `side`, each entering
 * matching when its trigger is reached; the first to trigger cancels the other. `price`: the limit leg's
 * price and trigger (take profit); `stopPrice`: the stop leg's trigger; `limitPrice`: the stop leg's price.
 * A sell needs price > stopPrice, a buy price < stopPrice (the limit leg on the profitable side).
 * `clientOid` is required. `tradeType` only TRADE.
 */
export const OcoOrderRequest = z
  .object({
    clientOid: ClientOid.describe('Client order id of the OCO order (required): 1-40 characters of letters, digits, "_" or "-".'),
    symbol: SymbolStr.describe('Trading pair, e.g. "BTC-USDT".'),
    side: z.enum(['buy', 'sell']).describe('"buy" or "sell": both legs trade this side.'),
    price: PosDec.describe('OCO: the take-profit leg, a limit order at this price placed when the last trade price reaches it (a sell: above stopPrice; a buy: below).'),
    size: PosDec.describe('OCO: the base amount of each leg (only one leg executes).'),
    stopPrice: PosDec.describe('OCO: the stop-loss trigger; when the last trade price reaches it the stop leg is placed at limitPrice.'),
    limitPrice: PosDec.describe("OCO: the stop leg's limit price, a multiple of the symbol's priceIncrement."),
    remark: z.string().max(20).optional().describe('Order remark, at most 20 characters.'),
    tradeType: z.literal('TRADE').optional(),
  });
/** Parsed type of {@link OcoOrderRequest}. */
export type OcoOrderRequest = z.infer<typeof OcoOrderRequest>;

/** POST /api/v3/oco/order `data`: `{orderId}`. */
export const OcoOrderResult = z.object({ orderId: z.string() });
/** Type of {@link OcoOrderResult}. */
export type OcoOrderResult = z.infer<typeof OcoOrderResult>;

/** An OCO order's status: NEW (both legs waiting), TRIGGERED (one leg triggered, the other cancelled), DONE, CANCELLED. */
export const OcoStatus = z.enum(['NEW', 'DONE', 'TRIGGERED', 'CANCELLED']);

/** GET /api/v3/oco/order/{orderId} and /api/v3/oco/client-order/{clientOid} `data`; `orderTime` ms. */
export const OcoOrder = z.object({ orderId: z.string(), symbol: z.string(), clientOid: z.string(), orderTime: z.number().int(), status: OcoStatus });
/** Type of {@link OcoOrder}. */
export type OcoOrder = z.infer<typeof OcoOrder>;

/** One leg of GET /api/v3/oco/order/details/{orderId}: a stop order's id, price, trigger, size and status. */
export const OcoLeg = z.object({ id: z.string(), symbol: z.string(), side: z.enum(['buy', 'sell']), price: Dec, stopPrice: Dec, size: Dec, status: z.string() });
/** GET /api/v3/oco/order/details/{orderId} `data`: the OCO order with its two legs. */
export const OcoOrderDetail = OcoOrder.extend({ orders: z.array(OcoLeg) });
/** Type of {@link OcoOrderDetail}. */
export type OcoOrderDetail = z.infer<typeof OcoOrderDetail>;

/** GET /api/v3/oco/orders `data`: a page of OCO orders, newest first. */
export const OcoOrderPage = page(OcoOrder);
/** Type of {@link OcoOrderPage}. */
export type OcoOrderPage = z.infer<typeof OcoOrderPage>;

/** Query of GET /api/v3/oco/orders: `symbol`, `startAt`/`endAt` (ms), `orderIds` (≤ 500), paging. */
export const OcoOrdersQuery = z.object({
  symbol: opt(SymbolStr),
  startAt: opt(QNonNeg),
  endAt: opt(QNonNeg),
  orderIds: opt(idList(500)),
  currentPage: opt(paging.currentPage.unwrap()),
  pageSize: opt(paging.pageSize.unwrap()),
});
/** Input type of {@link OcoOrdersQuery}. */
export type OcoOrdersQuery = z.input<typeof OcoOrdersQuery>;

/** The `{clientOid}` path of GET / DELETE /api/v3/oco/client-order/{clientOid}. */
export const OcoClientOidPath = z.object({ clientOid: ClientOid });
/** Input type of {@link OcoClientOidPath}. */
export type OcoClientOidPath = z.input<typeof OcoClientOidPath>;

/** Query of DELETE /api/v3/oco/orders: the `orderIds` (comma-separated), or all of `symbol`, or all. */
export const OcoBatchCancelQuery = z.object({ orderIds: opt(idList(500)), symbol: opt(SymbolStr) });
/** Input type of {@link OcoBatchCancelQuery}. */
export type OcoBatchCancelQuery = z.input<typeof OcoBatchCancelQuery>;
