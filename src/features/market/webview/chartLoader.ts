/**
 * Loads the charts bundle (dist/webview/market-chart.js, see src/features/market/webview/charts.ts: the
 * candle chart and the depth chart) into the market panel when a chart section is first shown: a
 * `<script>` next to this bundle's own, with the page's nonce (the CSP allows only nonce'd scripts of
 * the webview's own files). The charts bundle registers `window.__spotdeskCandleChart`.
 */
import type { ChartsFactory } from './charts';

/** This bundle's own script element, captured while it runs (for the nonce and the folder). */
const SELF = typeof document !== 'undefined' ? (document.currentScript as HTMLScriptElement | null) : null;

type Factory = ChartsFactory;
type ChartWindow = Window & { __spotdeskCandleChart?: Factory };

let loading: Promise<Factory> | undefined;

/** The charts (loading their bundle once). Rejects when the script cannot load. */
export function loadCharts(): Promise<ChartsFactory> {
  const w = window as ChartWindow;
  loading ??= new Promise<Factory>((resolve, reject) => {
    if (w.__spotdeskCandleChart) return resolve(w.__spotdeskCandleChart);
    if (!SELF?.src) return reject(new Error('cannot locate the chart script'));
    const s = document.createElement('script');
    s.nonce = SELF.nonce ?? '';
    s.src = SELF.src.replace(/orderbook\.js(\?.*)?$/, 'market-chart.js$1');
    s.addEventListener('error', () => reject(new Error('the chart script did not load')));
    window.addEventListener('spotdesk-candle-chart', () => (w.__spotdeskCandleChart ? resolve(w.__spotdeskCandleChart) : reject(new Error('the chart script did not register'))), { once: true });
    document.head.appendChild(s);
  });
  return loading;
}
