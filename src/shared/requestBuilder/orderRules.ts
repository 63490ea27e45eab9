/**
 * Order-rule validation of an HF order request (POST /api/v1/hf/orders and /api/v1/hf/orders/test)
 * against the trading rules of its symbol (GET /api/v2/symbols: increments, minimums, maximums).
 *
 * Pure and `vscode`-free: used by the request-builder webview (live validation next to each
 * field), by the extension (order documents `*.spotorder.json` diagnostics) and by the 400100
 * diagnosis. All amounts are decimal strings checked with `src/api/decimal.ts` (no floats).
 *
 * Field semantics follow KuCoin's "Add Order (HF)" request (the spec says "not shown" for the
 * placement fields, so the real KuCoin API is the reference): `limit` needs `price` and `size`;
 * `market` takes exactly one of `size` (base) or `funds` (quote); `cancelAfter` (seconds) only
 * with `timeInForce: "GTT"` (which requires it); `postOnly` is disabled for IOC/FOK; `clientOid` ≤ 40 chars of
 * `[A-Za-z0-9_-]`; `remark` and `tags` ≤ 20 ASCII characters.
 */
import * as D from '../../api/decimal';

/**
 * The trading rules of one symbol, a structural subset of the client's `SymbolInfo`
 * (GET /api/v2/symbols). All amounts are decimal strings; `minFunds` may be absent/null.
 */
export interface SymbolRules {
  symbol: string;
  baseCurrency?: string;
  quoteCurrency?: string;
  baseIncrement: string;
  priceIncrement: string;
  quoteIncrement: string;
  baseMinSize: string;
  quoteMinSize: string;
  baseMaxSize: string;
  quoteMaxSize: string;
  minFunds?: string | null;
  enableTrading?: boolean;
}

/** Field names of an HF order request, in the order the request builder serializes them. */
export const ORDER_FIELDS = [
  'clientOid',
  'symbol',
  'side',
  'type',
  'price',
  'size',
  'funds',
  'timeInForce',
  'cancelAfter',
  'postOnly',
  'hidden',
  'iceberg',
  'visibleSize',
  'stp',
  'remark',
  'tags',
] as const;

/** One field name of {@link ORDER_FIELDS}. */
export type OrderField = (typeof ORDER_FIELDS)[number];

/** Allowed `side` values. */
export const SIDES = ['buy', 'sell'] as const;
/** Allowed `type` values. */
export const ORDER_TYPES = ['limit', 'market'] as const;
/** Allowed `timeInForce` values (GTC default). */
export const TIME_IN_FORCE = ['GTC', 'GTT', 'IOC', 'FOK'] as const;
/** Allowed `stp` (self-trade prevention) values. */
export const STP_VALUES = ['DC', 'CO', 'CN', 'CB'] as const;

/** Severity of a rule violation: errors make the exchange reject the order, warnings are ignored fields. */
export type RuleSeverity = 'error' | 'warning';

/**
 * One rule violation. `field` is the property at fault (where a diagnostic is anchored); when the
 * property is absent from the order (e.g. a missing `price`), `field` names the property that
 * requires it (e.g. `type`) or is `null` for the whole order.
 */
export interface RuleIssue {
  /** Stable identifier, e.g. `price-increment`, `size-min`, `market-size-and-funds`. */
  code: string;
  field: string | null;
  severity: RuleSeverity;
  message: string;
}

/** Options of {@link validateOrder}. */
export interface ValidateOptions {
  /**
   * Rules of every known symbol, keyed by symbol. When given, a symbol absent from it is
   * reported as `unknown-symbol`; when undefined the symbol list is not known yet and only the
   * symbol-independent checks run.
   */
  symbols?: ReadonlyMap<string, SymbolRules>;
  /** Report properties that are not HF order fields (order documents: yes; webview: no). */
  reportUnknownFields?: boolean;
}

