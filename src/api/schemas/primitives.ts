/**
 * The primitive wire schemas every family of schemas builds on: decimal strings, millisecond times,
 * exact ids, query-string integers and booleans, trading pairs and the order enums (conventions:
 * the module docstring of ../schemas.ts, which re-exports all of them). A separate module so that
 * the family files (`./<family>.ts`, re-exported at the end of ../schemas.ts) can import them
 * without an import cycle.
 */
import { z } from 'zod';
import { isDecimal, isNegative, isZero } from '../decimal';

/** A plain decimal string ("67717.6", "0", "-1.5"): `isDecimal` from decimal.ts. */
export const DecimalString = z.string().refine(isDecimal, {
  message: 'must be a plain decimal string (digits with an optional fraction; no exponent, NaN or "+")',
});

/** A decimal string or `''` (fields the spec documents as "empty by default"). */
export const DecimalOrEmpty = z.string().refine((s) => s === '' || isDecimal(s), {
  message: 'must be a plain decimal string or empty',
});

/** A decimal string or `null` (fields real payloads send as null, e.g. chain `depositMinSize`). */
export const NullableDecimal = DecimalString.nullable();

/**
 * JSON-schema pattern of an unsigned plain decimal string (the shape `isDecimal` accepts, without
 * the sign): stated as metadata of {@link PositiveDecimalString}, whose refinement JSON schema
 * cannot express; generators (scripts/gen-spotorder-schema.ts) read it to know a decimal field.
 */
export const DECIMAL_PATTERN = '^\\d+(\\.\\d+)?$';

/** A strictly positive decimal string (request amounts, prices, sizes). */
export const PositiveDecimalString = z
  .string()
  .superRefine((s, ctx) => {
    if (!isDecimal(s)) ctx.addIssue({ code: 'custom', message: 'must be a plain decimal string (digits with an optional fraction; no exponent, NaN or "+")' });
    else if (isNegative(s) || isZero(s)) ctx.addIssue({ code: 'custom', message: 'must be greater than 0' });
  })
  .meta({ pattern: DECIMAL_PATTERN });

/**
 * A positive amount sent either as a decimal string or as a JSON number (the V1 withdrawal example
 * sends `"amount": 3`, ccxt sends `5.5`). Output: the decimal string (`3` → `"3"`). A number whose
 * shortest form has an exponent (`1e-7`, `1e21`) is rejected: send a string instead.
 */
export const AmountInput = z
  .union([z.string(), z.number()])
  .transform((v, ctx) => {
    const s = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : 'NaN') : v;
    if (!isDecimal(s)) {
      ctx.addIssue({
        code: 'custom',
        message:
          typeof v === 'number'
            ? `must be a plain decimal; the number ${s} has no plain decimal form, send it as a string`
            : 'must be a plain decimal string (no exponent, NaN or "+")',
      });
      return z.NEVER;
    }
    if (isNegative(s) || isZero(s)) {
      ctx.addIssue({ code: 'custom', message: 'must be greater than 0' });
      return z.NEVER;
    }
    return s;
  });

/** Integer milliseconds since the epoch (or a duration in ms). */
export const Millis = z.number().int();

/**
 * An exact numeric id (fill `id`, `tradeId`, fills `lastId`). Accepts a safe integer, a digit string
 * or a bigint; outputs the exact decimal string. Unsafe JSON numbers (> 2^53, already rounded by
 * `JSON.parse`) are rejected: decode with `parseJson` from `./json`.
 */
export const ExactId = z
  .union([z.string(), z.number(), z.bigint()])
  .transform((v, ctx) => {
    if (typeof v === 'number') {
      if (!Number.isSafeInteger(v) || v < 0) {
        ctx.addIssue({
          code: 'custom',
          message: 'must be an exact non-negative integer id; a JSON number above 2^53 lost digits (decode with parseJson)',
        });
        return z.NEVER;
      }
      return String(v);
    }
    const s = typeof v === 'bigint' ? v.toString() : v;
    if (!/^\d{1,40}$/.test(s)) {
      ctx.addIssue({ code: 'custom', message: 'must be a non-negative integer id' });
      return z.NEVER;
    }
    return s;
  });

