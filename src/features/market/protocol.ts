/**
 * Message protocol between the extension host and the market panel's webview (the order book grown
 * into a per-symbol market panel: book, trade tape, candles, the order ticket), declared once for both sides with the shared protocol style (src/webviewBridge/protocol.ts): the webview
 * validates what it receives with `ORDER_BOOK_PROTOCOL.parseToWebview`, the extension's webview
 * host (src/host/webviewHost.ts) with `parseToHost`. Malformed messages are rejected
 * (`undefined`), never thrown on.
 *
 * The price levels of a snapshot are checked by a dedicated loop ({@link isLevels}) plugged into
 * the schema: it runs on every snapshot, so it stays a few explicit checks.
 *
 * No `vscode` and no Node APIs here: the file is bundled into the webview.
 */

import type { ServiceStatusValue } from '../../api/schemas';
import * as v from '../../webviewBridge/validate';
import { defineProtocol, type MessageOf } from '../../webviewBridge/protocol';
import { INTERVALS, type CandleInterval, type CandleRow } from './model/candles';

/** One aggregated level of a level-2 book: `[price, size]`, both decimal strings (spec "Order book snapshot"). */
export type BookLevel = readonly [price: string, size: string];

/** Order book depth served by GET /api/v1/market/orderbook/level2_20 or level2_100. */
export type BookDepth = 20 | 100;

/** Allowed grouping multipliers of the symbol's priceIncrement (×1, ×10, ×100, ×1000). */
export const GROUPINGS = ['1', '10', '100', '1000'] as const;
/** A grouping multiplier of the symbol's priceIncrement, as a decimal string. */
export type Grouping = (typeof GROUPINGS)[number];

/** Service status value of GET /api/v1/status (spec "Service status"), declared by the wire schema. */
export type { ServiceStatusValue };

/**
 * A level-2 snapshot as posted to the webview.
 * `sequence`: decimal digit string: the host keeps the book's sequence as a bigint and writes it
 * here once (JSON has no bigint); the webview parses it once (`parseSequence`, model/viewModel.ts).
 * `time`: exchange time, ms since epoch;
 * `receivedAt`: host clock when the snapshot arrived, ms; `bids` high→low, `asks` low→high.
 */
export interface BookSnapshot {
  readonly symbol: string;
  readonly sequence: string;
  readonly time: number;
  readonly receivedAt: number;
  readonly bids: readonly BookLevel[];
  readonly asks: readonly BookLevel[];
}

/**
 * The level changes of the streamed book since the previous book message (`book-snapshot` or
 * `book-delta`), merged over at most one coalescing tick (src/features/market/marketFeed.ts).
 * `start`/`end`: the sequence range covered, decimal digit strings; the webview applies a delta only
 * when `start` is its book's sequence + 1, else it asks for a `book-snapshot` (`book-resync`).
 * `bids`/`asks`: `[price, size]` with the keeper's canonical price and the level's new size, `"0"`
 * when the level was removed; one entry per price. `time`: exchange time of the last increment, ms;
 * `receivedAt`: host clock when posted, ms.
 */
export interface BookDelta {
  readonly symbol: string;
  readonly start: string;
  readonly end: string;
  readonly time: number;
  readonly receivedAt: number;
  readonly bids: readonly BookLevel[];
  readonly asks: readonly BookLevel[];
}

/**
 * What the webview needs to know about the symbol (from GET /api/v2/symbols). Increments and limits
 * are decimal strings; the order rules (optional: absent from older hosts) let the ticket check an
 * order with the same module as the request builder (src/api/orderRules.ts).
 */
export interface SymbolMeta {
  readonly symbol: string;
  readonly baseCurrency: string;
  readonly quoteCurrency: string;
  readonly priceIncrement: string;
  readonly baseIncrement: string;
  readonly quoteIncrement?: string;
  readonly baseMinSize?: string;
  readonly quoteMinSize?: string;
  readonly baseMaxSize?: string;
  readonly quoteMaxSize?: string;
  readonly minFunds?: string | null;
  readonly enableTrading?: boolean;
}

/**
 * The user's panel settings; persisted with the symbol in the webview state (restored by the
 * serializer). `interval` (candles) is absent in states saved before the chart existed.
 */
export interface PanelSettings {
  readonly grouping: Grouping;
  readonly depth: BookDepth;
  readonly interval?: CandleInterval;
}

/** The panel's layout: sizes of the resizable parts (px) and the collapsed sections, by name. */
export interface PanelLayout {
  /** Width of the book column and height of the chart, px. */
  readonly sizes: Readonly<Record<string, number>>;
  /** Names of collapsed sections: `chart`, `tape`, `depth`, `ticket`. */
  readonly collapsed: readonly string[];
}

