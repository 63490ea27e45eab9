/**
 * One order book panel (issue 6): a WebviewPanel for one symbol, its poller and its message
 * handling. The webview is NOT kept alive when hidden (no retainContextWhenHidden): polling stops
 * while the panel is hidden, and when it becomes visible again the recreated webview says `ready`
 * and the panel fetches and posts one full fresh snapshot.
 *
 * Data: GET /api/v1/market/orderbook/level2_20 or level2_100 (setting `spotdesk.orderBook.depth`
 * or the panel's depth control), every `spotdesk.orderBook.refreshIntervalMs` ms (default 1000)
 * while the public pool's budget holds, slower when it runs low ({@link nextPollDelay}).
 * GET /api/v1/status is polled every 30 s while visible; the webview shows it when not `open`.
 */
import type * as vscode from 'vscode';
import {
  ORDER_BOOK_PROTOCOL,
  type BookDepth,
  type BookSnapshot,
  type PanelSettings,
  type ServiceStatusValue,
  type SymbolMeta,
  type ToWebview,
} from '../../shared/orderbook/protocol';
import { ORDER_BOOK_PAGE } from '../../shared/orderbook/page';
import { level2Weight, nextPollDelay, type PoolBudget } from '../../shared/orderbook/pollPolicy';
import { STALE_AFTER_MS } from '../../shared/orderbook/viewModel';
import type { OwnerMessage, WebviewHost, WebviewKind } from '../webviewHost';
import { failureText } from '../../shared/failure';

/** The panel's view type; also the WebviewPanelSerializer key (and the `onWebviewPanel:` activation event). */
export const VIEW_TYPE = 'spotdesk.orderBook';

/**
 * The order book webview: its page (strict CSP, `data:` images for the chart export), its protocol,
 * and NOT kept alive while hidden (polling stops; the re-created webview says `ready` again).
 */
export const ORDER_BOOK_KIND: WebviewKind<typeof ORDER_BOOK_PROTOCOL> = {
  viewType: VIEW_TYPE,
  name: 'order book',
  page: ORDER_BOOK_PAGE,
  protocol: ORDER_BOOK_PROTOCOL,
  retainContextWhenHidden: false,
};

/** What the panel needs from the API client (a structural subset of `SpotClient`, src/api/client.ts). */
export interface BookSource {
  /** GET /api/v1/market/orderbook/level2_{depth}: `{sequence, time (ms), bids, asks}` as decimal strings. */
  getLevel2(symbol: string, depth: BookDepth): Promise<{ sequence: string; time: number; bids: readonly (readonly [string, string])[]; asks: readonly (readonly [string, string])[] }>;
  /** GET /api/v1/status. */
  getStatus(): Promise<{ status: string; msg?: string }>;
}

/** Dependencies of a panel (injected so the host test and unit code can observe it). */
export interface PanelDeps {
  log: vscode.LogOutputChannel;
  /** The active profile's client for public data (no credentials needed; may throw). */
  source(): Promise<BookSource>;
  /** Symbol metadata (GET /api/v2/symbols), null when unknown. */
  meta(symbol: string): Promise<SymbolMeta | null>;
  /** The public pool's budget, when the client knows it. */
  budget(): PoolBudget | undefined;
  /** Configured base poll interval, ms. */
  intervalMs(): number;
  /** Local clock, ms. */
  now(): number;
}

/** Interval of GET /api/v1/status polls while visible, ms. */
export const STATUS_EVERY_MS = 30_000;

/** Observable state of a panel, returned by `spotdesk.openOrderBook` (host tests read it). */
export interface OrderBookPanelHandle {
  readonly symbol: string;
  /** The last snapshot posted to the webview, if any. */
  readonly lastPosted: BookSnapshot | undefined;
  /** Number of snapshots posted to the webview. */
  readonly postedCount: number;
  /** Number of level-2 requests made. */
  readonly pollCount: number;
  /** Whether the poll timer is running (false while hidden or disposed). */
  readonly polling: boolean;
  readonly settings: PanelSettings;
  readonly disposed: boolean;
  /** The failure shown in the panel (src/shared/failure.ts wording), or null. */
  readonly lastError: string | null;
  /** Resolves with the next snapshot posted after the call (rejects after `timeoutMs`). */
  nextSnapshot(timeoutMs?: number): Promise<BookSnapshot>;
}