const SYMBOL_RE = /^[A-Za-z0-9]{1,20}-[A-Za-z0-9]{1,20}$/;
const CLIENT_OID_RE = /^[A-Za-z0-9_-]{1,40}$/;
const ASCII_RE = /^[\x20-\x7e]*$/;

function has(o: Record<string, unknown>, k: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, k) && o[k] !== undefined && o[k] !== null;
}

function isOneOf<T extends string>(v: unknown, values: readonly T[]): v is T {
  return typeof v === 'string' && (values as readonly string[]).includes(v);
}

function quoteList(values: readonly string[]): string {
  return values.map((v) => `"${v}"`).join(', ');
}

/**
 * Validate one HF order request object against the symbol's rules.
 *
 * @param order the request body as a plain object (values as sent: decimal strings for amounts,
 *   booleans for flags, an integer for `cancelAfter` in seconds).
 * @param options symbol rules and reporting switches, see {@link ValidateOptions}.
 * @returns every violation found, in field order (empty when the order passes). Never throws.
 */
export function validateOrder(order: Record<string, unknown>, options: ValidateOptions = {}): RuleIssue[] {
  const issues: RuleIssue[] = [];
  const err = (code: string, field: string | null, message: string) => issues.push({ code, field, severity: 'error', message });
  const warn = (code: string, field: string | null, message: string) => issues.push({ code, field, severity: 'warning', message });

  // --- required identity fields -------------------------------------------------------------
  let rules: SymbolRules | undefined;
  if (!has(order, 'symbol')) err('missing-field', null, 'Missing required field "symbol" (e.g. "BTC-USDT").');
  else if (typeof order.symbol !== 'string' || !SYMBOL_RE.test(order.symbol)) err('invalid-symbol', 'symbol', '"symbol" must be a trading pair such as "BTC-USDT".');
  else if (options.symbols) {
    rules = options.symbols.get(order.symbol);
    if (!rules) err('unknown-symbol', 'symbol', `Unknown symbol "${order.symbol}": not listed by GET /api/v2/symbols.`);
    else if (rules.enableTrading === false) warn('trading-disabled', 'symbol', `Trading is disabled for ${order.symbol}.`);
  }
  if (!has(order, 'side')) err('missing-field', null, 'Missing required field "side" ("buy" or "sell").');
  else if (!isOneOf(order.side, SIDES)) err('invalid-enum', 'side', `"side" must be one of ${quoteList(SIDES)}.`);
  if (!has(order, 'type')) err('missing-field', null, 'Missing required field "type" ("limit" or "market").');
  else if (!isOneOf(order.type, ORDER_TYPES)) err('invalid-enum', 'type', `"type" must be one of ${quoteList(ORDER_TYPES)}.`);
  const type = isOneOf(order.type, ORDER_TYPES) ? order.type : undefined;

  // --- decimal fields ----------------------------------------------------------------------------
  const dec: Partial<Record<'price' | 'size' | 'funds' | 'visibleSize', string>> = {};
  for (const f of ['price', 'size', 'funds', 'visibleSize'] as const) {
    if (!has(order, f)) continue;
    const v = order[f];
    if (typeof v === 'number') {
      err('not-decimal-string', f, `"${f}" must be a decimal string ("${String(v)}"), not a JSON number: numbers lose precision.`);
    } else if (typeof v !== 'string' || !D.isDecimal(v)) {
      err('not-decimal', f, `"${f}" must be a plain decimal string such as "0.1" (got ${JSON.stringify(v)}).`);
    } else if (D.isNegative(v) || D.isZero(v)) {
      err('not-positive', f, `"${f}" must be greater than 0 (got "${v}").`);
    } else {
      dec[f] = v;
    }
  }

  // --- type-dependent presence -------------------------------------------------------------------
  if (type === 'limit') {
    if (!has(order, 'price')) err('limit-missing-price', 'type', 'A limit order needs "price".');
    if (!has(order, 'size')) err('limit-missing-size', 'type', 'A limit order needs "size".');
    if (has(order, 'funds')) err('limit-funds', 'funds', '"funds" is only for market orders; a limit order uses "price" and "size".');
  } else if (type === 'market') {
    if (has(order, 'size') && has(order, 'funds')) {
      err('market-size-and-funds', 'funds', 'A market order takes either "size" or "funds", not both.');
    } else if (!has(order, 'size') && !has(order, 'funds')) {
      err('market-missing-amount', 'type', 'A market order needs "size" (base amount) or "funds" (quote amount).');
    }
    if (has(order, 'price')) warn('market-price', 'price', '"price" is ignored for market orders.');
    for (const f of ['timeInForce', 'postOnly', 'hidden', 'visibleSize'] as const) {
      if (has(order, f)) warn('market-ignored', f, `"${f}" only applies to limit orders and is ignored for market orders.`);
    }
  }

  // --- symbol rules --------------------------------------------------------------------------------
  if (rules) {
    const base = rules.baseCurrency ?? 'base';
    const quote = rules.quoteCurrency ?? 'quote';
    if (dec.price && !D.isMultipleOf(dec.price, rules.priceIncrement)) {
      const lo = D.roundDown(dec.price, rules.priceIncrement);
      const hi = D.roundUp(dec.price, rules.priceIncrement);
      err('price-increment', 'price', `price ${dec.price} is not a multiple of priceIncrement ${rules.priceIncrement} (nearest valid: ${lo} or ${hi}).`);
    }
    if (dec.size) {
      if (!D.isMultipleOf(dec.size, rules.baseIncrement)) {
        err('size-increment', 'size', `size ${dec.size} is not a multiple of baseIncrement ${rules.baseIncrement} (round down to ${D.roundDown(dec.size, rules.baseIncrement)}).`);
      }
      if (D.cmp(dec.size, rules.baseMinSize) < 0) err('size-min', 'size', `size ${dec.size} ${base} is below baseMinSize ${rules.baseMinSize}.`);
      if (D.cmp(dec.size, rules.baseMaxSize) > 0) err('size-max', 'size', `size ${dec.size} ${base} is above baseMaxSize ${rules.baseMaxSize}.`);
    }
    if (dec.funds && type !== 'limit') {
      if (!D.isMultipleOf(dec.funds, rules.quoteIncrement)) {
        err('funds-increment', 'funds', `funds ${dec.funds} is not a multiple of quoteIncrement ${rules.quoteIncrement} (round down to ${D.roundDown(dec.funds, rules.quoteIncrement)}).`);
      }
      if (D.cmp(dec.funds, rules.quoteMinSize) < 0) err('funds-min', 'funds', `funds ${dec.funds} ${quote} is below quoteMinSize ${rules.quoteMinSize}.`);
      if (D.cmp(dec.funds, rules.quoteMaxSize) > 0) err('funds-max', 'funds', `funds ${dec.funds} ${quote} is above quoteMaxSize ${rules.quoteMaxSize}.`);
    }
    if (type === 'limit' && dec.price && dec.size) {
      const notional = D.mul(dec.price, dec.size);
      if (rules.minFunds && D.isDecimal(rules.minFunds) && D.cmp(notional, rules.minFunds) < 0) {
        err('min-funds', 'size', `order value price × size = ${notional} ${quote} is below minFunds ${rules.minFunds}.`);
      }
      if (D.cmp(notional, rules.quoteMaxSize) > 0) {
        err('funds-max', 'size', `order value price × size = ${notional} ${quote} is above quoteMaxSize ${rules.quoteMaxSize}.`);
      }
    }
    if (dec.visibleSize && !D.isMultipleOf(dec.visibleSize, rules.baseIncrement)) {
      err('visible-size-increment', 'visibleSize', `visibleSize ${dec.visibleSize} is not a multiple of baseIncrement ${rules.baseIncrement}.`);
    }
  }

  // --- time in force, flags --------------------------------------------------------------------------
  if (has(order, 'timeInForce') && !isOneOf(order.timeInForce, TIME_IN_FORCE)) {
    err('invalid-enum', 'timeInForce', `"timeInForce" must be one of ${quoteList(TIME_IN_FORCE)}.`);
  }
  const tif = isOneOf(order.timeInForce, TIME_IN_FORCE) ? order.timeInForce : 'GTC';
  // cancelAfter -1 is KuCoin's "never cancel automatically" default: the same as absent.
  const cancelAfterSet = has(order, 'cancelAfter') && order.cancelAfter !== -1;
  if (cancelAfterSet) {
    const ca = order.cancelAfter;
    if (typeof ca !== 'number' || !Number.isSafeInteger(ca) || ca < 1) {
      err('cancel-after-invalid', 'cancelAfter', '"cancelAfter" must be a whole number of seconds ≥ 1 (or -1: never).');
    } else if (tif !== 'GTT') {
      err('cancel-after-without-gtt', 'cancelAfter', '"cancelAfter" needs "timeInForce": "GTT".');
    }
  } else if (tif === 'GTT') {
    err('gtt-missing-cancel-after', 'timeInForce', 'timeInForce GTT needs "cancelAfter" (seconds).');
  }
  for (const f of ['postOnly', 'hidden', 'iceberg'] as const) {
    if (has(order, f) && typeof order[f] !== 'boolean') err('invalid-type', f, `"${f}" must be true or false.`);
  }
  if (order.postOnly === true && (tif === 'IOC' || tif === 'FOK')) {
    err('post-only-tif', 'postOnly', `"postOnly" cannot be combined with timeInForce ${tif}.`);
  }
  if (order.hidden === true && order.iceberg === true) err('hidden-and-iceberg', 'iceberg', 'An order cannot be both "hidden" and "iceberg".');
  if (order.iceberg === true) {
    if (!has(order, 'visibleSize')) err('iceberg-missing-visible-size', 'iceberg', 'An iceberg order needs "visibleSize".');
    else if (dec.visibleSize && dec.size && D.cmp(dec.visibleSize, dec.size) > 0) {
      err('visible-size-above-size', 'visibleSize', `visibleSize ${dec.visibleSize} is larger than size ${dec.size}.`);
    }
  } else if (has(order, 'visibleSize') && type !== 'market') {
    warn('visible-size-without-iceberg', 'visibleSize', '"visibleSize" is ignored unless "iceberg" is true.');
  }
  if (has(order, 'stp') && order.stp !== '' && !isOneOf(order.stp, STP_VALUES)) err('invalid-enum', 'stp', `"stp" must be one of ${quoteList(STP_VALUES)}.`);

  // --- text fields -----------------------------------------------------------------------------------
  if (has(order, 'clientOid') && (typeof order.clientOid !== 'string' || !CLIENT_OID_RE.test(order.clientOid))) {
    err('client-oid-format', 'clientOid', '"clientOid" must be 1–40 characters of letters, digits, "_" or "-".');
  }
  for (const f of ['remark', 'tags'] as const) {
    if (!has(order, f)) continue;
    const v = order[f];
    if (typeof v !== 'string') err('invalid-type', f, `"${f}" must be a string.`);
    else if (v.length > 20) err('text-length', f, `"${f}" is ${v.length} characters; at most 20 are allowed.`);
    else if (!ASCII_RE.test(v)) warn('text-ascii', f, `"${f}" should be printable ASCII text (KuCoin counts ASCII characters).`);
  }

  if (options.reportUnknownFields) {
    for (const k of Object.keys(order)) {
      if (!(ORDER_FIELDS as readonly string[]).includes(k)) warn('unknown-field', k, `"${k}" is not an HF order field.`);
    }
  }
  return issues;
}

/**
 * The first error issue attached to a field named in an exchange message, used for 400100
 * ("the field at fault"). Returns the first error of any field when `fieldHint` is undefined.
 */
export function firstErrorFor(issues: readonly RuleIssue[], fieldHint?: string): RuleIssue | undefined {
  const errors = issues.filter((i) => i.severity === 'error');
  return (fieldHint ? errors.find((i) => i.field === fieldHint) : undefined) ?? errors[0];
}