/** The webview state stored with `setState` and handed to the WebviewPanelSerializer after a reload. */
export interface PanelState {
  readonly symbol: string;
  readonly settings: PanelSettings;
  readonly layout?: PanelLayout;
}

/** One trade of the tape (`/market/match`, or GET /api/v1/market/histories): decimal strings, `side` the taker's, `time` ms. */
export interface TradePrint {
  readonly tradeId: string;
  readonly price: string;
  readonly size: string;
  readonly side: 'buy' | 'sell';
  readonly time: number;
}

/** 24 h statistics of the symbol (`/market/snapshot` or GET /api/v1/market/stats); decimals or null when unknown. */
export interface MarketStats {
  readonly last: string | null;
  readonly changePrice: string | null;
  /** e.g. "-0.0123" (−1.23 %). */
  readonly changeRate: string | null;
  readonly high: string | null;
  readonly low: string | null;
  /** Volume in base and in quote. */
  readonly vol: string | null;
  readonly volValue: string | null;
}

/**
 * Where the book comes from: `stream` (the WebSocket feed through the exact book keeper) or
 * `polling` (REST snapshots, the fallback); `state` is `connecting`, `live`, `resyncing` (the keeper
 * is loading a fresh snapshot after a gap or a reconnect), `reconnecting` or `polling`; `reason` says
 * why it is not live (the failure in words), else null.
 */
export interface FeedInfo {
  readonly mode: 'stream' | 'polling';
  readonly state: 'connecting' | 'live' | 'resyncing' | 'reconnecting' | 'polling';
  readonly reason: string | null;
}

/**
 * One of the user's active orders on the symbol: remaining size and prices as decimal strings. A
 * resting order marks its level of the book and draws a price line on the chart. A stop order that
 * has not triggered carries `stop` (KuCoin's `loss` / `entry`) and its trigger `stopPrice`: it draws
 * a dashed line at the trigger and marks no row; its `price` is the limit it will be placed at, "0"
 * for a market stop (src/features/market/model/ownOrders.ts).
 */
export interface OwnOrder {
  readonly id: string;
  readonly side: 'buy' | 'sell';
  readonly price: string;
  readonly remain: string;
  readonly stop?: 'loss' | 'entry';
  readonly stopPrice?: string;
}

/**
 * What the ticket knows about the account: available balances of the trade account (base, quote),
 * the user's fee rates on the symbol, the user's active orders on it. `canTrade` false (no
 * credentials, or the account could not be read: `reason`) disables placement.
 */
export interface AccountInfo {
  readonly canTrade: boolean;
  readonly reason: string | null;
  readonly availableBase: string | null;
  readonly availableQuote: string | null;
  readonly makerFeeRate: string | null;
  readonly takerFeeRate: string | null;
  readonly orders: OwnOrder[];
}

// ---------------------------------------------------------------------------------------------
// The protocol (src/webviewBridge/protocol.ts): each message declared once, for both sides.

const MAX_LEVELS = 1000;
/**
 * Most levels per side of a `book-snapshot` or a `book-delta`: the webview holds the streamed book
 * (it draws the top `depth`); a keeper holding more sends its best {@link MAX_BOOK_LEVELS} levels.
 */
export const MAX_BOOK_LEVELS = 5000;
const MAX_TEXT = 200;
/** Decimal digits only: the wire's `sequence` (may exceed 2^53). */
export const SEQUENCE_RE = /^\d{1,40}$/;
/** Plain non-negative decimal string as the API sends prices and sizes. */
export const PRICE_RE = /^\d{1,40}(?:\.\d{1,40})?$/;

/**
 * True when `x` is an array of `[price, size]` decimal-string pairs (at most `max`, default 1000).
 * Anything else — including markup smuggled into a price — is rejected here already. A dedicated
 * loop (not a generic schema) because it runs on every book message.
 */
export function isLevels(x: unknown, max = MAX_LEVELS): x is BookLevel[] {
  if (!Array.isArray(x) || x.length > max) return false;
  for (const l of x) {
    if (!Array.isArray(l) || l.length !== 2) return false;
    if (typeof l[0] !== 'string' || typeof l[1] !== 'string' || !PRICE_RE.test(l[0]) || !PRICE_RE.test(l[1])) return false;
  }
  return true;
}

/** A trading pair symbol as used in URLs: 1–40 characters of letters, digits, `-`, `_`, `.`. */
export function isSymbol(x: unknown): x is string {
  return typeof x === 'string' && /^[A-Za-z0-9._-]{1,40}$/.test(x);
}

