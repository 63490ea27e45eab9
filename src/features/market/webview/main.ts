/**
 * Market panel webview entry (bundled to dist/webview/orderbook.js; the order book grown into
 * the per-symbol market panel with its order ticket).
 *
 * Receives the extension's messages, validates each with `ORDER_BOOK_PROTOCOL.parseToWebview` (invalid
 * ones are dropped and counted), keeps the book in a {@link BookReceiver} (model/liveBook.ts: polled
 * snapshots through the `sequence` gate; the streamed book held whole from a `book-snapshot` and
 * kept by `book-delta`s, with a `book-resync` request on a gap), builds the view-model of its top
 * `depth` levels and renders it incrementally; feeds the
 * header's last price and statistics, the order ticket, and the parts in the charts bundle (loaded
 * once the chart, depth or tape section is shown: candles, depth chart, trade tape); judges the
 * book's freshness by the stream's heartbeat (src/features/market/model/freshness.ts); marks the user's
 * orders in the book and on the chart (src/features/market/model/ownOrders.ts). Persists `{symbol, settings,
 * layout}` with `setState`, which the extension's WebviewPanelSerializer receives after a window
 * reload, and tells the host each layout change (new panels start with the last one).
 */
import { cmp, fractionDigits, precisionIncrement } from '../../../api/decimal';
import {
  GROUPINGS,
  ORDER_BOOK_PROTOCOL,
  type AccountInfo,
  type BookSnapshot,
  isPanelState,
  type BookDepth,
  type Grouping,
  type PanelLayout,
  type PanelSettings,
  type PanelState,
  type SymbolMeta,
  type ToWebview,
  type TradePrint,
} from '../protocol';
import { BookStore, buildView, emptyPrevious, groupingStep, type BookView } from '../model/viewModel';
import { BookReceiver, type BookOutcome, type BookReceiverStats } from '../model/liveBook';
import { FreshnessMonitor } from '../model/freshness';
import { ownLevels } from '../model/ownOrders';
import { DEFAULT_INTERVAL, type CandleInterval, type CandleRow } from '../model/candles';
import type { DepthChart } from './depthChart';
import { OrderBookView } from './view';
import { TAPE_ROWS, type TapeView } from './tape';
import { TicketView } from './ticket';
import { loadCharts } from './chartLoader';
import type { CandleChartApi } from './charts';
import { webviewApi, type WebviewApi } from '../../../webviewBridge/vscodeApi';

/** The market panel's side of its protocol (posts, persisted {@link PanelState}). */
export type OrderBookApi = WebviewApi<typeof ORDER_BOOK_PROTOCOL, PanelState>;

/** Counters exposed to tests (harness only): the book's ({@link BookReceiverStats}) and the controller's. */
export interface ControllerStats extends BookReceiverStats {
  invalidMessages: number;
  renderErrors: number;
  trades: number;
}

/** Wires messages, book state, view-model and DOM together. One per webview document. */
export class OrderBookController {
  readonly view: OrderBookView;
  /** The depth chart, once the charts bundle loaded. */
  chart: DepthChart | undefined;
  /** The trade tape, once the charts bundle (which carries it) loaded. */
  tape: TapeView | undefined;
  /** What the tape shows, kept until it exists and replayed into it: the latest trades (oldest first), currencies, the empty-tape line. */
  private readonly tapeState = { trades: [] as TradePrint[], base: '', quote: '', empty: 'Waiting for trades…' };
  readonly ticket: TicketView;
  private book: BookReceiver | undefined;
  private symbol = '';
  private meta: SymbolMeta | null = null;
  private settings: PanelSettings = { grouping: '1', depth: 20, interval: DEFAULT_INTERVAL };
  private layout: PanelLayout | undefined;
  private previous = emptyPrevious();
  /** The evidence that the book's source is alive (heartbeats, answered polls) and the verdict. */
  readonly freshness = new FreshnessMonitor();
  private pollText = '—';
  private account: AccountInfo | null = null;
  private lastTradePrice: string | null = null;
  private statsLast: string | null = null;
  private candles: { interval: CandleInterval; rows: CandleRow[] | null; error: string | null } | undefined;
  private candleChart: CandleChartApi | undefined;
  private chartLoading = false;
  readonly stats: ControllerStats = { accepted: 0, rejectedSequence: 0, deltas: 0, droppedDeltas: 0, resyncRequests: 0, invalidMessages: 0, renderErrors: 0, trades: 0 };

