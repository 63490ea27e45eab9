/**
 * DOM of the market panel, updated incrementally: the header (symbol, last price, 24 h statistics,
 * where the book comes from), the banners, the layout, and the book itself. The layout fits the
 * window without scrolling the page (a 1366×768 screen holds every part): the book on the left
 * fills the height (asks and bids scroll on their own, the spread stays in sight between them);
 * candles above the depth chart in the middle; the order ticket above the trade tape on the right.
 * Splitters size the book column and the chart; the chart, depth, tape and ticket sections
 * collapse; narrow panels stack the columns and scroll. The book's freshness has a line of its own
 * in the book's head, so that showing it never moves a row.
 *
 * The skeleton is built once; rows live in fixed pools of ./bookRow.ts (one per side, as many rows
 * as the depth). Updates are written once per animation frame (the latest view wins) and the update
 * path never reads layout. Asks are laid out best-nearest-the-spread: ask slot 0 (best ask) is the
 * last row of the asks block, just above the spread row. Keyboard, picking a level and the marks of
 * the user's own orders: docs/ARCHITECTURE.md, "The market panel's webview".
 */
import type { Grouping, BookDepth, ServiceStatusValue, FeedInfo, MarketStats, PanelLayout } from '../protocol';
import { GROUPINGS } from '../protocol';
import type { BookView, ViewLevel } from '../model/viewModel';
import { canonicalPrice, type OwnLevel, type OwnLevels } from '../model/ownOrders';
import { padFraction } from '../../../api/numberFormat';
import { el, textCell } from './dom';
import { Row, type ColumnDigits } from './bookRow';
import { formatTime, percentText } from './format';

export type { ColumnDigits } from './bookRow';
export { formatTime, percentText } from './format';

/** Callbacks from the controls to the controller. */
export interface ViewEvents {
  onGrouping(g: Grouping): void;
  onDepth(d: BookDepth): void;
  onRefresh(): void;
  /** A level was picked (click / Enter): its displayed price and the side of the book it is on. */
  onLevel?(price: string, side: 'ask' | 'bid', toBuilder: boolean): void;
  /** The layout changed (splitter dragged, section collapsed): persist it. */
  onLayout?(layout: PanelLayout): void;
}

/** The sections the person can collapse. */
export const SECTIONS = ['chart', 'tape', 'depth', 'ticket'] as const;
/** A collapsible section. */
export type SectionName = (typeof SECTIONS)[number];

/** Default layout: book column 340 px, candle chart 320 px high, nothing collapsed. */
export const DEFAULT_LAYOUT: PanelLayout = { sizes: { book: 340, chart: 320 }, collapsed: [] };


/** Grid navigation keys: the row index after the key, from the focused index `cur` of `n` rows. */
const NAV_KEYS: Record<string, (cur: number, n: number) => number> = {
  ArrowDown: (cur, n) => Math.min(n - 1, cur + 1),
  ArrowUp: (cur) => Math.max(0, cur - 1),
  PageDown: (cur, n) => Math.min(n - 1, cur + 10),
  PageUp: (cur) => Math.max(0, cur - 10),
  Home: () => 0,
  End: (_cur, n) => n - 1,
};


/**
 * The panel's DOM. Create once with {@link OrderBookView.mount}; then call {@link render} per
 * accepted view and the small setters for header/footer state.
 */
