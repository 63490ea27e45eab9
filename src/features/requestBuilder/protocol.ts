/**
 * The request-builder webview message protocol, declared once for both sides with the shared
 * protocol style (src/webviewBridge/protocol.ts, zod-free so the webview bundle stays small):
 * `REQUEST_BUILDER_PROTOCOL.parseToWebview` in the webview, `parseToHost` in the extension's
 * webview host. Nothing secret crosses it: the extension signs, the webview only sees the prehash,
 * the body and redacted KC-API-* headers.
 */
import * as v from '../../webviewBridge/validate';
import { defineProtocol, type MessageOf } from '../../webviewBridge/protocol';
import { ORDER_FIELD_SPECS, type OrderFieldSpec } from '../../api/orderFields';
import { ORDER_FIELDS, type FlagField, type OrderField, type RuleIssue, type SymbolRules } from '../../api/orderRules';
import type { Diagnosis } from './model/diagnose';
import type { PreparedView } from './model/signatureView';

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
function draftField(f: OrderField): v.Schema<unknown> {
  const spec: OrderFieldSpec = ORDER_FIELD_SPECS[f];
  if (spec.kind === 'boolean') return v.boolean();
  if (spec.kind === 'enum' && spec.required && spec.values) return v.oneOf(spec.values);
  return v.string({ max: DRAFT_TEXT_MAX });
}

/**
 * Validator of an {@link OrderDraft}: built from the same field table, so a field added to the
 * order schema is part of the draft without an edit here. (The object is built field by field,
 * which the schema types cannot follow; its output is exactly OrderDraft by construction of `draftField`.)
 */
export const OrderDraftSchema = v.object(Object.fromEntries(ORDER_FIELDS.map((f) => [f, draftField(f)]))) as unknown as v.Schema<OrderDraft>;

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

const text = (max = 1000) => v.string({ max });
const optText = (max = 1000) => v.optional(text(max));

const SymbolRulesSchema: v.Schema<SymbolRules> = v.object({
  symbol: text(40),
  baseCurrency: optText(40),
  quoteCurrency: optText(40),
  baseIncrement: text(80),
  priceIncrement: text(80),
  quoteIncrement: text(80),
  baseMinSize: text(80),
  quoteMinSize: text(80),
  baseMaxSize: text(80),
  quoteMaxSize: text(80),
  minFunds: v.optional(v.nullable(text(80))),
  enableTrading: v.optional(v.boolean()),
});

const PreparedViewSchema: v.Schema<PreparedView> = v.object({
  method: text(10),
  url: text(2000),
  pathWithRawQuery: text(2000),
  body: text(20_000),
  prehash: text(25_000),
  headers: v.record(text(2000), { maxKeys: 50 }),
  timestamp: text(40),
  keyVersion: text(10),
  clockOffsetMs: v.nullable(v.number()),
  measuredOffsetMs: v.optional(v.number()),
});

const DiagnosisSchema: v.Schema<Diagnosis> = v.object({
  title: text(),
  severity: v.oneOf(['ok', 'error', 'warning'] as const),
  details: v.array(text(5000), { max: 100 }),
  field: optText(40),
});

const RuleIssueSchema: v.Schema<RuleIssue> = v.object({
  code: text(80),
  field: v.nullable(text(40)),
  severity: v.oneOf(['error', 'warning'] as const),
  message: text(),
});

/** Rate-limit headers of a response (gw-ratelimit-limit / -remaining / -reset), as received. */
export const RateLimitSchema = v.object({
  limit: optText(40),
  remaining: optText(40),
  reset: optText(40),
});

/**
 * The request builder's "Experiment" (sandbox profiles only; the extension refuses it elsewhere): sign
 * ONE order test wrongly on purpose, to see the exchange's answer and SpotDesk's diagnosis — a
 * timestamp offset (ms, ±10 min; beyond ±5 s KuCoin answers 400002), another KC-API-KEY-VERSION, or
 * the passphrase in plain text / HMAC whatever the key version (400004). Absent fields are not changed.
 */
