/**
 * Wire schemas of KuCoin's HF order variants (spot, "Pro account"): synchronous placement and cancel,
 * batch placement, modify (alter), partial cancel, cancel-all over every symbol, the paged active list and
 * the dead-man's switch (DCP). Shapes follow kucoin-universal-sdk 1.3.0's models and the published examples
 * of KuCoin's docs (test/fixtures/kucoin/orders/, SOURCES.md). The same conventions as src/api/schemas.ts:
 * decimals are strings, times ms unless a field says seconds, requests strip unknown fields.
 *
 * Imported directly (src/api/endpoints.ts, SpotClient) rather than re-exported by src/api/schemas.ts: this
 * module builds on that one's primitives, and a re-export would make the two import each other (the
 * repository forbids import cycles, test/unit/lint/cycles.test.ts).
 */
import { z } from 'zod';
import { DecimalString, HfOrder, Millis, PlaceOrderRequest, PositiveDecimalString, QueryInt, SymbolString, pageOf } from '../schemas';

/** A clientOid: 1-40 letters, digits, "_" or "-" (as PlaceOrderRequest allows). */
export const ClientOidString = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, 'must be 1-40 characters of letters, digits, "_" or "-"');

/** State of an order in a synchronous answer: `open` (still active) or `done`. */
export const SyncOrderStatus = z.enum(['open', 'done']);

/**
 * POST /api/v1/hf/orders/sync `data` (KuCoin "Add Order Sync"): the order after matching, `orderTime` its
 * creation and `matchTime` its last change (ms); sizes are decimal strings (`originSize` "0" for a market
 * order by funds).
 */
export const PlaceOrderSyncResult = z.object({
  orderId: z.string(),
  clientOid: z.string().nullable(),
  orderTime: Millis,
  originSize: DecimalString,
  dealSize: DecimalString,
  remainSize: DecimalString,
  canceledSize: DecimalString,
  status: SyncOrderStatus,
  matchTime: Millis,
});
/** Type of {@link PlaceOrderSyncResult}. */
export type PlaceOrderSyncResult = z.infer<typeof PlaceOrderSyncResult>;

/** Most orders one batch may carry (KuCoin "Batch Add Orders": 5). */
export const MAX_BATCH_ORDERS = 5;

/**
 * POST /api/v1/hf/orders/multi and /multi/sync body (KuCoin "Batch Add Orders"): `orderList` of 1..5
 * orders, each a full HF order request with its own `symbol` ({@link PlaceOrderRequest}: a malformed item
 * fails the whole request with 400100 naming `orderList.N.field`). Each well-formed order is then placed
 * on its own, in order: one refused by the exchange (balance, rules, not a limit order) fails alone, with
 * `success: false` and `failMsg`.
 */
export const BatchOrdersRequest = z.object({
  orderList: z.array(PlaceOrderRequest).min(1, 'must hold 1 to 5 orders').max(MAX_BATCH_ORDERS, 'must hold 1 to 5 orders'),
});
/** Input type of {@link BatchOrdersRequest}. */
export type BatchOrdersRequest = z.input<typeof BatchOrdersRequest>;

/** One answer of POST /api/v1/hf/orders/multi, in the order of `orderList`. */
export const BatchOrderResult = z.object({
  orderId: z.string().optional(),
  clientOid: z.string().nullable().optional(),
  success: z.boolean(),
  failMsg: z.string().optional(),
});
/** POST /api/v1/hf/orders/multi `data`. */
export const BatchOrdersResult = z.array(BatchOrderResult);
/** Type of {@link BatchOrdersResult}. */
export type BatchOrdersResult = z.infer<typeof BatchOrdersResult>;

/** One answer of POST /api/v1/hf/orders/multi/sync: {@link PlaceOrderSyncResult}'s fields when placed. */
export const BatchOrderSyncResult = PlaceOrderSyncResult.partial().extend({ success: z.boolean(), failMsg: z.string().optional() });
/** POST /api/v1/hf/orders/multi/sync `data`. */
export const BatchOrdersSyncResult = z.array(BatchOrderSyncResult);
/** Type of {@link BatchOrdersSyncResult}. */
export type BatchOrdersSyncResult = z.infer<typeof BatchOrdersSyncResult>;