export class OrderBookView {
  readonly root: HTMLElement;
  readonly grid: HTMLDivElement;
  readonly canvas: HTMLCanvasElement;
  private readonly asksBody: HTMLDivElement;
  private readonly bidsBody: HTMLDivElement;
  private asks: Row[] = [];
  private bids: Row[] = [];
  private readonly rowOf = new WeakMap<Element, Row>();
  /** Whether one row already carries the grid's single tab stop (roving tabindex). */
  private tabStop = false;
  private readonly observer: IntersectionObserver | undefined;
  private readonly symbolText: Text;
  private readonly statusBanner: HTMLDivElement;
  /** The book's freshness line (always laid out: showing it moves nothing). */
  private readonly freshLine: HTMLElement;
  /** Why the book is polled (or the stream reconnects): shown while not live, with the reason. */
  private readonly feedBanner: HTMLDivElement;
  private readonly errorBanner: HTMLDivElement;
  private readonly errorText: Text;
  private readonly chartMessage: HTMLDivElement;
  private readonly spreadText: Text;
  private readonly midText: Text;
  private readonly updatedText: Text;
  private readonly seqText: Text;
  private readonly pollText: Text;
  private readonly groupingSelect: HTMLSelectElement;
  private readonly depthSelect: HTMLSelectElement;
  private readonly sizeHead: Text;
  private readonly priceHead: Text;
  private readonly totalHead: Text;
  private flashed: HTMLElement[] = [];
  private flashTimer: ReturnType<typeof setTimeout> | undefined;
  private lastSpread = '';
  private lastMid = '';
  private lastSeq = '';
  private lastTime = -1;
  private stale: 'fresh' | 'waiting' | 'stale' | '' = '';
  /** View waiting for the next animation frame, its frame request, and the last view written. */
  private pendingView: BookView | undefined;
  private frame = 0;
  private rendered: BookView | undefined;
  /** Column precision shared by the rows (see {@link setDigits}). */
  private readonly digits: ColumnDigits = { price: 0, size: 0 };

  /** Where the other parts of the market panel mount: the candle chart, the trade tape, the ticket. */
  readonly slots: { readonly chart: HTMLElement; readonly chartTools: HTMLElement; readonly tape: HTMLElement; readonly ticket: HTMLElement };
  private readonly lastText: Text;
  private readonly lastCell: HTMLElement;
  private readonly statTexts: Record<'change' | 'high' | 'low' | 'vol', Text>;
  private readonly changeCell: HTMLElement;
  private readonly feedBadge: HTMLElement;
  private readonly fundsBadge: HTMLElement;
  private readonly sourceBadge: HTMLElement;
  private readonly feedText: Text;
  private readonly layoutEl: HTMLElement;
  private readonly sections = new Map<SectionName, HTMLElement>();
  private layout: { sizes: Record<string, number>; collapsed: Set<SectionName> } = { sizes: { ...DEFAULT_LAYOUT.sizes }, collapsed: new Set() };
  private lastPrice = '';
  /** Own resting orders by displayed (grouped) price, and the base currency their sizes are in. */
  private own: OwnLevels = { asks: new Map(), bids: new Map() };
  private ownUnit = '';

