/**
 * Zod 4 wire schemas for every resource and request body of the spot exchange API
 * (spec "Resources and their fields" and "Endpoints", plus the KuCoin endpoints SpotDesk adds).
 *
 * These schemas are the single source of truth for the client (`SpotClient` validates every
 * response with them) and for the sandbox (it validates request bodies/query strings with the
 * request schemas and turns a failure into `400100` via {@link describeZodError}).
 *
 * Conventions:
 * - Decimal quantities are plain decimal strings (`isDecimal` from `./decimal`: no exponent, no
 *   NaN, no `+`); they stay strings after parsing. Never `Number`.
 * - Timestamps are integers in **milliseconds**.
 * - Exact ids that the wire sends as JSON numbers (fill `id`, `tradeId`, `lastId`) are accepted as a
 *   safe integer, a digit string or a bigint, and always come OUT as an exact decimal **string**
 *   (e.g. `tradeId === '11029373945659392'`). Decode bodies with `./json` (`parseJson`) so that
 *   ids above 2^53 arrive as strings and keep every digit; an unsafe JSON number that already lost
 *   precision is rejected rather than silently rounded.
 * - Response objects strip unknown keys (zod's default); the extra fields real payloads carry and
 *   that SpotDesk shows (e.g. `withdrawPrecision`, `needTag`, `maxWithdraw`, `tax`) are declared.
 * - Request schemas also **accept and strip** unknown fields (KuCoin ignores them).
 * - Where real payloads send `null` for a string the spec types as string (HF order `stp`, `tags`,
 *   …), the schema accepts `null` and keeps it (`string | null`); treat `null` like `''`.
 */
import { z } from 'zod';
import { isDecimal, isNegative, isZero } from './decimal';

// ---------------------------------------------------------------------------------------------
// Primitives
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// API keys (spec "Authentication")
// ---------------------------------------------------------------------------------------------

/**
 * KC-API-KEY-VERSION: `'1'` sends the passphrase in clear, `'2'` and `'3'` send it HMAC-signed
 * (see signing.ts). The sandbox's admin API accepts the same values for a new key.
 */
export const KeyVersion = z.enum(['1', '2', '3']);
/** Type of {@link KeyVersion}. */
export type KeyVersion = z.infer<typeof KeyVersion>;

/**
 * The permissions an API key can hold (spec "Authentication"): `General`, `Spot` (Spot Trading),
 * `Transfer`. The endpoint table adds `'public'` (no key needed) on top of this one list:
 * `EndpointPermission` in endpoints.ts.
 */
export const KeyPermission = z.enum(['General', 'Spot', 'Transfer']);
/** Type of {@link KeyPermission}. */
export type KeyPermission = z.infer<typeof KeyPermission>;

// ---------------------------------------------------------------------------------------------
// Envelope and errors
// ---------------------------------------------------------------------------------------------

/** The standard envelope `{code: "200000", data}` (spec "General rules" 1); `data` unchecked here. */
export const Envelope = z.object({ code: z.string(), data: z.unknown().optional(), msg: z.string().optional() });
/** Type of {@link Envelope}. */
export type Envelope = z.infer<typeof Envelope>;

/** An error body `{code, msg}` (spec "Errors"): any code other than "200000". */
export const ErrorBody = z.object({ code: z.string(), msg: z.string().optional().default('') });
/** Type of {@link ErrorBody}. */
export type ErrorBody = z.infer<typeof ErrorBody>;

// ---------------------------------------------------------------------------------------------
// Market data
// ---------------------------------------------------------------------------------------------

/** One aggregated price level `[price, size]` (both decimal strings). */
export const BookLevel = z.tuple([DecimalString, DecimalString]);
/** Type of {@link BookLevel}. */
export type BookLevel = z.infer<typeof BookLevel>;

/**
 * Level-2 snapshot (spec "Order book snapshot"): `sequence` string, `time` ms, `bids` high→low,
 * `asks` low→high, each `[price, size]` decimal strings. GET /api/v1/market/orderbook/level2_{20,100}.
 */
export const Level2Book = z.object({
  sequence: z.string().regex(/^\d+$/, 'must be a digit string'),
  time: Millis,
  bids: z.array(BookLevel),
  asks: z.array(BookLevel),
});
/** Type of {@link Level2Book}. */
export type Level2Book = z.infer<typeof Level2Book>;

const LEVEL_DECIMAL_RE = /^-?\d+(?:\.\d+)?$/;
const SEQUENCE_RE = /^\d+$/;

function levelsOk(side: unknown): side is [string, string][] {
  if (!Array.isArray(side)) return false;
  for (let i = 0; i < side.length; i++) {
    const l: unknown = side[i];
    if (!Array.isArray(l) || l.length !== 2) return false;
    const p: unknown = l[0];
    const q: unknown = l[1];
    if (typeof p !== 'string' || typeof q !== 'string' || p.length > 80 || q.length > 80 || !LEVEL_DECIMAL_RE.test(p) || !LEVEL_DECIMAL_RE.test(q)) return false;
  }
  return true;
}

/**
 * Hot-path check of a level-2 payload, equivalent to {@link Level2Book} (same rules as `isDecimal`):
 * returns the parsed book (a new object with exactly the four fields) or `undefined` when the
 * payload does not pass — the caller then runs the zod schema, which stays the validator of
 * record and produces the "field: why" error. A test asserts both agree on random inputs.
 */
export function fastLevel2Book(v: unknown): Level2Book | undefined {
  if (v === null || typeof v !== 'object') return undefined;
  const o = v as Record<string, unknown>;
  if (typeof o.sequence !== 'string' || !SEQUENCE_RE.test(o.sequence) || !Number.isSafeInteger(o.time)) return undefined;
  if (!levelsOk(o.bids) || !levelsOk(o.asks)) return undefined;
  return { sequence: o.sequence, time: o.time as number, bids: o.bids, asks: o.asks };
}

