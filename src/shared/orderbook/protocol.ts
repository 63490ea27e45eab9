/**
 * Message protocol between the extension host and the order book webview (issue 6), declared
 * once for both sides with the shared protocol style (src/shared/webviewProtocol.ts): the webview
 * validates what it receives with `ORDER_BOOK_PROTOCOL.parseToWebview`, the extension's webview
 * host (src/extension/webviewHost.ts) with `parseToHost`. Malformed messages are rejected
 * (`undefined`), never thrown on.
 *
 * The price levels of a snapshot are checked by a dedicated loop ({@link isLevels}) plugged into
 * the schema: it runs on every snapshot, so it stays a few explicit checks.
 *
 * No `vscode` and no Node APIs here: the file is bundled into the webview.
 */

import type { ServiceStatusValue } from '../../api/schemas';
import * as v from '../validate';
import { defineProtocol, type MessageOf } from '../webviewProtocol';

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
 * `sequence`: decimal digit string (compare as BigInt); `time`: exchange time, ms since epoch;
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

/** What the webview needs to know about the symbol (from GET /api/v2/symbols). Increments are decimal strings. */
export interface SymbolMeta {
  readonly symbol: string;
  readonly baseCurrency: string;
  readonly quoteCurrency: string;
  readonly priceIncrement: string;
  readonly baseIncrement: string;
}

/** The user's panel settings; persisted with the symbol in the webview state (restored by the serializer). */
export interface PanelSettings {
  readonly grouping: Grouping;
  readonly depth: BookDepth;
}

/** The webview state stored with `setState` and handed to the WebviewPanelSerializer after a reload. */
export interface PanelState {
  readonly symbol: string;
  readonly settings: PanelSettings;
}

// ---------------------------------------------------------------------------------------------
// The protocol (src/shared/webviewProtocol.ts): each message declared once, for both sides.

const MAX_LEVELS = 1000;
const MAX_TEXT = 200;
/** Decimal digits only: the wire's `sequence` (may exceed 2^53). */
export const SEQUENCE_RE = /^\d{1,40}$/;
/** Plain non-negative decimal string as the API sends prices and sizes. */
export const PRICE_RE = /^\d{1,40}(?:\.\d{1,40})?$/;

/**
 * True when `x` is an array of `[price, size]` decimal-string pairs (at most 1000).
 * Anything else — including markup smuggled into a price — is rejected here already. A dedicated
 * loop (not a generic schema) because it runs on every snapshot of up to 2 × 100 levels.
 */
export function isLevels(x: unknown): x is BookLevel[] {
  if (!Array.isArray(x) || x.length > MAX_LEVELS) return false;
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
const grouping = v.oneOf(GROUPINGS);
const depth = v.oneOf<BookDepth>([20, 100]);
const levels = v.custom(isLevels, 'at most 1000 [price, size] pairs of decimal strings');

/** `{grouping: "1"|"10"|"100"|"1000", depth: 20|100}`. */
const Settings: v.Schema<PanelSettings> = v.object({ grouping, depth });

const Snapshot: v.Schema<BookSnapshot> = v.object({
  symbol: text(40),
  sequence: v.string({ max: 40, pattern: SEQUENCE_RE, what: 'a string of decimal digits' }),
  time: v.ms,
  receivedAt: v.ms,
  bids: levels,
  asks: levels,
});

const Meta: v.Schema<SymbolMeta> = v.object({
  symbol: text(40),
  baseCurrency: text(40),
  quoteCurrency: text(40),
  priceIncrement: v.refine(decimal, (s) => /[1-9]/.test(s), 'a positive decimal string'),
  baseIncrement: decimal,
});

const PanelStateSchema: v.Schema<PanelState> = v.object({ symbol: v.custom(isSymbol, 'a trading pair symbol'), settings: Settings });

/**
 * The order book protocol. Prices and sizes travel as the API's decimal strings (spec "General
 * rules" 2), unchanged; `sequence` stays a string because it exceeds 2^53 on the real exchange.
 */
export const ORDER_BOOK_PROTOCOL = defineProtocol({
  toWebview: {
    /** Sent in answer to `ready`: symbol metadata (null while unknown), settings, poll interval (ms). */
    init: v.object({ symbol: text(40), meta: v.nullable(Meta), settings: Settings, pollMs: v.ms }),
    /** A full level-2 snapshot (also the shape an incremental feed would rebuild and post). */
    snapshot: v.object({ snapshot: Snapshot }),
    /** Service status (GET /api/v1/status); the webview shows a banner when it is not `open`. */
    status: v.object({ status: v.oneOf<ServiceStatusValue>(['open', 'close', 'cancelonly']), msg: text(500) }),
    /** Polling state: `backoff` while waiting for the rate budget or after errors; `intervalMs` until the next poll. */
    polling: v.object({ state: v.oneOf(['running', 'paused', 'backoff'] as const), intervalMs: v.ms }),
    /** A fetch failed; `message` is a user-facing text (no secrets). `null` clears a previous error. */
    error: v.object({ message: v.nullable(text(500)) }),
    /** The active profile changed: the book shown belongs to another exchange; clear it and wait for the next snapshot. */
    reset: v.object({}),
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

/** Validate a persisted panel state `{symbol, settings}` (symbol: 1–40 chars of `[A-Za-z0-9-_.]`). */
export function isPanelState(x: unknown): x is PanelState {
  return PanelStateSchema.parse(x).ok;
}

/** Default settings of a new panel: grouping ×1, depth from `spotdesk.orderBook.depth` (20 by default). */
export function defaultSettings(depth: BookDepth = 20): PanelSettings {
  return { grouping: '1', depth };
}
