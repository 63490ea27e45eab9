/**
 * One market panel (the order book, grown into the per-symbol market panel): a WebviewPanel for one
 * symbol with the stream-fed book, the trade tape and the candlestick chart (./marketFeed.ts), and
 * the Order Ticket. The webview is NOT kept alive when hidden (no
 * retainContextWhenHidden): when it becomes visible again the recreated webview says `ready` and the
 * panel sends it everything at once.
 *
 * Placement from the ticket: the webview only asks. The panel re-reads the trade account's balances
 * (GET /api/v1/accounts), takes the best bid/ask from its own book and the fee rates from the
 * exchange, checks the order with the ONE rules module (src/api/orderRules.ts, as the request builder
 * does) and the ticket's arithmetic (src/features/market/model/ticket.ts), and ALWAYS asks the person in a
 * modal (`services.prompts.confirm`) naming the profile, with the notional, the fee estimate and the
 * warnings (crossing the spread, far from the market) — whatever the webview sent.
 */
import * as vscode from 'vscode';
import { randomBytes } from 'crypto';
import { ORDER_BOOK_PROTOCOL, type AccountInfo, type BookSnapshot, type FeedInfo, type PanelLayout, type PanelSettings, type SymbolMeta, type ToWebview, type TradePrint } from '../protocol';
import { ORDER_BOOK_PAGE } from '../page';
import type { PoolBudget } from '../model/pollPolicy';
import { DEFAULT_INTERVAL, loadCandleHistory, type CandleInterval, type CandleRow } from '../model/candles';
import { quoteTicket, type TicketContext, type TicketQuote, type TicketType } from '../model/ticket';
import { walkSummary } from '../../../api/orderEstimate';
import type { OwnerMessage, WebviewHost, WebviewKind } from '../../../host/webviewHost';
import { failureText } from '../../../api/failure';
import type { StreamChannel } from '../../live/feed';
import { errText, MarketFeed, type BookSource } from '../marketFeed';
import { INTERNAL_COMMANDS } from '../../../host/commandIds';
import type { Confirmation } from '../../../host/moneyGate';
import { fundsKind, fundsLabel, fundsPhrase, type FundsProfile } from '../../../api/moneyWords';
import type { SourceWords } from '../../../api/borrowedMarket';

export type { BookSource } from '../marketFeed';
export { STATUS_EVERY_MS } from '../marketFeed';

/** How the confirmation names each ticket type (HF orders: nothing). */
const TICKET_WORDS: Record<TicketType, string> = { limit: '', market: '', stopLimit: 'stop-limit', stopMarket: 'stop-market', oco: 'OCO' };

/** The panel's view type; also the WebviewPanelSerializer key (and the `onWebviewPanel:` activation event). */
export const VIEW_TYPE = 'spotdesk.orderBook';

/**
 * The market webview: its page (strict CSP, `data:` images for the chart export), its protocol,
 * and NOT kept alive while hidden (the re-created webview says `ready` again).
 */
export const ORDER_BOOK_KIND: WebviewKind<typeof ORDER_BOOK_PROTOCOL> = {
  viewType: VIEW_TYPE,
  name: 'market',
  page: ORDER_BOOK_PAGE,
  protocol: ORDER_BOOK_PROTOCOL,
  retainContextWhenHidden: false,
};

/** The panel title of `symbol`. */
export function panelTitle(symbol: string): string {
  return `Market: ${symbol}`;
}

/** Candle source (GET /api/v1/market/candles, newest first), when the profile's client has it. */
export interface CandleSource {
  getCandles?(query: { symbol: string; type: CandleInterval; startAt?: number; endAt?: number }): Promise<readonly CandleRow[]>;
  /** GET /api/v1/market/histories: the last 100 trades, oldest first (`time` ns digits). */
  getTradeHistory?(symbol: string): Promise<ReadonlyArray<{ sequence: string; price: string; size: string; side: 'buy' | 'sell'; time: string }>>;
}