/** A live order book panel for one symbol. */
export class OrderBookPanel implements OrderBookPanelHandle {
  lastPosted: BookSnapshot | undefined;
  postedCount = 0;
  pollCount = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private statusTimer: ReturnType<typeof setInterval> | undefined;
  private inflight = false;
  private again = false;
  private failures = 0;
  private meta: SymbolMeta | null = null;
  private status: { status: ServiceStatusValue; msg: string } | undefined;
  private lastPolling = '';
  lastError: string | null = null;
  private waiters: Array<(s: BookSnapshot) => void> = [];
  /** Fires once when the panel is disposed. */
  readonly onDidDispose: vscode.Event<void>;

  constructor(
    readonly host: WebviewHost<typeof ORDER_BOOK_PROTOCOL>,
    readonly symbol: string,
    public settings: PanelSettings,
    private readonly deps: PanelDeps,
  ) {
    this.onDidDispose = host.onDidDispose;
    host.title = `Order Book: ${symbol}`;
    host.track(
      host.onReady(() => this.onReady()),
      host.onMessage((msg) => this.onMessage(msg)),
      host.onDidChangeVisibility((visible) => this.onVisibility(visible)),
      host.onDidDispose(() => this.stop()),
    );
    void this.loadMeta();
    this.onVisibility(host.visible);
  }

  /** Whether the panel was closed. */
  get disposed(): boolean {
    return this.host.disposed;
  }

  get polling(): boolean {
    return this.timer !== undefined || this.inflight;
  }

  /** Reveal the panel (keeps its column). */
  reveal(): void {
    this.host.reveal(undefined, false);
  }