const text = (max = MAX_TEXT) => v.string({ max });
const decimal = v.string({ max: 81, pattern: PRICE_RE, what: 'a plain decimal string' });
/** A decimal that may be negative (24 h change). */
const signedDecimal = v.string({ max: 82, pattern: /^-?\d{1,40}(?:\.\d{1,40})?$/, what: 'a decimal string' });
const grouping = v.oneOf(GROUPINGS);
const depth = v.oneOf<BookDepth>([20, 100]);
const interval = v.oneOf<CandleInterval>(INTERVALS);
const levels = v.custom(isLevels, 'at most 1000 [price, size] pairs of decimal strings');
const side = v.oneOf(['buy', 'sell'] as const);

/** `{grouping: "1"|"10"|"100"|"1000", depth: 20|100, interval?}`. */
const Settings: v.Schema<PanelSettings> = v.object({ grouping, depth, interval: v.optional(interval) });

/** A layout: at most 8 sizes (px, 0–10000) and 8 collapsed section names. */
const Layout: v.Schema<PanelLayout> = v.object({
  sizes: v.record(v.number({ min: 0, max: 10_000 }), { maxKeys: 8 }),
  collapsed: v.array(v.oneOf(['chart', 'tape', 'depth', 'ticket'] as const), { max: 8 }),
});

const DIGITS_RE = /^\d{1,40}$/;
/**
 * Most candle rows in one `candles` message: 4 answers of 1,500 (the chart opens on 3 × 24 h, 4,320 rows of
 * 1min, loaded in several answers: src/shared/market/candles.ts loadCandleHistory).
 */
export const MAX_CANDLE_ROWS_MESSAGE = 6000;

/** A candle row `[start s, open, close, high, low, volume, turnover]`, all strings (checked by a loop: up to {@link MAX_CANDLE_ROWS_MESSAGE} rows). */
function isCandleRows(x: unknown): x is CandleRow[] {
  if (!Array.isArray(x) || x.length > MAX_CANDLE_ROWS_MESSAGE) return false;
  for (const r of x) {
    if (!Array.isArray(r) || r.length !== 7 || typeof r[0] !== 'string' || !DIGITS_RE.test(r[0])) return false;
    for (let i = 1; i < 7; i++) if (typeof r[i] !== 'string' || !PRICE_RE.test(r[i])) return false;
  }
  return true;
}

const Trade: v.Schema<TradePrint> = v.object({
  tradeId: v.string({ max: 40, pattern: DIGITS_RE, what: 'a string of decimal digits' }),
  price: decimal,
  size: decimal,
  side,
  time: v.ms,
});

const Stats: v.Schema<MarketStats> = v.object({
  last: v.nullable(decimal),
  changePrice: v.nullable(signedDecimal),
  changeRate: v.nullable(signedDecimal),
  high: v.nullable(decimal),
  low: v.nullable(decimal),
  vol: v.nullable(decimal),
  volValue: v.nullable(decimal),
});

const Own: v.Schema<OwnOrder> = v.object({ id: text(64), side, price: decimal, remain: decimal, stop: v.optional(v.oneOf(['loss', 'entry'] as const)), stopPrice: v.optional(decimal) });

const sequence = v.string({ max: 40, pattern: SEQUENCE_RE, what: 'a string of decimal digits' });
const Snapshot: v.Schema<BookSnapshot> = v.object({
  symbol: text(40),
  sequence,
  time: v.ms,
  receivedAt: v.ms,
  bids: levels,
  asks: levels,
});

const bookLevels = v.custom((x: unknown): x is BookLevel[] => isLevels(x, MAX_BOOK_LEVELS), `at most ${MAX_BOOK_LEVELS} [price, size] pairs of decimal strings`);
/** A held book: a snapshot with up to {@link MAX_BOOK_LEVELS} levels a side. */
const HeldSnapshot: v.Schema<BookSnapshot> = v.object({ symbol: text(40), sequence, time: v.ms, receivedAt: v.ms, bids: bookLevels, asks: bookLevels });

/** One price per side in a delta (the host merges a level's changes into its last size). */
function uniquePrices(levels: readonly BookLevel[]): boolean {
  const seen = new Set<string>();
  for (const l of levels) {
    if (seen.has(l[0])) return false;
    seen.add(l[0]);
  }
  return true;
}