/** What placing from the ticket needs (injected: host tests answer the confirmation through `prompts`). */
export interface TradeDeps {
  /** The active profile (its name and what its money is are in the confirmation). */
  profile(): FundsProfile;
  /** Ticket figures of the account (balances, fee rates, resting orders). */
  accountInfo(symbol: string, base: string, quote: string): Promise<AccountInfo>;
  /** Fresh available balances of the trade account for the confirmation (GET /api/v1/accounts). */
  freshAvailable(base: string, quote: string): Promise<{ base: string; quote: string }>;
  /**
   * Modal confirmation of a placement (services.gate.confirm): the confirmation the person gave,
   * or undefined when they declined.
   */
  confirm(message: string, detail: string, action: string): Promise<Confirmation | undefined>;
  /**
   * Send the order within `confirmation` (a real profile's client refuses it without one): POST
   * /api/v1/hf/orders (`kind` order), /api/v1/stop-order (stop) or /api/v3/oco/order (oco);
   * resolves with the order id.
   */
  place(order: Record<string, string>, confirmation: Confirmation, kind: 'order' | 'stop' | 'oco'): Promise<string>;
  /** After a placement: remember the symbol (Active Orders watches it). */
  afterPlace(symbol: string): void;
  /** Fires when balances or the user's orders change. */
  onDidChangeAccount: vscode.Event<void>;
}

/** Dependencies of a panel (injected so the host test and unit code can observe it). */
export interface PanelDeps {
  log: vscode.LogOutputChannel;
  /** The active profile's client for public data (no credentials needed; may throw). */
  source(): Promise<BookSource & CandleSource>;
  /** The public stream channel of the active profile (undefined: polling only). */
  channel(): StreamChannel | undefined;
  /** Symbol metadata (GET /api/v2/symbols), null when unknown. */
  meta(symbol: string): Promise<SymbolMeta | null>;
  /** The public pool's budget, when the client knows it. */
  budget(): PoolBudget | undefined;
  /** Configured base poll interval of the fallback, ms. */
  intervalMs(): number;
  /** Local clock, ms. */
  now(): number;
  trade: TradeDeps;
  /** The borrowed market's words on the Paper and Replay profiles (the status bar's; undefined elsewhere). */
  borrowed?(): SourceWords | undefined;
  /**
   * The layout the person last chose in any market panel (collapsed sections, sizes), kept in the
   * extension's global state: a new panel starts with it (a panel's own layout lives in its webview
   * state and wins).
   */
  layout?: { get(): PanelLayout | undefined; set(layout: PanelLayout): void };
}

/** Observable state of a panel, returned by `spotdesk.openMarket` (host tests read it). */
export interface OrderBookPanelHandle {
  readonly symbol: string;
  /** The top `depth` levels of the book last posted to the webview (what it draws), if any. */
  readonly lastPosted: BookSnapshot | undefined;
  /** Number of book messages posted to the webview (`snapshot`, `book-snapshot`, `book-delta`). */
  readonly postedCount: number;
  /** Number of stream heartbeats posted to the webview (the panel judges staleness by them). */
  readonly heartbeatsPosted: number;
  /** Number of level-2 REST polls made (the fallback; stays still while streaming). */
  readonly pollCount: number;
  /** Whether the fallback poll timer is running (false while streaming, hidden or disposed). */
  readonly polling: boolean;
  /** Where the book comes from and why. */
  readonly feed: FeedInfo;
  /** The tape, oldest first. */
  readonly trades: readonly TradePrint[];
  /** Messages posted to the webview except book messages and heartbeats, newest last (at most 300). */
  readonly posted: readonly ToWebview[];
  readonly settings: PanelSettings;
  readonly disposed: boolean;
  /** The failure shown in the panel (src/api/failure.ts wording), or null. */
  readonly lastError: string | null;
  /** Resolves with the top `depth` book after the next book message posted after the call (rejects after `timeoutMs`). */
  nextSnapshot(timeoutMs?: number): Promise<BookSnapshot>;
  /** Handle a webview message as if the webview sent it (host tests drive the ticket with it). */
  handle(msg: OwnerMessage<typeof ORDER_BOOK_PROTOCOL>): Promise<void>;
}

/** A live market panel for one symbol. */
export class OrderBookPanel implements OrderBookPanelHandle {
  private meta: SymbolMeta | null = null;
  private readonly feedData: MarketFeed;
  private candleSeq = 0;
  private account: AccountInfo | undefined;
  readonly posted: ToWebview[] = [];
  /** Fires once when the panel is disposed. */
  readonly onDidDispose: vscode.Event<void>;

