/**
 * Wire schemas of HF orders and fills (spec "HF order", "HF fill", "Endpoints"): the order request (THE
 * one declaration of its fields, see {@link PlaceOrderRequest}), placement and cancel results, orders, fills
 * and their pages, done orders, clientOid paths, trade fees, with their queries.
 * Conventions as in src/api/schemas.ts (the index that re-exports this file).
 */
import { z } from 'zod';
import { DecimalString, ExactId, Millis, OrderType, PositiveDecimalString, QueryInt, QueryNonNeg, Side, Stp, SymbolString, TimeInForce, commaList } from './primitives';

/** Inner transfer / order placement result `{orderId}` (+ `clientOid` for orders). */
export const OrderIdResult = z.object({ orderId: z.string(), clientOid: z.string().optional() });
/** Type of {@link OrderIdResult}. */
export type OrderIdResult = z.infer<typeof OrderIdResult>;

/** POST /api/v1/hf/orders and /test `data`: `{orderId, clientOid}`. */
export const PlaceOrderResult = z.object({ orderId: z.string(), clientOid: z.string().optional() });
/** Type of {@link PlaceOrderResult}. */
export type PlaceOrderResult = z.infer<typeof PlaceOrderResult>;

/** DELETE /api/v1/hf/orders/{orderId} `data`: `{orderId}`. */
export const CancelResult = z.object({ orderId: z.string() });
/** Type of {@link CancelResult}. */
export type CancelResult = z.infer<typeof CancelResult>;

/**
 * DELETE /api/v1/hf/orders?symbol= `data`. KuCoin returns the string `"success"`; the object form
 * `{succeedSymbols, failedSymbols}` (cancel-all over symbols) is accepted too.
 */
export const CancelAllResult = z.union([
  z.string(),
  z.object({
    succeedSymbols: z.array(z.string()).optional(),
    failedSymbols: z.array(z.object({ symbol: z.string(), error: z.string() })).optional(),
    cancelledOrderIds: z.array(z.string()).optional(),
  }),
]);
/** Type of {@link CancelAllResult}. */
export type CancelAllResult = z.infer<typeof CancelAllResult>;

// ---------------------------------------------------------------------------------------------
// HF orders and fills
// ---------------------------------------------------------------------------------------------

/**
 * HF order (spec "HF order"): decimal strings for amounts, ms for times, `active` is the state
 * (true Active / false Done). `stp`, `tags`, `remark`, `clientOid` accept null as real payloads send.
 */
export const HfOrder = z.object({
  id: z.string(),
  symbol: z.string(),
  opType: z.string(),
  type: OrderType,
  side: Side,
  price: DecimalString,
  size: DecimalString,
  funds: DecimalString,
  dealSize: DecimalString,
  dealFunds: DecimalString,
  cancelledSize: DecimalString,
  cancelledFunds: DecimalString,
  remainSize: DecimalString,
  remainFunds: DecimalString,
  fee: DecimalString,
  feeCurrency: z.string(),
  stp: z.string().nullable(),
  timeInForce: z.string(),
  postOnly: z.boolean(),
  hidden: z.boolean(),
  iceberg: z.boolean(),
  visibleSize: DecimalString,
  cancelAfter: z.number().int(),
  channel: z.string(),
  clientOid: z.string().nullable(),
  remark: z.string().nullable(),
  tags: z.string().nullable(),
  active: z.boolean(),
  inOrderBook: z.boolean(),
  cancelExist: z.boolean(),
  createdAt: Millis,
  lastUpdatedAt: Millis,
  tradeType: z.string(),
  /** Extra (KuCoin): tax charged, decimal string. */
  tax: DecimalString.optional(),
});
/** Type of {@link HfOrder}. */
export type HfOrder = z.infer<typeof HfOrder>;
/** GET /api/v1/hf/orders/active `data`. */
export const HfOrderList = z.array(HfOrder);

/** HF fill (spec "HF fill"); `id` and `tradeId` come out as exact decimal strings. */
export const HfFill = z.object({
  id: ExactId,
  symbol: z.string(),
  tradeId: ExactId,
  orderId: z.string(),
  counterOrderId: z.string(),
  side: Side,
  liquidity: z.enum(['taker', 'maker']),
  forceTaker: z.boolean(),
  price: DecimalString,
  size: DecimalString,
  funds: DecimalString,
  fee: DecimalString,
  feeRate: DecimalString,
  feeCurrency: z.string(),
  stop: z.string(),
  tradeType: z.string(),
  type: OrderType,
  createdAt: Millis,
  /** Extra (KuCoin): tax rate and tax, decimal strings. */
  taxRate: DecimalString.optional(),
  tax: DecimalString.optional(),
});
/** Type of {@link HfFill}. */
export type HfFill = z.infer<typeof HfFill>;

