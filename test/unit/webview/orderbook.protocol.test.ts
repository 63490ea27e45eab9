import { strict as assert } from 'assert';
import { isPanelLayout, isPanelState, ORDER_BOOK_PROTOCOL } from '../../../src/features/market/protocol';
import { level2Weight, nextPollDelay, publicBudget } from '../../../src/features/market/model/pollPolicy';
import { RateLimiter } from '../../../src/api/ratelimit';

const XSS = '<img src=x onerror=alert(1)>';
const { parseToWebview: parseHostMessage, parseToHost: parseWebviewMessage } = ORDER_BOOK_PROTOCOL;

const goodSnapshot = {
  type: 'snapshot',
  snapshot: {
    symbol: 'BTC-USDT',
    sequence: '14610502970',
    time: 1729176273859,
    receivedAt: 1729176273900,
    bids: [['66976.4', '0.69109872']],
    asks: [['66976.5', '0.05408199']],
  },
};

describe('order book protocol validators', () => {
  it('accepts a well-formed snapshot', () => {
    assert.deepEqual(parseHostMessage(goodSnapshot), goodSnapshot);
  });

  it('rejects markup or numbers where decimal strings belong', () => {
    const bad = (bids: unknown) => parseHostMessage({ ...goodSnapshot, snapshot: { ...goodSnapshot.snapshot, bids } });
    assert.equal(bad([[XSS, '1']]), undefined);
    assert.equal(bad([['1', XSS]]), undefined);
    assert.equal(bad([[66976.4, '1']]), undefined);
    assert.equal(bad([['1e5', '1']]), undefined);
    assert.equal(bad([['1', '1', '1']]), undefined);
    assert.equal(parseHostMessage({ ...goodSnapshot, snapshot: { ...goodSnapshot.snapshot, sequence: 14610502970 } }), undefined);
    assert.equal(parseHostMessage({ ...goodSnapshot, snapshot: { ...goodSnapshot.snapshot, sequence: '-1' } }), undefined);
  });

  it('lets a hostile symbol through as data (the webview renders it as text)', () => {
    const m = parseHostMessage({ ...goodSnapshot, snapshot: { ...goodSnapshot.snapshot, symbol: XSS } });
    assert.equal(m?.type, 'snapshot');
  });

  it('validates the borrowed market\'s source message (Paper, Replay) and its absence (null)', () => {
    const source = { type: 'source', source: { short: 'paper · unreachable', detail: 'The upstream is unreachable since 10:01:02 UTC.', state: 'unreachable', warn: true } };
    assert.deepEqual(parseHostMessage(source), source);
    assert.deepEqual(parseHostMessage({ type: 'source', source: null }), { type: 'source', source: null });
    // a hostile text is data (written with textContent); wrong shapes and states are refused
    assert.equal(parseHostMessage({ type: 'source', source: { ...source.source, short: XSS } })?.type, 'source');
    assert.equal(parseHostMessage({ type: 'source', source: { ...source.source, state: 'on-fire' } }), undefined);
    assert.equal(parseHostMessage({ type: 'source', source: { ...source.source, warn: 'yes' } }), undefined);
    assert.equal(parseHostMessage({ type: 'source', source: { ...source.source, short: 'x'.repeat(81) } }), undefined);
    assert.equal(parseHostMessage({ type: 'source' }), undefined);
    // the webview never sends it
    assert.equal(parseWebviewMessage(source), undefined);
  });

  it('validates init, status, polling and error messages', () => {
    const init = {
      type: 'init',
      symbol: 'BTC-USDT',
      meta: { symbol: 'BTC-USDT', baseCurrency: 'BTC', quoteCurrency: 'USDT', priceIncrement: '0.1', baseIncrement: '0.00000001' },
      settings: { grouping: '10', depth: 100 },
      pollMs: 1000,
    };
    assert.deepEqual(parseHostMessage(init), init);
    assert.equal(parseHostMessage({ ...init, settings: { grouping: '5', depth: 100 } }), undefined);
    assert.equal(parseHostMessage({ ...init, settings: { grouping: '10', depth: 50 } }), undefined);
    assert.equal(parseHostMessage({ ...init, meta: { ...init.meta, priceIncrement: '0' } }), undefined);
    assert.deepEqual(parseHostMessage({ type: 'status', status: 'cancelonly', msg: 'upgrade' }), { type: 'status', status: 'cancelonly', msg: 'upgrade' });
    assert.equal(parseHostMessage({ type: 'status', status: 'maintenance', msg: '' }), undefined);
    assert.deepEqual(parseHostMessage({ type: 'polling', state: 'backoff', intervalMs: 2000 }), { type: 'polling', state: 'backoff', intervalMs: 2000 });
    assert.equal(parseHostMessage({ type: 'polling', state: 'running', intervalMs: -1 }), undefined);
    assert.deepEqual(parseHostMessage({ type: 'error', message: null }), { type: 'error', message: null });
    assert.equal(parseHostMessage({ type: 'eval', code: 'x' }), undefined);
    assert.equal(parseHostMessage(null), undefined);
    assert.equal(parseHostMessage([goodSnapshot]), undefined);
  });

  it('validates webview → extension messages and strips extra fields', () => {
    assert.deepEqual(parseWebviewMessage({ type: 'ready', extra: 1 }), { type: 'ready' });
    assert.deepEqual(parseWebviewMessage({ type: 'setGrouping', grouping: '100' }), { type: 'setGrouping', grouping: '100' });
    assert.equal(parseWebviewMessage({ type: 'setGrouping', grouping: 100 }), undefined);
    assert.deepEqual(parseWebviewMessage({ type: 'setDepth', depth: 100 }), { type: 'setDepth', depth: 100 });
    assert.equal(parseWebviewMessage({ type: 'setDepth', depth: '100' }), undefined);
    assert.equal(parseWebviewMessage({ type: 'placeOrder' }), undefined);
    assert.equal(parseWebviewMessage('ready'), undefined);
  });

  it('validates the stream heartbeat, the layout (init and setLayout) and own stop orders', () => {
    assert.deepEqual(parseHostMessage({ type: 'heartbeat', staleAfterMs: 28000 }), { type: 'heartbeat', staleAfterMs: 28000 });
    assert.equal(parseHostMessage({ type: 'heartbeat', staleAfterMs: -1 }), undefined);
    assert.equal(parseHostMessage({ type: 'heartbeat' }), undefined);
    const layout = { sizes: { book: 340, chart: 320 }, collapsed: ['tape'] };
    assert.deepEqual(parseWebviewMessage({ type: 'setLayout', layout }), { type: 'setLayout', layout });
    assert.equal(parseWebviewMessage({ type: 'setLayout', layout: { sizes: {}, collapsed: ['book'] } }), undefined, 'the book does not collapse');
    assert.equal(parseWebviewMessage({ type: 'setLayout', layout: { sizes: { book: 1e9 }, collapsed: [] } }), undefined);
    assert.equal(isPanelLayout(layout), true);
    assert.equal(isPanelLayout({ sizes: { book: '340' }, collapsed: [] }), false);
    const init = { type: 'init', symbol: 'BTC-USDT', meta: null, settings: { grouping: '1', depth: 20 }, pollMs: 1000, layout };
    assert.deepEqual(parseHostMessage(init), init);
    const account = (orders: unknown[]) => ({ type: 'account', account: { canTrade: true, reason: null, availableBase: '1', availableQuote: '2', makerFeeRate: '0.001', takerFeeRate: '0.001', orders } });
    const stop = { id: 's1', side: 'sell', price: '64000', remain: '0.5', stop: 'loss', stopPrice: '64500' };
    assert.deepEqual(parseHostMessage(account([stop])), account([stop]));
    assert.equal(parseHostMessage(account([{ ...stop, stop: 'oco' }])), undefined);
    assert.equal(parseHostMessage(account([{ ...stop, stopPrice: XSS }])), undefined);
  });

  it('validates the persisted panel state', () => {
    assert.equal(isPanelState({ symbol: 'BTC-USDT', settings: { grouping: '1', depth: 20 } }), true);
    assert.equal(isPanelState({ symbol: XSS, settings: { grouping: '1', depth: 20 } }), false);
    assert.equal(isPanelState({ symbol: 'BTC-USDT' }), false);
    assert.equal(isPanelState(undefined), false);
  });
});

