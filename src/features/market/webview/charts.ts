/**
 * The market panel's charts, a webview bundle of their own: dist/webview/market-chart.js — the candlestick
 * chart, the depth chart of the book (./depthChart.ts) and the trade tape (./tape.ts), the parts of the panel
 * that are loaded after the book.
 *
 * It bundles TradingView's `lightweight-charts` (canvas, about 160 KB minified), hence its own bundle and size
 * budget (esbuild.js); the panel loads it only when the chart section is shown, with the page's nonce (the CSP
 * stays `script-src 'nonce-…'`). Candles come from the candle history and, live, from each `/market/match` trade
 * (src/features/market/model/candles.ts: exact decimal strings; only the drawing converts them to Numbers);
 * colours follow the VS Code theme.
 *
 * It registers `window.__spotdeskCandleChart` ({@link ChartsFactory}); the panel's script calls it. The chart
 * section's interval picker and notes, and the user's orders as price lines, are built here too. Details:
 * docs/market.md "The charts bundle (`webview/charts.ts`)".
 */
import { CandlestickSeries, ColorType, createChart, HistogramSeries, LineStyle, type AutoscaleInfo, type IChartApi, type IPriceLine, type ISeriesApi, type UTCTimestamp } from 'lightweight-charts';
import { applyTrade, CHART_HISTORY_S, INTERVALS, type CandleInterval, type CandleRow, type ChartTrade } from '../model/candles';
import { ownPriceLines, type OwnPriceLine } from '../model/ownOrders';
import type { OwnOrder } from '../protocol';
import { DepthChart } from './depthChart';
import { TapeView } from './tape';

/** Where the candle chart mounts: the chart section's body and its head's tools area. */
export interface ChartSlots {
  readonly chart: HTMLElement;
  readonly chartTools: HTMLElement;
}

/** What the charts bundle offers the panel's script (`window.__spotdeskCandleChart`). */
export interface ChartsFactory {
  /**
   * The candle chart in the chart section (with its interval picker, the library credit and a note
   * saying what is loading or missing); `onInterval` is called when the person picks an interval.
   */
  create(slots: ChartSlots, interval: CandleInterval, onInterval: (iv: CandleInterval) => void): CandleChartApi;
  /** The depth chart drawing into `canvas`. */
  depth(canvas: HTMLCanvasElement): DepthChart;
  /** The trade tape in `host` (src/features/market/webview/tape.ts). */
  tape(host: HTMLElement): TapeView;
}

/** What the panel's script can do with a chart. */
export interface CandleChartApi {
  /**
   * Replace the history (oldest first); null clears it. `tick` sets the price precision; `error`
   * (the history could not be loaded) is shown over the chart.
   */
  setCandles(interval: CandleInterval, rows: readonly CandleRow[] | null, tick: string | null, error?: string | null): void;
  /** Reflect the interval in the picker. */
  setInterval(interval: CandleInterval): void;
  /** Say that the candles of `interval` are being loaded. */
  loading(interval: CandleInterval): void;
  /** Update the last candle (or open new ones) from trades, oldest first. */
  addTrades(trades: readonly ChartTrade[]): void;
  /**
   * Draw the user's orders as price lines (src/features/market/model/ownOrders.ts `ownPriceLines`): a solid
   * line in the side's colour at each resting price, a dashed one at each stop trigger; replaces
   * the previous set.
   */
  setOrders(orders: readonly OwnOrder[]): void;
  /** The candles drawn, oldest first (tests). */
  readonly candles: readonly CandleRow[];
  /** The order price lines drawn (tests). */
  readonly orderLines: readonly OwnPriceLine[];
  /** Re-read the theme colours. */
  retheme(): void;
  destroy(): void;
}

interface Palette {
  bg: string;
  fg: string;
  grid: string;
  up: string;
  down: string;
  font: string;
}

function palette(): Palette {
  const cs = getComputedStyle(document.body);
  const v = (name: string, fallback: string) => cs.getPropertyValue(name).trim() || fallback;
  const hc = document.body.classList.contains('vscode-high-contrast') || document.body.classList.contains('vscode-high-contrast-light');
  return {
    bg: v('--vscode-editor-background', '#1e1e1e'),
    fg: v('--vscode-foreground', '#cccccc'),
    grid: hc ? 'transparent' : v('--vscode-panel-border', 'rgba(128,128,128,0.25)'),
    up: v('--vscode-spotdesk-buyForeground', '#2EBD85'),
    down: v('--vscode-spotdesk-sellForeground', '#F6465D'),
    font: v('--vscode-font-family', 'sans-serif'),
  };
}

/** Empty bars right of the last candle. */
const RIGHT_OFFSET = 4;

/** Order lines within this share of the last close are kept in the chart's price range (5 %). */
const NEAR_SHARE = 0.05;

