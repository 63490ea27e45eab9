/**
 * The request-builder webview message protocol: one discriminated union per direction, each
 * validated with zod on receipt (`parseToExtension` in the extension, `parseToWebview` in the
 * webview). Nothing secret crosses it: the extension signs, the webview only sees the prehash,
 * the body and redacted KC-API-* headers.
 */
import { z } from 'zod';
import { ORDER_FIELD_SPECS, type OrderFieldSpec } from '../../api/orderFields';
import { ORDER_FIELDS, type FlagField, type OrderField, type SymbolRules } from '../../api/orderRules';
import type { Diagnosis } from './diagnose';
import type { PreparedView } from './signatureView';

type Specs = typeof ORDER_FIELD_SPECS;
/** The fields the form keeps as an enum value (the required enums: side, type). */
type EnumDraftField = { [F in OrderField]: Specs[F] extends { kind: 'enum'; required: true } ? F : never }[OrderField];

/**
 * The form's state: one entry per order-request field (src/api/orderFields.ts, generated from the
 * zod schema `PlaceOrderRequest`): the boolean flags as booleans, the required enums (side, type)
 * as their values, every other field as typed text. Empty strings mean "not set"; `cancelAfter` is
 * whole seconds as a string. Converted to the request body by {@link draftToOrder}.
 */
export type OrderDraft = {
  [F in OrderField]: F extends FlagField ? boolean : F extends EnumDraftField ? Specs[F]['values'][number] : string;
};

/** Longest text the form sends for one field (bounds the message; the rules report over-long values). */
export const DRAFT_TEXT_MAX = 200;

/** Validator of one draft field, by the field's kind in the table. */
function draftField(f: OrderField): z.ZodType {
  const spec: OrderFieldSpec = ORDER_FIELD_SPECS[f];
  if (spec.kind === 'boolean') return z.boolean();
  if (spec.kind === 'enum' && spec.required && spec.values) return z.enum(spec.values as [string, ...string[]]);
  return z.string().max(DRAFT_TEXT_MAX);
}

/**
 * Validator of an {@link OrderDraft}: built from the same field table, so a field added to the
 * order schema is part of the draft without an edit here. (The object is built field by field,
 * which zod cannot type; its output is exactly OrderDraft by construction of `draftField`.)
 */
export const OrderDraftSchema = z.object(Object.fromEntries(ORDER_FIELDS.map((f) => [f, draftField(f)]))) as unknown as z.ZodType<OrderDraft>;

/** A fresh draft: limit buy, GTC, everything else empty; `clientOid` supplied by the caller. */
export function emptyDraft(symbol: string, clientOid: string): OrderDraft {
  const d: Record<string, unknown> = {};
  for (const f of ORDER_FIELDS) {
    const spec: OrderFieldSpec = ORDER_FIELD_SPECS[f];
    d[f] = spec.kind === 'boolean' ? false : spec.kind === 'enum' && spec.required && spec.values ? spec.values[0] : '';
  }
  return { ...(d as OrderDraft), symbol, clientOid };
}

/** The fields a market draft drops (they only apply to limit orders). */
const LIMIT_ONLY: ReadonlySet<OrderField> = new Set<OrderField>(['price', 'timeInForce', 'cancelAfter', 'postOnly', 'hidden', 'iceberg', 'visibleSize']);

/**
 * The request body object of a draft: fields in wire order, empty strings and false flags
 * dropped, integer fields (`cancelAfter`) converted to a number (kept as the raw string when it is
 * not one, so that validation reports it). Market orders drop limit-only fields (price,
 * timeInForce, cancelAfter, postOnly, hidden, iceberg, visibleSize); limit orders drop `funds`;
 * `visibleSize` is sent only with `iceberg`.
 */
export function draftToOrder(d: OrderDraft): Record<string, unknown> {
  const market = d.type === 'market';
  const out: Record<string, unknown> = {};
  for (const f of ORDER_FIELDS) {
    if (market ? LIMIT_ONLY.has(f) : f === 'funds') continue;
    if (f === 'visibleSize' && !d.iceberg) continue;
    const v = d[f];
    if (ORDER_FIELD_SPECS[f].kind === 'integer' && typeof v === 'string') {
      const t = v.trim();
      if (t !== '') out[f] = /^-?\d{1,12}$/.test(t) ? Number(t) : t;
      continue;
    }
    if (v === '' || v === false) continue;
    out[f] = typeof v === 'string' ? v.trim() : v;
  }
  return out;
}

/**
 * A draft from an order object (e.g. one order of a `*.spotorder.json` document): strings are
 * kept, numbers become their decimal text, booleans stay; unknown fields are dropped.
 */
export function orderToDraft(order: Record<string, unknown>, clientOid: string): OrderDraft {
  const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : '');
  const d: Record<string, unknown> = emptyDraft(str(order.symbol), str(order.clientOid) || clientOid);
  for (const f of ORDER_FIELDS) {
    if (f === 'symbol' || f === 'clientOid') continue;
    const spec: OrderFieldSpec = ORDER_FIELD_SPECS[f];
    const v = order[f];
    if (spec.kind === 'boolean') d[f] = v === true;
    else if (spec.kind === 'enum' && spec.required && spec.values) {
      if (typeof v === 'string' && spec.values.includes(v)) d[f] = v;
    } else d[f] = str(v);
  }
  return d as OrderDraft;
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
