/**
 * Order-rule validation of KuCoin's stop orders (POST /api/v1/stop-order, KuCoin docs-new "Add Stop Order") and
 * OCO orders (POST /api/v3/oco/order, "Add OCO Order"), on top of THE HF order rules (./orderRules.ts
 * `validateOrder`), so an order document, the market panel's ticket and the extension's placement never disagree.
 *
 * - A **stop order** is an HF order request plus `stopPrice` (required, a positive multiple of priceIncrement) and
 *   `stop` (`loss`: it fires when the last trade price is at or below `stopPrice`; `entry`: at or above; default
 *   `loss`). The order it becomes is checked by `validateOrder`.
 * - An **OCO order** is `symbol`, `side`, `price`, `size`, `stopPrice`, `limitPrice`, `clientOid` (required), `remark`:
 *   two limit legs of `size` — the limit leg at `price` (take profit) and the stop leg at `limitPrice`, fired at
 *   `stopPrice` (stop loss). A sell needs price > stopPrice, a buy price < stopPrice. Each leg is checked by
 *   `validateOrder` as the limit order it becomes; `type` and the HF-only fields are not OCO fields.
 *
 * Which one an object is ({@link orderKind}): `limitPrice` makes it an OCO order, else `stopPrice` or `stop` a stop
 * order, else an HF order. Pure: no `vscode`, no zod (bundled into the market webview and the language server).
 * Amounts are decimal strings checked with ./decimal.ts.
 */
import * as D from './decimal';
import { ORDER_FIELDS, validateOrder, type RuleIssue, type SymbolRules, type ValidateOptions } from './orderRules';

/** What an order object is: an HF order, a stop order or an OCO order. */
export type OrderKind = 'order' | 'stop' | 'oco';

/** The trigger directions of a stop order (KuCoin `stop`): `loss` at or below `stopPrice`, `entry` at or above. */
export const STOP_KINDS = ['loss', 'entry'] as const;
/** The fields a stop order has beyond the HF order's. */
export const STOP_FIELDS = ['stop', 'stopPrice'] as const;
/** The fields of an OCO order, in KuCoin's order. */
export const OCO_FIELDS = ['clientOid', 'symbol', 'side', 'price', 'size', 'stopPrice', 'limitPrice', 'remark'] as const;

const has = (o: Record<string, unknown>, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k) && o[k] !== undefined && o[k] !== null;

/** {@link OrderKind} of an order object (see the module docs). */
export function orderKind(o: Record<string, unknown>): OrderKind {
  if (has(o, 'limitPrice')) return 'oco';
  return has(o, 'stopPrice') || has(o, 'stop') ? 'stop' : 'order';
}

/** The field names an order of `kind` may carry, in wire order. */
export function fieldsOf(kind: OrderKind): readonly string[] {
  return kind === 'oco' ? OCO_FIELDS : kind === 'stop' ? [...ORDER_FIELDS, ...STOP_FIELDS] : ORDER_FIELDS;
}

/**
 * The trigger of a stop (`stop` loss / entry, or an OCO leg's kind `l_*` / `e_*`): `≤` for one that fires at or below
 * its stop price, `≥` for one that fires at or above.
 */
export function triggerSign(stop: string | null | undefined): '≤' | '≥' {
  return stop === 'entry' || (typeof stop === 'string' && stop.startsWith('e_')) ? '≥' : '≤';
}

/**
 * The `stop` that makes a stop order fire when the price MOVES to `stopPrice` from `last` (what a ticket derives
 * instead of asking): `loss` when the trigger is below the last price, `entry` when above; at the last price, or
 * without one, a sell's stop is a loss and a buy's an entry.
 */
export function stopFor(side: 'buy' | 'sell', stopPrice: string, last: string | null): 'loss' | 'entry' {
  const c = last !== null && D.isDecimal(last) && D.isDecimal(stopPrice) ? D.cmp(stopPrice, last) : 0;
  return c < 0 ? 'loss' : c > 0 ? 'entry' : side === 'sell' ? 'loss' : 'entry';
}

/** Checks of a price-like field (stopPrice, limitPrice): a positive decimal string on the tick; returns it or undefined. */
function priceField(order: Record<string, unknown>, f: string, rules: SymbolRules | undefined, err: (code: string, field: string | null, message: string) => void): string | undefined {
  const v = order[f];
  if (!has(order, f)) return undefined;
  if (typeof v === 'number') err('not-decimal-string', f, `"${f}" must be a decimal string ("${String(v)}"), not a JSON number: numbers lose precision.`);
  else if (typeof v !== 'string' || !D.isDecimal(v)) err('not-decimal', f, `"${f}" must be a plain decimal string such as "0.1" (got ${JSON.stringify(v)}).`);
  else if (D.isNegative(v) || D.isZero(v)) err('not-positive', f, `"${f}" must be greater than 0 (got "${v}").`);
  else {
    if (rules && !D.isMultipleOf(v, rules.priceIncrement)) {
      err('price-increment', f, `${f} ${v} is not a multiple of priceIncrement ${rules.priceIncrement} (nearest valid: ${D.roundDown(v, rules.priceIncrement)} or ${D.roundUp(v, rules.priceIncrement)}).`);
    }
    return v;
  }
  return undefined;
}

/**
 * Validate a stop order request (see the module docs).
 * @returns every violation, the order's own ones first (empty when it passes). Never throws.
 */