  constructor(
    private readonly api: OrderBookApi,
    host: HTMLElement,
    private readonly now: () => number = () => Date.now(),
  ) {
    this.view = OrderBookView.mount(host, {
      onGrouping: (g) => this.changeGrouping(g),
      onDepth: (d) => this.changeDepth(d),
      onRefresh: () => this.api.post({ type: 'refresh' }),
      onLevel: (price, side, toBuilder) => this.pickLevel(price, side, toBuilder),
      onLayout: (layout) => {
        this.layout = layout;
        this.persist();
        // New panels start with the layout the person chose last (the host keeps it).
        this.api.post({ type: 'setLayout', layout });
        this.maybeLoadChart();
      },
    });
    this.ticket = new TicketView(this.view.slots.ticket, { place: (o) => this.api.post({ type: 'place', ...o }) });

    const saved = api.getState();
    if (isPanelState(saved)) {
      this.symbol = saved.symbol;
      this.settings = { interval: DEFAULT_INTERVAL, ...saved.settings };
      this.view.setSymbol(saved.symbol);
      if (saved.layout) {
        this.layout = saved.layout;
        this.view.setLayout(saved.layout);
      }
    }
    this.view.setSettings(this.settings.grouping, this.settings.depth);
    this.tick();
    this.maybeLoadChart();
  }

  /** The last view written to the DOM (tests wait for it; rendering happens on the next animation frame). */
  get lastView(): BookView | undefined {
    return this.view.renderedView;
  }

  /** The candle chart once loaded (tests). */
  get candleApi(): CandleChartApi | undefined {
    return this.candleChart;
  }

  /** Handle one raw message from the extension (validated here). */
  receive(raw: unknown): void {
    const msg = ORDER_BOOK_PROTOCOL.parseToWebview(raw);
    if (!msg) {
      this.stats.invalidMessages++;
      return;
    }
    this.handle(msg);
  }

