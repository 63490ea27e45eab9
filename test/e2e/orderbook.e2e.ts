/**
 * Chromium end-to-end test of the order book webview.
 *
 * Run: `npx tsx test/e2e/orderbook.e2e.ts` (builds the bundle first; exits non-zero on failure).
 *
 * Loads the built bundle in the harness page (test/e2e/orderbookHarness.ts: same CSP, fake
 * acquireVsCodeApi, Dark+/Light+/High Contrast CSS variables) and feeds it a MOVING market: the
 * sandbox exchange is started in-process (`startSandbox`, simulation on) and its real
 * GET /api/v1/market/orderbook/level2_20 snapshots are relayed as the extension would post them.
 * Checks the rendered strings against the API strings, ordering, spread, out-of-order rejection,
 * grouping via keyboard, stale and service-status banners, keyboard navigation, the escaping of
 * hostile strings, and the absence of CSP violations. Screenshots go to screenshots/ (git-ignored).
 */
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { Page } from 'playwright-core';
import { add, cmp, fractionDigits } from '../../src/api/decimal';
import { padFraction } from '../../src/api/numberFormat';
import { startSandbox, type RunningSandbox } from '../../src/exchange/server/index';
import type { BookSnapshot, SymbolMeta, ToWebview } from '../../src/features/market/protocol';
import { FailureRecord, painted } from './failure';
import { buildBundle, post, ROOT, startHarness, type Harness, type ThemeName } from './orderbookHarness';

const SYMBOL = 'BTC-USDT';
const SHOTS = path.join(ROOT, 'screenshots');
const XSS = '<img src=x onerror="window.__xss=(window.__xss||0)+1">';

type Win = {
  __posted: Array<{ type: string; [k: string]: unknown }>;
  __cspViolations: string[];
  __errors: string[];
  __xss?: number;
  __state?: unknown;
  __orderbook: {
    stats: { accepted: number; rejectedSequence: number; invalidMessages: number; renderErrors: number };
    lastView?: { sequence: string };
    tick(): void;
    view: { render(v: unknown): void };
  };
};

let failures = 0;
let passes = 0;
/** Screenshots of the harness pages and their console, saved when a test fails. */
const record = new FailureRecord('orderbook');
async function test(name: string, fn: () => Promise<void>): Promise<void> {
  const t0 = Date.now();
  try {
    await fn();
    passes++;
    console.log(`  ✔ ${name} (${Date.now() - t0} ms)`);
  } catch (err) {
    failures++;
    console.log(`  ✖ ${name}\n    ${String((err as Error)?.stack ?? err).split('\n').slice(0, 6).join('\n    ')}`);
    await record.save(new Error(`${name}: ${String((err as Error)?.stack ?? err)}`));
  }
}

async function fetchJson<T>(url: string): Promise<T> {
  const r = await fetch(url);
  const j = (await r.json()) as { code: string; data: T };
  if (j.code !== '200000') throw new Error(`${url}: ${JSON.stringify(j)}`);
  return j.data;
}

async function level2(sb: RunningSandbox, depth: 20 | 100 = 20): Promise<BookSnapshot> {
  const d = await fetchJson<{ sequence: string; time: number; bids: [string, string][]; asks: [string, string][] }>(
    `${sb.baseUrl}/api/v1/market/orderbook/level2_${depth}?symbol=${SYMBOL}`,
  );
  return { symbol: SYMBOL, sequence: d.sequence, time: d.time, receivedAt: Date.now(), bids: d.bids, asks: d.asks };
}

/** Rows of one side in visual order (top → bottom) as [price, size, total]. */
async function rows(page: Page, side: 'ask' | 'bid'): Promise<string[][]> {
  return page.$$eval(`.row.${side}:not([hidden])`, (els) =>
    els.map((e) => Array.from(e.querySelectorAll('.cell')).map((c) => c.textContent ?? '')),
  );
}

async function init(page: Page, meta: SymbolMeta, grouping: '1' | '10' = '1'): Promise<void> {
  const msg: ToWebview = { type: 'init', symbol: SYMBOL, meta, settings: { grouping, depth: 20 }, pollMs: 500 };
  await post(page, msg);
}

async function feed(page: Page, s: BookSnapshot): Promise<void> {
  await post(page, { type: 'snapshot', snapshot: s } satisfies ToWebview);
  await page.waitForFunction((seq) => (window as unknown as Win).__orderbook.lastView?.sequence === seq, s.sequence, { timeout: 5000 });
}