export const ExperimentSchema = v.object({
  timestampOffsetMs: v.optional(v.number({ int: true, min: -600_000, max: 600_000 })),
  keyVersion: v.optional(v.oneOf(['1', '2', '3'] as const)),
  passphraseEncoding: v.optional(v.oneOf(['plain', 'hmac'] as const)),
});
/** See {@link ExperimentSchema}. */
export type Experiment = v.Infer<typeof ExperimentSchema>;

/** Whether `e` changes anything (an empty experiment is a normal run). */
export function isExperiment(e: Experiment | undefined): e is Experiment {
  return !!e && (e.timestampOffsetMs !== undefined || e.keyVersion !== undefined || e.passphraseEncoding !== undefined);
}

/** Result of an order test or placement as shown in the panel. */
export const RunResultSchema = v.object({
  kind: v.oneOf(['test', 'place'] as const),
  status: v.number({ int: true }),
  code: optText(40),
  /** Response body text (pretty-printed JSON when it parsed). */
  body: text(200_000),
  latencyMs: v.number(),
  rateLimit: RateLimitSchema,
  diagnosis: DiagnosisSchema,
  /** What was signed and sent for this run. */
  prepared: PreparedViewSchema,
  /** The experiment this run signed with, when it was one (the panel marks the result as such). */
  experiment: v.optional(ExperimentSchema),
});
/** See {@link RunResultSchema}. */
export type RunResult = v.Infer<typeof RunResultSchema>;

/** The request builder's protocol: each message declared once, for both sides. */
export const REQUEST_BUILDER_PROTOCOL = defineProtocol({
  toWebview: {
    /** Initial state: symbols with their rules, the draft and the active profile. */
    init: v.object({
      symbols: v.array(SymbolRulesSchema, { max: 5000 }),
      draft: OrderDraftSchema,
      profile: v.object({ name: text(200), sandbox: v.boolean() }),
      symbolsError: optText(),
      /** True when `draft` must replace the webview's saved draft (opened from an order document). */
      replaceDraft: v.boolean(),
      /** True when the active profile changed: the shown result and preview belong to another exchange. */
      profileChanged: v.optional(v.boolean()),
    }),
    /** The signed preview of the current draft (or why it could not be signed). */
    preview: v.object({
      /** Echo of the `draft` message's `seq`, so the webview can drop stale previews. */
      seq: v.optional(v.number({ int: true })),
      prepared: v.nullable(PreparedViewSchema),
      error: optText(),
      issues: v.array(RuleIssueSchema, { max: 200 }),
    }),
    /** A test / placement finished. */
    result: v.object({ result: RunResultSchema }),
    /** A request is in flight (buttons disabled) or done. */
    busy: v.object({ busy: v.boolean() }),
    /** A message for the status line (e.g. "curl copied", "placement cancelled"). */
    notice: v.object({ level: v.oneOf(['info', 'error'] as const), message: text() }),
    /** A keyboard shortcut asked for a button's action: the webview acts as if it was clicked (a disabled button does nothing). */
    trigger: v.object({ action: v.oneOf(['runTest', 'place'] as const) }),
  },
  toHost: {
    /** The webview script has loaded and wants `init`. */
    ready: v.object({}),
    /** The form changed: re-sign for the preview. */
    draft: v.object({ draft: OrderDraftSchema, seq: v.optional(v.number({ int: true })) }),
    /** "Run order test": POST /api/v1/hf/orders/test with this draft (signed wrongly on purpose with `experiment`: sandbox only). */
    runTest: v.object({ draft: OrderDraftSchema, experiment: v.optional(ExperimentSchema) }),
    /** "Place order": POST /api/v1/hf/orders after a modal confirmation in the extension. */
    place: v.object({ draft: OrderDraftSchema }),
    /** "Copy as curl"; `includeSecrets` asks the extension to confirm and include real credentials. */
    copyCurl: v.object({ draft: OrderDraftSchema, includeSecrets: v.boolean() }),
    /** Reload the symbol list (GET /api/v2/symbols). */
    reloadSymbols: v.object({}),
  },
});

/** Messages from the webview to the extension. */
export type ToHost = MessageOf<typeof REQUEST_BUILDER_PROTOCOL.toHost>;
/** Messages from the extension to the webview. */
export type ToWebview = MessageOf<typeof REQUEST_BUILDER_PROTOCOL.toWebview>;