  private constructor(host: HTMLElement, private readonly events: ViewEvents) {
    this.root = el('main', 'ob market', host);
    this.root.setAttribute('aria-label', 'Market');

    const header = el('header', 'ob-header', this.root);
    const titleBox = el('div', 'ob-titlebox', header);
    const title = el('h1', 'ob-title', titleBox);
    this.symbolText = document.createTextNode('');
    title.appendChild(this.symbolText);
    this.lastCell = el('span', 'mk-last', titleBox);
    this.lastCell.setAttribute('aria-label', 'Last price');
    this.lastText = document.createTextNode('—');
    this.lastCell.appendChild(this.lastText);
    const stats = el('dl', 'mk-stats', titleBox);
    const stat = (label: string, cls: string): [Text, HTMLElement] => {
      const wrap = el('div', `mk-stat ${cls}`, stats);
      el('dt', undefined, wrap).textContent = label;
      const dd = el('dd', undefined, wrap);
      const t = document.createTextNode('—');
      dd.appendChild(t);
      return [t, dd];
    };
    const [change, changeCell] = stat('24h', 'change');
    this.changeCell = changeCell;
    const [high] = stat('High', 'high');
    const [low] = stat('Low', 'low');
    const [vol] = stat('Vol', 'vol');
    this.statTexts = { change, high, low, vol };
    // What the profile's money is ("Sandbox · play money", "Local server", "REAL funds"): always in sight.
    this.fundsBadge = el('span', 'mk-funds', titleBox);
    // Paper and Replay: the borrowed market and its upstream's state ("paper · live", "replay ×10 · finished").
    this.sourceBadge = el('span', 'mk-source', titleBox);
    this.sourceBadge.setAttribute('role', 'status');
    this.sourceBadge.hidden = true;
    this.feedBadge = el('span', 'mk-feed', titleBox);
    this.feedBadge.setAttribute('role', 'status');
    this.feedText = document.createTextNode('connecting…');
    this.feedBadge.appendChild(this.feedText);
    this.feedBadge.dataset.state = 'connecting';

    const controls = el('div', 'ob-controls', header);
    const gLabel = el('label', undefined, controls);
    gLabel.appendChild(document.createTextNode('Group '));
    this.groupingSelect = el('select', undefined, gLabel);
    this.groupingSelect.setAttribute('aria-label', 'Price grouping');
    for (const g of GROUPINGS) {
      const o = el('option', undefined, this.groupingSelect);
      o.value = g;
      o.textContent = `×${g}`;
    }
    this.groupingSelect.addEventListener('change', () => events.onGrouping(this.groupingSelect.value as Grouping));

    const dLabel = el('label', undefined, controls);
    dLabel.appendChild(document.createTextNode('Depth '));
    this.depthSelect = el('select', undefined, dLabel);
    this.depthSelect.setAttribute('aria-label', 'Levels per side');
    for (const d of ['20', '100']) {
      const o = el('option', undefined, this.depthSelect);
      o.value = d;
      o.textContent = d;
    }
    this.depthSelect.addEventListener('change', () => events.onDepth(this.depthSelect.value === '100' ? 100 : 20));

    const refresh = el('button', 'ob-refresh', controls);
    refresh.type = 'button';
    refresh.textContent = 'Refresh';
    refresh.setAttribute('aria-label', 'Reload the order book now');
    refresh.addEventListener('click', () => events.onRefresh());

    this.statusBanner = el('div', 'banner status', this.root);
    this.statusBanner.setAttribute('role', 'status');
    this.statusBanner.hidden = true;
    this.feedBanner = el('div', 'banner feed', this.root);
    this.feedBanner.setAttribute('role', 'status');
    this.feedBanner.hidden = true;
    this.errorBanner = el('div', 'banner error', this.root);
    this.errorBanner.setAttribute('role', 'alert');
    this.errorBanner.hidden = true;
    this.errorText = document.createTextNode('');
    el('span', 'banner-text', this.errorBanner).appendChild(this.errorText);
    const retry = el('button', 'banner-action', this.errorBanner);
    retry.type = 'button';
    retry.textContent = 'Retry';
    retry.setAttribute('aria-label', 'Retry loading the order book now');
    retry.addEventListener('click', () => events.onRefresh());

    // Layout: [book] | splitter | [chart / splitter / depth] | [ticket / tape]
    this.layoutEl = el('div', 'mk-layout', this.root);
    const bookCol = el('div', 'mk-col mk-bookcol', this.layoutEl);
    const vsplit = el('div', 'mk-split mk-vsplit', this.layoutEl);
    vsplit.setAttribute('role', 'separator');
    vsplit.setAttribute('aria-orientation', 'vertical');
    vsplit.setAttribute('aria-label', 'Resize the book column (← →)');
    vsplit.tabIndex = 0;
    const mid = el('div', 'mk-col mk-midcol', this.layoutEl);
    const side = el('div', 'mk-col mk-sidecol', this.layoutEl);

    const book = el('section', 'mk-section mk-book', bookCol);
    book.setAttribute('aria-label', 'Order Book');
    const bookHead = el('div', 'mk-section-head', book);
    el('h2', 'mk-book-title', bookHead).textContent = 'Order Book';
    this.freshLine = el('span', 'ob-fresh', bookHead);
    this.freshLine.setAttribute('role', 'status');
    this.grid = el('div', 'ob-grid', book);
    this.grid.setAttribute('role', 'grid');
    this.grid.setAttribute('aria-label', 'Order book levels: asks above the spread, bids below. Enter or click puts a level in the ticket (an ask to buy, a bid to sell); Alt+Enter opens it in the request builder.');
    this.grid.setAttribute('aria-readonly', 'true');
    const head = el('div', 'row head', this.grid);
    head.setAttribute('role', 'row');
    this.priceHead = textCell(head, 'price', 'columnheader');
    this.sizeHead = textCell(head, 'size', 'columnheader');
    this.totalHead = textCell(head, 'total', 'columnheader');
    this.setCurrencies('', '');

    // Asks and bids scroll on their own; the asks' box starts at its bottom (best ask next to the spread).
    this.asksBody = el('div', 'side asks', el('div', 'ob-scroll ob-asks', this.grid));
    this.asksBody.setAttribute('role', 'rowgroup');
    this.asksBody.setAttribute('aria-label', 'Asks');
    const spreadRow = el('div', 'row spread', this.grid);
    spreadRow.setAttribute('role', 'row');
    spreadRow.tabIndex = -1;
    this.spreadText = textCell(spreadRow, 'spread-cell', 'gridcell', 'Spread —');
    this.midText = textCell(spreadRow, 'mid-cell', 'gridcell', 'Mid —');
    this.bidsBody = el('div', 'side bids', el('div', 'ob-scroll ob-bids', this.grid));
    this.bidsBody.setAttribute('role', 'rowgroup');
    this.bidsBody.setAttribute('aria-label', 'Bids');

    const chartSec = this.section('chart', 'Chart', mid);
    const hsplit = el('div', 'mk-split mk-hsplit', mid);
    hsplit.setAttribute('role', 'separator');
    hsplit.setAttribute('aria-orientation', 'horizontal');
    hsplit.setAttribute('aria-label', 'Resize the chart (↑ ↓)');
    hsplit.tabIndex = 0;
    const depthSec = this.section('depth', 'Depth', mid);
    const chartBox = el('div', 'ob-chart', depthSec.body);
    chartBox.setAttribute('aria-label', 'Depth chart');
    this.canvas = el('canvas', undefined, chartBox);
    this.chartMessage = el('div', 'chart-message', chartBox);
    this.chartMessage.setAttribute('role', 'status');
    this.chartMessage.textContent = 'Waiting for the first snapshot…';
    this.canvas.setAttribute('role', 'img');
    this.canvas.setAttribute('aria-label', 'Depth chart: cumulative bid and ask size by price; hover for the price and cumulative size');

    const ticketSec = this.section('ticket', 'Order Ticket', side);
    const tapeSec = this.section('tape', 'Trades', side);
    this.slots = { chart: chartSec.body, chartTools: chartSec.tools, tape: tapeSec.body, ticket: ticketSec.body };
    this.splitter(vsplit, 'book', 'x', 260, 900);
    this.splitter(hsplit, 'chart', 'y', 120, 1200);
    this.applyLayout();

    const footer = el('footer', 'ob-footer', this.root);
    footer.setAttribute('aria-live', 'off');
    const mkFoot = (label: string) => {
      const s = el('span', undefined, footer);
      s.appendChild(document.createTextNode(label));
      const v = el('span', 'value', s);
      const t = document.createTextNode('—');
      v.appendChild(t);
      return t;
    };
    this.updatedText = mkFoot('Updated ');
    this.seqText = mkFoot('Sequence ');
    this.pollText = mkFoot('Feed ');

    this.observer =
      typeof IntersectionObserver === 'function'
        ? new IntersectionObserver(
            (entries) => {
              for (const e of entries) this.rowOf.get(e.target)?.setNear(e.isIntersecting);
            },
            { rootMargin: '25% 0px 25% 0px' },
          )
        : undefined;

    this.grid.addEventListener('keydown', (e) => this.onKey(e));
    this.grid.addEventListener('focusin', (e) => {
      const t = e.target as HTMLElement;
      if (t.getAttribute('role') === 'row') {
        this.flush();
        this.rowOf.get(t)?.flush();
        this.setActiveRow(t);
      }
    });
    this.grid.addEventListener('click', (e) => {
      const rowEl = (e.target as HTMLElement).closest('.row');
      const row = rowEl ? this.rowOf.get(rowEl) : undefined;
      if (row && row.shownPrice) events.onLevel?.(row.shownPrice, row.side, e.altKey);
    });
  }

