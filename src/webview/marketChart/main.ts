/**
 * The market panel's charts (issue 22), a webview bundle of their own: dist/webview/market-chart.js —
 * the candlestick chart, and the depth chart of the book (src/webview/orderbook/chart.ts).
 *
 * It bundles TradingView's `lightweight-charts` (Apache-2.0, canvas; about 160 KB minified), which is
 * why it is a bundle of its own with its own size budget (esbuild.js: 200 KB minified) — the book,
 * tape and ticket stay in dist/webview/orderbook.js within the 60 KB of every webview. The panel
 * loads this script only when the chart section is shown, with the page's nonce (no remote script:
 * the CSP stays `script-src 'nonce-…'`; the library's attribution logo, which would need an inline
 * style, is off and the panel credits the library in text instead).
 *
 * What it draws: candles with a volume histogram (overlaid at the bottom) from the candle history
 * (GET /api/v1/market/candles, oldest first) and, live, the last candle updated from each trade of
 * `/market/match` (src/shared/market/candles.ts: exact decimal strings; only the drawing converts
 * them to Numbers). Colours follow the VS Code theme (light, dark, high contrast) and change with it.
 *
 * It registers `window.__spotdeskCandleChart.create(host)`; the panel's script calls it.
 */
import { CandlestickSeries, ColorType, createChart, HistogramSeries, type IChartApi, type ISeriesApi, type UTCTimestamp } from 'lightweight-charts';
import { applyTrade, type CandleInterval, type CandleRow, type ChartTrade } from '../../shared/market/candles';
import { DepthChart } from '../orderbook/chart';

/** What the charts bundle offers the panel's script (`window.__spotdeskCandleChart`). */
export interface ChartsFactory {
  /** A candle chart in `host`. */
  create(host: HTMLElement): CandleChartApi;
  /** The depth chart drawing into `canvas`. */
  depth(canvas: HTMLCanvasElement): DepthChart;
}

/** What the panel's script can do with a chart. */
export interface CandleChartApi {
  /** Replace the history (oldest first); null clears it. `tick` sets the price precision. */
  setCandles(interval: CandleInterval, rows: readonly CandleRow[] | null, tick: string | null): void;
  /** Update the last candle (or open new ones) from trades, oldest first. */
  addTrades(trades: readonly ChartTrade[]): void;
  /** The candles drawn, oldest first (tests). */
  readonly candles: readonly CandleRow[];
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

/** Fraction digits of a tick ("0.01" → 2). */
function digitsOf(tick: string | null): number {
  if (!tick) return 2;
  const i = tick.indexOf('.');
  return i < 0 ? 0 : tick.length - i - 1;
}

/** Create a chart in `host` (see the module docstring). */
function create(host: HTMLElement): CandleChartApi {
  let pal = palette();
  const chart: IChartApi = createChart(host, {
    autoSize: true,
    layout: { background: { type: ColorType.Solid, color: pal.bg }, textColor: pal.fg, fontFamily: pal.font, attributionLogo: false },
    grid: { vertLines: { color: pal.grid }, horzLines: { color: pal.grid } },
    rightPriceScale: { borderColor: pal.grid },
    timeScale: { borderColor: pal.grid, timeVisible: true, secondsVisible: false, rightOffset: 4 },
    crosshair: { mode: 0 },
  });
  const candleSeries: ISeriesApi<'Candlestick'> = chart.addSeries(CandlestickSeries, {
    upColor: pal.up,
    downColor: pal.down,
    wickUpColor: pal.up,
    wickDownColor: pal.down,
    borderVisible: false,
  });
  const volumeSeries: ISeriesApi<'Histogram'> = chart.addSeries(HistogramSeries, { priceScaleId: '', priceFormat: { type: 'volume' }, lastValueVisible: false, priceLineVisible: false });
  volumeSeries.priceScale().applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });

  let rows: CandleRow[] = [];
  let interval: CandleInterval = '1min';
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
      last
        ? `Candlestick chart, ${interval}, ${rows.length} candles; last candle at ${new Date(Number(last[0]) * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC: open ${last[1]}, high ${last[3]}, low ${last[4]}, close ${last[2]}, volume ${last[5]}`
        : `Candlestick chart, ${interval}: no candles yet`,
    );
  };

  const observer = new MutationObserver(() => api.retheme());
  // VS Code switches the body class (vscode-light/-dark/-high-contrast) and the variables on <html>.
  observer.observe(document.body, { attributes: true, attributeFilter: ['class'] });
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['style'] });

  const api: CandleChartApi = {
    setCandles(iv, list, tick) {
      interval = iv;
      rows = list ? list.slice() : [];
      const digits = digitsOf(tick);
      candleSeries.applyOptions({ priceFormat: { type: 'price', precision: digits, minMove: tick ? Number(tick) : 0.01 } });
      redraw();
      chart.timeScale().scrollToRealTime();
      describe();
    },
    addTrades(trades) {
      for (const t of trades) {
        const r = applyTrade(rows, interval, t);
        if (r === 'ignored') continue;
        const last = rows[rows.length - 1];
        candleSeries.update(toBar(last));
        volumeSeries.update(toVol(last));
      }
      describe();
    },
    get candles() {
      return rows;
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
    },
    destroy() {
      observer.disconnect();
      chart.remove();
    },
  };
  return api;
}

const factory: ChartsFactory = { create, depth: (canvas) => new DepthChart(canvas) };
(window as unknown as { __spotdeskCandleChart?: ChartsFactory }).__spotdeskCandleChart = factory;
window.dispatchEvent(new Event('spotdesk-candle-chart'));
