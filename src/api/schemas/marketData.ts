/**
 * Wire schemas of market data (spec "Market data", "Currencies"; KuCoin's public endpoints beyond the spec
 * that real clients call): level-2 books, tickers, symbols, markets, the service status, server time, fiat
 * prices, WebSocket bullet tokens, currencies and chains, 24 h stats, level 1, trade histories and candles,
 * with their queries.
 * Conventions as in src/api/schemas.ts (the index that re-exports this file).
 */
import { z } from 'zod';
import { DecimalOrEmpty, DecimalString, DigitString, ExactId, Millis, NullableDecimal, QueryNonNeg, Side, SymbolString } from './primitives';

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

/** Query of a level-2 snapshot: `{symbol}`. */
export const SymbolQuery = z.object({ symbol: SymbolString });

/** Query of GET /api/v1/prices: `base` fiat (default USD), `currencies` comma-separated. */
export const PricesQuery = z.object({ base: z.string().optional(), currencies: z.string().optional() });

/** Query of GET /api/v2/symbols: optional `market`. */
export const SymbolsQuery = z.object({ market: z.string().optional() });
/** Path+query of GET /api/v3/currencies/{currency}: optional `chain`. */
export const CurrencyQuery = z.object({ currency: z.string().min(1), chain: z.string().optional() });

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
