/**
 * Hot-path request validators of the sandbox, equivalent to the zod request schemas of
 * src/api/schemas.ts for the inputs they accept (the pattern of `fastLevel2Book` in src/api).
 *
 * A fast validator returns the parsed parameters — the same object, key for key and in the same
 * order, as the schema's `safeParse(v).data` — or `undefined` when it is not sure: the pipeline
 * then runs the zod schema, which stays the validator of record and produces the "field: why"
 * error. So a fast validator may only ever accept a SUBSET of what the schema accepts, with the
 * same output; test/unit/server/fastparams.test.ts checks this on random near-valid bodies.
 *
 * Only JSON-decoded plain objects (prototype `Object.prototype`) take the fast path; anything else
 * (arrays, class instances, `undefined` values, unsafe integers, over-long strings whose code-point
 * count would need counting) falls back to zod.
 */
import type { EndpointName, ParsedParamsOf } from '../../api/endpoints';
import { ORDER_FIELD_SPECS } from '../../api/orderFields';
import * as S from '../../api/schemas';

/** A fast validator of endpoint `N`: its parsed params, or undefined to fall back to the row's zod schema. */
export type FastParams<N extends EndpointName> = (input: unknown) => ParsedParamsOf<N> | undefined;

// The PlaceOrderRequest schema's own patterns (through the generated field table); decimals as
// PositiveDecimalString (decimal.ts LOOSE_DECIMAL_RE + isNegative/isZero).
const CLIENT_OID_RE = new RegExp(ORDER_FIELD_SPECS.clientOid.pattern);
const SYMBOL_RE = new RegExp(ORDER_FIELD_SPECS.symbol.pattern);
/** Unsigned plain decimal (leading zeros allowed, as `isDecimal`); positivity = some digit 1-9. */
const UNSIGNED_DECIMAL_RE = /^\d+(?:\.\d+)?$/;
const NON_ZERO_DIGIT_RE = /[1-9]/;

/**
 * The fields this hand-written validator handles, in the schema's shape order (= zod's output key
 * order). Kept as its own list on purpose: it states what the code below checks, and the guard
 * below compares it with the schema at module load (a test asserts the guard holds).
 */
