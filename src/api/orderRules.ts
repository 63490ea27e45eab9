/**
 * Order-rule validation of an HF order request (POST /api/v1/hf/orders and /api/v1/hf/orders/test)
 * against the trading rules of its symbol (GET /api/v2/symbols: increments, minimums, maximums).
 *
 * Pure: no `vscode`, no Node APIs, no zod (the field list, enum values, patterns and lengths come from the
 * generated table ./orderFields.ts, itself generated from the zod schema `PlaceOrderRequest`). Used by the
 * request-builder webview, the order documents' diagnostics and the 400100 diagnosis; importable by a language
 * server and by the sandbox. All amounts are decimal strings checked with ./decimal.ts (no floats).
 *
 * Key rule: it reports an error exactly when the sandbox (zod schema + engine) rejects the order for a reason
 * that does not depend on the account; a fast-check property test (test/unit/api/orderRules.engine.test.ts)
 * drives both with random requests. Field semantics follow KuCoin's "Add Order (HF)" request. The sandbox's
 * rules it follows beyond KuCoin's published ones, and each field's semantics: docs/ARCHITECTURE.md
 * "Order rules (`src/api/orderRules.ts`)".
 */
import * as D from './decimal';
import { ORDER_FIELD_SPECS } from './orderFields';
import type { SymbolInfo } from './schemas';

/**
 * The trading rules of one symbol: these fields of the client's {@link SymbolInfo}
 * (GET /api/v2/symbols). All amounts are decimal strings; `minFunds` may be absent/null.
 */
export type SymbolRules = Pick<SymbolInfo, 'symbol' | 'baseIncrement' | 'priceIncrement' | 'quoteIncrement' | 'baseMinSize' | 'quoteMinSize' | 'baseMaxSize' | 'quoteMaxSize'> &
  Partial<Pick<SymbolInfo, 'baseCurrency' | 'quoteCurrency' | 'minFunds' | 'enableTrading'>>;

/**
 * The {@link SymbolRules} of one symbol of GET /api/v2/symbols: exactly those fields (every one,
 * even when absent in `s`), nothing more — what a webview or the language server is given.
 */
export function symbolRules(s: SymbolInfo): SymbolRules {
  return {
    symbol: s.symbol,
    baseCurrency: s.baseCurrency,
    quoteCurrency: s.quoteCurrency,
    baseIncrement: s.baseIncrement,
    priceIncrement: s.priceIncrement,
    quoteIncrement: s.quoteIncrement,
    baseMinSize: s.baseMinSize,
    quoteMinSize: s.quoteMinSize,
    baseMaxSize: s.baseMaxSize,
    quoteMaxSize: s.quoteMaxSize,
    minFunds: s.minFunds,
    enableTrading: s.enableTrading,
  };
}

type Specs = typeof ORDER_FIELD_SPECS;
/** One field name of an HF order request. */
export type OrderField = keyof Specs;
/** The fields of the given kind in the table. */
type FieldsOfKind<K extends Specs[OrderField]['kind']> = { [F in OrderField]: Specs[F]['kind'] extends K ? F : never }[OrderField];
/** The decimal fields (price, size, funds, visibleSize). */
export type DecimalField = FieldsOfKind<'decimal'>;
/** The boolean flags (postOnly, hidden, iceberg). */
export type FlagField = FieldsOfKind<'boolean'>;

/** Field names of an HF order request, in wire order (the order the request builder serializes them). */
export const ORDER_FIELDS = Object.keys(ORDER_FIELD_SPECS) as readonly OrderField[];
/** The decimal fields, in wire order. */
export const DECIMAL_FIELDS = ORDER_FIELDS.filter((f): f is DecimalField => ORDER_FIELD_SPECS[f].kind === 'decimal');
/** The boolean flags, in wire order. */
export const FLAG_FIELDS = ORDER_FIELDS.filter((f): f is FlagField => ORDER_FIELD_SPECS[f].kind === 'boolean');
/** The free-text fields with a maximum length (remark, tags), in wire order. */
export const TEXT_FIELDS = ORDER_FIELDS.filter((f) => ORDER_FIELD_SPECS[f].kind === 'string' && 'maxLength' in ORDER_FIELD_SPECS[f]) as readonly ('remark' | 'tags')[];

/** Allowed `side` values. */
export const SIDES = ORDER_FIELD_SPECS.side.values;
/** Allowed `type` values. */
export const ORDER_TYPES = ORDER_FIELD_SPECS.type.values;
/** Allowed `timeInForce` values (GTC default). */
export const TIME_IN_FORCE = ORDER_FIELD_SPECS.timeInForce.values;
/** Allowed `stp` (self-trade prevention) values besides '' (none). */
export const STP_VALUES = ORDER_FIELD_SPECS.stp.values.filter((v): v is Exclude<typeof v, ''> => v !== '');

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