  constructor(
    readonly host: WebviewHost<typeof ORDER_BOOK_PROTOCOL>,
    readonly symbol: string,
    public settings: PanelSettings,
    private readonly deps: PanelDeps,
  ) {
    this.onDidDispose = host.onDidDispose;
    host.title = panelTitle(symbol);
    this.feedData = new MarketFeed(
      symbol,
      settings.depth,
      {
        log: (level, line) => deps.log[level](line),
        source: () => deps.source(),
        channel: () => deps.channel(),
        budget: () => deps.budget(),
        intervalMs: () => deps.intervalMs(),
        now: () => deps.now(),
      },
      { post: (m) => this.post(m), get visible() { return host.visible; } },
    );
    host.track(
      host.onReady(() => this.onReady()),
      host.onMessage((msg) => void this.handle(msg)),
      host.onDidChangeVisibility((visible) => this.feedData.setVisible(visible)),
      host.onDidDispose(() => this.feedData.dispose()),
      deps.trade.onDidChangeAccount(() => void this.refreshAccount()),
    );
    void this.loadMeta();
    this.feedData.start(host.visible);
  }

  get lastPosted(): BookSnapshot | undefined {
    return this.feedData.lastPosted;
  }
  get postedCount(): number {
    return this.feedData.postedCount;
  }
  get heartbeatsPosted(): number {
    return this.feedData.heartbeatsPosted;
  }
  get pollCount(): number {
    return this.feedData.pollCount;
  }
  get polling(): boolean {
    return this.feedData.polling;
  }
  get feed(): FeedInfo {
    return this.feedData.feed;
  }
  get trades(): readonly TradePrint[] {
    return this.feedData.trades;
  }
  get lastError(): string | null {
    return this.feedData.lastError;
  }
  /** The panel's data (book keeper, counters). */
  get market(): MarketFeed {
    return this.feedData;
  }

  /** Whether the panel was closed. */
  get disposed(): boolean {
    return this.host.disposed;
  }

  /** Reveal the panel (keeps its column). */
  reveal(): void {
    this.host.reveal(undefined, false);
  }

  nextSnapshot(timeoutMs = 10_000): Promise<BookSnapshot> {
    return this.feedData.nextSnapshot(timeoutMs);
  }

  /** Move the focus to the ticket (keyboard shortcut), optionally on a side. */
  focusTicket(side: 'buy' | 'sell' | null): void {
    this.reveal();
    this.post({ type: 'focusTicket', side });
  }

  /** The active profile changed: clear what belongs to the old one and start again. */
  profileChanged(): void {
    if (this.disposed) return;
    this.account = undefined;
    this.feedData.profileChanged();
    void this.loadMeta();
    void this.refreshAccount();
    void this.loadCandles();
  }

  /** The borrowed market's words changed (or the profile): show them in the header. */
  sourceChanged(): void {
    if (this.disposed || !this.host.ready) return;
    const w = this.deps.borrowed?.();
    this.post({ type: 'source', source: w ? { short: w.short, detail: w.detail.slice(0, 600), state: w.state, warn: w.warn } : null });
  }

  /** The configured interval changed: the fallback's next poll uses it. */
  configChanged(): void {
    this.feedData.refresh();
  }

  private post(msg: ToWebview): void {
    if (this.disposed) return;
    if (msg.type !== 'snapshot' && msg.type !== 'book-snapshot' && msg.type !== 'book-delta' && msg.type !== 'heartbeat') {
      this.posted.push(msg);
      if (this.posted.length > 300) this.posted.splice(0, this.posted.length - 300);
    }
    this.host.post(msg);
  }

  private async loadMeta(): Promise<void> {
    try {
      this.meta = await this.deps.meta(this.symbol);
      if (this.host.ready) this.postInit();
      void this.refreshAccount();
    } catch (err) {
      this.deps.log.warn(`market ${this.symbol}: symbol metadata unavailable: ${errText(err)}`);
    }
  }

  private postInit(): void {
    const p = this.deps.trade.profile();
    const layout = this.deps.layout?.get();
    this.post({ type: 'init', symbol: this.symbol, meta: this.meta, settings: this.settings, pollMs: Math.round(this.deps.intervalMs()), ...(layout ? { layout } : {}), profile: { name: p.name, sandbox: p.sandbox, funds: fundsKind(p), fundsLabel: fundsLabel(p), fundsTitle: `Profile: ${fundsPhrase(p)}` } });
  }

  /** The webview (re)loaded: send it the panel's state. */
  private onReady(): void {
    this.postInit();
    this.sourceChanged();
    this.feedData.replay();
    if (this.account) this.post({ type: 'account', account: this.account });
    else void this.refreshAccount();
    void this.loadCandles();
  }