/** Fraction digits of a tick ("0.01" → 2). */
function digitsOf(tick: string | null): number {
  if (!tick) return 2;
  const i = tick.indexOf('.');
  return i < 0 ? 0 : tick.length - i - 1;
}

/** Create the chart section's contents in `slots` (see {@link ChartsFactory.create}). */
function create(slots: ChartSlots, initial: CandleInterval, onInterval: (iv: CandleInterval) => void): CandleChartApi {
  // The interval picker and the library credit in the section's head.
  const label = document.createElement('label');
  label.className = 'mk-interval';
  label.append('Interval ');
  const select = document.createElement('select');
  select.setAttribute('aria-label', 'Candle interval');
  for (const iv of INTERVALS) select.add(new Option(iv, iv));
  select.value = initial;
  select.addEventListener('change', () => onInterval(select.value as CandleInterval));
  label.appendChild(select);
  const credit = document.createElement('span');
  credit.className = 'mk-credit';
  credit.textContent = 'Chart: TradingView Lightweight Charts™';
  slots.chartTools.append(label, credit);
  // What is loading or missing, over the chart.
  const note = document.createElement('div');
  note.className = 'mk-chart-note';
  note.setAttribute('role', 'status');
  note.textContent = 'Loading candles…';
  const host = document.createElement('div');
  host.className = 'mk-candles';
  slots.chart.append(note, host);
  let noteError = false;

  let pal = palette();
  const chart: IChartApi = createChart(host, {
    autoSize: true,
    layout: { background: { type: ColorType.Solid, color: pal.bg }, textColor: pal.fg, fontFamily: pal.font, attributionLogo: false },
    grid: { vertLines: { color: pal.grid }, horzLines: { color: pal.grid } },
    rightPriceScale: { borderColor: pal.grid },
    // minBarSpacing: 3 × 24 h of 1min candles (4,320) fit the chart's width when it opens (setCandles)
    timeScale: { borderColor: pal.grid, timeVisible: true, secondsVisible: false, rightOffset: RIGHT_OFFSET, minBarSpacing: 0.02 },
    crosshair: { mode: 0 },
  });
  const candleSeries: ISeriesApi<'Candlestick'> = chart.addSeries(CandlestickSeries, {
    upColor: pal.up,
    downColor: pal.down,
    wickUpColor: pal.up,
    wickDownColor: pal.down,
    borderVisible: false,
    // The user's orders near the market stay in sight: the price scale takes in their lines within
    // NEAR_SHARE of the last close (farther ones would flatten the candles; the axis labels them when scrolled to).
    autoscaleInfoProvider: (base: () => AutoscaleInfo | null) => {
      const r = base();
      const last = rows.length ? Number(rows[rows.length - 1][2]) : NaN;
      if (!r?.priceRange || !(last > 0)) return r;
      let { minValue, maxValue } = r.priceRange;
      for (const l of orderLines) {
        const p = Number(l.price);
        if (Math.abs(p - last) <= last * NEAR_SHARE) {
          minValue = Math.min(minValue, p);
          maxValue = Math.max(maxValue, p);
        }
      }
      return { ...r, priceRange: { minValue, maxValue } };
    },
  });
  const volumeSeries: ISeriesApi<'Histogram'> = chart.addSeries(HistogramSeries, { priceScaleId: '', priceFormat: { type: 'volume' }, lastValueVisible: false, priceLineVisible: false });
  volumeSeries.priceScale().applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });

  let rows: CandleRow[] = [];
  let interval: CandleInterval = '1min';
  let orderLines: readonly OwnPriceLine[] = [];
  let drawnLines: IPriceLine[] = [];
  /** (Re)draw the order lines in the theme's buy/sell colours. */
  const drawLines = () => {
    for (const l of drawnLines) candleSeries.removePriceLine(l);
    drawnLines = orderLines.map((l) =>
      candleSeries.createPriceLine({
        price: Number(l.price),
        color: l.side === 'buy' ? pal.up : pal.down,
        lineWidth: 1,
        lineStyle: l.kind === 'stop' ? LineStyle.Dashed : LineStyle.Solid,
        axisLabelVisible: true,
        title: l.title,
      }),
    );
  };
  const toBar = (r: CandleRow) => ({ time: Number(r[0]) as UTCTimestamp, open: Number(r[1]), close: Number(r[2]), high: Number(r[3]), low: Number(r[4]) });
  const translucent = (c: string) => (/^#[0-9a-f]{6}$/i.test(c) ? `${c}66` : c);
  const toVol = (r: CandleRow) => ({ time: Number(r[0]) as UTCTimestamp, value: Number(r[5]), color: translucent(Number(r[2]) >= Number(r[1]) ? pal.up : pal.down) });
  const redraw = () => {
    candleSeries.setData(rows.map(toBar));
    volumeSeries.setData(rows.map(toVol));
  };

  // The chart is a canvas: its host carries a text alternative with the interval and the last candle
  // (open, high, low, close, volume), rewritten when the candles change (screen readers; the e2e
  // test reads it to see the chart move).
  host.setAttribute('role', 'img');
  const describe = () => {
    const last = rows[rows.length - 1];
    host.setAttribute(
      'aria-label',
      (last
        ? `Candlestick chart, ${interval}, ${rows.length} candles; last candle at ${new Date(Number(last[0]) * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC: open ${last[1]}, high ${last[3]}, low ${last[4]}, close ${last[2]}, volume ${last[5]}`
        : `Candlestick chart, ${interval}: no candles yet`) + (orderLines.length ? `; your orders: ${orderLines.map((l) => `${l.title} at ${l.price}`).join(', ')}` : ''),
    );
  };

  // The chart opens on CHART_HISTORY_S of candles (as far back as the rows go), the newest at the right edge.
  const showHistory = () => {
    if (rows.length === 0) return;
    const from = Number(rows[rows.length - 1][0]) - CHART_HISTORY_S;
    let first = rows.length - 1;
    while (first > 0 && Number(rows[first - 1][0]) >= from) first--;
    chart.timeScale().setVisibleLogicalRange({ from: first - 0.5, to: rows.length - 0.5 + RIGHT_OFFSET });
  };
  // What is in sight, on the host (tests read it; the canvas says nothing): the first and last candle shown (s) and their count.
  const markVisible = () => {
    const r = chart.timeScale().getVisibleLogicalRange();
    if (r === null || rows.length === 0) {
      delete host.dataset.visibleFirst;
      delete host.dataset.visibleLast;
      host.dataset.visibleCandles = '0';
      return;
    }
    const a = Math.max(0, Math.ceil(r.from));
    const b = Math.min(rows.length - 1, Math.floor(r.to));
    if (a > b) {
      host.dataset.visibleCandles = '0';
      return;
    }
    host.dataset.visibleFirst = rows[a][0];
    host.dataset.visibleLast = rows[b][0];
    host.dataset.visibleCandles = String(b - a + 1);
  };
  chart.timeScale().subscribeVisibleLogicalRangeChange(markVisible);

  const observer = new MutationObserver(() => api.retheme());
  // VS Code switches the body class (vscode-light/-dark/-high-contrast) and the variables on <html>.
  observer.observe(document.body, { attributes: true, attributeFilter: ['class'] });
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['style'] });

  const api: CandleChartApi = {
    setCandles(iv, list, tick, error = null) {
      select.value = iv;
      noteError = error !== null;
      note.hidden = !noteError && (list?.length ?? 0) > 0;
      note.textContent = error ?? (list?.length ? '' : 'No candles yet: they appear with the next trades.');
      interval = iv;
      rows = list ? list.slice() : [];
      const digits = digitsOf(tick);
      candleSeries.applyOptions({ priceFormat: { type: 'price', precision: digits, minMove: tick ? Number(tick) : 0.01 } });
      redraw();
      showHistory();
      describe();
    },
    setInterval(iv) {
      select.value = iv;
    },
    loading(iv) {
      note.hidden = false;
      note.textContent = `Loading ${iv} candles…`;
    },
    addTrades(trades) {
      // The first live trade draws a candle: "No candles yet" no longer holds.
      if (trades.length && !noteError) note.hidden = true;
      for (const t of trades) {
        const r = applyTrade(rows, interval, t);
        if (r === 'ignored') continue;
        const last = rows[rows.length - 1];
        candleSeries.update(toBar(last));
        volumeSeries.update(toVol(last));
      }
      describe();
    },
    setOrders(orders) {
      orderLines = ownPriceLines(orders);
      drawLines();
      describe();
    },
    get candles() {
      return rows;
    },
    get orderLines() {
      return orderLines;
    },
    retheme() {
      pal = palette();
      chart.applyOptions({
        layout: { background: { type: ColorType.Solid, color: pal.bg }, textColor: pal.fg, fontFamily: pal.font },
        grid: { vertLines: { color: pal.grid }, horzLines: { color: pal.grid } },
        rightPriceScale: { borderColor: pal.grid },
        timeScale: { borderColor: pal.grid },
      });
      candleSeries.applyOptions({ upColor: pal.up, downColor: pal.down, wickUpColor: pal.up, wickDownColor: pal.down });
      redraw();
      drawLines();
    },
    destroy() {
      observer.disconnect();
      chart.remove();
    },
  };
  return api;
}

const factory: ChartsFactory = { create, depth: (canvas) => new DepthChart(canvas), tape: (host) => new TapeView(host) };
(window as unknown as { __spotdeskCandleChart?: ChartsFactory }).__spotdeskCandleChart = factory;
window.dispatchEvent(new Event('spotdesk-candle-chart'));
