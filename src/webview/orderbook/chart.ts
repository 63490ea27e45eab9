/**
 * Depth chart on a `<canvas>` (issue 6): cumulative bid size (left, buy colour) and ask size
 * (right, sell colour) against price, as filled step areas around the mid price.
 * Coordinates are `Number`s: this is presentation only, the table shows the exact strings.
 * Colours come from the theme's CSS variables, re-read when VS Code switches themes.
 */
import type { BookView } from '../../shared/orderbook/viewModel';
import { depthSeries, type DepthPoint } from '../../shared/orderbook/viewModel';

interface Palette {
  buy: string;
  sell: string;
  fg: string;
  grid: string;
  font: string;
}

/** Draws depth charts into one canvas; call {@link draw} after each render (it batches by animation frame). */
export class DepthChart {
  private palette: Palette | undefined;
  private pending: BookView | undefined;
  private frame = 0;

  /** CSS size of the canvas, kept by a ResizeObserver so that painting never forces a layout. */
  private size = { w: 0, h: 0 };

  constructor(private readonly canvas: HTMLCanvasElement) {
    this.size = { w: canvas.clientWidth, h: canvas.clientHeight };
    if (typeof ResizeObserver === 'function') {
      new ResizeObserver((entries) => {
        const r = entries[entries.length - 1].contentRect;
        this.size = { w: r.width, h: r.height };
        if (this.last) this.draw(this.last);
      }).observe(canvas);
    }
    // VS Code toggles body classes (vscode-light / vscode-dark / vscode-high-contrast) on theme change.
    new MutationObserver(() => {
      this.palette = undefined;
      if (this.last) this.draw(this.last);
    }).observe(document.body, { attributes: true, attributeFilter: ['class', 'style'] });
  }

  private last: BookView | undefined;

  /** Schedule a redraw with `view` on the next animation frame (several calls per frame draw once). */
  draw(view: BookView): void {
    this.last = view;
    this.pending = view;
    if (!this.frame) this.frame = requestAnimationFrame(() => this.flush());
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
    const pad = { l: 4, r: 4, t: 6, b: 16 };
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
    ctx.stroke();

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