  /** A collapsible section: a header with a toggle button (and a tools area), and a body. */
  private section(name: SectionName, label: string, parent: HTMLElement): { body: HTMLElement; tools: HTMLElement } {
    const sec = el('section', `mk-section mk-${name}`, parent);
    sec.setAttribute('aria-label', label);
    const head = el('div', 'mk-section-head', sec);
    const toggle = el('button', 'mk-toggle', head);
    toggle.type = 'button';
    toggle.textContent = label;
    toggle.setAttribute('aria-expanded', 'true');
    const tools = el('div', 'mk-tools', head);
    const body = el('div', 'mk-section-body', sec);
    toggle.addEventListener('click', () => {
      if (this.layout.collapsed.has(name)) this.layout.collapsed.delete(name);
      else this.layout.collapsed.add(name);
      this.applyLayout();
      this.emitLayout();
    });
    this.sections.set(name, sec);
    return { body, tools };
  }

  /** A draggable (and keyboard-operable) splitter changing `sizes[key]` within [min, max] px. */
  private splitter(handle: HTMLElement, key: string, axis: 'x' | 'y', min: number, max: number): void {
    const clamp = (v: number) => Math.max(min, Math.min(max, Math.round(v)));
    handle.addEventListener('pointerdown', (e) => {
      e.preventDefault();
      handle.setPointerCapture(e.pointerId);
      const start = axis === 'x' ? e.clientX : e.clientY;
      const from = this.layout.sizes[key] ?? DEFAULT_LAYOUT.sizes[key];
      const move = (ev: PointerEvent) => {
        this.layout.sizes[key] = clamp(from + (axis === 'x' ? ev.clientX : ev.clientY) - start);
        this.applyLayout();
      };
      const up = () => {
        handle.removeEventListener('pointermove', move);
        handle.removeEventListener('pointerup', up);
        this.emitLayout();
      };
      handle.addEventListener('pointermove', move);
      handle.addEventListener('pointerup', up);
    });
    handle.addEventListener('keydown', (e) => {
      const dir = axis === 'x' ? (e.key === 'ArrowLeft' ? -1 : e.key === 'ArrowRight' ? 1 : 0) : e.key === 'ArrowUp' ? -1 : e.key === 'ArrowDown' ? 1 : 0;
      if (!dir) return;
      e.preventDefault();
      this.layout.sizes[key] = clamp((this.layout.sizes[key] ?? DEFAULT_LAYOUT.sizes[key]) + dir * 20);
      this.applyLayout();
      this.emitLayout();
    });
  }

