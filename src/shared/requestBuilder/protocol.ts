/**
 * The request-builder webview message protocol: one discriminated union per direction, each
 * validated with zod on receipt (`parseToExtension` in the extension, `parseToWebview` in the
 * webview). Nothing secret crosses it: the extension signs, the webview only sees the prehash,
 * the body and redacted KC-API-* headers.
 */
import { z } from 'zod';
import { ORDER_TYPES, SIDES, type OrderField, type SymbolRules } from './orderRules';
import type { Diagnosis } from './diagnose';
import type { PreparedView } from './signatureView';

/**
 * The form's state: every field as typed (strings; booleans for flags). Empty strings mean
 * "not set". `cancelAfter` is whole seconds as a string. Converted to the request body by
 * {@link draftToOrder}.
 */
export const OrderDraftSchema = z.object({
  symbol: z.string().max(40),
  side: z.enum(SIDES),
  type: z.enum(ORDER_TYPES),
  price: z.string().max(80),
  size: z.string().max(80),
  funds: z.string().max(80),
  timeInForce: z.string().max(8),
  cancelAfter: z.string().max(20),
  postOnly: z.boolean(),
  hidden: z.boolean(),
  iceberg: z.boolean(),
  visibleSize: z.string().max(80),
  stp: z.string().max(4),
  clientOid: z.string().max(80),
  remark: z.string().max(200),
  tags: z.string().max(200),
});
/** See {@link OrderDraftSchema}. */
export type OrderDraft = z.infer<typeof OrderDraftSchema>;

/** A fresh draft: limit buy, GTC, everything else empty; `clientOid` supplied by the caller. */
export function emptyDraft(symbol: string, clientOid: string): OrderDraft {
  return {
    symbol, side: 'buy', type: 'limit', price: '', size: '', funds: '', timeInForce: '', cancelAfter: '',
    postOnly: false, hidden: false, iceberg: false, visibleSize: '', stp: '', clientOid, remark: '', tags: '',
  };
}

/**
 * The request body object of a draft: fields in wire order, empty strings and false flags
 * dropped, `cancelAfter` converted to an integer (kept as the raw string when it is not one, so
 * that validation reports it). Market orders drop limit-only fields (price, timeInForce,
 * cancelAfter, postOnly, hidden, iceberg, visibleSize); limit orders drop `funds`.
 */
export function draftToOrder(d: OrderDraft): Record<string, unknown> {
  const market = d.type === 'market';
  const out: Record<string, unknown> = {};
  const put = (k: OrderField, v: unknown) => {
    if (v === '' || v === false || v === undefined) return;
    out[k] = typeof v === 'string' ? v.trim() : v;
  };
  put('clientOid', d.clientOid);
  put('symbol', d.symbol);
  put('side', d.side);
  put('type', d.type);
  if (!market) put('price', d.price);
  put('size', d.size);
  if (market) put('funds', d.funds);
  if (!market) {
    put('timeInForce', d.timeInForce);
    if (d.cancelAfter.trim() !== '') {
      const t = d.cancelAfter.trim();
      out.cancelAfter = /^-?\d{1,12}$/.test(t) ? Number(t) : t;
    }
    put('postOnly', d.postOnly);
    put('hidden', d.hidden);
    put('iceberg', d.iceberg);
    if (d.iceberg) put('visibleSize', d.visibleSize);
  }
  put('stp', d.stp);
  put('remark', d.remark);
  put('tags', d.tags);
  return out;
}

/**
 * A draft from an order object (e.g. one order of a `*.spotorder.json` document): strings are
 * kept, numbers become their decimal text, booleans stay; unknown fields are dropped.
 */
export function orderToDraft(order: Record<string, unknown>, clientOid: string): OrderDraft {
  const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : '');
  const d = emptyDraft(str(order.symbol), str(order.clientOid) || clientOid);
  if (order.side === 'buy' || order.side === 'sell') d.side = order.side;
  if (order.type === 'limit' || order.type === 'market') d.type = order.type;
  for (const k of ['price', 'size', 'funds', 'timeInForce', 'cancelAfter', 'visibleSize', 'stp', 'remark', 'tags'] as const) d[k] = str(order[k]);
  for (const k of ['postOnly', 'hidden', 'iceberg'] as const) d[k] = order[k] === true;
  return d;
}

const SymbolRulesSchema = z.object({
  symbol: z.string(),
  baseCurrency: z.string().optional(),
  quoteCurrency: z.string().optional(),
  baseIncrement: z.string(),
  priceIncrement: z.string(),
  quoteIncrement: z.string(),
  baseMinSize: z.string(),
  quoteMinSize: z.string(),
  baseMaxSize: z.string(),
  quoteMaxSize: z.string(),
  minFunds: z.string().nullable().optional(),
  enableTrading: z.boolean().optional(),
}) satisfies z.ZodType<SymbolRules>;