/** An integer sent in a query string ("100") or JSON (100); outputs a number. */
export const QueryInt = z.union([z.number().int(), z.string().regex(/^-?\d{1,15}$/, 'must be an integer')]).transform(Number);

/** A boolean sent in a query string ("true"/"false") or JSON; outputs a boolean. */
export const QueryBool = z.union([z.boolean(), z.enum(['true', 'false'])]).transform((v) => v === true || v === 'true');

/** Trading pair `<BASE>-<QUOTE>`, e.g. `BTC-USDT`. */
export const SymbolString = z.string().regex(/^[A-Za-z0-9]{1,20}-[A-Za-z0-9]{1,20}$/, 'must be a trading pair like BTC-USDT');

/** Order side. */
export const Side = z.enum(['buy', 'sell']);
/** Order type. */
export const OrderType = z.enum(['limit', 'market']);
/** Account type (spec "General rules" 3). */
export const AccountType = z.enum(['main', 'trade']);
/** Type of {@link AccountType}: `'main' | 'trade'`. */
export type AccountType = z.infer<typeof AccountType>;
/** Time in force. */
export const TimeInForce = z.enum(['GTC', 'GTT', 'IOC', 'FOK']);
/** Self-trade prevention: '' (none), DC, CO, CN, CB. */
export const Stp = z.enum(['', 'DC', 'CO', 'CN', 'CB']);

/** A non-negative integer of a query string: times in ms or s, page numbers. */
export const QueryNonNeg = QueryInt.pipe(z.number().int().min(0, 'must be >= 0'));

/** A page of a KuCoin `currentPage`/`pageSize` list: `{currentPage, pageSize, totalNum, totalPage, items}`. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    currentPage: z.number().int(),
    pageSize: z.number().int(),
    totalNum: z.number().int(),
    totalPage: z.number().int(),
    items: z.array(item),
  });
}

/** `currentPage` (≥ 1, default 1) and `pageSize` (10..500, default 50) of paged queries (KuCoin's bounds). */
export const paging = {
  currentPage: QueryInt.pipe(z.number().int().min(1, 'must be >= 1')).optional(),
  pageSize: QueryInt.pipe(z.number().int().min(10, 'must be 10..500').max(500, 'must be 10..500')).optional(),
};

/** `startAt`/`endAt` (ms) with endAt ≥ startAt. */
export function timeRange<T extends z.ZodRawShape>(shape: T) {
  return z
    .object({ ...shape, startAt: QueryNonNeg.optional(), endAt: QueryNonNeg.optional() })
    .superRefine((q, ctx) => {
      const r = q as { startAt?: number; endAt?: number };
      if (r.startAt !== undefined && r.endAt !== undefined && r.endAt < r.startAt) ctx.addIssue({ code: 'custom', path: ['endAt'], message: 'must not be before startAt' });
    });
}

/** A digit string (sequence numbers, candle times in seconds). */
export const DigitString = z.string().regex(/^\d{1,40}$/, 'must be a digit string');

/** A comma-separated list of at most `max` items of `item` (query strings such as `symbols=A,B`); outputs the array. */
export function commaList(item: z.ZodType<string>, max: number, what: string) {
  return z.string().transform((v, ctx) => {
    const parts = v.split(',').map((p) => p.trim());
    if (parts.length === 0 || parts.some((p) => p === '')) {
      ctx.addIssue({ code: 'custom', message: `must be a comma-separated list of ${what}` });
      return z.NEVER;
    }
    if (parts.length > max) {
      ctx.addIssue({ code: 'custom', message: `at most ${max} ${what} per request, got ${parts.length}` });
      return z.NEVER;
    }
    for (const p of parts) {
      const r = item.safeParse(p);
      if (!r.success) {
        ctx.addIssue({ code: 'custom', message: `${JSON.stringify(p.slice(0, 40))} ${r.error.issues[0]?.message ?? 'is invalid'}` });
        return z.NEVER;
      }
    }
    return parts;
  });
}