const Delta: v.Schema<BookDelta> = v.refine(
  v.object({ symbol: text(40), start: sequence, end: sequence, time: v.ms, receivedAt: v.ms, bids: bookLevels, asks: bookLevels }),
  (d) => BigInt(d.start) <= BigInt(d.end) && uniquePrices(d.bids) && uniquePrices(d.asks),
  'a delta with start ≤ end and one entry per price and side',
);

const positiveDecimal = v.refine(decimal, (s) => /[1-9]/.test(s), 'a positive decimal string');
const Meta: v.Schema<SymbolMeta> = v.object({
  symbol: text(40),
  baseCurrency: text(40),
  quoteCurrency: text(40),
  priceIncrement: positiveDecimal,
  baseIncrement: decimal,
  quoteIncrement: v.optional(positiveDecimal),
  baseMinSize: v.optional(decimal),
  quoteMinSize: v.optional(decimal),
  baseMaxSize: v.optional(decimal),
  quoteMaxSize: v.optional(decimal),
  minFunds: v.optional(v.nullable(decimal)),
  enableTrading: v.optional(v.boolean()),
});

const PanelStateSchema: v.Schema<PanelState> = v.object({ symbol: v.custom(isSymbol, 'a trading pair symbol'), settings: Settings, layout: v.optional(Layout) });

/**
 * The order book protocol. Prices and sizes travel as the API's decimal strings (spec "General
 * rules" 2), unchanged; `sequence` stays a string because it exceeds 2^53 on the real exchange.
 */