/** GET /api/v1/hf/fills `data`: `{items, lastId}`; `lastId` exact string (pass back as `lastId`). */
export const FillsPage = z.object({ items: z.array(HfFill), lastId: ExactId.nullable() });
/** Type of {@link FillsPage}. */
export type FillsPage = z.infer<typeof FillsPage>;

/** True when a request field is present (not undefined and not null). */
function has(v: unknown): boolean {
  return v !== undefined && v !== null;
}

/**
 * POST /api/v1/hf/orders and POST /api/v1/hf/orders/test body (KuCoin "Add Order (HF)").
 * Fields: clientOid (≤ 40 of [A-Za-z0-9_-]), symbol, side, type, price/size/funds/visibleSize
 * (positive decimal strings), timeInForce, cancelAfter (seconds, integer > 0), postOnly, hidden,
 * iceberg, stp, remark (≤ 20 chars), tags (≤ 20 chars).
 *
 * THE one declaration of the order request's fields: adding a field here and running
 * `npx tsx scripts/gen-spotorder-schema.ts` updates everything else — media/spotorder.schema.json
 * (with the `.describe()` texts as hover docs), the zod-free field table src/api/orderFields.ts (read
 * by the order rules, the request builder's draft and the webviews) — and check-types then fails
 * until the engine and the sandbox's hand-written fast validator (fastparams.ts) handle it.
 * Cross-field rules (issue path = field):
 * - limit: `price` and `size` required; `funds` not allowed.
 * - market: exactly one of `size` / `funds`.
 * - `cancelAfter` only with `timeInForce: "GTT"`, and GTT requires `cancelAfter`.
 * - `iceberg` requires `visibleSize`; `hidden` and `iceberg` not both.
 * - `postOnly` is invalid with IOC / FOK (KuCoin rule).
 * Unknown fields are stripped.
 */
export const PlaceOrderRequest = z
  .object({
    clientOid: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,40}$/, 'must be 1-40 characters of letters, digits, "_" or "-"')
      .optional()
      .describe('Client order id: 1-40 characters of letters, digits, "_" or "-" (a UUID is recommended).'),
    symbol: SymbolString.describe('Trading pair, e.g. "BTC-USDT".'),
    side: Side.describe('"buy" or "sell".'),
    type: OrderType.describe('"limit" (needs price and size) or "market" (exactly one of size or funds).'),
    price: PositiveDecimalString.optional().describe("Limit price, a decimal string that is a multiple of the symbol's priceIncrement."),
    size: PositiveDecimalString.optional().describe('Base amount, a decimal string: a multiple of baseIncrement, between baseMinSize and baseMaxSize.'),
    funds: PositiveDecimalString.optional().describe('Market orders only: quote amount, a multiple of quoteIncrement, between quoteMinSize and quoteMaxSize.'),
    timeInForce: TimeInForce.optional().describe('GTC (default), GTT (needs cancelAfter), IOC or FOK.'),
    // [part B, conformance] KuCoin documents cancelAfter -1 as "not cancelled automatically" (the default);
    // the official kucoin-universal-sdk sends `"cancelAfter":-1` with every order, GTC included. -1 is
    // accepted and normalised to "absent", so the GTT rules below and the engine never see it.
    cancelAfter: z
      .number()
      .int()
      .refine((v) => v === -1 || v > 0, 'must be a positive number of seconds (or -1: no automatic cancel)')
      .transform((v) => (v === -1 ? undefined : v))
      .optional()
      .describe('With timeInForce GTT: cancel after this many seconds (> 0; -1 means never, the same as absent).'),
    postOnly: z.boolean().optional().describe('Post-only (maker only); not allowed with IOC or FOK.'),
    hidden: z.boolean().optional().describe('Hidden order (not shown in the book); not together with iceberg.'),
    iceberg: z.boolean().optional().describe('Iceberg order; needs visibleSize.'),
    visibleSize: PositiveDecimalString.optional().describe('Iceberg orders: the size shown in the book (decimal string).'),
    stp: Stp.optional().describe('Self-trade prevention: DC, CO, CN or CB.'),
    remark: z.string().max(20).optional().describe('Order remark, at most 20 characters.'),
    tags: z.string().max(20).optional().describe('Order tag, at most 20 characters.'),
  })
  .superRefine((o, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (o.type === 'limit') {
      if (!has(o.price)) issue('price', 'is required for a limit order');
      if (!has(o.size)) issue('size', 'is required for a limit order');
      if (has(o.funds)) issue('funds', 'is only allowed for a market order');
    } else {
      if (has(o.size) && has(o.funds)) issue('funds', 'a market order takes exactly one of size or funds, not both');
      if (!has(o.size) && !has(o.funds)) issue('size', 'a market order needs exactly one of size or funds');
    }
    if (has(o.cancelAfter) && o.timeInForce !== 'GTT') issue('cancelAfter', 'is only allowed with timeInForce GTT');
    if (o.timeInForce === 'GTT' && !has(o.cancelAfter)) issue('cancelAfter', 'is required with timeInForce GTT');
    if (o.iceberg && !has(o.visibleSize)) issue('visibleSize', 'is required for an iceberg order');
    if (o.hidden && o.iceberg) issue('iceberg', 'an order cannot be both hidden and iceberg');
    if (o.postOnly && (o.timeInForce === 'IOC' || o.timeInForce === 'FOK')) issue('postOnly', `is invalid with timeInForce ${o.timeInForce}`);
  });