  private applyLayout(): void {
    this.layoutEl.style.setProperty('--mk-book-w', `${this.layout.sizes.book ?? DEFAULT_LAYOUT.sizes.book}px`);
    this.layoutEl.style.setProperty('--mk-chart-h', `${this.layout.sizes.chart ?? DEFAULT_LAYOUT.sizes.chart}px`);
    for (const [name, sec] of this.sections) {
      const collapsed = this.layout.collapsed.has(name);
      sec.classList.toggle('collapsed', collapsed);
      // The column's other section takes the room of a collapsed one (CSS: .mk-layout.no-<name>).
      this.layoutEl.classList.toggle(`no-${name}`, collapsed);
      sec.querySelector('.mk-toggle')?.setAttribute('aria-expanded', String(!collapsed));
    }
  }

  private emitLayout(): void {
    this.events.onLayout?.(this.currentLayout());
  }

  /** The layout now (persisted by the controller). */
  currentLayout(): PanelLayout {
    return { sizes: { ...this.layout.sizes }, collapsed: [...this.layout.collapsed] };
  }

  /** Restore a saved layout. */
  setLayout(layout: PanelLayout): void {
    this.layout = { sizes: { ...DEFAULT_LAYOUT.sizes, ...layout.sizes }, collapsed: new Set(layout.collapsed.filter((c): c is SectionName => (SECTIONS as readonly string[]).includes(c))) };
    this.applyLayout();
  }

  /** Whether a section is collapsed. */
  isCollapsed(name: SectionName): boolean {
    return this.layout.collapsed.has(name);
  }

  /** The header's funds badge: `kind` colours it, `label` is its text, `title` its tooltip (not shown while empty: CSS). */
  setFunds(kind = '', label = '', title = ''): void {
    const b = this.fundsBadge;
    b.textContent = label;
    b.dataset.kind = kind;
    b.title = title;
  }

  /**
   * The header's borrowed-market badge (Paper, Replay): `short` its text, `detail` its tooltip, `state` colours
   * it (live, resyncing, unreachable, finished…); null hides it (the other profiles).
   */
  setSource(source: { short: string; detail: string; state: string; warn: boolean } | null): void {
    const b = this.sourceBadge;
    b.hidden = source === null;
    b.textContent = source?.short ?? '';
    b.title = source?.detail ?? '';
    b.dataset.state = source?.state ?? '';
    b.dataset.warn = String(source?.warn ?? false);
  }