export function validateStopOrder(order: Record<string, unknown>, options: ValidateOptions = {}): RuleIssue[] {
  const rest: Record<string, unknown> = { ...order };
  for (const f of [...STOP_FIELDS, 'tradeType']) delete rest[f];
  const issues = validateOrder(rest, { symbols: options.symbols });
  const err = (code: string, field: string | null, message: string) => issues.push({ code, field, severity: 'error', message });
  const rules = typeof order.symbol === 'string' ? options.symbols?.get(order.symbol) : undefined;
  // a missing field's issue names that field (a form shows it there; a document anchors it on the order)
  if (!has(order, 'stopPrice')) err('missing-field', 'stopPrice', 'A stop order needs "stopPrice" (the last trade price that fires it).');
  priceField(order, 'stopPrice', rules, err);
  if (has(order, 'stop') && !STOP_KINDS.includes(order.stop as 'loss')) err('invalid-enum', 'stop', '"stop" must be "loss" (fires at or below stopPrice) or "entry" (at or above).');
  if (has(order, 'tradeType') && order.tradeType !== 'TRADE') err('invalid-enum', 'tradeType', '"tradeType" must be "TRADE" (spot).');
  if (options.reportUnknownFields) unknownFields(order, [...fieldsOf('stop'), 'tradeType'], 'a stop order', issues);
  return issues;
}

/**
 * Validate an OCO order request (see the module docs): the required fields, both legs as the limit orders they
 * become (the stop leg's price issues are reported on `limitPrice`), `stopPrice` on the tick and on the right side
 * of `price`.
 * @returns every violation (empty when it passes). Never throws.
 */
export function validateOcoOrder(order: Record<string, unknown>, options: ValidateOptions = {}): RuleIssue[] {
  const issues: RuleIssue[] = [];
  const err = (code: string, field: string | null, message: string) => issues.push({ code, field, severity: 'error', message });
  for (const f of ['symbol', 'side', 'price', 'size', 'stopPrice', 'limitPrice'] as const) {
    if (!has(order, f)) err('missing-field', f, `An OCO order needs "${f}".`);
  }
  if (!has(order, 'clientOid')) err('missing-client-oid', null, 'An OCO order needs a "clientOid" (KuCoin requires one).');
  const leg = (price: unknown): Record<string, unknown> => {
    const o: Record<string, unknown> = { type: 'limit' };
    for (const f of ['clientOid', 'symbol', 'side', 'size', 'remark']) if (has(order, f)) o[f] = order[f];
    if (price !== undefined && price !== null) o.price = price;
    return o;
  };
  // missing fields are reported above, in OCO terms
  const missing = (i: RuleIssue) => i.code === 'limit-missing-price' || i.code === 'limit-missing-size' || i.code === 'missing-field';
  const first = validateOrder(leg(order.price), { symbols: options.symbols }).filter((i) => !missing(i));
  issues.push(...first);
  if (has(order, 'limitPrice')) {
    for (const i of validateOrder(leg(order.limitPrice), { symbols: options.symbols })) {
      if (i.field === 'price') issues.push({ ...i, field: 'limitPrice', message: i.message.replace(/^("?)price/, '$1limitPrice') });
      else if ((i.code === 'min-funds' || i.code === 'funds-max') && !first.some((x) => x.code === i.code)) issues.push({ ...i, message: `stop leg: ${i.message.replace('price × size', 'limitPrice × size')}` });
    }
  }
  const rules = typeof order.symbol === 'string' ? options.symbols?.get(order.symbol) : undefined;
  const stop = priceField(order, 'stopPrice', rules, err);
  const price = typeof order.price === 'string' && D.isDecimal(order.price) ? order.price : undefined;
  if (stop && price && (order.side === 'sell' || order.side === 'buy')) {
    const sell = order.side === 'sell';
    if (sell ? D.cmp(price, stop) <= 0 : D.cmp(price, stop) >= 0) {
      err('oco-price-side', 'price', `A ${order.side} OCO needs price (take profit) ${sell ? 'above' : 'below'} stopPrice (stop loss): ${price} ${sell ? '≤' : '≥'} ${stop}.`);
    }
  }
  if (options.reportUnknownFields) unknownFields(order, OCO_FIELDS, 'an OCO order', issues);
  return issues;
}

/** Warn of every property not in `known` (the exchange ignores it). */
function unknownFields(order: Record<string, unknown>, known: readonly string[], what: string, issues: RuleIssue[]): void {
  for (const k of Object.keys(order)) if (!known.includes(k)) issues.push({ code: 'unknown-field', field: k, severity: 'warning', message: `"${k}" is not a field of ${what}: the exchange ignores it.` });
}

/**
 * Validate `order` as an order of `kind` (a form that knows what it builds: a stop order without its stopPrice yet
 * is still a stop order). Never throws.
 */
export function validateKind(kind: OrderKind, order: Record<string, unknown>, options: ValidateOptions = {}): RuleIssue[] {
  return kind === 'oco' ? validateOcoOrder(order, options) : kind === 'stop' ? validateStopOrder(order, options) : validateOrder(order, options);
}

/** Validate an order object of any kind ({@link orderKind}: what its fields make it) with the rules of its kind. Never throws. */
export function validateAnyOrder(order: Record<string, unknown>, options: ValidateOptions = {}): RuleIssue[] {
  return validateKind(orderKind(order), order, options);
}