/** The sizes and state of an order after a synchronous cancel (KuCoin "Cancel Order By OrderId Sync"). */
const cancelSyncFields = {
  originSize: DecimalString,
  dealSize: DecimalString,
  remainSize: DecimalString,
  canceledSize: DecimalString,
  status: SyncOrderStatus,
};
/** DELETE /api/v1/hf/orders/sync/{orderId} `data`. */
export const CancelSyncResult = z.object({ orderId: z.string(), ...cancelSyncFields });
/** Type of {@link CancelSyncResult}. */
export type CancelSyncResult = z.infer<typeof CancelSyncResult>;
/** DELETE /api/v1/hf/orders/sync/client-order/{clientOid} `data`. */
export const CancelByClientOidSyncResult = z.object({ clientOid: z.string(), ...cancelSyncFields });
/** Type of {@link CancelByClientOidSyncResult}. */
export type CancelByClientOidSyncResult = z.infer<typeof CancelByClientOidSyncResult>;

/**
 * POST /api/v1/hf/orders/alter body (KuCoin "Modify Order"): `symbol`, the order by `orderId` or else
 * `clientOid`, and `newPrice` and/or `newSize` (the new TOTAL size: the new order gets newSize − dealSize;
 * not above dealSize, the order is only cancelled).
 */
export const AlterOrderRequest = z
  .object({
    symbol: SymbolString,
    orderId: z.string().min(1).optional(),
    clientOid: ClientOidString.optional(),
    newPrice: PositiveDecimalString.optional(),
    newSize: PositiveDecimalString.optional(),
  })
  .superRefine((o, ctx) => {
    if (o.orderId === undefined && o.clientOid === undefined) ctx.addIssue({ code: 'custom', path: ['orderId'], message: 'one of orderId or clientOid is required' });
    if (o.newPrice === undefined && o.newSize === undefined) ctx.addIssue({ code: 'custom', path: ['newPrice'], message: 'one of newPrice or newSize is required' });
  });
/** Input type of {@link AlterOrderRequest}. */
export type AlterOrderRequest = z.input<typeof AlterOrderRequest>;

/**
 * POST /api/v1/hf/orders/alter `data`: the id of the NEW order (KuCoin cancels the old one and places a new
 * one) and the order's clientOid; `newOrderId` null when no new order was placed (newSize not above the
 * dealt size: the order was only cancelled).
 */
export const AlterOrderResult = z.object({ newOrderId: z.string().nullable(), clientOid: z.string().nullable() });
/** Type of {@link AlterOrderResult}. */
export type AlterOrderResult = z.infer<typeof AlterOrderResult>;

/** Path + query of DELETE /api/v1/hf/orders/sync/{orderId}?symbol=. */
export const OrderIdSymbolQuery = z.object({ orderId: z.string().min(1), symbol: SymbolString });
/** Path + query of DELETE /api/v1/hf/orders/sync/client-order/{clientOid}?symbol=. */
export const ClientOidSymbolQuery = z.object({ clientOid: ClientOidString, symbol: SymbolString });

/** Path + query of DELETE /api/v1/hf/orders/cancel/{orderId}?symbol=&cancelSize= (KuCoin "Cancel Partial Order"). */
export const CancelPartialQuery = z.object({ orderId: z.string().min(1), symbol: SymbolString, cancelSize: PositiveDecimalString });

/** DELETE /api/v1/hf/orders/cancel/{orderId} `data`: the order and the size cancelled (at most what remained). */
export const CancelPartialResult = z.object({ orderId: z.string(), cancelSize: DecimalString });
/** Type of {@link CancelPartialResult}. */
export type CancelPartialResult = z.infer<typeof CancelPartialResult>;