const SYMBOL_RE = new RegExp(ORDER_FIELD_SPECS.symbol.pattern);
const CLIENT_OID_RE = new RegExp(ORDER_FIELD_SPECS.clientOid.pattern);
const ASCII_RE = /^[\x20-\x7e]*$/;
/** Largest `cancelAfter` (seconds) the sandbox accepts: 2^31 − 1. */
export const MAX_CANCEL_AFTER_S = 2_147_483_647;
/** The fields a market order rejects (the sandbox answers 400100 "... only valid for limit orders"). */
const MARKET_REJECTS = ['postOnly', 'hidden', 'iceberg'] as const satisfies readonly FlagField[];

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
    else if (rules.enableTrading === false) err('trading-disabled', 'symbol', `Trading is disabled for ${order.symbol}: the exchange rejects orders (400600).`);
  }
  if (!has(order, 'side')) err('missing-field', null, 'Missing required field "side" ("buy" or "sell").');
  else if (!isOneOf(order.side, SIDES)) err('invalid-enum', 'side', `"side" must be one of ${quoteList(SIDES)}.`);
  if (!has(order, 'type')) err('missing-field', null, 'Missing required field "type" ("limit" or "market").');
  else if (!isOneOf(order.type, ORDER_TYPES)) err('invalid-enum', 'type', `"type" must be one of ${quoteList(ORDER_TYPES)}.`);
  const type = isOneOf(order.type, ORDER_TYPES) ? order.type : undefined;

  // --- decimal fields ----------------------------------------------------------------------------
  const dec: Partial<Record<DecimalField, string>> = {};
  for (const f of DECIMAL_FIELDS) {
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
    for (const f of ['timeInForce', 'visibleSize'] as const) {
      if (has(order, f)) warn('market-ignored', f, `"${f}" only applies to limit orders and is ignored for market orders.`);
    }
    for (const f of MARKET_REJECTS) {
      if (order[f] === true) err('market-limit-only', f, `"${f}" is only valid for limit orders; the exchange rejects a market order that sets it.`);
    }
    if (order.stp === 'DC' && has(order, 'funds') && !has(order, 'size')) {
      err('market-funds-stp-dc', 'stp', 'stp "DC" (decrease and cancel) is not supported for a market order by funds.');
    }
  }

  // --- symbol rules --------------------------------------------------------------------------------
  if (rules) {
    const base = rules.baseCurrency ?? 'base';
    const quote = rules.quoteCurrency ?? 'quote';
    // a market order's price is ignored (the warning above): only a limit price must be on the grid
    if (dec.price && type !== 'market' && !D.isMultipleOf(dec.price, rules.priceIncrement)) {
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
      // The order value must reach quoteMinSize (the sandbox's rule) and minFunds (KuCoin's): the larger one is named.
      const byMinFunds = !!rules.minFunds && D.isDecimal(rules.minFunds) && D.cmp(rules.minFunds, rules.quoteMinSize) >= 0;
      const [minName, min] = byMinFunds ? ['minFunds', rules.minFunds as string] : ['quoteMinSize', rules.quoteMinSize];
      if (D.cmp(notional, min) < 0) {
        err('min-funds', 'size', `order value price × size = ${notional} ${quote} is below ${minName} ${min}.`);
      }
      if (D.cmp(notional, rules.quoteMaxSize) > 0) {
        err('funds-max', 'size', `order value price × size = ${notional} ${quote} is above quoteMaxSize ${rules.quoteMaxSize}.`);
      }
    }
    // a market order's visibleSize is ignored (warning above)
    if (dec.visibleSize && type !== 'market' && !D.isMultipleOf(dec.visibleSize, rules.baseIncrement)) {
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
    if (typeof ca !== 'number' || !Number.isSafeInteger(ca) || ca < 1 || ca > MAX_CANCEL_AFTER_S) {
      err('cancel-after-invalid', 'cancelAfter', `"cancelAfter" must be a whole number of seconds from 1 to ${MAX_CANCEL_AFTER_S} (or -1: never).`);
    } else if (type === 'market') {
      err('market-cancel-after', 'cancelAfter', '"cancelAfter" is only valid for limit GTT orders.');
    } else if (tif !== 'GTT') {
      err('cancel-after-without-gtt', 'cancelAfter', '"cancelAfter" needs "timeInForce": "GTT".');
    }
  } else if (tif === 'GTT') {
    err('gtt-missing-cancel-after', 'timeInForce', 'timeInForce GTT needs "cancelAfter" (seconds).');
  }
  for (const f of FLAG_FIELDS) {
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
    err('visible-size-without-iceberg', 'visibleSize', '"visibleSize" is only valid for an iceberg order: set "iceberg": true or remove it.');
  }
  if (has(order, 'stp') && order.stp !== '' && !isOneOf(order.stp, STP_VALUES)) err('invalid-enum', 'stp', `"stp" must be one of ${quoteList(STP_VALUES)}.`);

  // --- text fields -----------------------------------------------------------------------------------
  if (has(order, 'clientOid') && (typeof order.clientOid !== 'string' || !CLIENT_OID_RE.test(order.clientOid))) {
    err('client-oid-format', 'clientOid', '"clientOid" must be 1–40 characters of letters, digits, "_" or "-".');
  }
  for (const f of TEXT_FIELDS) {
    if (!has(order, f)) continue;
    const v = order[f];
    const max = ORDER_FIELD_SPECS[f].maxLength;
    if (typeof v !== 'string') err('invalid-type', f, `"${f}" must be a string.`);
    else if (v.length > max) err('text-length', f, `"${f}" is ${v.length} characters; at most ${max} are allowed.`);
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
