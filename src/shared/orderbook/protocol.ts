/**
 * Message protocol between the extension host and the order book webview (issue 6).
 *
 * Both directions are discriminated unions on `type`. Every message is validated on receipt,
 * on BOTH sides, with the hand-written validators below ({@link parseHostMessage} in the
 * webview, {@link parseWebviewMessage} in the extension).
 *
 * Why a hand validator and not zod: the same validator runs in the webview bundle, and zod 4
 * would add ~50 KB minified to a bundle that is otherwise ~20 KB; the messages are small and
 * flat, so a few explicit checks are shorter than the schema and keep one source of truth for
 * both sides. The validators reject anything malformed (returning `undefined`), they never throw.
 *
 * Prices and sizes travel as the API's decimal strings (spec "General rules" 2), unchanged;
 * `sequence` stays a string because it exceeds 2^53 on the real exchange.
 *
 * No `vscode` and no Node APIs here: the file is bundled into the webview.
 */

import type { ServiceStatusValue } from '../../api/schemas';

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

/** Extension → webview messages. */
export type HostMessage =
  /** Sent in answer to `ready`: symbol metadata (null while unknown), settings, poll interval (ms). */
  | { readonly type: 'init'; readonly symbol: string; readonly meta: SymbolMeta | null; readonly settings: PanelSettings; readonly pollMs: number }
  /** A full level-2 snapshot (also the shape an incremental feed would rebuild and post). */
  | { readonly type: 'snapshot'; readonly snapshot: BookSnapshot }
  /** Service status (GET /api/v1/status); the webview shows a banner when it is not `open`. */
  | { readonly type: 'status'; readonly status: ServiceStatusValue; readonly msg: string }
  /** Polling state: `backoff` while waiting for the rate budget or after errors; `intervalMs` until the next poll. */
  | { readonly type: 'polling'; readonly state: 'running' | 'paused' | 'backoff'; readonly intervalMs: number }
  /** A fetch failed; `message` is a user-facing text (no secrets). `null` clears a previous error. */
  | { readonly type: 'error'; readonly message: string | null };

/** Webview → extension messages. */
export type WebviewMessage =
  /** The webview script loaded (first load and every re-creation after being hidden). */
  | { readonly type: 'ready' }
  /** The user picked a grouping multiplier. */
  | { readonly type: 'setGrouping'; readonly grouping: Grouping }
  /** The user picked a depth (20 or 100 levels). */
  | { readonly type: 'setDepth'; readonly depth: BookDepth }
  /** The user asked for an immediate refresh. */
  | { readonly type: 'refresh' };

// ---------------------------------------------------------------------------------------------
// Validators (hand-written, see the module comment). They return the typed message or undefined.

const MAX_LEVELS = 1000;
const MAX_TEXT = 200;
/** Decimal digits only: the wire's `sequence` (may exceed 2^53). */
export const SEQUENCE_RE = /^\d{1,40}$/;
/** Plain non-negative decimal string as the API sends prices and sizes. */
export const PRICE_RE = /^\d{1,40}(?:\.\d{1,40})?$/;

type Rec = Record<string, unknown>;
const isRec = (x: unknown): x is Rec => typeof x === 'object' && x !== null && !Array.isArray(x);
const isText = (x: unknown, max = MAX_TEXT): x is string => typeof x === 'string' && x.length <= max;
const isMs = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;
const isGrouping = (x: unknown): x is Grouping => typeof x === 'string' && (GROUPINGS as readonly string[]).includes(x);
const isDepth = (x: unknown): x is BookDepth => x === 20 || x === 100;
const isStatus = (x: unknown): x is ServiceStatusValue => x === 'open' || x === 'close' || x === 'cancelonly';

/**
 * True when `x` is an array of `[price, size]` decimal-string pairs (at most 1000).
 * Anything else — including markup smuggled into a price — is rejected here already.
 */