export const ORDER_BOOK_PROTOCOL = defineProtocol({
  toWebview: {
    /**
     * Sent in answer to `ready`: symbol metadata (null while unknown), settings, poll interval (ms),
     * the profile the panel speaks to (optional: absent from older hosts), and the layout the person
     * last chose in any market panel (optional: a panel without a saved layout of its own takes it).
     */
    init: v.object({ symbol: text(40), meta: v.nullable(Meta), settings: Settings, pollMs: v.ms, layout: v.optional(Layout), profile: v.optional(v.object({ name: text(100), sandbox: v.boolean(), funds: v.optional(text(10)), fundsLabel: v.optional(text(60)), fundsTitle: v.optional(text(300)) })) }),
    /**
     * A level-2 snapshot of the top `depth` levels (the polling path: GET level2_{20|100}); the
     * webview shows it as it is, and no `book-delta` follows it.
     */
    snapshot: v.object({ snapshot: Snapshot }),
    /**
     * The streamed book the webview holds from now on (the keeper's levels, up to
     * {@link MAX_BOOK_LEVELS} a side): sent when the keeper synced, when the webview (re)loads and
     * in answer to `book-resync`. `book-delta`s continue from its `sequence`.
     */
    'book-snapshot': v.object({ snapshot: HeldSnapshot }),
    /** The changes of the streamed book since the previous book message ({@link BookDelta}). */
    'book-delta': v.object({ delta: Delta }),
    /** Service status (GET /api/v1/status); the webview shows a banner when it is not `open`. */
    status: v.object({ status: v.oneOf<ServiceStatusValue>(['open', 'close', 'cancelonly']), msg: text(500) }),
    /**
     * The borrowed market of the Paper and Replay profiles (src/api/borrowedMarket.ts `SourceWords`): `short`
     * for the header's badge (`paper · live`, `replay ×10 · finished`…), `detail` its tooltip, `state` the
     * upstream's state, `warn` while new orders are refused. `null` on the other profiles.
     */
    source: v.object({
      source: v.nullable(
        v.object({
          short: text(80),
          detail: text(600),
          state: v.oneOf(['live', 'resyncing', 'unreachable', 'closed', 'unknown', 'finished'] as const),
          warn: v.boolean(),
        }),
      ),
    }),
    /** Polling state: `backoff` while waiting for the rate budget or after errors; `intervalMs` until the next poll. */
    polling: v.object({ state: v.oneOf(['running', 'paused', 'backoff'] as const), intervalMs: v.ms }),
    /** A fetch failed; `message` is a user-facing text (no secrets). `null` clears a previous error. */
    error: v.object({ message: v.nullable(text(500)) }),
    /** The active profile changed: the book shown belongs to another exchange; clear it and wait for the next snapshot. */
    reset: v.object({}),
    /** Where the book comes from and its state (stream/polling, live/resyncing/…, and why). */
    feed: v.object({ mode: v.oneOf(['stream', 'polling'] as const), state: v.oneOf(['connecting', 'live', 'resyncing', 'reconnecting', 'polling'] as const), reason: v.nullable(text(500)) }),
    /**
     * The stream is alive (its welcome, a pong, or any data message — also in a quiet market where
     * the book does not change); `staleAfterMs`: the stream's heartbeat timeout (the token's
     * `pingInterval + pingTimeout`). Sent at most about once a second (src/features/market/model/freshness.ts).
     */
    heartbeat: v.object({ staleAfterMs: v.ms }),
    /** Trades for the tape (newest last); `replace` drops the tape first (history load, profile change). */
    trades: v.object({ trades: v.array(Trade, { max: 500 }), replace: v.boolean() }),
    /** 24 h statistics for the header. */
    stats: v.object({ stats: Stats }),
    /** Candle history of `interval`, oldest first (null with `error` when it could not be loaded). */
    candles: v.object({ interval, candles: v.nullable(v.custom(isCandleRows, `at most ${MAX_CANDLE_ROWS_MESSAGE} candle rows of strings`)), error: v.nullable(text(500)) }),
    /** Account figures of the ticket and the user's resting orders on the symbol. */
    account: v.object({
      account: v.object({
        canTrade: v.boolean(),
        reason: v.nullable(text(500)),
        availableBase: v.nullable(decimal),
        availableQuote: v.nullable(decimal),
        makerFeeRate: v.nullable(decimal),
        takerFeeRate: v.nullable(decimal),
        orders: v.array(Own, { max: 500 }),
      }),
    }),
    /** Move the focus to the ticket (keyboard shortcut), optionally choosing the side. */
    focusTicket: v.object({ side: v.nullable(side) }),
    /** Outcome of a placement from the ticket (after the confirmation): a line for the person. */
    placed: v.object({ ok: v.boolean(), message: text(500) }),
  },
  toHost: {
    /** The webview script loaded (first load and every re-creation after being hidden). */
    ready: v.object({}),
    /** The user picked a grouping multiplier. */
    setGrouping: v.object({ grouping }),
    /** The user picked a depth (20 or 100 levels). */
    setDepth: v.object({ depth }),
    /** The user asked for an immediate refresh (also the error banner's Retry). */
    refresh: v.object({}),
    /**
     * The webview's streamed book lost continuity (a `book-delta` whose `start` is not its
     * sequence + 1, or a delta without a `book-snapshot` before it): send a `book-snapshot`. The
     * webview drops deltas until it arrives.
     */
    'book-resync': v.object({}),
    /** The user picked a candle interval (the host loads its history). */
    setInterval: v.object({ interval }),
    /**
     * Place the ticket's order: an HF limit or market order, a stop-limit or stop-market order (`stopPrice`:
     * the trigger) or an OCO order (`price` take profit, `stopPrice`, `limitPrice` the stop leg's price;
     * src/features/market/model/ticket.ts). The host checks it again with the rules modules, recomputes the
     * figures from its own data and ALWAYS asks the person in a modal before sending anything.
     */
    place: v.object({
      side,
      orderType: v.oneOf(['limit', 'market', 'stopLimit', 'stopMarket', 'oco'] as const),
      price: v.string({ max: 81 }),
      size: v.string({ max: 81 }),
      stopPrice: v.optional(v.string({ max: 81 })),
      limitPrice: v.optional(v.string({ max: 81 })),
    }),
    /** The person changed the layout (collapsed a section, moved a splitter): new panels start with it. */
    setLayout: v.object({ layout: Layout }),
    /** Open the request builder pre-filled with this side and price (nothing is sent). */
    prefillBuilder: v.object({ side, price: decimal }),
  },
});

/** Extension → webview messages. */
export type ToWebview = MessageOf<typeof ORDER_BOOK_PROTOCOL.toWebview>;
/** Webview → extension messages. */
export type ToHost = MessageOf<typeof ORDER_BOOK_PROTOCOL.toHost>;

/** Validate settings: `{grouping: "1"|"10"|"100"|"1000", depth: 20|100}`. */
export function isSettings(x: unknown): x is PanelSettings {
  return Settings.parse(x).ok;
}

/** Validate a layout `{sizes (px, at most 8), collapsed (section names)}` (e.g. one read back from the extension's global state). */
export function isPanelLayout(x: unknown): x is PanelLayout {
  return Layout.parse(x).ok;
}

/** Validate a persisted panel state `{symbol, settings}` (symbol: 1–40 chars of `[A-Za-z0-9-_.]`). */
export function isPanelState(x: unknown): x is PanelState {
  return PanelStateSchema.parse(x).ok;
}

/** Default settings of a new panel: grouping ×1, depth from `spotdesk.orderBook.depth` (20 by default), 1 min candles. */
export function defaultSettings(depth: BookDepth = 20): PanelSettings {
  return { grouping: '1', depth, interval: '1min' };
}
