/**
 * Mirror mode end to end: an upstream sandbox (seeded books, driven by placing orders on it) and a mirror
 * sandbox reading its public REST and WebSocket through `UpstreamSource` (src/exchange/server/mirror).
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SpotClient } from '../../../src/api/client';
import * as D from '../../../src/api/decimal';
import { StreamClient } from '../../../src/api/stream';
import type { StreamData } from '../../../src/api/streamSchemas';
import type { RunningSandbox } from '../../../src/exchange/server';
import { mirrorLiquidity } from '../../../src/exchange/server/mirror/commands';
import type { UpstreamSource } from '../../../src/exchange/server/mirror/upstream';
import { admin, credsOf, rawRequest } from '../server/helpers';
import { bookOf, fundedUser, startMirror, startUpstream, waitFor } from './helpers';

const SYMBOL = 'BTC-USDT';

describe('mirror mode: the book', function () {
  this.timeout(20_000);
  let up: RunningSandbox;
  let mirror: RunningSandbox;
  let source: UpstreamSource;

  before(async () => {
    up = await startUpstream();
    ({ sb: mirror, source } = await startMirror(up.baseUrl, [SYMBOL]));
  });
  after(async () => {
    await mirror?.close();
    await up?.close();
  });

  it('equals the upstream book after the snapshot', () => {
    const want = bookOf(up, SYMBOL);
    assert.ok(want.bids.length > 5 && want.asks.length > 5, 'the upstream has a seeded book');
    assert.deepEqual(bookOf(mirror, SYMBOL), want);
    // and the mirror's liquidity is that book (no sandbox user has an order)
    const liq = mirrorLiquidity(mirror.state, SYMBOL);
    assert.deepEqual(liq.bids.length, want.bids.length);
  });

  it('equals the upstream book after many increments', async () => {
    const uid = fundedUser(up, [
      { currency: 'USDT', amount: '10000000' },
      { currency: 'BTC', amount: '1000' },
    ]);
    const best = up.state.exchange.level2(SYMBOL, 1);
    const mid = (Number(best.bids[0][0]) + Number(best.asks[0][0])) / 2;
    const ids: string[] = [];
    for (let i = 0; i < 200; i++) {
      const side = i % 2 === 0 ? 'buy' : 'sell';
      // resting orders at new and existing levels, some cancelled again
      const off = (1 + (i % 17)) * 0.5;
      const price = (side === 'buy' ? mid - off : mid + off).toFixed(1);
      const r = up.state.run('order.place', { uid, req: { symbol: SYMBOL, side, type: 'limit', price, size: (0.001 * (1 + (i % 5))).toFixed(3), clientOid: `c${i}` } });
      ids.push(r.orderId);
      if (i % 3 === 2) up.state.run('order.cancel', { uid, symbol: SYMBOL, orderId: ids[i - 1] });
    }
    const target = up.state.exchange.sequence(SYMBOL);
    await waitFor(() => source.stats()[SYMBOL] !== undefined && JSON.stringify(bookOf(mirror, SYMBOL)) === JSON.stringify(bookOf(up, SYMBOL)), `the mirror book at upstream sequence ${target}`);
    assert.deepEqual(bookOf(mirror, SYMBOL), bookOf(up, SYMBOL));
    assert.equal(source.stats()[SYMBOL].gaps, 0);
    mirror.state.exchange.checkInvariants();
  });
});

describe('mirror mode: trades and taking liquidity', function () {
  this.timeout(20_000);
  let up: RunningSandbox;
  let mirror: RunningSandbox;
  let client: SpotClient;
  let upUid: string;

  before(async () => {
    up = await startUpstream();
    ({ sb: mirror } = await startMirror(up.baseUrl, [SYMBOL]));
    client = new SpotClient({ baseUrl: mirror.baseUrl, credentials: credsOf(mirror), maxRetries: 0 });
    upUid = fundedUser(up, [
      { currency: 'USDT', amount: '1000000' },
      { currency: 'BTC', amount: '100' },
    ]);
  });
  after(async () => {
    client?.close();
    await mirror?.close();
    await up?.close();
  });

  it('upstream trades reach the mirror tape (/market/histories) and its /market/match stream', async () => {
    const stream = new StreamClient({ token: () => client.getBulletPublic() });
    const prints: { price: string; size: string; side: string }[] = [];
    stream.on('message', (m: StreamData) => {
      if (m.subject === 'trade.l3match') prints.push({ price: m.data.price, size: m.data.size, side: m.data.side });
    });
    try {
      await stream.start();
      await stream.subscribe(`/market/match:${SYMBOL}`);
      const n0 = mirror.state.exchange.trades(SYMBOL).length;
      const [ask, askSize] = up.state.exchange.level2(SYMBOL, 1).asks[0];
      // an upstream taker buys part of the best ask: one upstream print
      const size = D.min(askSize, '0.01');
      up.state.run('order.place', { uid: upUid, req: { symbol: SYMBOL, side: 'buy', type: 'market', size } });
      const upTrades = up.state.exchange.trades(SYMBOL).slice(-1);
      assert.equal(upTrades[0].price, ask);
      await waitFor(() => mirror.state.exchange.trades(SYMBOL).length > n0 && prints.length > 0, 'the print on the mirror');
      const t = mirror.state.exchange.trades(SYMBOL).slice(n0);
      assert.deepEqual(t.map((x) => [x.price, x.size, x.side]), [[ask, size, 'buy']]);
      const hist = (await rawRequest(mirror.baseUrl, 'GET', `/api/v1/market/histories?symbol=${SYMBOL}`)).json.data as { price: string; size: string; side: string }[];
      assert.ok(hist.some((h) => h.price === ask && D.cmp(h.size, size) === 0 && h.side === 'buy'), JSON.stringify(hist.slice(-3)));
      assert.deepEqual(prints.at(-1), { price: ask, size, side: 'buy' });
      // the ticker follows it
      const tk = (await rawRequest(mirror.baseUrl, 'GET', `/api/v1/market/orderbook/level1?symbol=${SYMBOL}`)).json.data as { price: string };
      assert.equal(D.cmp(tk.price, ask), 0);
    } finally {
      stream.close();
    }
  });

  it('a market buy on the mirror fills at exactly the upstream ask levels, walking the book; the upstream is untouched', async () => {
    await waitFor(() => JSON.stringify(bookOf(mirror, SYMBOL)) === JSON.stringify(bookOf(up, SYMBOL)), 'the books in sync');
    const upBook = bookOf(up, SYMBOL, 1000);
    const upSeq = up.state.exchange.sequence(SYMBOL);
    const upBalances = JSON.stringify([...up.state.users.keys()].map((u) => up.state.exchange.accounts(u)));
    const asks = up.state.exchange.level2(SYMBOL, 3).asks;
    // two full levels and half of the third
    const size = D.add(D.add(asks[0][1], asks[1][1]), D.roundDown(D.mul(asks[2][1], '0.5'), '0.00000001'));
    const uid = mirror.credentials.uid;
    const before = mirror.state.exchange.accounts(uid, { currency: 'BTC', type: 'trade' })[0].balance;
    const { orderId } = await client.placeOrder({ symbol: SYMBOL, side: 'buy', type: 'market', size, clientOid: 'mkt-1' } as never);
    const fills = mirror.state.exchange.fills(uid, { symbol: SYMBOL, orderId }).items;
    const byPrice = new Map<string, string>();
    for (const f of fills) byPrice.set(f.price, D.add(byPrice.get(f.price) ?? '0', f.size));
    assert.deepEqual([...byPrice].map(([p, s]) => [p, D.normalize(s)]).sort((x, y) => D.cmp(x[0], y[0])), [
      [asks[0][0], D.normalize(asks[0][1])],
      [asks[1][0], D.normalize(asks[1][1])],
      [asks[2][0], D.normalize(D.sub(size, D.add(asks[0][1], asks[1][1])))],
    ]);
    assert.ok(fills.every((f) => f.liquidity === 'taker'));
    const after = mirror.state.exchange.accounts(uid, { currency: 'BTC', type: 'trade' })[0].balance;
    assert.equal(D.cmp(D.sub(after, before), size), 0);
    // the consumed levels are gone from the mirror until the upstream changes them
    const mb = mirror.state.exchange.level2(SYMBOL, 1).asks[0];
    assert.equal(mb[0], asks[2][0]);
    // nothing reached the upstream
    assert.deepEqual(bookOf(up, SYMBOL, 1000), upBook);
    assert.equal(up.state.exchange.sequence(SYMBOL), upSeq);
    assert.equal(JSON.stringify([...up.state.users.keys()].map((u) => up.state.exchange.accounts(u))), upBalances);
    mirror.state.exchange.checkInvariants();
  });
});

describe('mirror mode: an upstream outage', function () {
  this.timeout(30_000);
  let dir: string;
  let up: RunningSandbox | undefined;
  let mirror: RunningSandbox;
  let client: SpotClient;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-up-'));
    up = await startUpstream({ stateDir: dir });
    ({ sb: mirror } = await startMirror(up.baseUrl, [SYMBOL]));
    client = new SpotClient({ baseUrl: mirror.baseUrl, credentials: credsOf(mirror), maxRetries: 0 });
  });
  after(async () => {
    client?.close();
    await mirror?.close();
    await up?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('cancelonly while the upstream is down (orders refused, cancels work), open again once it is back and synced', async () => {
    const status = async () => client.getStatus();
    assert.equal((await status()).status, 'open');
    const bid = mirror.state.exchange.level2(SYMBOL, 1).bids[0][0];
    const low = D.sub(bid, '100');
    const resting = await client.placeOrder({ symbol: SYMBOL, side: 'buy', type: 'limit', price: low, size: '0.001' } as never);
    const port = Number(new URL((up as RunningSandbox).baseUrl).port);
    const t0 = Date.now();
    await (up as RunningSandbox).close();
    up = undefined;
    await waitFor(() => mirror.state.status.status === 'cancelonly', 'cancelonly');
    const st = await status();
    assert.equal(st.status, 'cancelonly');
    assert.match(st.msg, /^mirror: the upstream is unreachable since \d{4}-\d\d-\d\dT/);
    const since = Date.parse(st.msg.split(' since ')[1].split(' ')[0]);
    assert.ok(since >= t0 - 1000 && since <= Date.now(), st.msg);
    await assert.rejects(client.placeOrder({ symbol: SYMBOL, side: 'buy', type: 'limit', price: low, size: '0.001' } as never), (e: Error & { code?: string }) => {
      assert.equal(e.code, '400200', e.message);
      assert.match(e.message, /Forbidden to place an order \(mirror: the upstream is unreachable since/);
      return true;
    });
    const placedBefore = mirror.state.exchange.activeOrders(mirror.credentials.uid, SYMBOL).length;
    await client.cancelOrder(SYMBOL, resting.orderId);
    assert.equal(mirror.state.exchange.activeOrders(mirror.credentials.uid, SYMBOL).length, placedBefore - 1);
    // the upstream comes back on the same port and state dir
    up = await startUpstream({ stateDir: dir, port });
    await waitFor(() => mirror.state.status.status === 'open', 'open again', 15_000);
    assert.deepEqual(await status(), { status: 'open', msg: '' });
    await waitFor(() => JSON.stringify(bookOf(mirror, SYMBOL)) === JSON.stringify(bookOf(up as RunningSandbox, SYMBOL)), 'the books in sync again');
    const again = await client.placeOrder({ symbol: SYMBOL, side: 'buy', type: 'limit', price: low, size: '0.001' } as never);
    assert.ok(mirror.state.exchange.isActiveOrder(mirror.credentials.uid, again.orderId));
    mirror.state.exchange.checkInvariants();
  });
});

describe('mirror mode: a restart of the mirror', function () {
  this.timeout(30_000);
  let dir: string;
  let up: RunningSandbox;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-sb-'));
    up = await startUpstream();
  });
  after(async () => {
    await up?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the users state (journal and snapshot) and rebuilds the book from the upstream', async () => {
    let { sb } = await startMirror(up.baseUrl, [SYMBOL], { stateDir: dir });
    const client = new SpotClient({ baseUrl: sb.baseUrl, credentials: credsOf(sb), maxRetries: 0 });
    const uid = sb.credentials.uid;
    await client.placeOrder({ symbol: SYMBOL, side: 'buy', type: 'market', size: '0.0003' } as never);
    const bid = sb.state.exchange.level2(SYMBOL, 1).bids[0][0];
    const resting = await client.placeOrder({ symbol: SYMBOL, side: 'buy', type: 'limit', price: D.sub(bid, '50'), size: '0.002' } as never);
    const accounts = JSON.stringify(sb.state.exchange.accounts(uid));
    client.close();
    await sb.close();
    // the upstream moves while the mirror is down
    const upUid = fundedUser(up, [{ currency: 'USDT', amount: '100000' }]);
    up.state.run('order.place', { uid: upUid, req: { symbol: SYMBOL, side: 'buy', type: 'limit', price: D.sub(bid, '7'), size: '0.01' } });
    ({ sb } = await startMirror(up.baseUrl, [SYMBOL], { stateDir: dir }));
    try {
      assert.equal(JSON.stringify(sb.state.exchange.accounts(uid)), accounts);
      assert.ok(sb.state.exchange.isActiveOrder(uid, resting.orderId));
      // the book: the upstream's, plus the user's resting order at its level
      const want = bookOf(up, SYMBOL);
      const mine = D.sub(bid, '50');
      const i = want.bids.findIndex(([p]) => D.cmp(p, mine) <= 0);
      if (i >= 0 && D.cmp(want.bids[i][0], mine) === 0) want.bids[i][1] = D.normalize(D.add(want.bids[i][1], '0.002'));
      else want.bids.splice(i < 0 ? want.bids.length : i, 0, [D.normalize(mine), '0.002']);
      assert.deepEqual(bookOf(sb, SYMBOL), want);
      sb.state.exchange.checkInvariants();
    } finally {
      await sb.close();
    }
  });
});

describe('mirror mode: candles from the upstream', function () {
  this.timeout(20_000);

  it('the upstream candles of the past 3 × 24 h become the mirror symbol past (every interval)', async () => {
    const t0 = Math.floor((Date.now() - 30 * 60_000) / 60_000) * 60_000;
    const up = await startUpstream({ manualClock: true, startTime: t0 + 5_000 });
    let mirror: RunningSandbox | undefined;
    try {
      const uid = fundedUser(up, [{ currency: 'USDT', amount: '100000' }]);
      up.state.run('order.place', { uid, req: { symbol: SYMBOL, side: 'buy', type: 'market', size: '0.001' } });
      await admin(up, 'POST', '/sandbox/v1/clock', { advanceMs: 120_000 });
      up.state.run('order.place', { uid, req: { symbol: SYMBOL, side: 'buy', type: 'market', size: '0.002' } });
      const upRows = (await rawRequest(up.baseUrl, 'GET', `/api/v1/market/candles?symbol=${SYMBOL}&type=1min`)).json.data as string[][];
      assert.equal(upRows.length, 2);
      ({ sb: mirror } = await startMirror(up.baseUrl, [SYMBOL]));
      const rows = (await rawRequest(mirror.baseUrl, 'GET', `/api/v1/market/candles?symbol=${SYMBOL}&type=1min`)).json.data as string[][];
      assert.deepEqual(rows, upRows);
      const hour = (await rawRequest(mirror.baseUrl, 'GET', `/api/v1/market/candles?symbol=${SYMBOL}&type=1hour`)).json.data as string[][];
      const vol = D.add(upRows[0][5], upRows[1][5]);
      assert.equal(D.cmp(hour.reduce((s, r) => D.add(s, r[5]), '0'), vol), 0);
    } finally {
      await mirror?.close();
      await up.close();
    }
  });
});