  private async refreshAccount(): Promise<void> {
    const m = this.meta;
    if (!m || this.disposed) return;
    try {
      this.account = await this.deps.trade.accountInfo(this.symbol, m.baseCurrency, m.quoteCurrency);
      this.post({ type: 'account', account: this.account });
    } catch (err) {
      this.deps.log.debug(`market ${this.symbol}: account figures unavailable: ${errText(err)}`);
    }
  }

  /** Load the candle history of the panel's interval (GET /api/v1/market/candles) and post it. */
  private async loadCandles(): Promise<void> {
    const interval = this.settings.interval ?? DEFAULT_INTERVAL;
    const seq = ++this.candleSeq;
    let candles: CandleRow[] | null = null;
    let error: string | null = null;
    try {
      const src = await this.deps.source();
      if (typeof src.getCandles !== 'function') {
        error = 'no candle history from this client yet (GET /api/v1/market/candles): the chart builds candles from live trades';
      } else {
        candles = await loadCandleHistory(src.getCandles.bind(src), this.symbol, interval);
      }
      if (this.feedData.trades.length === 0 && typeof src.getTradeHistory === 'function') {
        const hist = await src.getTradeHistory(this.symbol);
        const trades: TradePrint[] = hist.map((t) => ({ tradeId: t.sequence, price: t.price, size: t.size, side: t.side, time: t.time.length > 6 ? Number(t.time.slice(0, -6)) : 0 }));
        if (trades.length && this.feedData.trades.length === 0) {
          this.feedData.trades.push(...trades);
          this.post({ type: 'trades', trades, replace: true });
        }
      }
    } catch (err) {
      error = `candles unavailable: ${errText(err)}`;
    }
    if (seq === this.candleSeq) this.post({ type: 'candles', interval, candles, error });
  }

  /** Handle one webview message (the webview host validated it; host tests call it directly). */
  async handle(msg: OwnerMessage<typeof ORDER_BOOK_PROTOCOL>): Promise<void> {
    switch (msg.type) {
      case 'setGrouping':
        this.settings = { ...this.settings, grouping: msg.grouping };
        return;
      case 'setDepth':
        if (msg.depth !== this.settings.depth) {
          this.settings = { ...this.settings, depth: msg.depth };
          this.feedData.setDepth(msg.depth);
        }
        return;
      case 'refresh':
        this.feedData.refresh();
        void this.refreshAccount();
        return;
      case 'book-resync':
        this.feedData.resendBook();
        return;
      case 'setInterval':
        this.settings = { ...this.settings, interval: msg.interval };
        await this.loadCandles();
        return;
      case 'setLayout':
        this.deps.layout?.set(msg.layout);
        return;
      case 'prefillBuilder':
        await vscode.commands.executeCommand(INTERNAL_COMMANDS.requestBuilderPrefill, this.symbol, msg.side, msg.price);
        return;
      case 'place':
        await this.placeFromTicket(msg);
        return;
    }
  }

  /** The last placement's figures (host tests read them). */
  lastPlacement: { quote: TicketQuote; confirmed: boolean; orderId?: string; error?: string } | undefined;

