/**
 * Order book webview benchmark (issue 6), headless Chromium via the e2e harness
 * (test/e2e/orderbookHarness.ts: the built bundle, the panel's CSP, Dark+ variables).
 *
 * Workload: a deterministic moving 100-level book (100 bids + 100 asks, tick 0.1, 8-decimal
 * sizes); each update shifts the mid now and then and changes ~30 % of the sizes, with a new
 * `sequence` every time.
 *
 * Measured, for the incremental renderer (the product: validate message → BookStore → view-model
 * → reuse rows, write only changed text/styles) and for a naive baseline measured in the same run
 * (same validation, store and view-model, then a full `innerHTML` rebuild of both sides with
 * escaped strings and the bar widths set through the CSSOM, as the CSP forbids inline styles):
 *  - script time per update (median, p99), each update in its own task;
 *  - the same with a forced synchronous layout inside the timed region (script + style + layout);
 *  - sustained updates per second: updates driven at 10, 25, 50, 100, 200 and 400 per second for
 *    1.5 s each (one update per task, rendering interleaved); the figure is the highest rate kept up
 *    (≥ 95 % achieved) with no long task (> 50 ms, PerformanceObserver 'longtask').
 * Targets: median ≤ 1 ms, p99 ≤ 4 ms, ≥ 5× faster than the naive rebuild. Prints the figures.
 *
 * Run: `npm run bench -- orderbook` (or `npx tsx bench/orderbook.bench.ts`).
 */
import type { Page } from 'playwright-core';
import type { BookSnapshot } from '../src/shared/orderbook/protocol';
import { buildBundle, post, startHarness } from '../test/e2e/orderbookHarness';

const LEVELS = 100;
const UPDATES = Number(process.env.OB_BENCH_UPDATES ?? 500);
const WARMUP = 100;
const SUSTAIN_MS = 1500;

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Deterministic moving 100-level books; prices in ticks of 0.1, sizes as 8-decimal strings (built from integers). */
function makeBooks(n: number): BookSnapshot[] {
  const rnd = mulberry32(42);
  const size = () => {
    const lots = 1 + Math.floor(rnd() * 300_000_000); // up to 3 BTC in 1e-8 lots
    const s = String(lots).padStart(9, '0');
    return `${s.slice(0, -8)}.${s.slice(-8)}`.replace(/\.?0+$/, '');
  };
  const price = (ticks: number) => `${Math.floor(ticks / 10)}.${ticks % 10}`.replace(/\.0$/, '');
  let mid = 669_765; // ticks of 0.1
  const sizesBid = new Map<number, string>();
  const sizesAsk = new Map<number, string>();
  const out: BookSnapshot[] = [];
  let seq = 9_007_199_254_740_000n; // around 2^53, as on the real exchange
  for (let u = 0; u < n; u++) {
    if (rnd() < 0.3) mid += Math.floor(rnd() * 5) - 2;
    const bids: [string, string][] = [];
    const asks: [string, string][] = [];
    for (let i = 0; i < LEVELS; i++) {
      const bt = mid - 1 - i * 3;
      const at = mid + 1 + i * 3;
      if (!sizesBid.has(bt) || rnd() < 0.3) sizesBid.set(bt, size());
      if (!sizesAsk.has(at) || rnd() < 0.3) sizesAsk.set(at, size());
      bids.push([price(bt), sizesBid.get(bt)!]);
      asks.push([price(at), sizesAsk.get(at)!]);
    }
    seq += 1n + BigInt(Math.floor(rnd() * 5));
    out.push({ symbol: 'BTC-USDT', sequence: seq.toString(), time: 1_700_000_000_000 + u * 100, receivedAt: 1_700_000_000_000 + u * 100, bids, asks });
  }
  return out;
}

interface Timing {
  script: number[];
  withLayout: number[];
  /** Highest target rate (updates/s) kept up without long tasks, and every rate tried. */
  sustained: { rate: number; rates: Array<{ rate: number; achieved: number; longTasks: number; longestMs: number }>; longTasks: number };
}

