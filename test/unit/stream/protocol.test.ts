/**
 * The sandbox's WebSocket feed, protocol layer (src/exchange/server/feed), driven by raw `ws`
 * clients and a fake core event source that follows docs/events.md: tokens and their expiry, welcome,
 * ping/pong, subscribe/ack, every error with KuCoin's code and text, the limits, the idle close, the
 * bounded send buffer, zero cost for topics nobody watches, and the payloads (decoded with the
 * client's schemas, src/api/streamSchemas.ts, values compared exactly).
 */
import { strict as assert } from 'node:assert';
import * as net from 'node:net';
import * as Decimal from '../../../src/api/decimal';
import { decodeStreamMessage, type StreamData } from '../../../src/api/streamSchemas';
import type { RunningSandbox } from '../../../src/exchange/server/index';
import { TOKEN_TTL_MS } from '../../../src/exchange/server/feed';
import { admin, createUser, rawRequest, startTestSandbox } from '../server/helpers';
import { FakeEvents, connectPublic, open, privateToken, publicToken, subscribe, until, type Frame, type WsProbe } from './helpers';

function decoded(text: string): StreamData {
  const m = decodeStreamMessage(text);
  assert.equal(m.kind, 'message');
  return m as StreamData;
}

describe('stream/feed protocol', () => {
  let sb: RunningSandbox;
  let fake: FakeEvents;
  const probes: WsProbe[] = [];
  const track = (p: WsProbe): WsProbe => (probes.push(p), p);

  before(async () => {
    fake = new FakeEvents();
    sb = await startTestSandbox({ feed: { events: fake } });
  });
  afterEach(() => {
    for (const p of probes.splice(0)) p.close();
  });
  after(async () => {
    await sb.close();
  });

  it('bullet-public: a token for ws://host:port/ws with KuCoin ping settings; the endpoint answers welcome with the connectId', async () => {
    const t = await publicToken(sb);
    assert.equal(t.endpoint, sb.baseUrl.replace('http://', 'ws://') + '/ws');
    assert.equal(t.pingInterval, 18000);
    assert.equal(t.pingTimeout, 10000);
    const p = track(open(t.endpoint, t.token, 'hQvf8jkno'));
    const w = await p.waitFor((f) => f.json.type === 'welcome', 'welcome');
    assert.equal(w.text, '{"id":"hQvf8jkno","type":"welcome"}');
    assert.deepEqual(decodeStreamMessage(w.text), { kind: 'welcome', id: 'hQvf8jkno' });
  });

  it('ping → pong with the same id (string or number)', async () => {
    const p = track(await connectPublic(sb));
    p.send({ id: '1545910590801', type: 'ping' });
    assert.equal((await p.reply('1545910590801')).text, '{"id":"1545910590801","type":"pong"}');
    p.send({ id: 42, type: 'ping' });
    assert.equal((await p.reply('42')).json.type, 'pong');
  });

  it('subscribe/unsubscribe: ack when response is true, silence when false; several symbols per topic', async () => {
    const p = track(await connectPublic(sb));
    const pub = sb.feed.publishing;
    p.send({ id: 1545910660740, type: 'subscribe', topic: '/market/level2:BTC-USDT,ETH-USDT', response: true });
    assert.equal((await p.reply('1545910660740')).text, '{"id":"1545910660740","type":"ack"}');
    assert.equal(pub.subscribers('l2', 'BTC-USDT'), 1);
    assert.equal(pub.subscribers('l2', 'ETH-USDT'), 1);
    // response false: no answer, but subscribed (a ping sent afterwards is answered first)
    p.send({ id: 'quiet', type: 'subscribe', topic: '/market/match:BTC-USDT', response: false });
    p.send({ id: 'after', type: 'ping' });
    await p.reply('after');
    assert.equal(p.frames.filter((f) => f.json.id === 'quiet').length, 0);
    assert.equal(pub.subscribers('match', 'BTC-USDT'), 1);
    p.send({ id: 'u1', type: 'unsubscribe', topic: '/market/level2:ETH-USDT', response: true });
    assert.equal((await p.reply('u1')).json.type, 'ack');
    assert.equal(pub.subscribers('l2', 'ETH-USDT'), 0);
    assert.equal(pub.subscribers('l2', 'BTC-USDT'), 1);
  });

  it('errors: unknown topic and symbol (404), bad syntax (400), private topic on a public token (401), more than 100 symbols (509)', async () => {
    const p = track(await connectPublic(sb));
    const ask = async (id: string, topic: string): Promise<{ code?: number; data?: unknown }> => {
      p.send({ id, type: 'subscribe', topic, response: true });
      const r = await p.reply(id);
      assert.equal(r.json.type, 'error', `${topic}: ${r.text}`);
      return r.json;
    };
    assert.deepEqual(await ask('a', '/market/level3:BTC-USDT'), { id: 'a', type: 'error', code: 404, data: 'topic /market/level3:BTC-USDT is not found' });
    assert.deepEqual(await ask('b', '/market/level2:BTC-USDT,NOPE-USDT'), { id: 'b', type: 'error', code: 404, data: 'topic /market/level2:NOPE-USDT is not found' });
    assert.deepEqual(await ask('c', '/market/match: BTC-USDT'), { id: 'c', type: 'error', code: 400, data: 'topic /market/match: BTC-USDT is invalid' });
    assert.equal((await ask('d', '/market/level2')).code, 400);
    const priv = await ask('e', '/spotMarket/tradeOrdersV2');
    assert.equal(priv.code, 401);
    assert.match(String(priv.data), /private/);
    const many = Array.from({ length: 101 }, () => 'BTC-USDT').join(',');
    assert.deepEqual(await ask('f', `/market/level2:${many}`), { id: 'f', type: 'error', code: 509, data: 'exceed max subscription count limitation of 100 per time' });
    // a refused request changes nothing
    assert.equal(sb.feed.publishing.subscribers('l2', 'BTC-USDT'), 0);
  });

  it('errors: malformed JSON, a non-object, an unknown type, a subscribe without topic (400); the connection stays usable', async () => {
    const p = track(await connectPublic(sb));
    p.send('{"id": "x", "type": ');
    const bad = await p.waitFor((f) => f.json.type === 'error' && String(f.json.data).startsWith('malformed JSON'), 'malformed JSON error');
    assert.equal(bad.json.code, 400);
    p.send('[1,2]');
    assert.equal((await p.waitFor((f) => f.json.type === 'error' && String(f.json.data).includes('JSON object'), 'non-object error')).json.code, 400);
    p.send({ id: 't', type: 'openTunnel' });
    assert.equal((await p.reply('t')).json.code, 400);
    p.send({ id: 's', type: 'subscribe', response: true });
    const noTopic = await p.reply('s');
    assert.equal(noTopic.json.code, 400);
    assert.match(String(noTopic.json.data), /topic/);
    p.send({ id: 'ok', type: 'ping' });
    assert.equal((await p.reply('ok')).json.type, 'pong');
  });

  it('a message nested deeper than 64 levels (5,000 arrays around a long number) gets 400 naming the depth, checked before parsing (it blew the lossless parser stack); the connection stays usable', async () => {
    const p = track(await connectPublic(sb));
    p.send(`{"id":"deep","type":"ping","x":${'['.repeat(5000)}12345678901234567890${']'.repeat(5000)}}`);
    const deep = await p.waitFor((f) => f.json.type === 'error', 'the error of the deep message');
    assert.deepEqual(deep.json, { type: 'error', code: 400, data: 'malformed JSON: nested deeper than 64 levels' });
    p.send({ id: 'after', type: 'ping' });
    assert.equal((await p.reply('after')).json.type, 'pong');
  });

  it('rate limit: the 101st client message within 10 s gets 509 and is not processed', async () => {
    const p = track(await connectPublic(sb));
    for (let i = 1; i <= 100; i++) p.send({ id: `p${i}`, type: 'ping' });
    await p.reply('p100');
    p.send({ id: 'p101', type: 'ping' });
    const r = await p.waitFor((f) => f.json.type === 'error', 'rate-limit error');
    assert.deepEqual(r.json, { type: 'error', code: 509, data: 'exceed max permits per 10 seconds' });
    assert.equal(p.frames.filter((f) => f.json.id === 'p101').length, 0);
    assert.ok(sb.feed.stats.rateLimited >= 1);
  });

  it('an invalid token gets 401 "token is expired" and the connection is closed (4001)', async () => {
    const t = await publicToken(sb);
    for (const token of ['nope', t.token.slice(0, -2) + (t.token.endsWith('AA') ? 'BB' : 'AA'), '']) {
      const p = track(open(t.endpoint, token, 'c1'));
      const err = await p.waitFor((f) => f.json.type === 'error', 'token error');
      assert.equal(err.text, '{"id":"c1","type":"error","code":401,"data":"token is expired"}');
      assert.equal((await p.closed).code, 4001);
    }
  });

  it('a token expires after 24 h of the sandbox clock (checked when connecting)', async () => {
    const t = await publicToken(sb);
    const t0 = sb.state.now();
    const moved = await admin(sb, 'POST', '/sandbox/v1/clock', { advanceMs: TOKEN_TTL_MS - 1 });
    assert.equal(moved.status, 200, moved.text);
    const ok = track(open(t.endpoint, t.token, 'still'));
    await ok.waitFor((f) => f.json.type === 'welcome', 'welcome just before expiry');
    await admin(sb, 'POST', '/sandbox/v1/clock', { advanceMs: 1 });
    assert.equal(sb.state.now(), t0 + TOKEN_TTL_MS);
    const late = track(open(t.endpoint, t.token, 'late'));
    assert.equal((await late.waitFor((f) => f.json.type === 'error', 'expiry error')).json.code, 401);
    assert.equal((await late.closed).code, 4001);
  });

  it('bullet-private needs a signed request; its token grants private topics of its own user only', async () => {
    const unsigned = await rawRequest(sb.baseUrl, 'POST', '/api/v1/bullet-private');
    assert.equal(unsigned.status, 401);
    assert.equal(unsigned.json.code, '400001');
    const uid = sb.credentials.uid;
    const t = await privateToken(sb);
    const p = track(open(t.endpoint, t.token));
    await p.waitFor((f) => f.json.type === 'welcome', 'welcome');
    await subscribe(p, '/spotMarket/tradeOrdersV2');
    await subscribe(p, '/account/balance');
    await subscribe(p, '/market/level2:BTC-USDT'); // public topics work on a private connection
    assert.deepEqual([...fake.users], [uid]);
    const other = '999999999';
    fake.users.add(other); // another user's events, as if someone watched them
    fake.balance(balanceEvent(other, '1'));
    fake.balance(balanceEvent(uid, '2'));
    const got = await p.waitFor((f) => f.json.topic === '/account/balance', 'balance message');
    assert.equal(got.json.userId, uid);
    assert.equal((decoded(got.text).data as { total: string }).total, '2');
    fake.users.delete(other);
    assert.equal(p.messages('/account/balance').length, 1);
  });

  it('zero cost when nobody listens: the core watches a symbol or user only while someone subscribes, and events of unwatched ones build nothing', async () => {
    fake.log.length = 0;
    const a = track(await connectPublic(sb, 'a'));
    const b = track(await connectPublic(sb, 'b'));
    await subscribe(a, '/market/level2:LTC-USDT');
    await subscribe(b, '/market/match:LTC-USDT');
    assert.deepEqual(fake.log, ['+LTC-USDT']);
    const built = sb.feed.stats.messagesBuilt;
    // Level changes while only /market/match listens: nothing to build for level2 after a unsubscribes.
    a.send({ id: 'u', type: 'unsubscribe', topic: '/market/level2:LTC-USDT', response: true });
    await a.reply('u');
    fake.level('LTC-USDT', 'buy', '71.6', '1');
    b.send({ id: 'sync', type: 'ping' });
    await b.reply('sync');
    assert.equal(sb.feed.stats.messagesBuilt, built);
    b.close();
    await until(() => fake.log.includes('-LTC-USDT'), 'unwatch after the last subscriber left');
    assert.deepEqual(fake.log, ['+LTC-USDT', '-LTC-USDT']);
    assert.equal(fake.level('LTC-USDT', 'buy', '71.6', '2'), undefined, 'the core emits nothing for an unwatched symbol');
    // ticker:all watches every symbol; its unsubscribe releases them all
    fake.log.length = 0;
    await subscribe(a, '/market/ticker:all');
    assert.equal(fake.symbols.size, sb.state.world.symbols.length);
    a.send({ id: 'u2', type: 'unsubscribe', topic: '/market/ticker:all', response: true });
    await a.reply('u2');
    assert.equal(fake.symbols.size, 0);
  });

  it('payloads: one trade.l2update per symbol and flush, exact changes and sequence span, in KuCoin shape; match, order (V2 and V1) and balance messages', async () => {
    const p = track(await connectPublic(sb));
    await subscribe(p, '/market/level2:BTC-USDT,ETH-USDT');
    await subscribe(p, '/market/match:BTC-USDT');
    const s1 = fake.level('BTC-USDT', 'sell', '67993.3', '1.21427407', 1729816425625)!;
    fake.level('BTC-USDT', 'buy', '67993.2', '0', 1729816425625);
    fake.level('ETH-USDT', 'buy', '2607.64', '0.1', 1729816425626);
    const s3 = fake.level('BTC-USDT', 'sell', '67993.3', '0.5', 1729816425627)!;
    fake.trade({ symbol: 'BTC-USDT', tradeId: 11067996711, sequence: s3.sequence, price: '67993.3', size: '0.71427407', side: 'buy', takerOrderId: 't'.repeat(24), makerOrderId: 'm'.repeat(24), takerUid: '1', makerUid: '2', time: 1729816425627 });
    const btc = await p.waitFor((f) => f.json.topic === '/market/level2:BTC-USDT', 'BTC l2update');
    assert.equal(
      btc.text,
      `{"topic":"/market/level2:BTC-USDT","type":"message","subject":"trade.l2update","data":{"changes":{"asks":[["67993.3","1.21427407","${s1.sequence}"],["67993.3","0.5","${s3.sequence}"]],"bids":[["67993.2","0","${s1.sequence + 1}"]]},"sequenceEnd":${s3.sequence},"sequenceStart":${s1.sequence},"symbol":"BTC-USDT","time":1729816425627}}`,
    );
    const m = decoded(btc.text);
    assert.equal(m.subject, 'trade.l2update');
    if (m.subject === 'trade.l2update') assert.equal(m.data.sequenceEnd - m.data.sequenceStart, 2n);
    assert.equal(p.messages('/market/level2:BTC-USDT').length, 1, 'one message for the three changes');
    await p.waitFor((f) => f.json.topic === '/market/level2:ETH-USDT', 'ETH l2update');
    const match = await p.waitFor((f) => f.json.topic === '/market/match:BTC-USDT', 'match');
    const md = decoded(match.text).data as { time: string; tradeId: string; sequence: bigint; side: string };
    assert.match(md.time, /^1729816425627\d{6}$/);
    assert.equal(md.tradeId, '11067996711');
    assert.equal(md.sequence, BigInt(s3.sequence));
    assert.equal(md.side, 'buy');

    const t = await privateToken(sb);
    const q = track(open(t.endpoint, t.token));
    await q.waitFor((f) => f.json.type === 'welcome', 'welcome');
    await subscribe(q, '/spotMarket/tradeOrdersV2');
    await subscribe(q, '/spotMarket/tradeOrders');
    const uid = sb.credentials.uid;
    const base = { uid, symbol: 'BTC-USDT', orderId: '6720ecd9ec71f4000747731a', clientOid: 'c"1', side: 'buy' as const, orderType: 'limit' as const, price: '50000', size: '0.00001', funds: '', canceledSize: '0', remainFunds: '', orderTime: 1730211033305 };
    fake.order({ ...base, type: 'received', filledSize: '0', remainSize: '0.00001', time: 1730211033335 });
    fake.order({ ...base, type: 'match', filledSize: '0.000004', remainSize: '0.000006', time: 1730211033335, match: { price: '50000', size: '0.000004', tradeId: 7, liquidity: 'taker', fee: '0', feeCurrency: 'USDT' } });
    fake.order({ ...base, type: 'open', filledSize: '0.000004', remainSize: '0.000006', time: 1730211033335 });
    const v2 = await q.waitFor((f) => f.json.topic === '/spotMarket/tradeOrdersV2' && (f.json.data as { type?: string }).type === 'open', 'V2 open');
    const v2all = q.messages('/spotMarket/tradeOrdersV2').map((f) => decoded(f.text).data as { type: string; status: string; ts: string; clientOid: string });
    assert.deepEqual(v2all.map((d) => `${d.type}/${d.status}`), ['received/new', 'match/match', 'open/open']);
    assert.equal(v2all[0].clientOid, 'c"1');
    assert.ok(v2all.every((d, i) => i === 0 || BigInt(d.ts) > BigInt(v2all[i - 1].ts)), 'ts strictly increasing ns');
    assert.match(v2.text, /"ts":1730211033335\d{6},/, 'ts is a raw number literal of 19 digits');
    const v1 = q.messages('/spotMarket/tradeOrders').map((f) => (decoded(f.text).data as { type: string }).type);
    assert.deepEqual(v1, ['match', 'open'], 'V1 has no received');
    const match2 = decoded(q.messages('/spotMarket/tradeOrdersV2')[1].text).data as Record<string, unknown>;
    assert.equal(match2.matchPrice, '50000');
    assert.equal(match2.matchSize, '0.000004');
    assert.equal(match2.tradeId, '7');
    assert.equal(match2.liquidity, 'taker');
  });

  it('throttled topics: depth5/depth50, ticker and snapshot push the current state at once, then only on change', async () => {
    const p = track(await connectPublic(sb));
    await subscribe(p, '/spotMarket/level2Depth5:BTC-USDT');
    await subscribe(p, '/market/ticker:BTC-USDT');
    await subscribe(p, '/market/snapshot:BTC-USDT');
    const book = sb.state.exchange.level2('BTC-USDT', 5);
    const d5 = decoded((await p.waitFor((f) => f.json.topic === '/spotMarket/level2Depth5:BTC-USDT', 'depth5')).text).data as { asks: string[][]; bids: string[][] };
    assert.deepEqual(d5.asks, book.asks);
    assert.deepEqual(d5.bids, book.bids);
    const tk = decoded((await p.waitFor((f) => f.json.topic === '/market/ticker:BTC-USDT', 'ticker')).text).data as { bestAsk: string; bestBid: string; sequence: bigint };
    assert.equal(tk.bestAsk, book.asks[0][0]);
    assert.equal(tk.bestBid, book.bids[0][0]);
    assert.equal(tk.sequence, BigInt(book.sequence));
    const snap = decoded((await p.waitFor((f) => f.json.topic === '/market/snapshot:BTC-USDT', 'snapshot')).text).data as { data: { buy: string; sell: string; symbol: string } };
    assert.equal(snap.data.buy, book.bids[0][0]);
    assert.equal(snap.data.symbol, 'BTC-USDT');
    // A level event without a book change: the next tick recomputes, finds the same content, sends nothing.
    const built = sb.feed.stats.messagesBuilt;
    const checks = sb.feed.stats.throttleChecks;
    fake.level('BTC-USDT', 'buy', book.bids[0][0], book.bids[0][1]);
    await until(() => sb.feed.stats.throttleChecks >= checks + 2, 'the depth5 and ticker recomputation');
    assert.equal(sb.feed.stats.messagesBuilt, built);
    // A real change of the best bid's size (an order through exec) → depth5 and ticker push it.
    const bestBid = book.bids[0][0];
    const size = Decimal.add(book.bids[0][1], '0.001');
    sb.state.run('order.place', { uid: sb.credentials.uid, req: { symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: bestBid, size: '0.001', clientOid: 'tk1' } });
    fake.level('BTC-USDT', 'buy', bestBid, size);
    const d5b = await p.waitFor((f) => f.json.topic === '/spotMarket/level2Depth5:BTC-USDT' && (f.json.data as { bids: string[][] }).bids[0][1] === size, 'depth5 with the new best bid size');
    assert.deepEqual((decoded(d5b.text).data as { bids: string[][] }).bids, sb.state.exchange.level2('BTC-USDT', 5).bids);
    await p.waitFor((f) => f.json.topic === '/market/ticker:BTC-USDT' && (f.json.data as { bestBidSize: string }).bestBidSize === size, 'ticker with the new best bid size');
  });
});