  /** The header's last price; `direction` colours it (up: buy colour, down: sell colour). */
  setLast(price: string | null, direction: 'up' | 'down' | null): void {
    const text = price ?? '—';
    if (text !== this.lastPrice) {
      this.lastPrice = text;
      this.lastText.data = text;
    }
    if (direction) this.lastCell.dataset.dir = direction;
  }

  /** The header's 24 h statistics (change in %, high, low, volume in base). */
  setStats(s: MarketStats, base: string): void {
    const rate = s.changeRate;
    if (rate !== null) {
      const pct = percentText(rate);
      this.statTexts.change.data = pct;
      this.changeCell.dataset.dir = rate.startsWith('-') ? 'down' : /[1-9]/.test(rate) ? 'up' : '';
    } else this.statTexts.change.data = '—';
    this.statTexts.high.data = s.high ?? '—';
    this.statTexts.low.data = s.low ?? '—';
    this.statTexts.vol.data = s.vol !== null ? `${s.vol}${base ? ` ${base}` : ''}` : '—';
    if (s.last !== null && this.lastPrice === '—') this.setLast(s.last, null);
  }

  /** Where the book comes from, as a badge (its title holds the reason). */
  setFeed(f: FeedInfo): void {
    const word =
      f.state === 'live' ? 'Stream · live' : f.state === 'resyncing' ? 'Stream · resyncing' : f.state === 'reconnecting' ? 'Stream · reconnecting' : f.state === 'connecting' ? 'Stream · connecting' : 'Polling (stream down)';
    this.feedText.data = word;
    this.feedBadge.dataset.state = f.state;
    this.feedBadge.title = f.reason ? `${word}: ${f.reason}` : word;
    this.pollText.data = f.mode === 'stream' ? `stream (${f.state})` : 'polling — stream down';
    // The mode and why, in words the person can read without hovering (the footer stays one line).
    const why =
      f.mode === 'polling'
        ? `Polling the order book (the stream is down)${f.reason ? `: ${f.reason}` : '.'}`
        : f.state === 'reconnecting'
          ? `The stream is reconnecting${f.reason ? `: ${f.reason}` : '.'}`
          : null;
    this.feedBanner.hidden = why === null;
    this.feedBanner.textContent = why ?? '';
  }

  /** Forget the 24 h statistics and the last price (another profile's market is not this one). */
  clearStats(): void {
    for (const t of Object.values(this.statTexts)) t.data = '—';
    delete this.changeCell.dataset.dir;
    delete this.lastCell.dataset.dir;
    this.lastPrice = '—';
    this.lastText.data = '—';
  }

  /**
   * Mark the user's resting orders: `own` maps each side's displayed (already grouped like the book)
   * price to the user's remaining size and order count there (src/features/market/model/ownOrders.ts); `unit`
   * is the base currency. Applied to the rows now and at every render.
   */
  setOwnOrders(own: OwnLevels, unit: string): void {
    this.own = own;
    this.ownUnit = unit;
    this.markOwn();
  }

  private markOwn(): void {
    const mark = (rows: Row[], m: ReadonlyMap<string, OwnLevel>) => {
      for (const r of rows) {
        if (!r.visible) continue;
        const at = m.size ? m.get(canonicalPrice(r.shownPrice)) : undefined;
        r.setOwn(at?.size ?? '', at ? `Your ${at.count > 1 ? `${at.count} orders` : 'order'} here: ${at.size}${this.ownUnit ? ` ${this.ownUnit}` : ''} remaining` : '');
      }
    };
    mark(this.asks, this.own.asks);
    mark(this.bids, this.own.bids);
  }

  /** Build the skeleton inside `host` (usually `document.body`). */
  static mount(host: HTMLElement, events: ViewEvents): OrderBookView {
    return new OrderBookView(host, events);
  }

  /** Symbol shown in the title (textContent: any string is inert). */
  setSymbol(symbol: string): void {
    this.symbolText.data = symbol;
  }

  /** Column headers with the base/quote currency codes. */
  setCurrencies(base: string, quote: string): void {
    this.priceHead.data = quote ? `Price (${quote})` : 'Price';
    this.sizeHead.data = base ? `Size (${base})` : 'Size';
    this.totalHead.data = base ? `Total (${base})` : 'Total';
  }