const PreparedViewSchema = z.object({
  method: z.string(),
  url: z.string(),
  pathWithRawQuery: z.string(),
  body: z.string(),
  prehash: z.string(),
  headers: z.record(z.string(), z.string()),
  timestamp: z.string(),
  keyVersion: z.string(),
  clockOffsetMs: z.number().nullable(),
  measuredOffsetMs: z.number().optional(),
}) satisfies z.ZodType<PreparedView>;

const DiagnosisSchema = z.object({
  title: z.string(),
  severity: z.enum(['ok', 'error', 'warning']),
  details: z.array(z.string()),
  field: z.string().optional(),
}) satisfies z.ZodType<Diagnosis>;

const RuleIssueSchema = z.object({
  code: z.string(),
  field: z.string().nullable(),
  severity: z.enum(['error', 'warning']),
  message: z.string(),
});

/** Messages from the webview to the extension. */
export const ToExtensionSchema = z.discriminatedUnion('type', [
  /** The webview script has loaded and wants `init`. */
  z.object({ type: z.literal('ready') }),
  /** The form changed: re-sign for the preview. */
  z.object({ type: z.literal('draft'), draft: OrderDraftSchema, seq: z.number().int().optional() }),
  /** "Run order test": POST /api/v1/hf/orders/test with this draft. */
  z.object({ type: z.literal('runTest'), draft: OrderDraftSchema }),
  /** "Place order": POST /api/v1/hf/orders after a modal confirmation in the extension. */
  z.object({ type: z.literal('place'), draft: OrderDraftSchema }),
  /** "Copy as curl"; `includeSecrets` asks the extension to confirm and include real credentials. */
  z.object({ type: z.literal('copyCurl'), draft: OrderDraftSchema, includeSecrets: z.boolean() }),
  /** Reload the symbol list (GET /api/v2/symbols). */
  z.object({ type: z.literal('reloadSymbols') }),
]);
/** See {@link ToExtensionSchema}. */
export type ToExtension = z.infer<typeof ToExtensionSchema>;

/** Rate-limit headers of a response (gw-ratelimit-limit / -remaining / -reset), as received. */
export const RateLimitSchema = z.object({
  limit: z.string().optional(),
  remaining: z.string().optional(),
  reset: z.string().optional(),
});

/** Result of an order test or placement as shown in the panel. */
export const RunResultSchema = z.object({
  kind: z.enum(['test', 'place']),
  status: z.number(),
  code: z.string().optional(),
  /** Response body text (pretty-printed JSON when it parsed). */
  body: z.string(),
  latencyMs: z.number(),
  rateLimit: RateLimitSchema,
  diagnosis: DiagnosisSchema,
  /** What was signed and sent for this run. */
  prepared: PreparedViewSchema,
});
/** See {@link RunResultSchema}. */
export type RunResult = z.infer<typeof RunResultSchema>;

/** Messages from the extension to the webview. */
export const ToWebviewSchema = z.discriminatedUnion('type', [
  /** Initial state: symbols with their rules, the draft and the active profile. */
  z.object({
    type: z.literal('init'),
    symbols: z.array(SymbolRulesSchema),
    draft: OrderDraftSchema,
    profile: z.object({ name: z.string(), sandbox: z.boolean() }),
    symbolsError: z.string().optional(),
    /** True when `draft` must replace the webview's saved draft (opened from an order document). */
    replaceDraft: z.boolean(),
  }),
  /** The signed preview of the current draft (or why it could not be signed). */
  z.object({
    type: z.literal('preview'),
    /** Echo of the `draft` message's `seq`, so the webview can drop stale previews. */
    seq: z.number().int().optional(),
    prepared: PreparedViewSchema.nullable(),
    error: z.string().optional(),
    issues: z.array(RuleIssueSchema),
  }),
  /** A test / placement finished. */
  z.object({ type: z.literal('result'), result: RunResultSchema }),
  /** A request is in flight (buttons disabled) or done. */
  z.object({ type: z.literal('busy'), busy: z.boolean() }),
  /** A message for the status line (e.g. "curl copied", "placement cancelled"). */
  z.object({ type: z.literal('notice'), level: z.enum(['info', 'error']), message: z.string() }),
]);
/** See {@link ToWebviewSchema}. */
export type ToWebview = z.infer<typeof ToWebviewSchema>;

/** Validate a message received by the extension; undefined when it does not match the protocol. */
export function parseToExtension(msg: unknown): ToExtension | undefined {
  const r = ToExtensionSchema.safeParse(msg);
  return r.success ? r.data : undefined;
}

/** Validate a message received by the webview; undefined when it does not match the protocol. */
export function parseToWebview(msg: unknown): ToWebview | undefined {
  const r = ToWebviewSchema.safeParse(msg);
  return r.success ? r.data : undefined;
}