/** One ticker of GET /api/v1/market/allTickers (decimal strings; null for pairs without trades). */
export const Ticker = z.object({
  symbol: z.string(),
  symbolName: z.string(),
  buy: NullableDecimal,
  bestBidSize: NullableDecimal.optional(),
  sell: NullableDecimal,
  bestAskSize: NullableDecimal.optional(),
  changeRate: NullableDecimal,
  changePrice: NullableDecimal,
  high: NullableDecimal,
  low: NullableDecimal,
  vol: NullableDecimal,
  volValue: NullableDecimal,
  last: NullableDecimal,
  averagePrice: NullableDecimal,
  takerFeeRate: NullableDecimal,
  makerFeeRate: NullableDecimal,
  takerCoefficient: NullableDecimal,
  makerCoefficient: NullableDecimal,
});
/** Type of {@link Ticker}. */
export type Ticker = z.infer<typeof Ticker>;

/** GET /api/v1/market/allTickers `data`: `{time (ms), ticker: Ticker[]}`. */
export const AllTickers = z.object({ time: Millis, ticker: z.array(Ticker) });
/** Type of {@link AllTickers}. */
export type AllTickers = z.infer<typeof AllTickers>;

/** One symbol of GET /api/v2/symbols (all fields of the published example; increments are decimals). */
export const SymbolInfo = z.object({
  symbol: z.string(),
  name: z.string(),
  baseCurrency: z.string(),
  quoteCurrency: z.string(),
  feeCurrency: z.string(),
  market: z.string(),
  baseMinSize: DecimalString,
  quoteMinSize: DecimalString,
  baseMaxSize: DecimalString,
  quoteMaxSize: DecimalString,
  baseIncrement: DecimalString,
  quoteIncrement: DecimalString,
  priceIncrement: DecimalString,
  priceLimitRate: DecimalString,
  minFunds: NullableDecimal,
  isMarginEnabled: z.boolean(),
  enableTrading: z.boolean(),
  feeCategory: z.number().int(),
  makerFeeCoefficient: DecimalString,
  takerFeeCoefficient: DecimalString,
  st: z.boolean(),
  callauctionIsEnabled: z.boolean(),
  callauctionPriceFloor: NullableDecimal,
  callauctionPriceCeiling: NullableDecimal,
  callauctionFirstStageStartTime: Millis.nullable(),
  callauctionSecondStageStartTime: Millis.nullable(),
  callauctionThirdStageStartTime: Millis.nullable(),
  tradingStartTime: Millis.nullable(),
});
/** Type of {@link SymbolInfo}. */
export type SymbolInfo = z.infer<typeof SymbolInfo>;
/** GET /api/v2/symbols `data`. */
export const SymbolList = z.array(SymbolInfo);

/** GET /api/v1/markets `data`: market names (spec "Market list"). */
export const MarketList = z.array(z.string());
/** Type of {@link MarketList}. */
export type MarketList = z.infer<typeof MarketList>;

/** The `status` value of GET /api/v1/status (spec "Service status"): open, close or cancelonly. */
export const ServiceStatusValue = z.enum(['open', 'close', 'cancelonly']);
/** Type of {@link ServiceStatusValue}. */
export type ServiceStatusValue = z.infer<typeof ServiceStatusValue>;

/** GET /api/v1/status `data` (spec "Service status"): `{status, msg}`. */
export const ServiceStatus = z.object({ status: ServiceStatusValue, msg: z.string() });
/** Type of {@link ServiceStatus}. */
export type ServiceStatus = z.infer<typeof ServiceStatus>;

/** GET /api/v1/timestamp `data`: server time, integer ms. */
export const ServerTime = Millis;

/** GET /api/v1/prices `data`: currency code → fiat price (decimal string) (spec "Fiat price map"). */
export const FiatPrices = z.record(z.string(), DecimalString);
/** Type of {@link FiatPrices}. */
export type FiatPrices = z.infer<typeof FiatPrices>;

/** POST /api/v1/bullet-public `data` (websocket token; used by the live order book). */
export const BulletToken = z.object({
  token: z.string(),
  instanceServers: z.array(
    z.object({
      endpoint: z.string(),
      encrypt: z.boolean(),
      protocol: z.string(),
      pingInterval: Millis,
      pingTimeout: Millis,
    }),
  ),
});
/** Type of {@link BulletToken}. */
export type BulletToken = z.infer<typeof BulletToken>;

// ---------------------------------------------------------------------------------------------
// Currencies
// ---------------------------------------------------------------------------------------------

/** Chain of a currency (spec "Chain"), with the extra fields real payloads carry. */
export const Chain = z.object({
  chainId: z.string(),
  chainName: z.string(),
  depositMinSize: NullableDecimal,
  depositFeeRate: DecimalOrEmpty.nullable().optional(),
  withdrawalMinSize: DecimalString,
  withdrawalMinFee: DecimalString,
  withdrawFeeRate: DecimalString,
  withdrawMaxFee: DecimalOrEmpty.nullable().optional(),
  isWithdrawEnabled: z.boolean(),
  isDepositEnabled: z.boolean(),
  confirms: z.number().int(),
  preConfirms: z.number().int(),
  contractAddress: z.string(),
  /** Extra (KuCoin): fraction digits accepted for withdrawal amounts. */
  withdrawPrecision: z.number().int().optional(),
  /** Extra (KuCoin): maximum withdrawal amount, null when unlimited. */
  maxWithdraw: NullableDecimal.optional(),
  /** Extra (KuCoin): maximum deposit amount, null when unlimited. */
  maxDeposit: NullableDecimal.optional(),
  /** Extra (KuCoin): whether a memo/tag is required. */
  needTag: z.boolean().optional(),
});
/** Type of {@link Chain}. */
export type Chain = z.infer<typeof Chain>;