export const PLACE_ORDER_KEYS = [
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

/**
 * Drift guard: the fast path is used only while the schema declares exactly these fields, in this
 * order. A schema change disables it (every body then goes through zod) instead of letting the
 * two disagree; the property test fails at the same time, pointing here.
 */
export const PLACE_ORDER_SHAPE_OK = ((): boolean => {
  const shape = (S.PlaceOrderRequest as unknown as { shape?: Record<string, unknown> }).shape;
  return !!shape && Object.keys(shape).join(',') === PLACE_ORDER_KEYS.join(',');
})();

/** `PositiveDecimalString`: a plain decimal string (≤ 80 chars, no sign, exponent, NaN) greater than 0. */
function isPositiveDecimal(x: unknown): x is string {
  return typeof x === 'string' && x.length <= 80 && UNSIGNED_DECIMAL_RE.test(x) && NON_ZERO_DIGIT_RE.test(x);
}

/** A string of at most 20 code points: sure when ≤ 20 UTF-16 units; longer ones go to zod. */
function isShortString(x: unknown): x is string {
  return typeof x === 'string' && x.length <= 20;
}

/**
 * Fast equivalent of `S.PlaceOrderRequest` (POST /api/v1/hf/orders and /api/v1/hf/orders/test):
 * field rules and cross-field rules exactly as the schema's docstring; unknown fields stripped;
 * `cancelAfter: -1` becomes `cancelAfter: undefined` (key kept), as the schema's transform does.
 * @returns the parsed order request, or undefined (not sure / invalid: run the zod schema).
 */
export function fastPlaceOrderRequest(input: unknown): S.PlaceOrderRequest | undefined {
  if (!PLACE_ORDER_SHAPE_OK || input === null || typeof input !== 'object' || Object.getPrototypeOf(input) !== Object.prototype) return undefined;
  const o = input as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  // Field rules, in shape order. A present-but-undefined key (not JSON) → zod.
  const clientOid = o.clientOid;
  if (clientOid !== undefined) {
    if (typeof clientOid !== 'string' || !CLIENT_OID_RE.test(clientOid)) return undefined;
    out.clientOid = clientOid;
  } else if ('clientOid' in o) return undefined;
  const symbol = o.symbol;
  if (typeof symbol !== 'string' || !SYMBOL_RE.test(symbol)) return undefined;
  out.symbol = symbol;
  const side = o.side;
  if (side !== 'buy' && side !== 'sell') return undefined;
  out.side = side;
  const type = o.type;
  if (type !== 'limit' && type !== 'market') return undefined;
  out.type = type;
  const price = o.price;
  if (price !== undefined) {
    if (!isPositiveDecimal(price)) return undefined;
    out.price = price;
  } else if ('price' in o) return undefined;
  const size = o.size;
  if (size !== undefined) {
    if (!isPositiveDecimal(size)) return undefined;
    out.size = size;
  } else if ('size' in o) return undefined;
  const funds = o.funds;
  if (funds !== undefined) {
    if (!isPositiveDecimal(funds)) return undefined;
    out.funds = funds;
  } else if ('funds' in o) return undefined;
  const tif = o.timeInForce;
  if (tif !== undefined) {
    if (tif !== 'GTC' && tif !== 'GTT' && tif !== 'IOC' && tif !== 'FOK') return undefined;
    out.timeInForce = tif;
  } else if ('timeInForce' in o) return undefined;
  const rawCancelAfter = o.cancelAfter;
  let cancelAfter: number | undefined;
  if (rawCancelAfter !== undefined) {
    if (typeof rawCancelAfter !== 'number' || !Number.isSafeInteger(rawCancelAfter) || (rawCancelAfter !== -1 && rawCancelAfter <= 0)) return undefined;
    cancelAfter = rawCancelAfter === -1 ? undefined : rawCancelAfter;
    out.cancelAfter = cancelAfter;
  } else if ('cancelAfter' in o) return undefined;
  const postOnly = o.postOnly;
  if (postOnly !== undefined) {
    if (typeof postOnly !== 'boolean') return undefined;
    out.postOnly = postOnly;
  } else if ('postOnly' in o) return undefined;
  const hidden = o.hidden;
  if (hidden !== undefined) {
    if (typeof hidden !== 'boolean') return undefined;
    out.hidden = hidden;
  } else if ('hidden' in o) return undefined;
  const iceberg = o.iceberg;
  if (iceberg !== undefined) {
    if (typeof iceberg !== 'boolean') return undefined;
    out.iceberg = iceberg;
  } else if ('iceberg' in o) return undefined;
  const visibleSize = o.visibleSize;
  if (visibleSize !== undefined) {
    if (!isPositiveDecimal(visibleSize)) return undefined;
    out.visibleSize = visibleSize;
  } else if ('visibleSize' in o) return undefined;
  const stp = o.stp;
  if (stp !== undefined) {
    if (stp !== '' && stp !== 'DC' && stp !== 'CO' && stp !== 'CN' && stp !== 'CB') return undefined;
    out.stp = stp;
  } else if ('stp' in o) return undefined;
  const remark = o.remark;
  if (remark !== undefined) {
    if (!isShortString(remark)) return undefined;
    out.remark = remark;
  } else if ('remark' in o) return undefined;
  const tags = o.tags;
  if (tags !== undefined) {
    if (!isShortString(tags)) return undefined;
    out.tags = tags;
  } else if ('tags' in o) return undefined;
  // Cross-field rules of the schema's superRefine (any violation → zod reports it).
  if (type === 'limit') {
    if (price === undefined || size === undefined || funds !== undefined) return undefined;
  } else if ((size === undefined) === (funds === undefined)) return undefined;
  if (cancelAfter !== undefined && tif !== 'GTT') return undefined;
  if (tif === 'GTT' && cancelAfter === undefined) return undefined;
  if (iceberg === true && visibleSize === undefined) return undefined;
  if (hidden === true && iceberg === true) return undefined;
  if (postOnly === true && (tif === 'IOC' || tif === 'FOK')) return undefined;
  return out as S.PlaceOrderRequest;
}

/** Fast validators per endpoint (rows without one always use their zod `params` schema). */
export const FAST_PARAMS: { [N in EndpointName]?: FastParams<N> } = {
  testOrder: fastPlaceOrderRequest,
  placeOrder: fastPlaceOrderRequest,
};