  /** Reflect settings in the controls; grows the row pools to `depth` rows per side. */
  setSettings(grouping: Grouping, depth: BookDepth): void {
    this.groupingSelect.value = grouping;
    this.depthSelect.value = String(depth);
    this.ensureRows(depth);
  }

  /**
   * Pad prices to `price` and sizes/totals to `size` fraction digits (the tick and the lot); the
   * last view is written again with the new padding.
   */
  setDigits(price: number, size: number): void {
    if (price === this.digits.price && size === this.digits.size) return;
    this.digits.price = price;
    this.digits.size = size;
    for (const r of this.asks) r.invalidate();
    for (const r of this.bids) r.invalidate();
    this.lastSpread = this.lastMid = '';
    if (this.rendered && !this.pendingView) this.render(this.rendered);
  }

  /** Label the grouping options with the price step each gives (`steps[i]` = priceIncrement × GROUPINGS[i]). */
  setGroupingSteps(steps: readonly string[]): void {
    const opts = this.groupingSelect.options;
    for (let i = 0; i < opts.length; i++) {
      const step = steps[i];
      opts[i].textContent = step ? `×${GROUPINGS[i]} (${step})` : `×${GROUPINGS[i]}`;
    }
  }

  private ensureRows(n: number): void {
    const add = (r: Row) => {
      this.rowOf.set(r.root, r);
      this.observer?.observe(r.root);
      return r;
    };
    while (this.asks.length < n) this.asks.push(add(new Row('ask', this.asksBody, this.asksBody.firstChild, !!this.observer, this.digits)));
    while (this.bids.length < n) this.bids.push(add(new Row('bid', this.bidsBody, null, !!this.observer, this.digits)));
    if (!this.tabStop) {
      const first = this.bids[0]?.root ?? this.asks[0]?.root;
      if (first) {
        first.tabIndex = 0;
        this.tabStop = true;
      }
    }
  }

  /** Write the pending view and every pending off-screen row now (tests; a screen reader snapshot). */
  flushAll(): void {
    this.flush();
    for (const r of this.asks) r.flush();
    for (const r of this.bids) r.flush();
  }

  /**
   * Render one view: rows, spread/mid, footer. The DOM is written once per animation frame with the
   * latest view (several updates within a frame cost one write; nothing is written while the panel
   * is hidden and frames do not run). Only changed text nodes and styles of rows near the viewport
   * are written. {@link flush} writes a pending view now.
   */
  render(view: BookView): void {
    this.pendingView = view;
    if (!this.frame) this.frame = requestAnimationFrame(() => this.flush());
  }

  /** The last view written to the DOM (tests and the benchmark wait for it). */
  get renderedView(): BookView | undefined {
    return this.rendered;
  }

  /** Write the pending view (if any) now; the frame callback, the keyboard handlers and tests call it. */
  flush(): void {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
    const view = this.pendingView;
    if (!view) return;
    this.pendingView = undefined;
    this.write(view);
    this.rendered = view;
  }

  private write(view: BookView): void {
    const need = Math.max(view.asks.length, view.bids.length);
    if (need > this.asks.length || need > this.bids.length) this.ensureRows(need);
    let flashed = false;
    flashed = this.fill(this.asks, view.asks) || flashed;
    flashed = this.fill(this.bids, view.bids) || flashed;
    const spread = view.spread === null ? 'Spread —' : `Spread ${padFraction(view.spread, this.digits.price)} (${view.spreadBps} bps)`;
    if (spread !== this.lastSpread) this.spreadText.data = this.lastSpread = spread;
    const mid = view.mid === null ? 'Mid —' : `Mid ${padFraction(view.mid, this.digits.price)}`;
    if (mid !== this.lastMid) this.midText.data = this.lastMid = mid;
    if (view.sequence !== this.lastSeq) this.seqText.data = this.lastSeq = view.sequence;
    if (view.time !== this.lastTime) {
      this.lastTime = view.time;
      this.updatedText.data = formatTime(view.time);
    }
    if (flashed) this.scheduleUnflash();
    if (this.own.asks.size || this.own.bids.size) this.markOwn();
  }

