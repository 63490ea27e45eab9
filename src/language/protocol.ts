/**
 * The SpotDesk extensions of LSP spoken between the order-document language server
 * (src/language/server.ts) and its clients: the VS Code client (src/features/language/host/) and any
 * other editor (Neovim, Helix, Zed… through `dist/spotorder-language-server.js --stdio`).
 *
 * Plain data and method names only: no `vscode`, no Node APIs, so both sides import it.
 * Everything here is optional for a client: a plain LSP client gets diagnostics, completion,
 * hover, quick fixes and formatting with the defaults below; the code lenses and the live market
 * data of the hover through the client are VS Code's extras.
 */

/** Language id of order documents (`*.spotorder.json`) in VS Code. */
export const ORDER_LANGUAGE_ID = 'spotorder';
/** Source of every diagnostic the server publishes. */
export const DIAGNOSTIC_SOURCE = 'SpotDesk';
/** Base URL used when the client passes none: the public KuCoin REST API (public metadata only). */
export const DEFAULT_BASE_URL = 'https://api.kucoin.com';

/**
 * `initializationOptions` of the `initialize` request (all optional). The server never receives
 * credentials: it reads only PUBLIC endpoints (GET /api/v2/symbols, and GET
 * /api/v1/market/allTickers when `market` is not `'client'`) of `baseUrl`.
 */
export interface InitOptions {
  /** REST base URL of the exchange whose symbol rules apply (default {@link DEFAULT_BASE_URL}). */
  baseUrl?: string | null;
  /** Profile name shown in messages (e.g. "Sandbox (local)"). */
  profileName?: string;
  /**
   * Directory of the last known symbol metadata (one JSON file per base URL), used offline.
   * Default: `$XDG_CACHE_HOME/spotdesk` (or `~/.cache/spotdesk`; `%LOCALAPPDATA%\spotdesk` on Windows).
   */
  cacheDir?: string;
  /** How long fetched symbol metadata counts as fresh, ms (default 5 minutes). */
  symbolsMaxAgeMs?: number;
  /**
   * Where the hover's live best bid/ask and last price come from: `'client'` asks the client with
   * {@link MARKET_REQUEST} (VS Code: the extension has the feed); `'server'` (default) reads
   * GET /api/v1/market/allTickers itself; `'none'` shows none.
   */
  market?: 'client' | 'server' | 'none';
  /**
   * Command ids of the client's code lenses. Without them the server offers no code lenses (a
   * plain client has no command that could test, sign or place an order).
   */
  commands?: { testOrder: string; showSignature: string; placeOrder: string };
}

/** Notification client → server: the active profile changed (base URL of its PUBLIC endpoints). */
export const PROFILE_NOTIFICATION = 'spotdesk/profile';
/** Params of {@link PROFILE_NOTIFICATION}. */
export interface ProfileParams {
  baseUrl: string | null;
  profileName?: string;
}

/** Request server → client: the live market of a symbol (answered by the VS Code client). */
export const MARKET_REQUEST = 'spotdesk/market';
/** Params of {@link MARKET_REQUEST}. */
export interface MarketParams {
  symbol: string;
  /** Also the visible levels (GET /api/v1/market/orderbook/level2_20): a market order's hover walks them. */
  depth?: boolean;
}
/**
 * Result of {@link MARKET_REQUEST}: decimal strings (null when the book side is empty / no trade
 * yet), `time` in epoch ms, `source` says where it came from (e.g. "GET /api/v1/market/allTickers").
 * null when the symbol is unknown.
 */
export type MarketResult = {
  bestBid: string | null;
  bestAsk: string | null;
  last: string | null;
  time: number;
  source: string;
  /** With `depth`: the visible levels, best first ([price, size] decimal strings). */
  bids?: ReadonlyArray<readonly [string, string]>;
  asks?: ReadonlyArray<readonly [string, string]>;
} | null;

/** Request client → server: re-fetch the symbol metadata now. Result: {@link SymbolsStatus}. */
export const REFRESH_SYMBOLS_REQUEST = 'spotdesk/refreshSymbols';
/** Request client → server: the state of the symbol metadata. Result: {@link SymbolsStatus}. */
export const STATUS_REQUEST = 'spotdesk/status';
/**
 * State of the server's symbol metadata: `fresh` (fetched within the max age), `stale` (older,
 * a refresh is due or running), `offline` (the last fetch failed: the last known metadata is used),
 * `none` (nothing known yet: symbol rules are not checked).
 */
export interface SymbolsStatus {
  baseUrl: string | null;
  state: 'fresh' | 'stale' | 'offline' | 'none';
  /** Number of symbols known. */
  count: number;
  /** When the metadata in use was fetched (epoch ms), or null. */
  fetchedAt: number | null;
  /** Message of the last failed fetch, if the last fetch failed. */
  error?: string;
}

/** Arguments of the code-lens commands: the document URI and the order's index in it. */
export type OrderLensArgs = [uri: string, orderIndex: number];

/**
 * The market of a level-2 answer (GET /api/v1/market/orderbook/level2_20): best bid/ask and the visible
 * levels, best first; no last price (the book has none).
 */
export function bookMarket(book: { time: number; bids: readonly (readonly [string, string])[]; asks: readonly (readonly [string, string])[] }): MarketResult {
  return { bestBid: book.bids[0]?.[0] ?? null, bestAsk: book.asks[0]?.[0] ?? null, last: null, time: book.time, source: 'GET /api/v1/market/orderbook/level2_20', bids: book.bids, asks: book.asks };
}