/** Currency (spec "Currency"); GET /api/v3/currencies (array) and /api/v3/currencies/{currency}. */
export const Currency = z.object({
  currency: z.string(),
  name: z.string(),
  fullName: z.string(),
  precision: z.number().int(),
  confirms: z.number().int().nullable(),
  contractAddress: z.string().nullable(),
  isMarginEnabled: z.boolean(),
  isDebitEnabled: z.boolean(),
  chains: z.array(Chain).nullable().transform((c) => c ?? []),
});
/** Type of {@link Currency}. */
export type Currency = z.infer<typeof Currency>;
/** GET /api/v3/currencies `data`. */
export const CurrencyList = z.array(Currency);

// ---------------------------------------------------------------------------------------------
// Account, fees, funding
// ---------------------------------------------------------------------------------------------

/** GET /api/v1/base-fee `data` (spec "Base fee rates"): decimal rates. */
export const BaseFee = z.object({ takerFeeRate: DecimalString, makerFeeRate: DecimalString });
/** Type of {@link BaseFee}. */
export type BaseFee = z.infer<typeof BaseFee>;

/**
 * The `type` of an account on the wire: `main`, `trade`, or `trade_hf` — what KuCoin answers for
 * GET /api/v1/accounts?type=trade_hf (the high-frequency spot trading account, which is SpotDesk's
 * and the sandbox's one trade account). Parsed to {@link AccountType}: `trade_hf` comes out as
 * `trade`, so every consumer sees `'main' | 'trade'`.
 */
export const WireAccountType = z.enum(['main', 'trade', 'trade_hf']).transform((t): AccountType => (t === 'trade_hf' ? 'trade' : t));

/** Account (spec "Account"): balances are decimal strings; balance = available + holds; `type` per {@link WireAccountType}. */
export const Account = z.object({
  id: z.string(),
  currency: z.string(),
  type: WireAccountType,
  balance: DecimalString,
  available: DecimalString,
  holds: DecimalString,
});
/** Type of {@link Account}. */
export type Account = z.infer<typeof Account>;
/** GET /api/v1/accounts payload (bare array, or the `data` of an envelope). */
export const AccountList = z.array(Account);

/**
 * POST /api/v1/deposit-addresses `data` (spec "Deposit address"). `memo` may be null (real payload);
 * `chainId`, `to` (MAIN/TRADE) and `currency` are extras real payloads carry.
 */
export const DepositAddress = z.object({
  address: z.string(),
  memo: z.string().nullable(),
  chain: z.string(),
  chainId: z.string().optional(),
  to: z.string().optional(),
  currency: z.string().optional(),
});
/** Type of {@link DepositAddress}. */
export type DepositAddress = z.infer<typeof DepositAddress>;

/** POST /api/v3/deposit-address/create `data` (KuCoin v3): `to` is upper case (MAIN/TRADE). */
export const DepositAddressV3 = z.object({
  address: z.string(),
  memo: z.string().nullable(),
  chainId: z.string(),
  to: z.string(),
  expirationDate: Millis,
  currency: z.string(),
  chainName: z.string(),
});
/** Type of {@link DepositAddressV3}. */
export type DepositAddressV3 = z.infer<typeof DepositAddressV3>;

/**
 * One element of GET /api/v2/deposit-addresses `data` (KuCoin "Get Deposit Addresses (V2)"): an
 * address the user already created, e.g. `{address: "0x0202…7c", memo: "", chain: "ERC20",
 * chainId: "eth", to: "MAIN", currency: "ETH", contractAddress: ""}`. `chain` is the chain NAME,
 * `chainId` the chain id; `memo` is "" when the chain needs none (null accepted, as the V1 create
 * sends it); `to` is MAIN|TRADE; `contractAddress` the token contract ("" for native coins). The
 * kucoin-universal-sdk model marks every field optional; SpotDesk requires `address` and `chain`.
 */
export const DepositAddressEntry = DepositAddress.extend({
  contractAddress: z.string().nullable().optional(),
});
/** Type of {@link DepositAddressEntry}. */
export type DepositAddressEntry = z.infer<typeof DepositAddressEntry>;
/** GET /api/v2/deposit-addresses `data`: the user's addresses of a currency (and chain), oldest first; `[]` when none. */
export const DepositAddressList = z.array(DepositAddressEntry);
/** Type of {@link DepositAddressList}. */
export type DepositAddressList = z.infer<typeof DepositAddressList>;

/** Withdrawal creation result (all versions): `{withdrawalId}`. */
export const WithdrawalResult = z.object({ withdrawalId: z.string() });
/** Type of {@link WithdrawalResult}. */
export type WithdrawalResult = z.infer<typeof WithdrawalResult>;

/** GET /api/v1/withdrawals/quotas `data` (KuCoin): decimal strings; `reason` null unless blocked. */
export const WithdrawalQuotas = z.object({
  currency: z.string(),
  limitBTCAmount: DecimalString,
  usedBTCAmount: DecimalString,
  quotaCurrency: z.string(),
  limitQuotaCurrencyAmount: DecimalString,
  usedQuotaCurrencyAmount: DecimalString,
  remainAmount: DecimalString,
  availableAmount: DecimalString,
  withdrawMinFee: DecimalString,
  innerWithdrawMinFee: DecimalString,
  withdrawMinSize: DecimalString,
  isWithdrawEnabled: z.boolean(),
  precision: z.number().int(),
  chain: z.string(),
  reason: z.string().nullable(),
  lockedAmount: DecimalString,
});
/** Type of {@link WithdrawalQuotas}. */
export type WithdrawalQuotas = z.infer<typeof WithdrawalQuotas>;

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