  private fill(rows: Row[], levels: readonly ViewLevel[]): boolean {
    let flashed = false;
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i];
      if (i < levels.length) {
        if (row.set(levels[i])) {
          this.flashed.push(row.root);
          flashed = true;
        }
      } else row.hide();
    }
    return flashed;
  }

  private scheduleUnflash(): void {
    if (this.flashTimer !== undefined) return;
    this.flashTimer = setTimeout(() => {
      this.flashTimer = undefined;
      for (const r of this.flashed) r.classList.remove('flash');
      this.flashed = [];
    }, 180);
  }

  /**
   * The book's freshness (src/features/market/model/freshness.ts): `fresh` empties the freshness line;
   * `waiting` and `stale` show `text` there and dim the book. The line keeps its place either way.
   */
  setStale(state: 'fresh' | 'waiting' | 'stale', text = ''): void {
    if (state === this.stale && text === this.freshLine.textContent) return;
    this.stale = state;
    this.freshLine.textContent = this.freshLine.title = state === 'fresh' ? '' : text;
    this.freshLine.dataset.state = state;
    this.root.classList.toggle('is-stale', state !== 'fresh');
    this.root.dataset.freshness = state;
  }

  /** Service status banner: hidden when `open`, otherwise shows the status and message. */
  setStatus(status: ServiceStatusValue, msg: string): void {
    if (status === 'open') {
      this.statusBanner.hidden = true;
      return;
    }
    const label = status === 'close' ? 'Service closed (trading stopped or maintenance)' : 'Service in cancel-only mode';
    this.statusBanner.textContent = msg ? `${label}: ${msg}` : label;
    this.statusBanner.hidden = false;
  }

  /** Error banner with a Retry button (the failure as text); null hides it. */
  setError(message: string | null): void {
    this.errorBanner.hidden = message === null;
    this.errorText.data = message ?? '';
  }

  /** A line over the depth chart saying why it is empty (no book yet, or the failure); null hides it. */
  setChartMessage(message: string | null): void {
    this.chartMessage.hidden = message === null;
    this.chartMessage.textContent = message ?? '';
  }

  /** Empty the book (another profile's book is not this one): rows hidden, spread and mid unknown. */
  clearBook(): void {
    this.pendingView = undefined;
    for (const r of this.asks) r.hide();
    for (const r of this.bids) r.hide();
    this.spreadText.data = this.lastSpread = 'Spread —';
    this.midText.data = this.lastMid = 'Mid —';
    this.seqText.data = this.lastSeq = '—';
    this.updatedText.data = '—';
    this.lastTime = -1;
    this.rendered = undefined;
  }

  /** Footer feed state while polling, e.g. "polling every 1000 ms", "paused", "backing off 4000 ms". */
  setPolling(text: string): void {
    this.pollText.data = text;
  }

  /** Current freshness state (see {@link setStale}). */
  get freshness(): string {
    return this.stale;
  }

  // ----- keyboard navigation (roving tabindex over the visible rows, in visual order) -----

  private visibleRows(): HTMLElement[] {
    const out: HTMLElement[] = [];
    for (let i = this.asks.length - 1; i >= 0; i--) if (this.asks[i].visible) out.push(this.asks[i].root);
    out.push(this.grid.querySelector('.row.spread') as HTMLElement);
    for (const r of this.bids) if (r.visible) out.push(r.root);
    return out;
  }

  private setActiveRow(row: HTMLElement): void {
    for (const r of this.grid.querySelectorAll<HTMLElement>('[tabindex="0"]')) if (r !== row) r.tabIndex = -1;
    row.tabIndex = 0;
  }

  private onKey(e: KeyboardEvent): void {
    this.flush(); // rows shown/hidden by a pending view count
    if (e.key === 'Enter') {
      const row = this.rowOf.get(document.activeElement as Element);
      if (row && row.shownPrice) {
        e.preventDefault();
        this.events.onLevel?.(row.shownPrice, row.side, e.altKey);
      }
      return;
    }
    const rows = this.visibleRows();
    const move = Object.prototype.hasOwnProperty.call(NAV_KEYS, e.key) ? NAV_KEYS[e.key] : undefined;
    if (!move) return;
    e.preventDefault();
    const target = rows[move(rows.indexOf(document.activeElement as HTMLElement), rows.length)];
    if (target) {
      this.rowOf.get(target)?.flush();
      this.setActiveRow(target);
      target.focus();
    }
  }
}