  nextSnapshot(timeoutMs = 10_000): Promise<BookSnapshot> {
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no order book snapshot for ${this.symbol} within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push((s) => {
        clearTimeout(t);
        resolve(s);
      });
    });
  }

  /**
   * The active profile changed: what the panel shows belongs to the old one. Forget the snapshot,
   * the error and the status, tell the webview to clear the book, reload the symbol metadata and
   * poll the new profile's public book.
   */
  profileChanged(): void {
    if (this.disposed) return;
    this.lastPosted = undefined;
    this.lastError = null;
    this.status = undefined;
    this.failures = 0;
    this.post({ type: 'reset' });
    void this.loadMeta();
    if (this.host.visible) {
      this.pollNow();
      void this.pollStatus();
    }
  }

  /** The configured interval changed: the next poll uses it. */
  configChanged(): void {
    if (this.timer !== undefined) this.schedule(0);
  }

  private async loadMeta(): Promise<void> {
    try {
      this.meta = await this.deps.meta(this.symbol);
      this.postInit();
    } catch (err) {
      this.deps.log.warn(`order book ${this.symbol}: symbol metadata unavailable: ${errText(err)}`);
    }
  }

  private post(msg: ToWebview): void {
    this.host.post(msg);
  }

  private postInit(): void {
    this.post({ type: 'init', symbol: this.symbol, meta: this.meta, settings: this.settings, pollMs: Math.round(this.deps.intervalMs()) });
  }

  /** The webview (re)loaded: send it the panel's state, then a fresh snapshot. */
  private onReady(): void {
    this.postInit();
    if (this.status) this.post({ type: 'status', ...this.status });
    if (this.lastError !== null) this.post({ type: 'error', message: this.lastError });
    // Only a recent snapshot is worth showing before the fresh one arrives.
    if (this.lastPosted && this.deps.now() - this.lastPosted.receivedAt < STALE_AFTER_MS) this.post({ type: 'snapshot', snapshot: this.lastPosted });
    if (this.host.visible) this.pollNow();
  }

  private onMessage(msg: OwnerMessage<typeof ORDER_BOOK_PROTOCOL>): void {
    switch (msg.type) {
      case 'setGrouping':
        this.settings = { ...this.settings, grouping: msg.grouping };
        break;
      case 'setDepth':
        if (msg.depth !== this.settings.depth) {
          this.settings = { ...this.settings, depth: msg.depth };
          this.pollNow();
        }
        break;
      case 'refresh':
        this.pollNow();
        break;
    }
  }

  private onVisibility(visible: boolean): void {
    if (this.disposed) return;
    if (visible) {
      // Becoming visible: one full fresh snapshot now, then the regular schedule.
      this.pollNow();
      if (this.statusTimer === undefined) {
        void this.pollStatus();
        this.statusTimer = setInterval(() => void this.pollStatus(), STATUS_EVERY_MS);
      }
    } else {
      this.stop();
      this.setPolling('paused', 0);
    }
  }

  private stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.statusTimer !== undefined) clearInterval(this.statusTimer);
    this.statusTimer = undefined;
  }

  private pollNow(): void {
    this.schedule(0);
  }

  private schedule(ms: number): void {
    if (this.disposed || !this.host.visible) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.poll();
    }, ms);
  }

  private async poll(): Promise<void> {
    if (this.inflight) {
      this.again = true;
      return;
    }
    this.inflight = true;
    let rateLimited = false;
    const depth = this.settings.depth;
    try {
      const src = await this.deps.source();
      this.pollCount++;
      const book = await src.getLevel2(this.symbol, depth);
      const snapshot: BookSnapshot = {
        symbol: this.symbol,
        sequence: book.sequence,
        time: book.time,
        receivedAt: this.deps.now(),
        bids: book.bids,
        asks: book.asks,
      };
      this.failures = 0;
      if (this.lastError !== null) {
        this.lastError = null;
        this.post({ type: 'error', message: null });
      }
      if (!this.disposed && this.host.visible) {
        this.lastPosted = snapshot;
        this.postedCount++;
        this.post({ type: 'snapshot', snapshot });
        const w = this.waiters;
        this.waiters = [];
        for (const f of w) f(snapshot);
      }
    } catch (err) {
      this.failures++;
      rateLimited = (err as { isRateLimit?: boolean }).isRateLimit === true;
      const text = errText(err);
      if (text !== this.lastError) {
        this.lastError = text;
        this.deps.log.warn(`order book ${this.symbol}: ${text}`);
        this.post({ type: 'error', message: text });
      }
    } finally {
      this.inflight = false;
    }
    if (this.disposed || !this.host.visible) return;
    if (this.again) {
      this.again = false;
      this.schedule(0);
      return;
    }
    const d = nextPollDelay({
      baseMs: this.deps.intervalMs(),
      weight: level2Weight(depth),
      budget: this.deps.budget(),
      failures: this.failures,
      rateLimited,
    });
    this.setPolling(d.backoff ? 'backoff' : 'running', d.delayMs);
    this.schedule(d.delayMs);
  }

  private async pollStatus(): Promise<void> {
    try {
      const src = await this.deps.source();
      const s = await src.getStatus();
      const status: ServiceStatusValue = s.status === 'close' || s.status === 'cancelonly' ? s.status : 'open';
      this.status = { status, msg: typeof s.msg === 'string' ? s.msg.slice(0, 500) : '' };
      this.post({ type: 'status', ...this.status });
    } catch (err) {
      this.deps.log.debug(`order book ${this.symbol}: status unavailable: ${errText(err)}`);
    }
  }

  private setPolling(state: 'running' | 'paused' | 'backoff', intervalMs: number): void {
    const key = `${state}:${intervalMs}`;
    if (key === this.lastPolling) return;
    this.lastPolling = key;
    this.post({ type: 'polling', state, intervalMs: Math.max(0, Math.round(intervalMs)) });
  }

  /** Close the panel (polling stops and its listeners are released with the host). */
  dispose(): void {
    this.host.dispose();
  }
}

/** The failure in words (unreachable and why, timeout, HTTP status, exchange code), at most 300 characters. */
function errText(err: unknown): string {
  const s = failureText(err);
  return s.length > 300 ? `${s.slice(0, 300)}…` : s;
}