/** In-page runner; `mode` picks the incremental controller or the naive rebuild. Returns timings. */
async function run(page: Page, books: BookSnapshot[], mode: 'incremental' | 'naive'): Promise<Timing> {
  return page.evaluate(
    async ({ books, mode, warmup, sustainMs }) => {
      type Lib = {
        buildView: (s: unknown, inc: string, g: string, prev?: unknown) => { asks: Lvl[]; bids: Lvl[] };
        emptyPrevious: () => unknown;
        BookStore: new (sym: string) => { accept(s: unknown, now: number): string };
      };
      type Lvl = { price: string; size: string; total: string; ratio: number };
      const w = window as unknown as { __orderbook: { receive(m: unknown): void }; __orderbookLib: Lib };
      const ctl = w.__orderbook;
      const lib = w.__orderbookLib;
      const grid = document.querySelector('.ob-grid') as HTMLElement;
      const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

      // Naive baseline: same BookStore and view-model (message validation skipped, which favours the
      // baseline), then both sides rebuilt with innerHTML and the bar widths set through the CSSOM.
      const asksBody = document.querySelector('.side.asks') as HTMLElement;
      const bidsBody = document.querySelector('.side.bids') as HTMLElement;
      const store = new lib.BookStore('BTC-USDT');
      const prev = lib.emptyPrevious();
      const rowHtml = (side: string, l: Lvl) =>
        `<div class="row ${side}" role="row" tabindex="-1"><div class="bar" aria-hidden="true"></div>` +
        `<div class="cell price" role="gridcell">${esc(l.price)}</div><div class="cell size" role="gridcell">${esc(l.size)}</div>` +
        `<div class="cell total" role="gridcell">${esc(l.total)}</div></div>`;
      const naive = (msg: { snapshot: unknown }) => {
        if (store.accept(msg.snapshot, performance.now()) !== 'accepted') return;
        const v = lib.buildView(msg.snapshot, '0.1', '1', prev);
        let a = '';
        for (let i = v.asks.length - 1; i >= 0; i--) a += rowHtml('ask', v.asks[i]);
        let b = '';
        for (const l of v.bids) b += rowHtml('bid', l);
        asksBody.innerHTML = a;
        bidsBody.innerHTML = b;
        const bars = asksBody.querySelectorAll<HTMLElement>('.bar');
        for (let i = 0; i < bars.length; i++) bars[i].style.transform = `scaleX(${v.asks[v.asks.length - 1 - i].ratio})`;
        const bbars = bidsBody.querySelectorAll<HTMLElement>('.bar');
        for (let i = 0; i < bbars.length; i++) bbars[i].style.transform = `scaleX(${v.bids[i].ratio})`;
      };
      const apply = mode === 'incremental' ? (m: unknown) => ctl.receive(m) : (m: unknown) => naive(m as { snapshot: unknown });

      const channel = new MessageChannel();
      const nextTask = () => new Promise<void>((r) => {
        channel.port1.onmessage = () => r();
        channel.port2.postMessage(0);
      });
      const frame = () => new Promise<void>((r) => requestAnimationFrame(() => r()));

      let i = 0;
      const msgOf = () => ({ type: 'snapshot', snapshot: books[i++ % books.length] });
      // Sequences must keep rising across passes: re-number as we go.
      let seq = BigInt(books[books.length - 1].sequence) + 1n;
      const fresh = () => {
        const m = msgOf();
        return { type: m.type, snapshot: { ...(m.snapshot as object), sequence: (seq++).toString() } };
      };

      for (let k = 0; k < warmup; k++) {
        apply(fresh());
        await nextTask();
      }
      await frame();

      const script: number[] = [];
      for (let k = 0; k < books.length; k++) {
        const m = fresh();
        await nextTask();
        const t0 = performance.now();
        apply(m);
        script.push(performance.now() - t0);
        if (k % 20 === 0) await frame(); // let rendering happen like in a real panel
      }
      await frame();
      const withLayout: number[] = [];
      for (let k = 0; k < books.length; k++) {
        const m = fresh();
        await nextTask();
        const t0 = performance.now();
        apply(m);
        void grid.offsetHeight; // force style + layout inside the timed region
        withLayout.push(performance.now() - t0);
        if (k % 20 === 0) await frame();
      }

      // Sustained: drive updates at fixed rates (one update per task, rendering interleaved) and
      // find the highest rate that is kept up (≥ 95 % of the target) without any long task.
      const longs: number[] = [];
      const obs = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) longs.push(e.duration);
      });
      obs.observe({ type: 'longtask', buffered: false });
      const rates: Array<{ rate: number; achieved: number; longTasks: number; longestMs: number }> = [];
      for (const rate of [10, 25, 50, 100, 200, 400]) {
        await frame();
        await new Promise((r) => setTimeout(r, 120)); // let pending long-task entries arrive
        longs.length = 0;
        const start = performance.now();
        let updates = 0;
        while (performance.now() - start < sustainMs) {
          const due = start + (updates * 1000) / rate;
          if (performance.now() >= due) {
            apply(fresh());
            updates++;
          }
          await nextTask();
        }
        const seconds = (performance.now() - start) / 1000;
        await frame();
        await new Promise((r) => setTimeout(r, 120));
        rates.push({ rate, achieved: updates / seconds, longTasks: longs.length, longestMs: longs.length ? Math.max(...longs) : 0 });
      }
      obs.disconnect();
      const kept = rates.filter((r) => r.longTasks === 0 && r.achieved >= 0.95 * r.rate);
      const best = kept.length ? kept[kept.length - 1] : undefined;
      const total = rates.reduce((a, r) => a + r.longTasks, 0);
      return { script, withLayout, sustained: { rate: best?.rate ?? 0, rates, longTasks: total } };
    },
    { books, mode, warmup: WARMUP, sustainMs: SUSTAIN_MS },
  );
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