describe('order book poll policy', () => {
  const budget = (remaining: number, resetInMs = 20_000) => ({ limit: 2000, remaining, resetInMs });

  it('weights level2_20 as 2 and level2_100 as 4 (spec "Limits")', () => {
    assert.equal(level2Weight(20), 2);
    assert.equal(level2Weight(100), 4);
  });

  it('uses the configured interval (at least 250 ms) while the budget holds', () => {
    assert.deepEqual(nextPollDelay({ baseMs: 1000, weight: 2, failures: 0 }), { delayMs: 1000, backoff: false });
    assert.deepEqual(nextPollDelay({ baseMs: 100, weight: 2, failures: 0 }), { delayMs: 250, backoff: false });
    assert.deepEqual(nextPollDelay({ baseMs: 1000, weight: 2, failures: 0, budget: budget(1500) }), { delayMs: 1000, backoff: false });
    // below half: 600 − 500 reserve = 100 usable = 50 polls over 20 s = 400 ms < 1000 ms → still the interval
    assert.deepEqual(nextPollDelay({ baseMs: 1000, weight: 2, failures: 0, budget: budget(600) }), { delayMs: 1000, backoff: false });
  });

  it('spreads the remaining budget over the window when it runs low', () => {
    // 520 − 500 = 20 usable = 10 polls over 20 s → every 2000 ms
    assert.deepEqual(nextPollDelay({ baseMs: 1000, weight: 2, failures: 0, budget: budget(520) }), { delayMs: 2000, backoff: true });
    // level2_100: 5 polls → 4000 ms
    assert.deepEqual(nextPollDelay({ baseMs: 1000, weight: 4, failures: 0, budget: budget(520) }), { delayMs: 4000, backoff: true });
    // nothing above the reserve: wait for the reset (+50 ms)
    assert.deepEqual(nextPollDelay({ baseMs: 1000, weight: 2, failures: 0, budget: budget(501) }), { delayMs: 20_050, backoff: true });
  });

  it('backs off exponentially after failures, and past the reset after a 429', () => {
    assert.deepEqual(nextPollDelay({ baseMs: 1000, weight: 2, failures: 1 }), { delayMs: 2000, backoff: true });
    assert.deepEqual(nextPollDelay({ baseMs: 1000, weight: 2, failures: 3 }), { delayMs: 8000, backoff: true });
    assert.deepEqual(nextPollDelay({ baseMs: 1000, weight: 2, failures: 12 }), { delayMs: 30_000, backoff: true });
    assert.deepEqual(nextPollDelay({ baseMs: 1000, weight: 2, failures: 1, rateLimited: true, budget: budget(0, 15_000) }), { delayMs: 15_050, backoff: true });
  });

  it("reads the client's public-pool budget (RateLimiter.budget) as remaining weight and ms to reset", async () => {
    let now = 1000;
    const limiter = new RateLimiter({ now: () => now });
    const client = { budget: () => limiter.budget() };
    assert.deepEqual(publicBudget(client, now), { limit: 2000, remaining: 2000, resetInMs: 0 });
    await limiter.acquire('public', 4);
    now = 11_000;
    assert.deepEqual(publicBudget(client, now), { limit: 2000, remaining: 1996, resetInMs: 20_000 });
    assert.equal(publicBudget({}, now), undefined);
    assert.equal(publicBudget(undefined, now), undefined);
    assert.equal(publicBudget({ budget: () => { throw new Error('x'); } }, now), undefined);
  });
});

