/**
 * Depth chart on a `<canvas>`: cumulative bid size (left, buy colour) and ask size
 * (right, sell colour) against price, as filled step areas around the mid price, with a size axis
 * (cumulative size ticks on the left) and a hover crosshair that snaps to the level under
 * the pointer and labels its price and cumulative size — the level's exact strings, not the
 * pixel's Number. Coordinates are `Number`s: this is presentation only, the table shows the exact
 * strings. Colours come from the theme's CSS variables, re-read when VS Code switches themes.
 * Part of the charts bundle (src/features/market/webview/charts.ts), loaded when a chart section shows.
 */
import type { BookView, ViewLevel } from '../model/viewModel';
import { depthSeries, type DepthPoint } from '../model/viewModel';

/** The level the crosshair snapped to (tests read it). */
export interface DepthHover {
  readonly side: 'bid' | 'ask';
  readonly price: string;
  readonly total: string;
}

/** Round numbers for an axis from 0 to `max`: about `n` steps of 1, 2 or 5 × 10^k. */
export function niceTicks(max: number, n = 4): number[] {
  if (!(max > 0)) return [];
  const raw = max / n;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((k) => k * mag).find((s) => s >= raw) ?? 10 * mag;
  const out: number[] = [];
  for (let v = step; v <= max * 1.0000001; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

/** A tick label: at most 4 significant digits with k/M suffixes ("1.25k", "0.0034"). */
export function tickLabel(v: number): string {
  if (v >= 1e6) return `${Number((v / 1e6).toPrecision(4))}M`;
  if (v >= 1e3) return `${Number((v / 1e3).toPrecision(4))}k`;
  return String(Number(v.toPrecision(4)));
}

interface Palette {
  buy: string;
  sell: string;
  fg: string;
  grid: string;
  font: string;
  bg: string;
}

/** Draws depth charts into one canvas; call {@link draw} after each render (it batches by animation frame). */
export class DepthChart {
  private palette: Palette | undefined;
  private pending: BookView | undefined;
  private frame = 0;

  /** CSS size of the canvas, kept by a ResizeObserver so that painting never forces a layout. */
  private size = { w: 0, h: 0 };
  /** Pointer position over the canvas (CSS px), or null. */
  private pointer: { x: number; y: number } | null = null;
  /** The level under the pointer at the last paint. */
  hover: DepthHover | null = null;
  private base = '';

  constructor(private readonly canvas: HTMLCanvasElement) {
    canvas.addEventListener('pointermove', (e) => {
      this.pointer = { x: e.offsetX, y: e.offsetY };
      if (this.last) this.draw(this.last);
    });
    canvas.addEventListener('pointerleave', () => {
      this.pointer = null;
      this.hover = null;
      if (this.last) this.draw(this.last);
    });
    this.size = { w: canvas.clientWidth, h: canvas.clientHeight };
    if (typeof ResizeObserver === 'function') {
      new ResizeObserver((entries) => {
        const r = entries[entries.length - 1].contentRect;
        this.size = { w: r.width, h: r.height };
        if (this.last) this.draw(this.last);
      }).observe(canvas);
    }
    // VS Code toggles body classes (vscode-light / vscode-dark / vscode-high-contrast) and rewrites
    // the --vscode-* variables on <html> on a theme change.
    const rethemed = new MutationObserver(() => {
      this.palette = undefined;
      if (this.last) this.draw(this.last);
    });
    rethemed.observe(document.body, { attributes: true, attributeFilter: ['class', 'style'] });
    rethemed.observe(document.documentElement, { attributes: true, attributeFilter: ['style'] });
  }

  private last: BookView | undefined;

  /** Schedule a redraw with `view` on the next animation frame (several calls per frame draw once). */
  draw(view: BookView): void {
    this.last = view;
    this.pending = view;
    if (!this.frame) this.frame = requestAnimationFrame(() => this.flush());
  }

  /** The base currency (the size axis's unit). */
  setUnit(base: string): void {
    this.base = base;
  }

  /** Erase the chart (no book to draw). */
  clear(): void {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
    this.last = this.pending = undefined;
    this.canvas.getContext('2d')?.clearRect(0, 0, this.canvas.width, this.canvas.height);
  }

  /** Draw the pending view now (tests and the benchmark call this to include chart time). */
  flush(): void {
    this.frame = 0;
    const v = this.pending;
    this.pending = undefined;
    if (v) this.paint(v);
  }

  private readPalette(): Palette {
    const cs = getComputedStyle(document.body);
    const v = (name: string, fallback: string) => cs.getPropertyValue(name).trim() || fallback;
    return {
      buy: v('--ob-buy', '#3fb950'),
      sell: v('--ob-sell', '#f85149'),
      fg: v('--vscode-descriptionForeground', v('--vscode-foreground', '#888')),
      grid: v('--vscode-panel-border', 'rgba(128,128,128,0.35)'),
      font: `${v('--vscode-font-size', '12px')} ${v('--vscode-font-family', 'sans-serif')}`,
      bg: v('--vscode-editor-background', '#1e1e1e'),
    };
  }

  private paint(view: BookView): void {
    const c = this.canvas;
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(1, Math.round(this.size.w));
    const h = Math.max(1, Math.round(this.size.h));
    if (c.width !== Math.round(w * dpr) || c.height !== Math.round(h * dpr)) {
      c.width = Math.round(w * dpr);
      c.height = Math.round(h * dpr);
    }
    const ctx = c.getContext('2d');
    if (!ctx) return;
    const pal = (this.palette ??= this.readPalette());
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, w, h);
    const { bids, asks } = depthSeries(view);
    if (!bids.length && !asks.length) return;
    const pad = { l: 44, r: 4, t: 6, b: 16 };
    const lo = bids.length ? bids[bids.length - 1].x : asks[0].x;
    const hi = asks.length ? asks[asks.length - 1].x : bids[0].x;
    const mid = view.mid !== null ? Number(view.mid) : (lo + hi) / 2;
    // Symmetric price range around the mid so both sides are comparable.
    const half = Math.max(mid - lo, hi - mid) || 1;
    const x0 = mid - half;
    const x1 = mid + half;
    const ymax = Math.max(bids.length ? bids[bids.length - 1].y : 0, asks.length ? asks[asks.length - 1].y : 0) || 1;
    const px = (x: number) => pad.l + ((x - x0) / (x1 - x0)) * (w - pad.l - pad.r);
    const py = (y: number) => h - pad.b - (y / ymax) * (h - pad.t - pad.b);

    ctx.strokeStyle = pal.grid;
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(px(mid) + 0.5, pad.t);
    ctx.lineTo(px(mid) + 0.5, h - pad.b);
    ctx.moveTo(pad.l, h - pad.b + 0.5);
    ctx.lineTo(w - pad.r, h - pad.b + 0.5);
    ctx.moveTo(pad.l + 0.5, pad.t);
    ctx.lineTo(pad.l + 0.5, h - pad.b);
    // Size axis: cumulative size ticks with light grid lines.
    ctx.font = pal.font;
    ctx.fillStyle = pal.fg;
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    for (const t of niceTicks(ymax)) {
      const y = Math.round(py(t)) + 0.5;
      ctx.moveTo(pad.l - 3, y);
      ctx.lineTo(w - pad.r, y);
      ctx.fillText(tickLabel(t), pad.l - 5, y);
    }
    ctx.stroke();
    if (this.base) {
      ctx.textAlign = 'left';
      ctx.textBaseline = 'top';
      ctx.fillText(this.base, 2, 0);
    }

    this.area(ctx, bids, px, py, pal.buy, px(mid));
    this.area(ctx, asks, px, py, pal.sell, px(mid));

    ctx.fillStyle = pal.fg;
    ctx.font = pal.font;
    ctx.textBaseline = 'bottom';
    ctx.textAlign = 'left';
    ctx.fillText(bids.length ? bids[bids.length - 1].x.toString() : '', pad.l, h);
    ctx.textAlign = 'right';
    ctx.fillText(asks.length ? asks[asks.length - 1].x.toString() : '', w - pad.r, h);
    if (view.mid !== null) {
      ctx.textAlign = 'center';
      ctx.fillText(view.mid, px(mid), h);
    }
    this.crosshair(ctx, view, { bids, asks }, px, py, (x) => x0 + ((x - pad.l) / (w - pad.l - pad.r)) * (x1 - x0), mid, pad, w, h, pal);
  }

  /** The crosshair at the pointer: snapped to the level that sets the depth there, labelled with its exact price and total. */
  private crosshair(
    ctx: CanvasRenderingContext2D,
    view: BookView,
    pts: { bids: DepthPoint[]; asks: DepthPoint[] },
    px: (x: number) => number,
    py: (y: number) => number,
    priceAt: (x: number) => number,
    mid: number,
    pad: { l: number; r: number; t: number; b: number },
    w: number,
    h: number,
    pal: Palette,
  ): void {
    this.hover = null;
    const p = this.pointer;
    if (!p || p.x < pad.l || p.x > w - pad.r) return;
    const price = priceAt(p.x);
    const bid = price < mid;
    const series = bid ? pts.bids : pts.asks;
    const levels: readonly ViewLevel[] = bid ? view.bids : view.asks;
    // The deepest level still between the mid and the pointer sets the cumulative size there.
    let i = -1;
    for (let k = 0; k < series.length; k++) {
      if (bid ? series[k].x >= price : series[k].x <= price) i = k;
      else break;
    }
    if (i < 0) return;
    const lvl = levels[i];
    this.hover = { side: bid ? 'bid' : 'ask', price: lvl.price, total: lvl.total };
    const x = Math.round(px(series[i].x)) + 0.5;
    const y = Math.round(py(series[i].y)) + 0.5;
    ctx.save();
    ctx.strokeStyle = pal.fg;
    ctx.setLineDash([3, 3]);
    ctx.beginPath();
    ctx.moveTo(x, pad.t);
    ctx.lineTo(x, h - pad.b);
    ctx.moveTo(pad.l, y);
    ctx.lineTo(w - pad.r, y);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.fillStyle = bid ? pal.buy : pal.sell;
    ctx.beginPath();
    ctx.arc(x, y, 3, 0, Math.PI * 2);
    ctx.fill();
    const text = `${lvl.price} · Σ ${lvl.total}${this.base ? ` ${this.base}` : ''}`;
    ctx.font = pal.font;
    const tw = ctx.measureText(text).width + 10;
    const bx = Math.min(Math.max(pad.l, x - tw / 2), w - pad.r - tw);
    const by = Math.max(pad.t, Math.min(y - 24, h - pad.b - 20));
    ctx.fillStyle = pal.bg;
    ctx.strokeStyle = pal.grid;
    ctx.fillRect(bx, by, tw, 18);
    ctx.strokeRect(bx + 0.5, by + 0.5, tw - 1, 17);
    ctx.fillStyle = pal.fg;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'middle';
    ctx.fillText(text, bx + 5, by + 9);
    ctx.restore();
  }

  private area(
    ctx: CanvasRenderingContext2D,
    pts: DepthPoint[],
    px: (x: number) => number,
    py: (y: number) => number,
    colour: string,
    startX: number,
  ): void {
    if (!pts.length) return;
    const base = py(0);
    // The step line: from the mid outwards, up by each level's size at its price.
    const line = new Path2D();
    line.moveTo(startX, base);
    let y = base;
    for (const p of pts) {
      const x = px(p.x);
      line.lineTo(x, y);
      y = py(p.y);
      line.lineTo(x, y);
    }
    const fill = new Path2D(line);
    fill.lineTo(px(pts[pts.length - 1].x), base);
    fill.closePath();
    ctx.globalAlpha = 0.25;
    ctx.fillStyle = colour;
    ctx.fill(fill);
    ctx.globalAlpha = 1;
    ctx.strokeStyle = colour;
    ctx.lineWidth = 1.5;
    ctx.stroke(line);
  }
}