/**
 * DELETE /api/v1/hf/orders/cancelAll `data` (KuCoin "Cancel All Orders", every symbol): the symbols whose
 * active orders were cancelled and those that failed, each with its error.
 */
export const CancelAllSymbolsResult = z.object({
  succeedSymbols: z.array(z.string()),
  failedSymbols: z.array(z.object({ symbol: z.string(), error: z.string() })),
});
/** Type of {@link CancelAllSymbolsResult}. */
export type CancelAllSymbolsResult = z.infer<typeof CancelAllSymbolsResult>;

/** Query of GET /api/v1/hf/orders/active/page: `symbol`, `pageNum` ≥ 1 (default 1), `pageSize` 1..100 (default 20). */
export const ActiveOrdersPageQuery = z.object({
  symbol: SymbolString,
  pageNum: QueryInt.pipe(z.number().int().min(1, 'must be >= 1')).optional(),
  pageSize: QueryInt.pipe(z.number().int().min(1, 'must be 1..100').max(100, 'must be 1..100')).optional(),
});
/** Input type of {@link ActiveOrdersPageQuery}. */
export type ActiveOrdersPageQuery = z.input<typeof ActiveOrdersPageQuery>;

/** GET /api/v1/hf/orders/active/page `data`: one page of the active HF orders, newest first (creation time). */
export const ActiveOrdersPage = pageOf(HfOrder);
/** Type of {@link ActiveOrdersPage}. */
export type ActiveOrdersPage = z.infer<typeof ActiveOrdersPage>;

/**
 * POST /api/v1/hf/orders/dead-cancel-all body (KuCoin "Set DCP"): `timeout` seconds (−1 unsets; else
 * 5..86400) and `symbols` (comma-separated, at most 50; empty or absent = every symbol). A new call replaces
 * the previous setting.
 */
export const SetDeadCancelRequest = z.object({
  timeout: z.number().int().refine((t) => t === -1 || (t >= 5 && t <= 86_400), 'must be -1 (unset) or 5..86400 seconds'),
  // checked here, kept as sent (a request schema's output is what a client sends): split with deadCancelSymbols
  symbols: z
    .string()
    .optional()
    .superRefine((v, ctx) => {
      const parts = deadCancelSymbols(v);
      if (parts.length > 50) ctx.addIssue({ code: 'custom', message: `at most 50 trading pairs, got ${parts.length}` });
      const bad = parts.find((p) => !SymbolString.safeParse(p).success);
      if (bad !== undefined) ctx.addIssue({ code: 'custom', message: `${JSON.stringify(bad.slice(0, 40))} must be a trading pair like BTC-USDT` });
    }),
});
/** The pairs of a {@link SetDeadCancelRequest}'s `symbols` (comma-separated; empty or absent = none named = every pair). */
export function deadCancelSymbols(symbols: string | undefined): string[] {
  return (symbols ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
}
/** Input type of {@link SetDeadCancelRequest}. */
export type SetDeadCancelRequest = z.input<typeof SetDeadCancelRequest>;

/** POST /api/v1/hf/orders/dead-cancel-all `data`: `currentTime` and `triggerTime` in SECONDS (triggerTime 0 when unset). */
export const SetDeadCancelResult = z.object({ currentTime: z.number().int(), triggerTime: z.number().int() });
/** Type of {@link SetDeadCancelResult}. */
export type SetDeadCancelResult = z.infer<typeof SetDeadCancelResult>;

/**
 * GET /api/v1/hf/orders/dead-cancel-all/query `data` (KuCoin "Get DCP"): `timeout` (s), `symbols`
 * (comma-separated; '' = every symbol), `currentTime` and `triggerTime` (s); `null` when no switch is set.
 */
export const DeadCancelSetting = z
  .object({ timeout: z.number().int(), symbols: z.string(), currentTime: z.number().int(), triggerTime: z.number().int() })
  .nullable();
/** Type of {@link DeadCancelSetting}. */
export type DeadCancelSetting = z.infer<typeof DeadCancelSetting>;