  private handle(msg: ToWebview): void {
    switch (msg.type) {
      case 'init': {
        if (msg.symbol !== this.symbol) this.book = undefined;
        this.symbol = msg.symbol;
        this.meta = msg.meta;
        this.settings = { interval: this.settings.interval ?? DEFAULT_INTERVAL, ...msg.settings };
        this.book ??= this.newBook(msg.symbol);
        this.book.setDepth(this.settings.depth, this.now()); // drawn by the rerender below
        this.view.setSymbol(msg.symbol);
        this.view.setFunds(msg.profile?.funds, msg.profile?.fundsLabel, msg.profile?.fundsTitle);
        this.view.setCurrencies(msg.meta?.baseCurrency ?? '', msg.meta?.quoteCurrency ?? '');
        this.tapeState.base = msg.meta?.baseCurrency ?? '';
        this.tapeState.quote = msg.meta?.quoteCurrency ?? '';
        this.tape?.setCurrencies(this.tapeState.base, this.tapeState.quote);
        this.chart?.setUnit(msg.meta?.baseCurrency ?? '');
        this.ticket.setMeta(msg.meta);
        if (msg.meta) {
          const inc = msg.meta.priceIncrement;
          this.view.setGroupingSteps(GROUPINGS.map((g) => groupingStep(inc, g)));
        }
        this.view.setSettings(this.settings.grouping, this.settings.depth);
        this.candleChart?.setInterval(this.settings.interval ?? DEFAULT_INTERVAL);
        this.pollText = `polling every ${msg.pollMs} ms`;
        this.freshness.setPollInterval(msg.pollMs);
        // A panel without a layout of its own (a new one) takes the one chosen last in any panel.
        if (!this.layout && msg.layout) {
          this.layout = msg.layout;
          this.view.setLayout(msg.layout);
          this.maybeLoadChart();
        }
        this.applyDigits();
        this.persist();
        this.markOwnOrders();
        this.rerender();
        break;
      }
      case 'snapshot': {
        this.book ??= this.newBook(msg.snapshot.symbol);
        this.showBook(this.book.snapshot(msg.snapshot, this.now()));
        break;
      }
      case 'book-snapshot': {
        this.book ??= this.newBook(msg.snapshot.symbol);
        this.showBook(this.book.bookSnapshot(msg.snapshot, this.now()));
        break;
      }
      case 'book-delta': {
        this.book ??= this.newBook(msg.delta.symbol);
        this.showBook(this.book.delta(msg.delta, this.now()));
        break;
      }
      case 'heartbeat': {
        this.freshness.heartbeat(this.now(), msg.staleAfterMs);
        this.tick();
        break;
      }
      case 'status':
        this.view.setStatus(msg.status, msg.msg);
        this.ticket.setServiceStatus(msg.status, msg.msg);
        break;
      case 'source':
        this.view.setSource(msg.source);
        break;
      case 'polling':
        this.freshness.setPollInterval(msg.intervalMs);
        this.pollText =
          msg.state === 'paused' ? 'polling paused' : msg.state === 'backoff' ? `polling: backing off, next in ${msg.intervalMs} ms` : `polling every ${msg.intervalMs} ms`;
        this.view.setPolling(this.pollText);
        break;
      case 'feed':
        this.freshness.setFeed(msg, this.now());
        this.tick();
        this.view.setFeed(msg);
        if (msg.mode === 'polling') this.view.setPolling(`${this.pollText} — stream down`);
        // Trades come only from the stream: say so instead of waiting for them.
        this.tapeState.empty = msg.mode === 'polling' ? 'No live trades while the stream is down (the book is polled).' : 'Waiting for trades…';
        this.tape?.setEmptyText(this.tapeState.empty);
        break;
      case 'error':
        this.view.setError(msg.message);
        if (!this.book?.store.snapshot) this.view.setChartMessage(msg.message === null ? 'Waiting for the first snapshot…' : `No book to draw: ${msg.message}`);
        break;
      case 'reset':
        // The profile changed: this book belongs to another exchange.
        this.book = this.symbol ? this.newBook(this.symbol) : undefined;
        this.previous = emptyPrevious();
        this.freshness.reset();
        this.view.clearBook();
        this.chart?.clear();
        this.view.setError(null);
        this.view.setStatus('open', '');
        this.ticket.setServiceStatus('open', '');
        this.view.setChartMessage('Waiting for the first snapshot…');
        this.tick();
        this.lastTradePrice = this.statsLast = null;
        this.view.clearStats();
        break;
      case 'trades':
        this.onTrades(msg.trades, msg.replace);
        break;
      case 'stats':
        this.statsLast = msg.stats.last;
        this.view.setStats(msg.stats, this.meta?.baseCurrency ?? '');
        break;
      case 'candles':
        this.candles = { interval: msg.interval, rows: msg.candles, error: msg.error };
        this.showCandles();
        break;
      case 'account':
        this.account = msg.account;
        this.ticket.setAccount(msg.account);
        this.markOwnOrders();
        break;
      case 'focusTicket':
        if (this.view.isCollapsed('ticket')) {
          const l = this.view.currentLayout();
          this.view.setLayout({ ...l, collapsed: l.collapsed.filter((c) => c !== 'ticket') });
          this.layout = this.view.currentLayout();
          this.persist();
        }
        this.ticket.focus(msg.side);
        break;
      case 'placed':
        this.ticket.placed(msg.ok, msg.message);
        break;
    }
  }