describe('order book protocol: the streamed book (book-snapshot, book-delta, book-resync)', () => {
  const delta = { symbol: 'BTC-USDT', start: '14610502971', end: '14610502975', time: 1729176273859, receivedAt: 1729176273900, bids: [['66976.4', '0']], asks: [['66976.5', '1.25']] };

  it('accepts a delta (size "0" removes a level) and a held book larger than a polled snapshot', () => {
    assert.deepEqual(parseHostMessage({ type: 'book-delta', delta }), { type: 'book-delta', delta });
    const levels = Array.from({ length: 3000 }, (_, i) => [String(60000 - i), '1']);
    const held = { type: 'book-snapshot', snapshot: { ...goodSnapshot.snapshot, bids: levels } };
    assert.deepEqual(parseHostMessage(held), held);
    assert.equal(parseHostMessage({ type: 'snapshot', snapshot: { ...goodSnapshot.snapshot, bids: levels } }), undefined, 'a polled snapshot stays within 1000 levels');
  });

  it('rejects a delta with start after end, a price twice on a side, markup, numbers or too many levels', () => {
    const bad = (d: Record<string, unknown>) => parseHostMessage({ type: 'book-delta', delta: { ...delta, ...d } });
    assert.equal(bad({ start: '14610502976' }), undefined);
    assert.equal(bad({ asks: [['66976.5', '1'], ['66976.5', '0']] }), undefined);
    assert.equal(bad({ bids: [[XSS, '1']] }), undefined);
    assert.equal(bad({ bids: [['1', 1]] }), undefined);
    assert.equal(bad({ end: 14610502975 }), undefined);
    assert.equal(bad({ start: '-1' }), undefined);
    assert.equal(bad({ asks: Array.from({ length: 5001 }, (_, i) => [String(70000 + i), '1']) }), undefined);
    assert.equal(parseHostMessage({ type: 'book-delta', delta: { ...delta, asks: undefined } }), undefined);
    assert.equal(parseHostMessage({ type: 'book-snapshot', snapshot: { ...goodSnapshot.snapshot, bids: Array.from({ length: 5001 }, (_, i) => [String(60000 - i), '1']) } }), undefined);
  });

  it('the webview may ask for the book again (book-resync, no payload)', () => {
    assert.deepEqual(parseWebviewMessage({ type: 'book-resync' }), { type: 'book-resync' });
    assert.deepEqual(parseWebviewMessage({ type: 'book-resync', sequence: 5 }), { type: 'book-resync' }, 'unknown keys are dropped');
    assert.equal(parseWebviewMessage({ type: 'book_resync' }), undefined);
  });
});