/**
 * The sandbox's next level-2 snapshot with a sequence above `after` (any snapshot when undefined):
 * polls the moving market until it has moved, for at most 30 s.
 */
async function nextSnapshot(sb: RunningSandbox, after?: string): Promise<BookSnapshot> {
  const end = Date.now() + 30_000;
  for (;;) {
    const s = await level2(sb);
    if (after === undefined || BigInt(s.sequence) > BigInt(after)) return s;
    if (Date.now() > end) throw new Error(`the sandbox market did not move past sequence ${after} within 30 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Relay `n` successive real snapshots of the moving sandbox market (each newer than the last). Returns them. */
async function relay(page: Page, sb: RunningSandbox, n: number): Promise<BookSnapshot[]> {
  const seen: BookSnapshot[] = [];
  for (let i = 0; i < n; i++) {
    const s = await nextSnapshot(sb, seen[seen.length - 1]?.sequence);
    await feed(page, s);
    seen.push(s);
  }
  return seen;
}

/** Fraction digits of the BTC-USDT tick (0.1) and lot (0.00000001) of the sandbox: the columns' padding. */
const TICK_DIGITS = 1;
const LOT_DIGITS = 8;
const px = (p: string) => padFraction(p, TICK_DIGITS);
const sz = (v: string) => padFraction(v, LOT_DIGITS);

async function expectBookMatches(page: Page, s: BookSnapshot): Promise<void> {
  // Rows far outside the viewport are written when they come near it; flush them to read the whole book.
  await page.evaluate(() => (window as unknown as { __orderbook: { view: { flushAll(): void } } }).__orderbook.view.flushAll());
  const asks = await rows(page, 'ask');
  const bids = await rows(page, 'bid');
  // The API strings, padded with zeros to the tick (prices) and the lot (sizes), so the columns line up.
  // Asks are shown high → low so that the best ask sits just above the spread.
  assert.deepEqual(asks.map((r) => r[0]), s.asks.map((l) => px(l[0])).reverse(), 'ask prices at the tick precision, best nearest the spread');
  assert.deepEqual(asks.map((r) => r[1]), s.asks.map((l) => sz(l[1])).reverse(), 'ask sizes: the API strings at the lot precision');
  assert.deepEqual(bids.map((r) => r[0]), s.bids.map((l) => px(l[0])), 'bid prices high → low');
  assert.deepEqual(bids.map((r) => r[1]), s.bids.map((l) => sz(l[1])), 'bid sizes: the API strings at the lot precision');
  for (const r of [...asks, ...bids]) {
    assert.equal(r[0].length - r[0].indexOf('.') - 1, TICK_DIGITS, `price ${r[0]} has the tick's decimals`);
    assert.equal(r[1].length - r[1].indexOf('.') - 1, LOT_DIGITS, `size ${r[1]} has the lot's decimals`);
  }
  // Cumulative totals: exact decimal sums of the API strings.
  let cum = '0';
  const totals = s.bids.map((l) => sz((cum = add(cum, l[1]))));
  assert.deepEqual(bids.map((r) => r[2]), totals, 'bid cumulative sizes');
}

async function main(): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  buildBundle();
  const sb = await startSandbox({ sim: true, market: 'quiet' });
  let harness: Harness | undefined;
  try {
    harness = await startHarness();
    const h = harness;
    const open = async (theme: ThemeName, opts?: Parameters<Harness['open']>[1]) => record.watch(await h.open(theme, opts), `harness ${theme}`);
    const sym = (await fetchJson<Array<SymbolMeta & { symbol: string }>>(`${sb.baseUrl}/api/v2/symbols`)).find((x) => x.symbol === SYMBOL)!;
    const meta: SymbolMeta = {
      symbol: sym.symbol,
      baseCurrency: sym.baseCurrency,
      quoteCurrency: sym.quoteCurrency,
      priceIncrement: sym.priceIncrement,
      baseIncrement: sym.baseIncrement,
    };
    console.log(`order book e2e: sandbox ${sb.baseUrl}, harness ${harness.origin}, ${SYMBOL} tick ${meta.priceIncrement}`);
    assert.deepEqual([meta.priceIncrement, meta.baseIncrement].map(fractionDigits), [TICK_DIGITS, LOT_DIGITS], 'the padding these tests expect');

    const pages: Partial<Record<ThemeName, Page>> = {};

    await test('relays a moving sandbox market and renders the API strings exactly (Dark+)', async () => {
      const page = (pages.dark = await open('dark'));
      await init(page, meta);
      const seen = await relay(page, sb, 6);
      assert.ok(seen.length >= 2, `at least two distinct sequences relayed (got ${seen.length})`);
      const last = seen[seen.length - 1];
      await expectBookMatches(page, last);
      const spread = await page.textContent('.spread-cell');
      assert.match(spread ?? '', /^Spread \d+\.\d \(\d+\.\d\d bps\)$/, 'the spread at the tick precision');
      const footer = await page.textContent('.ob-footer');
      assert.ok(footer?.includes(`Sequence ${last.sequence}`), footer ?? '');
      assert.equal(await page.textContent('.ob-title'), SYMBOL);
      assert.equal(await page.getAttribute('main.ob', 'data-freshness'), 'fresh');
      assert.equal(await page.textContent('.ob-fresh'), '');
      const w = await page.evaluate(() => ({ stats: (window as unknown as Win).__orderbook.stats, state: (window as unknown as Win).__state }));
      assert.equal(w.stats.accepted, seen.length);
      assert.deepEqual(w.state, { symbol: SYMBOL, settings: { grouping: '1', depth: 20, interval: '1min' } });
      // draw the chart, then screenshot
      await painted(page);
      await page.screenshot({ path: path.join(SHOTS, 'orderbook-dark.png'), fullPage: true });
    });

    await test('rejects an out-of-order (older and equal sequence) snapshot', async () => {
      const page = pages.dark!;
      const current = await page.evaluate(() => (window as unknown as Win).__orderbook.lastView!.sequence);
      const before = await rows(page, 'bid');
      const older: BookSnapshot = { symbol: SYMBOL, sequence: (BigInt(current) - 1n).toString(), time: 1, receivedAt: 1, bids: [['1', '1']], asks: [['2', '1']] };
      const equal = { ...older, sequence: current };
      await post(page, { type: 'snapshot', snapshot: older });
      await post(page, { type: 'snapshot', snapshot: equal });
      await page.waitForFunction(() => (window as unknown as Win).__orderbook.stats.rejectedSequence >= 2);
      assert.deepEqual(await rows(page, 'bid'), before);
      // a sequence beyond 2^53 is still newer
      const huge: BookSnapshot = { ...older, sequence: '9007199254740993', bids: [['10', '1']], asks: [['11', '2']] };
      await feed(page, huge);
      await post(page, { type: 'snapshot', snapshot: { ...huge, sequence: '9007199254740992', bids: [['9', '9']] } });
      await page.waitForFunction(() => (window as unknown as Win).__orderbook.stats.rejectedSequence >= 3);
      assert.deepEqual(await rows(page, 'bid'), [[px('10'), sz('1'), sz('1')]]);
    });

    await test('flashes exactly the levels whose size changed', async () => {
      const page = pages.dark!;
      const base: BookSnapshot = { symbol: SYMBOL, sequence: '9007199254740995', time: 2, receivedAt: 2, bids: [['10', '1'], ['9', '2'], ['8', '3']], asks: [['11', '2'], ['12', '1']] };
      await feed(page, base);
      await page.waitForFunction(() => document.querySelectorAll('.row.flash').length === 0, undefined, { timeout: 5000 }); // earlier flashes faded
      await feed(page, { ...base, sequence: '9007199254740996', bids: [['10', '1'], ['9', '2.5'], ['8', '3']] });
      const flashed = await page.$$eval('.row.flash .price', (els) => els.map((e) => e.textContent));
      assert.deepEqual(flashed, [px('9')]);
      await page.waitForFunction(() => document.querySelectorAll('.row.flash').length === 0, undefined, { timeout: 2000 });
    });

    await test('100 levels: rows far below the viewport are written when they scroll into view', async () => {
      const page = await open('dark');
      await post(page, { type: 'init', symbol: SYMBOL, meta, settings: { grouping: '1', depth: 100 }, pollMs: 1000 } satisfies ToWebview);
      const s = await level2(sb, 100);
      await feed(page, s);
      const next = { ...s, sequence: (BigInt(s.sequence) + 1n).toString(), bids: s.bids.map(([p, q], i) => [p, i === s.bids.length - 1 ? add(q, '1') : q] as [string, string]) };
      await feed(page, next);
      const last = page.locator('.row.bid:not([hidden])').last();
      await last.scrollIntoViewIfNeeded();
      const want = [px(next.bids[next.bids.length - 1][0]), sz(next.bids[next.bids.length - 1][1])];
      await page.waitForFunction(
        (w) => {
          const r = [...document.querySelectorAll('.row.bid:not([hidden])')].pop();
          return r?.querySelector('.price')?.textContent === w[0] && r?.querySelector('.size')?.textContent === w[1];
        },
        want,
        { timeout: 3000 },
      );
      await page.evaluate(() => window.scrollTo(0, 0));
      await expectBookMatches(page, next);
      await page.close();
    });

    await test('groups prices by ×10 priceIncrement from the keyboard and tells the extension', async () => {
      const page = (pages.dark = await open('dark'));
      await init(page, meta);
      const s = await level2(sb);
      await feed(page, s);
      await page.focus('select[aria-label="Price grouping"]');
      await page.keyboard.press('ArrowDown'); // ×1 → ×10
      await page.waitForFunction(() => (window as unknown as Win).__posted.some((m) => m.type === 'setGrouping'));
      const posted = await page.evaluate(() => (window as unknown as Win).__posted.filter((m) => m.type === 'setGrouping'));
      assert.deepEqual(posted, [{ type: 'setGrouping', grouping: '10' }]);
      // The regrouped view is written in the next animation frame (rows far from the viewport when
      // they come near it): wait for that frame, then flush every row before reading the book.
      await page.evaluate(
        () =>
          new Promise<void>((resolve) =>
            requestAnimationFrame(() => {
              (window as unknown as { __orderbook: { view: { flushAll(): void } } }).__orderbook.view.flushAll();
              resolve();
            }),
          ),
      );
      const bids = await rows(page, 'bid');
      for (const [p] of bids) assert.match(p, /^\d+$/, `bucket ${p} on the 1.0 grid`);
      assert.ok(bids.length > 0 && bids.length <= s.bids.length);
      // grand total unchanged by grouping
      let sum = '0';
      for (const l of s.bids) sum = add(sum, l[1]);
      assert.equal(cmp(bids[bids.length - 1][2], sum), 0);
      assert.deepEqual(await page.evaluate(() => (window as unknown as Win).__state), { symbol: SYMBOL, settings: { grouping: '10', depth: 20, interval: '1min' } });
      const label = await page.$eval('select[aria-label="Price grouping"]', (e) => (e as HTMLSelectElement).selectedOptions[0].textContent);
      assert.equal(label, '×10 (1)');
    });

    await test('shows the stale state when polled updates stop and the service status when not open', async () => {
      const page = pages.dark!;
      // No feed message: the book is judged as polled (every 500 ms here), stale after 3 s without an answer.
      assert.equal(await page.getAttribute('main.ob', 'data-freshness'), 'fresh');
      await page.waitForSelector('main.ob[data-freshness="stale"]', { timeout: 6000 });
      assert.equal(await page.textContent('.ob-fresh'), 'Stale: no update for more than 3 s');
      await post(page, { type: 'status', status: 'cancelonly', msg: 'maintenance window' } satisfies ToWebview);
      await page.waitForSelector('.banner.status', { state: 'visible' });
      assert.equal(await page.textContent('.banner.status'), 'Service in cancel-only mode: maintenance window');
      await page.screenshot({ path: path.join(SHOTS, 'orderbook-dark-stale.png'), fullPage: true });
      await feed(page, await level2(sb));
      await page.waitForSelector('main.ob[data-freshness="fresh"]');
      assert.equal(await page.textContent('.ob-fresh'), '');
      await post(page, { type: 'status', status: 'open', msg: '' } satisfies ToWebview);
      await page.waitForSelector('.banner.status', { state: 'hidden' });
    });

    await test('a quiet market on a live stream is not stale (the heartbeat decides); a stream that stops beating is, and the line moves no row', async () => {
      const page = await open('dark');
      // The page's clock is set by the test (timers and frames keep running), so that 50 s pass at once.
      const t0 = Date.now();
      await page.clock.setFixedTime(t0);
      await init(page, meta);
      await post(page, { type: 'feed', mode: 'stream', state: 'live', reason: null } satisfies ToWebview);
      await feed(page, await level2(sb));
      const tops = () => page.evaluate(() => ['.row.bid:not([hidden])', '.row.ask:not([hidden])', '.row.spread', '.ob-grid'].map((sel) => document.querySelector(sel)!.getBoundingClientRect().top));
      const tops0 = await tops();
      const freshness = async (t: number, beat: boolean) => {
        await page.clock.setFixedTime(t);
        if (beat) await post(page, { type: 'heartbeat', staleAfterMs: 28_000 } satisfies ToWebview);
        return page.evaluate(() => {
          (window as unknown as Win).__orderbook.tick();
          return document.querySelector('main.ob')!.getAttribute('data-freshness');
        });
      };
      // 20 s without a single book change, the stream beating every 2 s (as /market/snapshot does): never stale.
      for (let t = t0 + 2000; t <= t0 + 20_000; t += 2000) assert.equal(await freshness(t, true), 'fresh', `${t - t0} ms after the last book change`);
      // The heartbeat stops: stale after its timeout (pingInterval + pingTimeout), and nothing moves.
      assert.equal(await freshness(t0 + 20_000 + 28_000, false), 'fresh');
      assert.equal(await freshness(t0 + 20_000 + 28_001, false), 'stale');
      assert.equal(await page.textContent('.ob-fresh'), 'Stale: no stream heartbeat in 28 s');
      assert.equal(await page.isVisible('.ob-fresh'), true);
      await painted(page);
      await page.screenshot({ path: path.join(SHOTS, 'orderbook-dark-stale-stream.png') });
      assert.deepEqual(await tops(), tops0, 'the freshness line has its own place: no row moved');
      assert.equal(await freshness(t0 + 50_000, true), 'fresh', 'a heartbeat makes it current again');
      assert.deepEqual(await tops(), tops0);
      await page.close();
    });

    await test('the book is keyboard navigable (roving tabindex over the grid rows)', async () => {
      const page = pages.dark!;
      await page.focus('.row.bid');
      const label = () => page.evaluate(() => {
        const a = document.activeElement as HTMLElement;
        return `${a.getAttribute('role')}|${a.className}|${a.querySelector('.price')?.textContent ?? a.textContent}`;
      });
      const first = await label();
      assert.match(first, /^row\|row bid/);
      await page.keyboard.press('ArrowUp');
      assert.match(await label(), /^row\|row spread/);
      await page.keyboard.press('ArrowUp');
      assert.match(await label(), /^row\|row ask/);
      await page.keyboard.press('End');
      assert.match(await label(), /^row\|row bid/);
      const tabbable = await page.$$eval('.ob-grid [tabindex="0"]', (e) => e.length);
      assert.equal(tabbable, 1, 'one tab stop in the grid');
      const roles = await page.$$eval('.ob-grid, .ob-grid [role]', (els) => [...new Set(els.map((e) => e.getAttribute('role')))].sort());
      assert.deepEqual(roles, ['columnheader', 'grid', 'gridcell', 'row', 'rowgroup']);
    });

    await test('a failure is shown as it is, with a Retry that polls now; a profile change clears the book', async () => {
      const page = pages.dark!;
      const failure = "Unreachable: connection refused (GET /api/v1/market/orderbook/level2_20) — check the profile's base URL and your connection, then Retry.";
      await post(page, { type: 'error', message: failure } satisfies ToWebview);
      await page.waitForSelector('.banner.error', { state: 'visible' });
      assert.equal(await page.textContent('.banner.error .banner-text'), failure);
      const before = await page.evaluate(() => (window as unknown as Win).__posted.filter((m) => m.type === 'refresh').length);
      await page.click('.banner.error button.banner-action');
      await page.waitForFunction((n) => (window as unknown as Win).__posted.filter((m) => m.type === 'refresh').length === n + 1, before);
      await page.screenshot({ path: path.join(SHOTS, 'orderbook-dark-error-retry.png'), fullPage: true });
      // The profile changed: the old exchange's book goes, the chart says why it is empty.
      await post(page, { type: 'reset' } satisfies ToWebview);
      await page.waitForFunction(() => document.querySelectorAll('.row.bid:not([hidden]), .row.ask:not([hidden])').length === 0);
      assert.equal(await page.isVisible('.banner.error'), false);
      assert.equal(await page.textContent('.row.spread .spread-cell'), 'Spread —');
      await post(page, { type: 'error', message: failure } satisfies ToWebview);
      await page.waitForSelector('.ob-chart .chart-message', { state: 'visible' });
      assert.equal(await page.textContent('.ob-chart .chart-message'), `No book to draw: ${failure}`);
      await page.screenshot({ path: path.join(SHOTS, 'orderbook-dark-error-empty.png'), fullPage: true });
      await post(page, { type: 'error', message: null } satisfies ToWebview);
      await feed(page, await level2(sb));
      await page.waitForSelector('.ob-chart .chart-message', { state: 'hidden' });
    });

    for (const theme of ['light', 'hc'] as const) {
      await test(`renders the moving market in ${theme === 'light' ? 'Light+' : 'High Contrast'}`, async () => {
        const page = (pages[theme] = await open(theme));
        await init(page, meta);
        const seen = await relay(page, sb, 3);
        await expectBookMatches(page, seen[seen.length - 1]);
        const colours = await page.evaluate(() => {
          const ask = getComputedStyle(document.querySelector('.row.ask .price')!).color;
          const bid = getComputedStyle(document.querySelector('.row.bid .price')!).color;
          const bg = getComputedStyle(document.body).backgroundColor;
          return { ask, bid, bg };
        });
        const expected = theme === 'light'
          ? { ask: 'rgb(207, 42, 65)', bid: 'rgb(14, 138, 95)', bg: 'rgb(255, 255, 255)' }
          : { ask: 'rgb(255, 107, 125)', bid: 'rgb(63, 214, 154)', bg: 'rgb(0, 0, 0)' };
        assert.deepEqual(colours, expected, 'contributed theme colours reach the webview');
        await painted(page);
        await page.screenshot({ path: path.join(SHOTS, `orderbook-${theme}.png`), fullPage: true });
      });
    }

    await test('hostile strings stay inert (no element created, no script run)', async () => {
      const page = await open('dark');
      // Symbol and currencies are rendered as text.
      await post(page, {
        type: 'init',
        symbol: XSS.slice(0, 40),
        meta: { symbol: XSS.slice(0, 40), baseCurrency: XSS.slice(0, 40), quoteCurrency: 'USDT', priceIncrement: '0.1', baseIncrement: '0.00000001' },
        settings: { grouping: '1', depth: 20 },
        pollMs: 1000,
      });
      await page.waitForFunction((s) => document.querySelector('.ob-title')?.textContent === s, XSS.slice(0, 40));
      // A price or size carrying markup is rejected by the validator before it reaches the DOM.
      await post(page, { type: 'snapshot', snapshot: { symbol: SYMBOL, sequence: '1', time: 1, receivedAt: 1, bids: [[XSS, '1']], asks: [['2', XSS]] } });
      await post(page, { type: 'error', message: XSS });
      await page.waitForFunction(() => (window as unknown as Win).__orderbook.stats.invalidMessages >= 1);
      // And even when the renderer itself is handed markup (validator bypassed), it is text.
      await page.evaluate((x) => {
        (window as unknown as Win).__orderbook.view.render({
          sequence: x, time: 0, spread: x, spreadBps: x, mid: x, step: '1',
          asks: [{ price: x, size: x, total: x, ratio: 0.5, change: 'new' }],
          bids: [{ price: x, size: x, total: x, ratio: 0.5, change: null }],
        });
      }, XSS);
      // Rendered and painted; an <img> (none may exist) would have been created synchronously by then.
      await painted(page);
      const r = await page.evaluate(() => ({
        imgs: document.querySelectorAll('img').length,
        xss: (window as unknown as Win).__xss ?? 0,
        title: document.querySelector('.ob-title')!.textContent,
        askPrice: document.querySelector('.row.ask:not([hidden]) .price')!.textContent,
        error: document.querySelector('.banner.error .banner-text')!.textContent,
        elements: document.querySelectorAll('body *').length,
      }));
      assert.equal(r.imgs, 0, 'no <img> element');
      assert.equal(r.xss, 0, 'no handler ran');
      assert.equal(r.title, XSS.slice(0, 40));
      assert.equal(r.askPrice, XSS);
      assert.equal(r.error, XSS, JSON.stringify(r));
      await page.screenshot({ path: path.join(SHOTS, 'orderbook-escaping.png') });
    });

    await test('no CSP violations and no script errors on any page', async () => {
      for (const [theme, page] of Object.entries(pages)) {
        const r = await page!.evaluate(() => ({ csp: (window as unknown as Win).__cspViolations, errors: (window as unknown as Win).__errors }));
        assert.deepEqual(r, { csp: [], errors: [] }, theme);
      }
    });
  } finally {
    await harness?.close();
    await sb.close();
  }
  console.log(`\n  ${passes} passing, ${failures} failing; screenshots in ${path.relative(ROOT, SHOTS)}/`);
  process.exit(failures ? 1 : 0);
}

main().catch(async (err) => {
  console.error(err);
  await record.save(err);
  process.exit(1);
});
