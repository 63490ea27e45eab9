/**
 * Order book webview entry (bundled to dist/webview/orderbook.js, issue 6).
 *
 * Receives the extension's messages, validates each with `ORDER_BOOK_PROTOCOL.parseToWebview` (invalid
 * ones are dropped and counted), keeps the book in a {@link BookStore} keyed by `sequence` (older or equal snapshots are
 * rejected), builds the view-model and renders it incrementally. Persists `{symbol, settings}` with
 * `setState`, which the extension's WebviewPanelSerializer receives after a window reload.
 */
import { fractionDigits, precisionIncrement } from '../../api/decimal';
import {
  GROUPINGS,
  ORDER_BOOK_PROTOCOL,
  type BookSnapshot,
  isPanelState,
  type BookDepth,
  type Grouping,
  type PanelSettings,
  type PanelState,
  type SymbolMeta,
  type ToWebview,
} from '../../shared/orderbook/protocol';
import { BookStore, buildView, emptyPrevious, groupingStep, isStale, type BookView } from '../../shared/orderbook/viewModel';
import { DepthChart } from './chart';
import { OrderBookView } from './view';
import { webviewApi, type WebviewApi } from '../vscodeApi';

/** The order book's side of its protocol (posts, persisted {@link PanelState}). */
export type OrderBookApi = WebviewApi<typeof ORDER_BOOK_PROTOCOL, PanelState>;

/** Counters exposed to tests (harness only). */
export interface ControllerStats {
  accepted: number;
  rejectedSequence: number;
  invalidMessages: number;
  renderErrors: number;
}

/** Wires messages, book state, view-model and DOM together. One per webview document. */
export class OrderBookController {
  readonly view: OrderBookView;
  readonly chart: DepthChart;
  private store: BookStore | undefined;
  private symbol = '';
  private meta: SymbolMeta | null = null;
  private settings: PanelSettings = { grouping: '1', depth: 20 };
  private previous = emptyPrevious();
  private pollText = '—';
  readonly stats: ControllerStats = { accepted: 0, rejectedSequence: 0, invalidMessages: 0, renderErrors: 0 };

  constructor(
    private readonly api: OrderBookApi,
    host: HTMLElement,
    private readonly now: () => number = () => Date.now(),
  ) {
    this.view = OrderBookView.mount(host, {
      onGrouping: (g) => this.changeGrouping(g),
      onDepth: (d) => this.changeDepth(d),
      onRefresh: () => this.api.post({ type: 'refresh' }),
    });
    this.chart = new DepthChart(this.view.canvas);
    const saved = api.getState();
    if (isPanelState(saved)) {
      this.symbol = saved.symbol;
      this.settings = saved.settings;
      this.view.setSymbol(saved.symbol);
    }
    this.view.setSettings(this.settings.grouping, this.settings.depth);
    this.view.setStale('waiting');
  }

  /** The last view written to the DOM (tests wait for it; rendering happens on the next animation frame). */
  get lastView(): BookView | undefined {
    return this.view.renderedView;
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
        if (msg.symbol !== this.symbol) this.store = undefined;
        this.symbol = msg.symbol;
        this.meta = msg.meta;
        this.settings = msg.settings;
        this.store ??= new BookStore(msg.symbol);
        this.view.setSymbol(msg.symbol);
        this.view.setCurrencies(msg.meta?.baseCurrency ?? '', msg.meta?.quoteCurrency ?? '');
        if (msg.meta) {
          const inc = msg.meta.priceIncrement;
          this.view.setGroupingSteps(GROUPINGS.map((g) => groupingStep(inc, g)));
        }
        this.view.setSettings(msg.settings.grouping, msg.settings.depth);
        this.applyDigits();
        this.pollText = `every ${msg.pollMs} ms`;
        this.view.setPolling(this.pollText);
        this.persist();
        this.rerender();
        break;
      }
      case 'snapshot': {
        this.store ??= new BookStore(msg.snapshot.symbol);
        const r = this.store.accept(msg.snapshot, this.now());
        if (r === 'accepted') {
          this.stats.accepted++;
          this.rerender();
          this.view.setStale('fresh');
        } else if (r === 'duplicate') {
          this.stats.rejectedSequence++;
          this.view.setStale('fresh'); // same book confirmed by a new poll: still live
        } else if (r === 'stale-sequence') this.stats.rejectedSequence++;
        break;
      }
      case 'status':
        this.view.setStatus(msg.status, msg.msg);
        break;
      case 'polling':
        this.pollText =
          msg.state === 'paused' ? 'paused' : msg.state === 'backoff' ? `backing off, next in ${msg.intervalMs} ms` : `every ${msg.intervalMs} ms`;
        this.view.setPolling(this.pollText);
        break;
      case 'error':
        this.view.setError(msg.message);
        if (!this.store?.snapshot) this.view.setChartMessage(msg.message === null ? 'Waiting for the first snapshot…' : `No book to draw: ${msg.message}`);
        break;
      case 'reset':
        // The profile changed: this book belongs to another exchange.
        this.store = this.symbol ? new BookStore(this.symbol) : undefined;
        this.previous = emptyPrevious();
        this.view.clearBook();
        this.chart.clear();
        this.view.setError(null);
        this.view.setStatus('open', '');
        this.view.setChartMessage('Waiting for the first snapshot…');
        this.view.setStale('waiting');
        break;
    }
  }

  /** Rebuild the view-model from the current snapshot and render it (incremental DOM update). */
  rerender(): void {
    const snap = this.store?.snapshot;
    if (!snap) return;
    try {
      const view = buildView(snap, this.meta?.priceIncrement ?? smallestIncrement(snap), this.settings.grouping, this.previous);
      this.view.render(view);
      this.chart.draw(view);
      this.view.setChartMessage(null);
    } catch (err) {
      this.stats.renderErrors++;
      this.view.setError(`Cannot show this book: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** Re-evaluate the stale state (called on a timer). */
  tick(): void {
    const at = this.store?.lastSeenAt;
    this.view.setStale(at === undefined ? 'waiting' : isStale(at, this.now()) ? 'stale' : 'fresh');
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
    this.rerender();
  }

  private changeDepth(d: BookDepth): void {
    this.settings = { ...this.settings, depth: d };
    this.persist();
    this.view.setSettings(this.settings.grouping, d);
    this.api.post({ type: 'setDepth', depth: d });
  }

  private persist(): void {
    if (this.symbol) this.api.setState({ symbol: this.symbol, settings: this.settings });
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