  private onTrades(trades: readonly TradePrint[], replace: boolean): void {
    this.stats.trades += trades.length;
    const kept = this.tapeState;
    kept.trades = (replace ? trades : kept.trades.concat(trades)).slice(-TAPE_ROWS);
    this.tape?.add(trades, replace);
    const last = trades[trades.length - 1];
    if (last) {
      const prev = this.lastTradePrice;
      this.lastTradePrice = last.price;
      const dir = prev === null ? (last.side === 'buy' ? 'up' : 'down') : cmp(last.price, prev) > 0 ? 'up' : cmp(last.price, prev) < 0 ? 'down' : null;
      this.view.setLast(last.price, dir);
      const snap = this.book?.store.snapshot;
      this.ticket.setMarket(snap?.bids[0]?.[0] ?? null, snap?.asks[0]?.[0] ?? null, last.price);
    }
    if (!replace && this.candleChart && this.candles?.rows !== undefined && trades.length) this.candleChart.addTrades(trades);
  }

  /** Rebuild the view-model from the current snapshot and render it (incremental DOM update). */
  rerender(): void {
    const snap = this.book?.store.snapshot;
    if (!snap) return;
    try {
      const view = buildView(snap, this.meta?.priceIncrement ?? smallestIncrement(snap), this.settings.grouping, this.previous);
      this.view.render(view);
      this.chart?.draw(view);
      if (this.chart) this.view.setChartMessage(null);
    } catch (err) {
      this.stats.renderErrors++;
      this.view.setError(`Cannot show this book: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** Re-evaluate the freshness line (on a timer and on every sign of life). */
  tick(): void {
    const v = this.freshness.judge(this.now(), this.book?.store.snapshot !== undefined);
    this.view.setStale(v.state, v.text);
  }

  /** A level of the book was picked: the ticket takes its price and side (ask → buy, bid → sell), or the request builder does. */
  private pickLevel(price: string, side: 'ask' | 'bid', toBuilder: boolean): void {
    const s = side === 'ask' ? 'buy' : 'sell';
    if (toBuilder) {
      this.api.post({ type: 'prefillBuilder', side: s, price });
      return;
    }
    this.ticket.setSide(s);
    this.ticket.setPrice(price);
  }

  /** The user's orders → the book rows they mark (at the grouped levels) and the chart's price lines. */
  private markOwnOrders(): void {
    const orders = this.account?.orders ?? [];
    this.view.setOwnOrders(this.meta ? ownLevels(orders, this.meta.priceIncrement, this.settings.grouping) : { asks: new Map(), bids: new Map() }, this.meta?.baseCurrency ?? '');
    this.candleChart?.setOrders(orders);
  }

  /** Pad prices to the tick of the current grouping and sizes to the lot (both from the symbol metadata). */
  private applyDigits(): void {
    if (!this.meta) return;
    this.view.setDigits(fractionDigits(groupingStep(this.meta.priceIncrement, this.settings.grouping)), fractionDigits(this.meta.baseIncrement));
  }

  private changeGrouping(g: Grouping): void {
    this.settings = { ...this.settings, grouping: g };
    this.applyDigits();
    this.previous = emptyPrevious(); // no flash storm when the buckets change
    this.persist();
    this.api.post({ type: 'setGrouping', grouping: g });
    this.markOwnOrders();
    this.rerender();
  }

  private changeDepth(d: BookDepth): void {
    this.settings = { ...this.settings, depth: d };
    this.persist();
    this.view.setSettings(this.settings.grouping, d);
    this.api.post({ type: 'setDepth', depth: d });
    // A held streamed book is drawn again at once; a polled one waits for the host's next poll.
    if (this.book) this.showBook(this.book.setDepth(d, this.now()));
  }

  /** A receiver for `symbol`, drawing the current depth and counting into the controller's stats. */
  private newBook(symbol: string): BookReceiver {
    return new BookReceiver(symbol, this.settings.depth, this.stats);
  }

  /** Draw what a book message produced, note the sign of life, and ask for a fresh book on a gap. */
  private showBook(o: BookOutcome): void {
    if (o.resync) this.api.post({ type: 'book-resync' });
    if (o.alive) this.freshness.snapshot(this.now());
    if (o.shown) {
      this.rerender();
      this.ticket.setMarket(o.shown.bids[0]?.[0] ?? null, o.shown.asks[0]?.[0] ?? null, this.lastTradePrice ?? this.statsLast, o.shown);
    }
    if (o.alive) this.tick();
  }

  private changeInterval(iv: CandleInterval): void {
    this.settings = { ...this.settings, interval: iv };
    this.persist();
    this.candleChart?.loading(iv);
    this.api.post({ type: 'setInterval', interval: iv });
  }

  /**
   * Load the charts bundle once the chart, the depth or the tape section is shown: the candle chart
   * with its interval picker (src/features/market/webview/charts.ts), the depth chart and the trade tape.
   */
  private maybeLoadChart(): void {
    if (this.chartLoading || (this.view.isCollapsed('chart') && this.view.isCollapsed('depth') && this.view.isCollapsed('tape'))) return;
    this.chartLoading = true;
    loadCharts().then(
      (f) => {
        const t = (this.tape = f.tape(this.view.slots.tape));
        const kept = this.tapeState;
        t.setCurrencies(kept.base, kept.quote);
        t.setEmptyText(kept.empty);
        t.add(kept.trades, true);
        this.candleChart = f.create(this.view.slots, this.settings.interval ?? DEFAULT_INTERVAL, (iv) => this.changeInterval(iv));
        this.chart = f.depth(this.view.canvas);
        this.chart.setUnit(this.meta?.baseCurrency ?? '');
        this.showCandles();
        this.markOwnOrders();
        this.rerender();
      },
      (err: unknown) => {
        this.chartLoading = false;
        this.view.slots.chart.textContent = `The chart could not load: ${err instanceof Error ? err.message : String(err)}`;
      },
    );
  }

  private showCandles(): void {
    const c = this.candles;
    if (c && c.interval === (this.settings.interval ?? DEFAULT_INTERVAL)) this.candleChart?.setCandles(c.interval, c.rows, this.meta?.priceIncrement ?? null, c.error);
  }

  private persist(): void {
    if (this.symbol) this.api.setState({ symbol: this.symbol, settings: this.settings, ...(this.layout ? { layout: this.layout } : {}) });
  }
}

/** Without symbol metadata, group on the finest tick seen in the snapshot's prices (10^-maxFractionDigits). */
function smallestIncrement(snap: BookSnapshot): string {
  let d = 0;
  for (const side of [snap.bids, snap.asks]) for (const [p] of side) d = Math.max(d, fractionDigits(p));
  return precisionIncrement(d);
}

/** Start the panel: create the controller, listen for messages, tick the stale timer, say `ready`. */
function start(): void {
  const api: OrderBookApi = webviewApi(ORDER_BOOK_PROTOCOL);
  const ctl = new OrderBookController(api, document.body);
  window.addEventListener('message', (e: MessageEvent) => ctl.receive(e.data));
  setInterval(() => ctl.tick(), 500);
  // Test harness hook (never set inside VS Code): lets the e2e test and the benchmark drive the controller directly.
  const w = window as unknown as { __SPOTDESK_TEST_HOOKS__?: boolean; __orderbook?: OrderBookController; __orderbookLib?: object };
  if (w.__SPOTDESK_TEST_HOOKS__ === true) {
    w.__orderbook = ctl;
    w.__orderbookLib = { buildView, emptyPrevious, BookStore, parseHostMessage: ORDER_BOOK_PROTOCOL.parseToWebview };
  }
  api.post({ type: 'ready' });
}

start();