function balanceEvent(uid: string, total: string) {
  return {
    uid,
    accountId: '548674591753',
    currency: 'USDT',
    accountType: 'trade' as const,
    total,
    available: total,
    hold: '0',
    availableChange: total,
    holdChange: '0',
    relationEvent: 'trade.hold',
    relationEventId: '354689988084000',
    relationContext: { symbol: 'BTC-USDT', orderId: '6721d0632db25b0007071fdc' },
    time: 1730269283892,
  };
}

describe('stream/feed limits and bounds', () => {
  it('idle close: no ping for pingInterval + pingTimeout closes the connection (4002); a pinging one stays', async () => {
    const sb = await startTestSandbox({ feed: { pingIntervalMs: 60, pingTimeoutMs: 60, events: null } });
    try {
      const t = await publicToken(sb);
      assert.equal(t.pingInterval, 60);
      const idle = open(t.endpoint, t.token, 'idle');
      const busy = open(t.endpoint, t.token, 'busy');
      await busy.waitFor((f) => f.json.type === 'welcome', 'welcome');
      let n = 0;
      const timer = setInterval(() => busy.send({ id: `k${++n}`, type: 'ping' }), 30);
      const closed = await idle.closed;
      assert.equal(closed.code, 4002);
      assert.equal(closed.reason, 'ping timeout');
      // The pinging connection outlives several idle windows: wait for pongs 1…10 (≥ 300 ms of pings).
      await busy.waitFor((f) => f.json.id === 'k10', 'ten pongs');
      clearInterval(timer);
      assert.equal(busy.isClosed, false);
      assert.ok(sb.feed.stats.idleCloses >= 1);
      busy.close();
    } finally {
      await sb.close();
    }
  });

  it('limits: topics per connection (509 "per session"), connections (HTTP 503), endpoint path (HTTP 404), frame size (1009)', async () => {
    const fake = new FakeEvents();
    const sb = await startTestSandbox({ feed: { maxTopicsPerConnection: 3, maxConnections: 2, maxPayloadBytes: 1024, events: fake } });
    try {
      const p = await connectPublic(sb, 'p');
      await subscribe(p, '/market/level2:BTC-USDT,ETH-USDT');
      p.send({ id: 'x', type: 'subscribe', topic: '/market/match:BTC-USDT,ETH-USDT', response: true });
      assert.deepEqual((await p.reply('x')).json, { id: 'x', type: 'error', code: 509, data: 'exceed max subscription count limitation of 3 per session' });
      await subscribe(p, '/market/level2:BTC-USDT,ETH-USDT,LTC-USDT'); // two already held: one more fits
      const q = await connectPublic(sb, 'q');
      const t = await publicToken(sb);
      const third = await httpUpgrade(sb.baseUrl, `/ws?token=${t.token}`);
      assert.match(third, /^HTTP\/1\.1 503 /);
      const wrongPath = await httpUpgrade(sb.baseUrl, `/endpoint?token=${t.token}`);
      assert.match(wrongPath, /^HTTP\/1\.1 404 /);
      q.send('x'.repeat(2000));
      assert.equal((await q.closed).code, 1009);
      p.close();
    } finally {
      await sb.close();
    }
  });

  /** Open `n` connections (connectIds `${tag}0…`) and wait for each one's first frame: welcome, or the error it is refused with. */
  async function openMany(endpoint: string, token: string | (() => Promise<string>), n: number, tag: string): Promise<{ probes: WsProbe[]; first: Frame[] }> {
    const probes: WsProbe[] = [];
    for (let i = 0; i < n; i++) probes.push(open(endpoint, typeof token === 'string' ? token : await token(), `${tag}${i}`));
    const first = await Promise.all(probes.map((p) => p.waitFor((f) => f.json.type === 'welcome' || f.json.type === 'error', 'welcome or error')));
    return { probes, first };
  }
  const welcomed = (fs: Frame[]): number => fs.filter((f) => f.json.type === 'welcome').length;

  it('fair share: a flood on one public token stops at the per-token cap, many public tokens at the loopback address cap (509, close 1013); private streams of the flooded sandbox still connect, capped per user', async () => {
    const sb = await startTestSandbox({ feed: { maxConnections: 12, maxConnectionsPerToken: 3, maxPublicConnectionsPerIp: 6, maxConnectionsPerUser: 2, events: null } });
    const all: WsProbe[] = [];
    try {
      const t = await publicToken(sb);
      // one token, 20 connections: before the caps the first 12 took every connection and the rest got HTTP 503
      const flood = await openMany(t.endpoint, t.token, 20, 'f');
      all.push(...flood.probes);
      assert.equal(welcomed(flood.first), 3);
      const refused = flood.first.findIndex((f) => f.json.type === 'error');
      assert.deepEqual(flood.first[refused].json, { id: `f${refused}`, type: 'error', code: 509, data: 'exceed max connection count limitation of 3 per token' });
      assert.equal((await flood.probes[refused].closed).code, 1013);
      // fresh public tokens from the same (loopback) address: 6 public connections in all
      const more = await openMany(t.endpoint, async () => (await publicToken(sb)).token, 10, 'm');
      all.push(...more.probes);
      assert.equal(welcomed(more.first), 3);
      assert.deepEqual(more.first.find((f) => f.json.type === 'error')?.json.data, 'exceed max connection count limitation of 6 public connections per IP address');
      // the default user's private stream (the extension's) and another user's still connect; each user up to 2
      const mine = await privateToken(sb);
      const own = await openMany(mine.endpoint, async () => (await privateToken(sb)).token, 3, 'own');
      all.push(...own.probes);
      assert.equal(welcomed(own.first), 2);
      assert.deepEqual(own.first[2].json, { id: 'own2', type: 'error', code: 509, data: 'exceed max connection count limitation of 2 per user' });
      const other = await createUser(sb);
      const theirs = await openMany(mine.endpoint, async () => (await privateToken(sb, other)).token, 1, 'other');
      all.push(...theirs.probes);
      assert.equal(welcomed(theirs.first), 1);
      await subscribe(theirs.probes[0], '/spotMarket/tradeOrdersV2');
      assert.equal(sb.feed.stats.connections, 3 + 3 + 2 + 1);
      assert.equal(sb.feed.stats.refusedConnections, 17 + 7 + 1);
      // a closed connection frees its slot
      flood.probes[0].close();
      await until(() => sb.feed.stats.connections === 8, 'the closed connection forgotten');
      const again = await openMany(t.endpoint, t.token, 1, 'again');
      all.push(...again.probes);
      assert.equal(welcomed(again.first), 1);
    } finally {
      for (const p of all) p.close();
      await sb.close();
    }
  });

  it('fair share defaults: one public token opens at most 100 connections (it took 498 and locked everyone out); the private stream still connects', async function () {
    this.timeout(30_000);
    const sb = await startTestSandbox({ feed: { events: null } });
    const all: WsProbe[] = [];
    try {
      const t = await publicToken(sb);
      const flood = await openMany(t.endpoint, t.token, 120, 'f');
      all.push(...flood.probes);
      assert.equal(welcomed(flood.first), 100);
      const priv = await privateToken(sb);
      const own = await openMany(priv.endpoint, priv.token, 1, 'own');
      all.push(...own.probes);
      assert.equal(welcomed(own.first), 1);
      await subscribe(own.probes[0], '/account/balance');
    } finally {
      for (const p of all) p.close();
      await sb.close();
    }
  });

  it('a client that stops reading is dropped once its unsent bytes pass the bound; a reading client gets every message', async function () {
    this.timeout(20000);
    const fake = new FakeEvents();
    const limit = 256 * 1024;
    const sb = await startTestSandbox({ feed: { sendBufferLimitBytes: limit, events: fake } });
    try {
      const slow = await connectPublic(sb, 'slow');
      const fast = await connectPublic(sb, 'fast');
      await subscribe(slow, '/market/level2:BTC-USDT');
      await subscribe(fast, '/market/level2:BTC-USDT');
      // The slow client stops reading: its socket is paused, so kernel buffers fill, then the server's.
      (slow.ws as unknown as { _socket: net.Socket })._socket.pause();
      let sent = 0;
      let price = 10000;
      while (sb.feed.stats.slowDisconnects === 0) {
        assert.ok(sent < 5000, 'the slow client was never dropped');
        for (let i = 0; i < 200; i++) fake.level('BTC-USDT', i % 2 ? 'buy' : 'sell', String(price++), '1.23456789');
        sent++;
        await new Promise((r) => setImmediate(r)); // let the flush run and the sockets drain
      }
      assert.equal(sb.feed.stats.connections, 1);
      assert.equal(sb.feed.publishing.subscribers('l2', 'BTC-USDT'), 1);
      // The reading client receives every flush, in order, without a gap.
      await fast.waitFor((f, ) => f.json.topic === '/market/level2:BTC-USDT' && String((f.json.data as { changes: { asks: string[][] } }).changes.asks.at(-1)?.[0]) === String(price - 2), 'the last flush', 15000);
      const msgs = fast.messages('/market/level2:BTC-USDT').map((f) => decoded(f.text).data as { sequenceStart: bigint; sequenceEnd: bigint });
      assert.equal(msgs.length, sent);
      for (let i = 1; i < msgs.length; i++) assert.equal(msgs[i].sequenceStart, msgs[i - 1].sequenceEnd + 1n);
      fast.close();
      slow.close();
    } finally {
      await sb.close();
    }
  });

  it('a flooding client gets one 509 per window and nothing else: the server does not write per refused message', async () => {
    const sb = await startTestSandbox({ feed: { clientMessageLimit: 5, clientMessageWindowMs: 200, events: null } });
    try {
      const p = await connectPublic(sb);
      for (let i = 1; i <= 500; i++) p.send({ id: `f${i}`, type: 'ping' });
      await until(() => sb.feed.stats.rateLimited >= 495, 'the flood read');
      // The next window: a ping is answered again; everything the server wrote before it precedes it.
      let k = 0;
      for (;;) {
        p.send({ id: `m${++k}`, type: 'ping' });
        const got = await p.waitFor((f) => f.json.id === `m${k}`, `marker ${k}`, 300).catch(() => undefined);
        if (got) break;
        assert.ok(k < 50, 'the window never restarted');
      }
      const before = p.frames.findIndex((f) => f.json.id === `m${k}`);
      const flood = p.frames.slice(0, before).filter((f) => f.json.type !== 'welcome');
      assert.equal(flood.filter((f) => f.json.type === 'pong' && String(f.json.id).startsWith('f')).length, 5);
      const errors = flood.filter((f) => f.json.type === 'error').length;
      assert.ok(errors >= 1 && errors <= 1 + k, `one 509 per window (flood + ${k} marker windows), got ${errors}`);
      p.close();
    } finally {
      await sb.close();
    }
  });

  it('shutdown closes every connection with 1001', async () => {
    const sb = await startTestSandbox({ feed: { events: null } });
    const p = await connectPublic(sb);
    await sb.close();
    assert.equal((await p.closed).code, 1001);
  });
});

/** Send a raw WebSocket upgrade request and return the first response line(s). */
function httpUpgrade(baseUrl: string, path: string): Promise<string> {
  const u = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const s = net.connect(Number(u.port), u.hostname, () => {
      s.write(`GET ${path} HTTP/1.1\r\nHost: ${u.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`);
    });
    let text = '';
    s.on('data', (d) => (text += d.toString()));
    s.on('end', () => resolve(text));
    s.on('close', () => resolve(text));
    s.on('error', reject);
  });
}