/**
 * GET /kyc/regions/v4 `data` (shape not shown in the spec or fixtures; SpotDesk's documented
 * choice): an array of `{code, name}` where `code` is the ISO 3166-1 alpha-2 value to send as the
 * V4 withdrawal `country` and `name` the display name, e.g. `{code: "TR", name: "Türkiye"}`.
 */
export const Region = z.object({ code: z.string().regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code'), name: z.string() });
/** Type of {@link Region}. */
export type Region = z.infer<typeof Region>;
/** GET /kyc/regions/v4 `data`. */
export const RegionList = z.array(Region);

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

// ---------------------------------------------------------------------------------------------
// Request schemas (bodies of POST endpoints; query strings of GET/DELETE endpoints)
// ---------------------------------------------------------------------------------------------

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

/** Deposit address request (POST /api/v1/deposit-addresses, /api/v3/deposit-address/create): `to` is main|trade, any case. */
export const DepositAddressRequest = z.object({
  currency: z.string().min(1),
  chain: z.string().min(1).optional(),
  to: z.string().regex(/^(main|trade)$/i, 'must be main or trade').optional(),
  amount: AmountInput.optional(),
});
/** Type of {@link DepositAddressRequest}. */
export type DepositAddressRequest = z.infer<typeof DepositAddressRequest>;

/** Fee deduction type of withdrawals: INTERNAL (from amount) or EXTERNAL (from main account). */
export const FeeDeductType = z.enum(['INTERNAL', 'EXTERNAL']);
/** Type of {@link FeeDeductType}. */
export type FeeDeductType = z.infer<typeof FeeDeductType>;
/** Withdrawal destination kind (V3/V4; V1 is always ADDRESS). */
export const WithdrawType = z.enum(['ADDRESS', 'UID', 'MAIL', 'PHONE']);
/** Type of {@link WithdrawType}. */
export type WithdrawType = z.infer<typeof WithdrawType>;

const withdrawalCommon = {
  currency: z.string().min(1),
  amount: AmountInput,
  memo: z.string().optional(),
  isInner: z.boolean().optional(),
  remark: z.string().optional(),
  chain: z.string().min(1).optional(),
  feeDeductType: FeeDeductType.optional(),
};

/** POST /api/v1/withdrawals body (spec "POST /api/v1/withdrawals (V1)"); `amount` string or number → decimal string. */
export const WithdrawalV1Request = z.object({ ...withdrawalCommon, address: z.string().min(1) });
/** Parsed type of {@link WithdrawalV1Request}. */
export type WithdrawalV1Request = z.infer<typeof WithdrawalV1Request>;

/** POST /api/v3/withdrawals body (KuCoin V3): `toAddress` + `withdrawType`. */
export const WithdrawalV3Request = z.object({ ...withdrawalCommon, toAddress: z.string().min(1), withdrawType: WithdrawType });
/** Parsed type of {@link WithdrawalV3Request}. */
export type WithdrawalV3Request = z.infer<typeof WithdrawalV3Request>;

/** Reason of transfer values of V4 withdrawals. */
export const ReasonOfTransfer = z.enum([
  'TRADING_IN_OTHER_PLATFORMS',
  'TRANSFER_TO_THE_COLD_WALLET_FOR_CUSTODY',
  'FUTURES_ACTIVITIES_IN_OTHER_PLATFORMS',
  'ATTENDENCE_TO_THE_CRYPTO_AIRDROP',
  'TRANSFER_TO_THE_THIRD_PARTIES',
  'TRANSFER_TO_YOUR_OWN_ACCOUNT_HELD_IN_ANOTHER_PLATFORM',
  'OTHER',
]);

/**
 * POST /api/v4/withdrawals body (spec "POST /api/v4/withdrawals (V4)"). Rules:
 * receiverType `company` requires `companyName`; `individual` requires `firstName` and `lastName`;
 * `identityType`, when given, must be ID_CARD for country TR and PASSPORT otherwise; the Lightning
 * network (chain `btcln`) only allows feeDeductType INTERNAL (or omitted).
 */
export const WithdrawalV4Request = z
  .object({
    ...withdrawalCommon,
    toAddress: z.string().min(1),
    withdrawType: WithdrawType,
    wallet: z.string().optional(),
    receiverType: z.enum(['individual', 'company']),
    companyName: z.string().optional(),
    firstName: z.string().optional(),
    lastName: z.string().optional(),
    country: z.string().optional(),
    identityType: z.enum(['ID_CARD', 'PASSPORT']).optional(),
    identityNo: z.string().optional(),
    reasonOfTransfer: ReasonOfTransfer.optional(),
    tin: z.string().optional(),
  })
  .superRefine((o, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (o.receiverType === 'company' && !o.companyName) issue('companyName', 'is required when receiverType is company');
    if (o.receiverType === 'individual') {
      if (!o.firstName) issue('firstName', 'is required when receiverType is individual');
      if (!o.lastName) issue('lastName', 'is required when receiverType is individual');
    }
    if (o.identityType !== undefined) {
      const want = o.country === 'TR' ? 'ID_CARD' : 'PASSPORT';
      if (o.identityType !== want) issue('identityType', `must be ${want} when country is ${o.country ?? 'not TR'}`);
    }
    if (o.chain !== undefined && o.chain.toLowerCase() === 'btcln' && o.feeDeductType === 'EXTERNAL') {
      issue('feeDeductType', 'the Lightning network can only deduct the fee internally');
    }
  });
/** Parsed type of {@link WithdrawalV4Request}. */
export type WithdrawalV4Request = z.infer<typeof WithdrawalV4Request>;

/**
 * POST /api/v2/accounts/inner-transfer body: move `amount` of `currency` between main and trade.
 * `from`/`to` take `main`, `trade` or `trade_hf` (KuCoin's high-frequency trading account, the same
 * account as `trade` here; ccxt sends it for HF users) and come out as {@link AccountType}.
 */
export const InnerTransferRequest = z
  .object({
    clientOid: z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, 'must be 1-40 characters of letters, digits, "_" or "-"'),
    currency: z.string().min(1),
    from: WireAccountType,
    to: WireAccountType,
    amount: AmountInput,
  })
  .superRefine((o, ctx) => {
    if (o.from === o.to) ctx.addIssue({ code: 'custom', path: ['to'], message: 'must differ from from' });
  });
/** Parsed type of {@link InnerTransferRequest}. */
export type InnerTransferRequest = z.infer<typeof InnerTransferRequest>;

// --- query-string parameter schemas (GET/DELETE): values may arrive as strings ---

/** Query of a level-2 snapshot: `{symbol}`. */
export const SymbolQuery = z.object({ symbol: SymbolString });
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
/** Query of GET /api/v1/base-fee: `currencyType` "0" crypto (default) or "1" fiat. */
export const BaseFeeQuery = z.object({ currencyType: z.union([z.literal(0), z.literal(1), z.enum(['0', '1'])]).optional() });
/** Query of GET /api/v1/prices: `base` fiat (default USD), `currencies` comma-separated. */
export const PricesQuery = z.object({ base: z.string().optional(), currencies: z.string().optional() });
/**
 * Query of GET /api/v1/accounts: optional `currency`, `type` (`main`, `trade` or `trade_hf`; kept as
 * given, since the answer labels the accounts with the type that was asked for).
 */
export const AccountsQuery = z.object({ currency: z.string().optional(), type: z.enum(['main', 'trade', 'trade_hf']).optional() });
/** Query of GET /api/v2/symbols: optional `market`. */
export const SymbolsQuery = z.object({ market: z.string().optional() });
/** Path+query of GET /api/v3/currencies/{currency}: optional `chain`. */
export const CurrencyQuery = z.object({ currency: z.string().min(1), chain: z.string().optional() });
/** Query of GET /api/v2/deposit-addresses: `currency` (required), optional `chain` (chain id such as `trx`; the sandbox also takes the name). */
export const DepositAddressesQuery = z.object({ currency: z.string().min(1), chain: z.string().min(1).optional() });
/** Query of GET /api/v1/withdrawals/quotas: `currency`, optional `chain`. */
export const WithdrawalQuotasQuery = z.object({ currency: z.string().min(1), chain: z.string().optional() });
/** Endpoints without parameters. */
export const NoParams = z.object({});

// ---------------------------------------------------------------------------------------------
// KuCoin spot endpoints beyond the spec that real clients call (issue 21). Shapes follow the
// published payloads in test/fixtures/kucoin/beyond-spec/ and kucoin-universal-sdk 1.3.0.
// ---------------------------------------------------------------------------------------------

/** A digit string (sequence numbers, candle times in seconds). */
const DigitString = z.string().regex(/^\d{1,40}$/, 'must be a digit string');

/** A comma-separated list of at most `max` items of `item` (query strings such as `symbols=A,B`); outputs the array. */
function commaList(item: z.ZodType<string>, max: number, what: string) {
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

/** A non-negative integer of a query string: times in ms or s, page numbers. */
const QueryNonNeg = QueryInt.pipe(z.number().int().min(0, 'must be >= 0'));

// --- account mode and HF probes --------------------------------------------------------------

/**
 * GET /api/ua/v1/account/mode `data` (KuCoin unified account "Get Account Mode"; what ccxt asks
 * first): `selfAccountMode` is `CLASSIC` or `UNIFIED`; the sub-account uid lists per mode. The
 * sandbox answers `{selfAccountMode: "CLASSIC", unifiedSubAccount: [], classicSubAccount: []}`.
 */
export const AccountMode = z.object({
  selfAccountMode: z.string(),
  unifiedSubAccount: z.array(z.string()).optional(),
  classicSubAccount: z.array(z.string()).optional(),
});
/** Type of {@link AccountMode}. */
export type AccountMode = z.infer<typeof AccountMode>;

/** GET /api/v1/hf/accounts/opened `data` (KuCoin "Get Account Type - Spot"): true when the spot account is high-frequency (the sandbox: always). */
export const HfAccountOpened = z.boolean();

/** One cross-margin symbol of GET /api/v3/margin/symbols (KuCoin "Get Symbols - Cross Margin"). */
export const MarginSymbol = z.object({
  symbol: z.string(),
  name: z.string(),
  enableTrading: z.boolean(),
  market: z.string(),
  baseCurrency: z.string(),
  quoteCurrency: z.string(),
  baseIncrement: DecimalString,
  baseMinSize: DecimalString,
  baseMaxSize: DecimalString,
  quoteIncrement: DecimalString,
  quoteMinSize: DecimalString,
  quoteMaxSize: DecimalString,
  priceIncrement: DecimalString,
  feeCurrency: z.string(),
  priceLimitRate: DecimalString,
  minFunds: NullableDecimal,
});
/** Query of GET /api/v3/margin/symbols: optional `symbol`. */
export const MarginSymbolsQuery = z.object({ symbol: SymbolString.optional() });
/** GET /api/v3/margin/symbols `data`: `{timestamp (ms), items}`; the sandbox (spot only) lists none. */
export const MarginSymbols = z.object({ timestamp: Millis, items: z.array(MarginSymbol) });
/** Type of {@link MarginSymbols}. */
export type MarginSymbols = z.infer<typeof MarginSymbols>;

/** One isolated-margin symbol of GET /api/v1/isolated/symbols (KuCoin "Get Symbols - Isolated Margin"). */
export const IsolatedSymbol = z.object({
  symbol: z.string(),
  symbolName: z.string(),
  baseCurrency: z.string(),
  quoteCurrency: z.string(),
  maxLeverage: z.number().int(),
  flDebtRatio: DecimalString,
  tradeEnable: z.boolean(),
  autoRenewMaxDebtRatio: DecimalString,
  baseBorrowEnable: z.boolean(),
  quoteBorrowEnable: z.boolean(),
  baseTransferInEnable: z.boolean(),
  quoteTransferInEnable: z.boolean(),
  baseBorrowCoefficient: DecimalString.optional(),
  quoteBorrowCoefficient: DecimalString.optional(),
});
/** GET /api/v1/isolated/symbols `data`; the sandbox (spot only) lists none. */
export const IsolatedSymbols = z.array(IsolatedSymbol);

/**
 * One futures contract of GET /api/v1/contracts/active (KuCoin futures "Get All Symbols"). SpotDesk
 * reads only these identifying fields (the rest are stripped); the sandbox, a spot exchange, lists none.
 */
export const FuturesContract = z.object({
  symbol: z.string(),
  rootSymbol: z.string().optional(),
  type: z.string().optional(),
  baseCurrency: z.string().optional(),
  quoteCurrency: z.string().optional(),
  settleCurrency: z.string().optional(),
  status: z.string().optional(),
});
/** GET /api/v1/contracts/active `data`. */
export const FuturesContracts = z.array(FuturesContract);

// --- market data -------------------------------------------------------------------------------

/**
 * GET /api/v1/market/stats `data` (KuCoin "Get 24hr Stats"): the ticker fields of the last 24 h of
 * one symbol plus `time` (ms); decimals as strings, null where the symbol has no trade.
 */
export const Stats24h = Ticker.omit({ symbolName: true, bestBidSize: true, bestAskSize: true }).extend({ time: Millis });
/** Type of {@link Stats24h}. */
export type Stats24h = z.infer<typeof Stats24h>;

/**
 * GET /api/v1/market/orderbook/level1 `data` (KuCoin "Get Ticker"): `time` ms, `sequence` digit
 * string, `price`/`size` of the last trade, best bid/ask with their sizes; null when absent.
 */
export const Level1 = z.object({
  time: Millis,
  sequence: DigitString,
  price: NullableDecimal,
  size: NullableDecimal,
  bestBid: NullableDecimal,
  bestBidSize: NullableDecimal,
  bestAsk: NullableDecimal,
  bestAskSize: NullableDecimal,
});
/** Type of {@link Level1}. */
export type Level1 = z.infer<typeof Level1>;

/**
 * One public trade of GET /api/v1/market/histories (KuCoin "Get Trade History"): `sequence` digit
 * string, `side` of the taker, `time` in NANOseconds (a JSON number above 2^53; comes out as the
 * exact digit string — ms = the digits without the last six).
 */
export const PublicTradeEntry = z.object({
  sequence: DigitString,
  price: DecimalString,
  size: DecimalString,
  side: Side,
  time: ExactId,
});
/** Type of {@link PublicTradeEntry}. */
export type PublicTradeEntry = z.infer<typeof PublicTradeEntry>;
/** GET /api/v1/market/histories `data`: the last 100 trades, oldest first. */
export const TradeHistory = z.array(PublicTradeEntry);

/** Candle intervals of GET /api/v1/market/candles `type` (1min … 1week). */
export const CandleType = z.enum(['1min', '3min', '5min', '15min', '30min', '1hour', '2hour', '4hour', '6hour', '8hour', '12hour', '1day', '1week']);
/** Type of {@link CandleType}. */
export type CandleType = z.infer<typeof CandleType>;

/**
 * One candle row of GET /api/v1/market/candles: `[time, open, close, high, low, volume, turnover]`
 * — `time` the interval's start in SECONDS (digit string), volume in base, turnover in quote.
 */
export const Candle = z.tuple([DigitString, DecimalString, DecimalString, DecimalString, DecimalString, DecimalString, DecimalString]);
/** Type of {@link Candle}. */
export type Candle = z.infer<typeof Candle>;
/** GET /api/v1/market/candles `data`: at most 1500 rows, newest first. */
export const CandleList = z.array(Candle);

/**
 * Query of GET /api/v1/market/candles: `symbol`, `type` ({@link CandleType}), `startAt`/`endAt` in
 * SECONDS (0 or absent = unbounded); `endAt` must not be before `startAt`.
 */
export const CandlesQuery = z
  .object({ symbol: SymbolString, type: CandleType, startAt: QueryNonNeg.optional(), endAt: QueryNonNeg.optional() })
  .superRefine((q, ctx) => {
    if (q.startAt && q.endAt && q.endAt < q.startAt) ctx.addIssue({ code: 'custom', path: ['endAt'], message: 'must not be before startAt' });
  });
/** Input type of {@link CandlesQuery}. */
export type CandlesQuery = z.input<typeof CandlesQuery>;

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

// --- funding -------------------------------------------------------------------------------------

/**
 * GET /api/v1/deposit-addresses `data` (KuCoin "Get Deposit Address (V1)"): the address of the
 * currency (and chain; default chain when omitted) — the first one created — or `null` when none exists.
 */
export const DepositAddressOrNull = DepositAddress.nullable();

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
const paging = {
  currentPage: QueryInt.pipe(z.number().int().min(1, 'must be >= 1')).optional(),
  pageSize: QueryInt.pipe(z.number().int().min(10, 'must be 10..500').max(500, 'must be 10..500')).optional(),
};

/** `startAt`/`endAt` (ms) with endAt ≥ startAt. */
function timeRange<T extends z.ZodRawShape>(shape: T) {
  return z
    .object({ ...shape, startAt: QueryNonNeg.optional(), endAt: QueryNonNeg.optional() })
    .superRefine((q, ctx) => {
      const r = q as { startAt?: number; endAt?: number };
      if (r.startAt !== undefined && r.endAt !== undefined && r.endAt < r.startAt) ctx.addIssue({ code: 'custom', path: ['endAt'], message: 'must not be before startAt' });
    });
}

/** Status of a deposit (KuCoin): PROCESSING, SUCCESS, FAILURE. */
export const DepositStatus = z.enum(['PROCESSING', 'SUCCESS', 'FAILURE']);
/** Status of a withdrawal (KuCoin): REVIEW, PROCESSING, WALLET_PROCESSING, SUCCESS, FAILURE. */
export const WithdrawalStatusValue = z.enum(['REVIEW', 'PROCESSING', 'WALLET_PROCESSING', 'SUCCESS', 'FAILURE']);
/** Type of {@link WithdrawalStatusValue}. */
export type WithdrawalStatusValue = z.infer<typeof WithdrawalStatusValue>;

/**
 * One deposit of GET /api/v1/deposits (KuCoin "Get Deposit History"): amounts decimal strings, times
 * ms, `chain` the chain id ('' when unknown), `walletTxId` null until known.
 */
export const DepositItem = z.object({
  currency: z.string(),
  chain: z.string(),
  status: DepositStatus,
  address: z.string(),
  memo: z.string(),
  isInner: z.boolean(),
  amount: DecimalString,
  fee: DecimalString,
  walletTxId: z.string().nullable(),
  createdAt: Millis,
  updatedAt: Millis,
  remark: z.string(),
  arrears: z.boolean().optional(),
});
/** Type of {@link DepositItem}. */
export type DepositItem = z.infer<typeof DepositItem>;
/** GET /api/v1/deposits `data`: a page of {@link DepositItem}, newest first. */
export const DepositPage = pageOf(DepositItem);
/** Type of {@link DepositPage}. */
export type DepositPage = z.infer<typeof DepositPage>;

/** Query of GET /api/v1/deposits: optional `currency`, `status`, `startAt`/`endAt` (ms), `currentPage`, `pageSize`. */
export const DepositsQuery = timeRange({ currency: z.string().min(1).optional(), status: DepositStatus.optional(), ...paging });
/** Input type of {@link DepositsQuery}. */
export type DepositsQuery = z.input<typeof DepositsQuery>;

/**
 * One withdrawal of GET /api/v1/withdrawals (KuCoin "Get Withdrawal History"): `id` the withdrawalId
 * (kucoin-universal-sdk has it; the published example omits it), `amount` as requested and `fee`
 * (decimal strings), `chain` the chain id, times ms.
 */
export const WithdrawalItem = z.object({
  id: z.string().optional(),
  currency: z.string(),
  chain: z.string(),
  status: WithdrawalStatusValue,
  address: z.string(),
  memo: z.string(),
  isInner: z.boolean(),
  amount: DecimalString,
  fee: DecimalString,
  walletTxId: z.string().nullable(),
  createdAt: Millis,
  updatedAt: Millis,
  remark: z.string(),
  arrears: z.boolean().optional(),
});
/** Type of {@link WithdrawalItem}. */
export type WithdrawalItem = z.infer<typeof WithdrawalItem>;
/** GET /api/v1/withdrawals `data`: a page of {@link WithdrawalItem}, newest first. */
export const WithdrawalPage = pageOf(WithdrawalItem);
/** Type of {@link WithdrawalPage}. */
export type WithdrawalPage = z.infer<typeof WithdrawalPage>;

/** Query of GET /api/v1/withdrawals: optional `currency`, `status`, `startAt`/`endAt` (ms), `currentPage`, `pageSize`. */
export const WithdrawalsQuery = timeRange({ currency: z.string().min(1).optional(), status: WithdrawalStatusValue.optional(), ...paging });
/** Input type of {@link WithdrawalsQuery}. */
export type WithdrawalsQuery = z.input<typeof WithdrawalsQuery>;

/** Path of DELETE /api/v1/withdrawals/{withdrawalId}. */
export const WithdrawalIdPath = z.object({ withdrawalId: z.string().regex(/^[A-Za-z0-9]{1,64}$/, 'must be a withdrawal id (letters and digits)') });

/** DELETE /api/v1/withdrawals/{withdrawalId} `data`: `null` (KuCoin "Cancel Withdrawal"). */
export const NullPayload = z.null();

/**
 * POST /api/v3/accounts/universal-transfer body (KuCoin "Flex Transfer"): `clientOid` (1-64 of
 * letters, digits, "_" or "-"; idempotency key), `currency`, `amount` (positive decimal), `type`
 * INTERNAL | PARENT_TO_SUB | SUB_TO_PARENT, `fromAccountType`/`toAccountType` (MAIN, TRADE, …),
 * optional `fromUserId`, `toUserId`, `fromAccountTag`, `toAccountTag`. The sandbox has no
 * sub-accounts and only MAIN and TRADE accounts: its route accepts INTERNAL MAIN ↔ TRADE only.
 */
export const UniversalTransferRequest = z
  .object({
    clientOid: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1-64 characters of letters, digits, "_" or "-"'),
    currency: z.string().min(1),
    amount: AmountInput,
    type: z.enum(['INTERNAL', 'PARENT_TO_SUB', 'SUB_TO_PARENT']),
    fromAccountType: z.string().min(1),
    toAccountType: z.string().min(1),
    fromUserId: z.string().optional(),
    toUserId: z.string().optional(),
    fromAccountTag: z.string().optional(),
    toAccountTag: z.string().optional(),
  });
/** Parsed type of {@link UniversalTransferRequest}. */
export type UniversalTransferRequest = z.infer<typeof UniversalTransferRequest>;

/** Query of GET /api/v1/accounts/transferable: `currency`, `type` (MAIN, TRADE or TRADE_HF, any case), optional `tag`. */
export const TransferableQuery = z.object({
  currency: z.string().min(1),
  type: z
    .string()
    .transform((t) => t.toUpperCase())
    .pipe(z.enum(['MAIN', 'TRADE', 'TRADE_HF'], { message: 'must be MAIN, TRADE or TRADE_HF (the sandbox has no margin or isolated accounts)' })),
  tag: z.string().optional(),
});

/** GET /api/v1/accounts/transferable `data` (KuCoin "Get Transfer Quotas"): decimal strings. */
export const Transferable = z.object({ currency: z.string(), balance: DecimalString, available: DecimalString, holds: DecimalString, transferable: DecimalString });
/** Type of {@link Transferable}. */
export type Transferable = z.infer<typeof Transferable>;

/** Direction of a ledger entry. */
export const LedgerDirection = z.enum(['in', 'out']);

/**
 * One entry of GET /api/v1/accounts/ledgers (KuCoin "Get Account Ledgers - Spot/Margin"): `id`,
 * `amount` (absolute change) and `fee` and `balance` (after) as decimal strings, `accountType`
 * (MAIN, TRADE…), `bizType` (DEPOSIT, WITHDRAW, TRANSFER, TRADE_EXCHANGE…), `direction` in|out,
 * `createdAt` ms, `context` a JSON text or ''.
 */
export const LedgerEntry = z.object({
  id: z.string(),
  currency: z.string(),
  amount: DecimalString,
  fee: DecimalString,
  balance: DecimalString,
  accountType: z.string(),
  bizType: z.string(),
  direction: LedgerDirection,
  createdAt: Millis,
  context: z.string().nullable(),
});
/** Type of {@link LedgerEntry}. */
export type LedgerEntry = z.infer<typeof LedgerEntry>;
/** GET /api/v1/accounts/ledgers `data`: a page of {@link LedgerEntry}, newest first. */
export const LedgerPage = pageOf(LedgerEntry);
/** Type of {@link LedgerPage}. */
export type LedgerPage = z.infer<typeof LedgerPage>;

/** Query of GET /api/v1/accounts/ledgers: `currency` (≤ 10, comma-separated), `direction`, `bizType`, `startAt`/`endAt` (ms), `currentPage`, `pageSize`. */
export const LedgersQuery = timeRange({
  currency: commaList(z.string().regex(/^[A-Za-z0-9]{1,20}$/, 'is not a currency code'), 10, 'currencies').optional(),
  direction: LedgerDirection.optional(),
  bizType: z.string().min(1).optional(),
  ...paging,
});
/** Input type of {@link LedgersQuery}. */
export type LedgersQuery = z.input<typeof LedgersQuery>;

/**
 * One entry of GET /api/v1/hf/accounts/ledgers (KuCoin "Get Account Ledgers - trade_hf"): as
 * {@link LedgerEntry} plus `tax`, with `id` an exact id string, `accountType` TRADE_HF and
 * `createdAt` sent as a digit string (parsed to ms).
 */
export const HfLedgerEntry = z.object({
  id: ExactId,
  currency: z.string(),
  amount: DecimalString,
  fee: DecimalString,
  tax: DecimalString.optional(),
  balance: DecimalString,
  accountType: z.string(),
  bizType: z.string(),
  direction: LedgerDirection,
  createdAt: z.union([Millis, DigitString]).transform(Number),
  context: z.string().nullable(),
});
/** Type of {@link HfLedgerEntry}. */
export type HfLedgerEntry = z.infer<typeof HfLedgerEntry>;
/** GET /api/v1/hf/accounts/ledgers `data`: entries newest first. */
export const HfLedgerList = z.array(HfLedgerEntry);

/** bizType values of the trade_hf ledger query (KuCoin). */
export const HfLedgerBizType = z.enum(['TRADE_EXCHANGE', 'TRANSFER', 'SUB_TRANSFER', 'RETURNED_FEES', 'DEDUCTION_FEES', 'OTHER']);

/** Query of GET /api/v1/hf/accounts/ledgers: `currency` (≤ 10), `direction`, `bizType`, `lastId` (entries with a smaller id), `limit` 1..200 (default 100), `startAt`/`endAt` (ms). */
export const HfLedgersQuery = timeRange({
  currency: commaList(z.string().regex(/^[A-Za-z0-9]{1,20}$/, 'is not a currency code'), 10, 'currencies').optional(),
  direction: LedgerDirection.optional(),
  bizType: HfLedgerBizType.optional(),
  lastId: ExactId.optional(),
  limit: QueryInt.pipe(z.number().int().min(1, 'must be 1..200').max(200, 'must be 1..200')).optional(),
});
/** Input type of {@link HfLedgersQuery}. */
export type HfLedgersQuery = z.input<typeof HfLedgersQuery>;

// ---------------------------------------------------------------------------------------------
// Error reporting
// ---------------------------------------------------------------------------------------------

/**
 * Describe a zod validation failure as "which field, why", e.g.
 * `price: is required for a limit order; size: must be a plain decimal string (...)`.
 * The sandbox returns this as the `msg` of a `400100` error. Non-zod errors give their message.
 */
export function describeZodError(err: unknown): string {
  if (err instanceof z.ZodError) {
    return err.issues
      .map((i) => {
        const field = i.path.length ? i.path.map(String).join('.') : '(body)';
        let why = i.message;
        if (i.code === 'invalid_type' && /received undefined/.test(why)) why = 'is required';
        else why = why.replace(/^Invalid input: (?=expected)/, '');
        return `${field}: ${why}`;
      })
      .join('; ');
  }
  return err instanceof Error ? err.message : String(err);
}
export * from './schemas/advancedOrders';