/** Parsed (output) type of {@link PlaceOrderRequest}. */
export type PlaceOrderRequest = z.infer<typeof PlaceOrderRequest>;

/** Query of GET /api/v1/hf/orders/{orderId}: path `orderId` + query `symbol`. */
export const OrderPathQuery = z.object({ orderId: z.string().min(1), symbol: SymbolString });
/** Query of GET /api/v1/hf/fills (spec): `limit` 1..100, times in ms, `lastId` exact id string. */
export const FillsQuery = z.object({
  symbol: SymbolString,
  orderId: z.string().min(1).optional(),
  side: Side.optional(),
  type: OrderType.optional(),
  startAt: QueryInt.optional(),
  endAt: QueryInt.optional(),
  lastId: ExactId.optional(),
  limit: QueryInt.pipe(z.number().int().min(1).max(100)).optional(),
});
/** Type of {@link FillsQuery} (input form, as callers pass it). */
export type FillsQuery = z.input<typeof FillsQuery>;

// --- orders ------------------------------------------------------------------------------------

/**
 * GET /api/v1/hf/orders/done `data` (KuCoin "Get Closed Orders"): `{lastId, items}`, items newest
 * first; `lastId` (a JSON number on the wire, an exact string here) is passed back to get the next page.
 */
export const DoneOrdersPage = z.object({ lastId: ExactId.nullable(), items: z.array(HfOrder) });
/** Type of {@link DoneOrdersPage}. */
export type DoneOrdersPage = z.infer<typeof DoneOrdersPage>;

/**
 * Query of GET /api/v1/hf/orders/done: `symbol`, optional `side`, `type`, `startAt`/`endAt` (ms,
 * within the last 3 × 24 h), `lastId` (from the previous page), `limit` 1..100 (default 20).
 */
export const DoneOrdersQuery = z
  .object({
    symbol: SymbolString,
    side: Side.optional(),
    type: OrderType.optional(),
    startAt: QueryNonNeg.optional(),
    endAt: QueryNonNeg.optional(),
    lastId: ExactId.optional(),
    limit: QueryInt.pipe(z.number().int().min(1, 'must be 1..100').max(100, 'must be 1..100')).optional(),
  })
  .superRefine((q, ctx) => {
    if (q.startAt !== undefined && q.endAt !== undefined && q.endAt < q.startAt) ctx.addIssue({ code: 'custom', path: ['endAt'], message: 'must not be before startAt' });
  });
/** Input type of {@link DoneOrdersQuery}. */
export type DoneOrdersQuery = z.input<typeof DoneOrdersQuery>;

/** A clientOid in a path (1-40 of letters, digits, "_" or "-", as {@link PlaceOrderRequest} allows). */
const ClientOid = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, 'must be 1-40 characters of letters, digits, "_" or "-"');

/** Path + query of GET/DELETE /api/v1/hf/orders/client-order/{clientOid}?symbol=. */
export const ClientOidPathQuery = z.object({ clientOid: ClientOid, symbol: SymbolString });

/** DELETE /api/v1/hf/orders/client-order/{clientOid} `data`: `{clientOid}`. */
export const CancelByClientOidResult = z.object({ clientOid: z.string() });
/** Type of {@link CancelByClientOidResult}. */
export type CancelByClientOidResult = z.infer<typeof CancelByClientOidResult>;

/** GET /api/v1/hf/orders/active/symbols `data`: `{symbols}` — the pairs holding active HF orders. */
export const ActiveOrderSymbols = z.object({ symbols: z.array(z.string()) });
/** Type of {@link ActiveOrderSymbols}. */
export type ActiveOrderSymbols = z.infer<typeof ActiveOrderSymbols>;

/** One element of GET /api/v1/trade-fees `data`: the user's actual rates of a pair (decimal strings). */
export const TradeFee = z.object({ symbol: z.string(), takerFeeRate: DecimalString, makerFeeRate: DecimalString });
/** Type of {@link TradeFee}. */
export type TradeFee = z.infer<typeof TradeFee>;
/** GET /api/v1/trade-fees `data`, one element per requested symbol. */
export const TradeFeeList = z.array(TradeFee);

/** Query of GET /api/v1/trade-fees: `symbols`, 1 to 10 comma-separated pairs; comes out as the array. */
export const TradeFeesQuery = z.object({ symbols: commaList(SymbolString, 10, 'trading pairs') });