async function main(): Promise<void> {
  buildBundle();
  const books = makeBooks(UPDATES);
  const h = await startHarness();
  try {
    const results: Record<string, Timing> = {};
    for (const mode of ['incremental', 'naive'] as const) {
      const page = await h.open('dark', { viewport: { width: 1000, height: 900 } });
      await post(page, {
        type: 'init',
        symbol: 'BTC-USDT',
        meta: { symbol: 'BTC-USDT', baseCurrency: 'BTC', quoteCurrency: 'USDT', priceIncrement: '0.1', baseIncrement: '0.00000001' },
        settings: { grouping: '1', depth: 100 },
        pollMs: 1000,
      });
      await page.waitForTimeout(100);
      results[mode] = await run(page, books, mode);
      await page.close();
    }
    const inc = results.incremental;
    const nai = results.naive;
    const f = (x: number) => x.toFixed(3).padStart(8);
    console.log(`order book: apply + render one ${LEVELS}-level update (${UPDATES} updates per pass, ${WARMUP} warm-up), headless Chromium`);
    console.log('                          median ms   p99 ms   | with forced layout: median   p99 | sustained upd/s without long tasks');
    for (const [name, r] of [['incremental (product)', inc], ['naive innerHTML rebuild', nai]] as const) {
      console.log(
        `${name.padEnd(25)} ${f(pct(r.script, 50))}  ${f(pct(r.script, 99))}   |              ${f(pct(r.withLayout, 50))} ${f(pct(r.withLayout, 99))} | ${String(r.sustained.rate).padStart(6)}`,
      );
      console.log(`    rates tried: ${r.sustained.rates.map((x) => `${x.rate}/s→${x.achieved.toFixed(0)}${x.longTasks ? ` (${x.longTasks} long, max ${x.longestMs.toFixed(0)} ms)` : ''}`).join(', ')}`);
    }
    const ratio = pct(nai.script, 50) / pct(inc.script, 50);
    const ratioLayout = pct(nai.withLayout, 50) / pct(inc.withLayout, 50);
    console.log(`speed-up vs naive (median script time): ${ratio.toFixed(1)}×; with forced layout: ${ratioLayout.toFixed(1)}×`);
    const ok = pct(inc.script, 50) <= 1 && pct(inc.script, 99) <= 4 && ratio >= 5;
    console.log(`targets (median ≤ 1 ms, p99 ≤ 4 ms, ≥ 5× naive): ${ok ? 'met' : 'NOT met'}`);
  } finally {
    await h.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