  private async placeFromTicket(msg: Extract<OwnerMessage<typeof ORDER_BOOK_PROTOCOL>, { type: 'place' }>): Promise<void> {
    const m = this.meta;
    const reply = (ok: boolean, message: string) => this.post({ type: 'placed', ok, message });
    if (!m || !m.quoteIncrement || !m.baseMinSize || !m.quoteMinSize || !m.baseMaxSize || !m.quoteMaxSize) {
      reply(false, 'The symbol rules are not loaded yet: try again in a moment.');
      return;
    }
    try {
      const fresh = await this.deps.trade.freshAvailable(m.baseCurrency, m.quoteCurrency);
      const rates = this.account;
      const best = this.feedData.best();
      const ctx: TicketContext = {
        rules: { ...m, quoteIncrement: m.quoteIncrement, baseMinSize: m.baseMinSize, quoteMinSize: m.quoteMinSize, baseMaxSize: m.baseMaxSize, quoteMaxSize: m.quoteMaxSize, minFunds: m.minFunds ?? null },
        bestBid: best.bid,
        bestAsk: best.ask,
        // The levels the person sees: a market order is estimated by walking them (as in the ticket).
        bids: this.feedData.lastPosted?.bids ?? null,
        asks: this.feedData.lastPosted?.asks ?? null,
        last: this.feedData.stats?.last ?? this.feedData.trades[this.feedData.trades.length - 1]?.price ?? null,
        availableBase: fresh.base,
        availableQuote: fresh.quote,
        makerFeeRate: rates?.makerFeeRate ?? null,
        takerFeeRate: rates?.takerFeeRate ?? null,
      };
      const t = msg.orderType;
      const q = quoteTicket({ side: msg.side, type: t, price: msg.price, size: msg.size, stopPrice: msg.stopPrice, limitPrice: msg.limitPrice }, ctx);
      this.lastPlacement = { quote: q, confirmed: false };
      const errors = q.issues.filter((i) => i.severity === 'error');
      if (errors.length) {
        reply(false, `Not placed: ${errors[0].message}`);
        return;
      }
      const profile = this.deps.trade.profile();
      const where = fundsPhrase(profile);
      const o = q.order;
      const what = TICKET_WORDS[t];
      const at = t === 'oco' ? `take profit ${o.price}, stop ${o.stopPrice} → ${o.limitPrice}` : t === 'stopMarket' ? `at market when the trigger fires` : o.price !== undefined ? `at ${o.price}` : 'at market';
      const head = `${msg.side === 'buy' ? 'Buy' : 'Sell'} ${o.size} ${m.baseCurrency} ${at}${what ? ` (${what})` : ''} on ${this.symbol}?`;
      const path = q.kind === 'oco' ? 'POST /api/v3/oco/order' : q.kind === 'stop' ? 'POST /api/v1/stop-order' : 'POST /api/v1/hf/orders';
      const detail = [
        `Profile: ${where}.`,
        ...(q.trigger !== null ? [`Trigger: the last trade price ${q.trigger}.`] : []),
        q.notional !== null
          ? `Notional: ${q.notional} ${m.quoteCurrency}${t === 'market' ? (q.walk ? ` (${walkSummary(q.walk, msg.side, m.quoteCurrency)})` : ` (estimated at the ${msg.side === 'buy' ? 'best ask' : 'best bid'} ${q.referencePrice})`) : t === 'stopMarket' ? ' (estimated at the trigger price)' : ''}.`
          : 'Notional: unknown (no price in the book).',
        q.fee !== null ? `Estimated fee: ${q.fee} ${m.quoteCurrency} (${q.liquidity} rate ${q.feeRate}${q.kind !== 'order' ? ': the liquidity is decided when it fires' : ''}).` : 'Estimated fee: unknown (fee rates unavailable).',
        `Available: ${q.available.amount ?? 'unknown'} ${q.available.currency} in the trade account.`,
        ...q.warnings.map((w) => `⚠ ${w.message}`),
        '',
        q.kind === 'order'
          ? `This sends ${path}: the order goes to the matching engine.`
          : `This sends ${path}: the order waits for its trigger; nothing is held until it fires, and it is refused then if the balance is short.`,
      ].join('\n');
      const confirmation = await this.deps.trade.confirm(head, detail, `Place ${msg.side === 'buy' ? 'Buy' : 'Sell'} ${what ? `${what[0].toUpperCase()}${what.slice(1)} ` : ''}Order`);
      this.lastPlacement = { quote: q, confirmed: confirmation !== undefined };
      if (!confirmation) {
        reply(false, 'Placement cancelled: nothing was sent.');
        return;
      }
      const id = await this.deps.trade.place({ ...o, clientOid: randomBytes(12).toString('hex') }, confirmation, q.kind);
      this.lastPlacement = { quote: q, confirmed: true, orderId: id };
      this.deps.trade.afterPlace(this.symbol);
      this.deps.log.info(`market ${this.symbol}: placed ${msg.side} ${t} ${o.size} ${o.price ?? ''} ${o.stopPrice ?? ''} → order ${id}`);
      reply(true, `Order placed: ${msg.side} ${o.size} ${m.baseCurrency} ${at}${what ? ` (${what})` : ''} (id ${id}).`);
    } catch (err) {
      const text = failureText(err);
      this.lastPlacement = { ...(this.lastPlacement ?? { quote: undefined as never, confirmed: false }), error: text };
      this.deps.log.warn(`market ${this.symbol}: placement failed: ${text}`);
      reply(false, `Not placed: ${text}`);
    }
  }

  /** Close the panel (streams are released with it). */
  dispose(): void {
    this.host.dispose();
  }
}