export function isLevels(x: unknown): x is BookLevel[] {
  if (!Array.isArray(x) || x.length > MAX_LEVELS) return false;
  for (const l of x) {
    if (!Array.isArray(l) || l.length !== 2) return false;
    if (typeof l[0] !== 'string' || typeof l[1] !== 'string' || !PRICE_RE.test(l[0]) || !PRICE_RE.test(l[1])) return false;
  }
  return true;
}

/** Validate settings: `{grouping: "1"|"10"|"100"|"1000", depth: 20|100}`. */
export function isSettings(x: unknown): x is PanelSettings {
  return isRec(x) && isGrouping(x.grouping) && isDepth(x.depth);
}

/** Validate a persisted panel state `{symbol, settings}` (symbol: 1–40 chars of `[A-Za-z0-9-_.]`). */
export function isPanelState(x: unknown): x is PanelState {
  return isRec(x) && isSymbol(x.symbol) && isSettings(x.settings);
}

/** A trading pair symbol as used in URLs: 1–40 characters of letters, digits, `-`, `_`, `.`. */
export function isSymbol(x: unknown): x is string {
  return typeof x === 'string' && /^[A-Za-z0-9._-]{1,40}$/.test(x);
}

function isSnapshot(x: unknown): x is BookSnapshot {
  return (
    isRec(x) &&
    isText(x.symbol, 40) &&
    typeof x.sequence === 'string' &&
    SEQUENCE_RE.test(x.sequence) &&
    isMs(x.time) &&
    isMs(x.receivedAt) &&
    isLevels(x.bids) &&
    isLevels(x.asks)
  );
}

function isMeta(x: unknown): x is SymbolMeta {
  return (
    isRec(x) &&
    isText(x.symbol, 40) &&
    isText(x.baseCurrency, 40) &&
    isText(x.quoteCurrency, 40) &&
    typeof x.priceIncrement === 'string' &&
    PRICE_RE.test(x.priceIncrement) &&
    /[1-9]/.test(x.priceIncrement) &&
    typeof x.baseIncrement === 'string' &&
    PRICE_RE.test(x.baseIncrement)
  );
}

/**
 * Validate a message received by the webview. Returns the typed message, or `undefined` when `x`
 * is not a well-formed {@link HostMessage} (unknown type, missing field, non-decimal price…).
 */
export function parseHostMessage(x: unknown): HostMessage | undefined {
  if (!isRec(x)) return undefined;
  switch (x.type) {
    case 'init':
      return isText(x.symbol, 40) && (x.meta === null || isMeta(x.meta)) && isSettings(x.settings) && isMs(x.pollMs)
        ? (x as HostMessage)
        : undefined;
    case 'snapshot':
      return isSnapshot(x.snapshot) ? (x as HostMessage) : undefined;
    case 'status':
      return isStatus(x.status) && isText(x.msg, 500) ? (x as HostMessage) : undefined;
    case 'polling':
      return (x.state === 'running' || x.state === 'paused' || x.state === 'backoff') && isMs(x.intervalMs)
        ? (x as HostMessage)
        : undefined;
    case 'error':
      return x.message === null || isText(x.message, 500) ? (x as HostMessage) : undefined;
    default:
      return undefined;
  }
}

/**
 * Validate a message received by the extension from the webview. Returns the typed message, or
 * `undefined` when `x` is not a well-formed {@link WebviewMessage}.
 */
export function parseWebviewMessage(x: unknown): WebviewMessage | undefined {
  if (!isRec(x)) return undefined;
  switch (x.type) {
    case 'ready':
    case 'refresh':
      return { type: x.type };
    case 'setGrouping':
      return isGrouping(x.grouping) ? { type: 'setGrouping', grouping: x.grouping } : undefined;
    case 'setDepth':
      return isDepth(x.depth) ? { type: 'setDepth', depth: x.depth } : undefined;
    default:
      return undefined;
  }
}

/** Default settings of a new panel: grouping ×1, depth from `spotdesk.orderBook.depth` (20 by default). */
export function defaultSettings(depth: BookDepth = 20): PanelSettings {
  return { grouping: '1', depth };
}
