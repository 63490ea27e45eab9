/**
 * Streaming benchmark (issue 20): `npm run bench -- stream`. Three parts, each with its baseline
 * measured in the same run:
 *
 * 1. **Latency** — REST acknowledgement of an order → the client's L2 keeper has applied that change,
 *    over loopback (sandbox in a child process, no simulation, rate limits off). Each sample places a
 *    small buy at the best bid of BTC-USDT (a unique size, so the level's new size identifies it) and
 *    times from the REST answer to the keeper's `update` that shows it (0 when the update came first).
 *    Baseline: the polling path at the extension's default interval (`spotdesk.orderBook.refreshIntervalMs`
 *    = 1000 ms): a poller reads GET level2_20 every 1000 ms while orders are placed at random moments;
 *    each order's latency runs from its REST answer to the first poll answer that shows it.
 *    Targets: p50 ≤ 2 ms, p99 ≤ 10 ms, and ≥ 100× lower than polling.
 * 2. **Fan-out** — 100 connections (this process) subscribed to `/market/level2` of every simulated
 *    symbol, the simulation at 10× its default rate (one step per 100 ms instead of 1000 ms). Prints
 *    messages/s delivered (received by the 100 clients), the server's CPU per delivered message (the
 *    child's CPU time over the window ÷ deliveries; and the same without subscribers, the simulation's
 *    own cost), and the largest lag of any connection (receive time − the message's `time`). After the
 *    window the simulation stops and every connection must reach the server's last sequence of every
 *    symbol without a gap ("no connection left behind"). Target: ≥ 200,000 messages/s on one core.
 *    When the 10× simulation cannot produce that many, the server's capacity is ALSO measured by
 *    driving the simulation as fast as the server can step it (steps back to back), same checks.
 *    Each connection checks every message's sequence continuity per symbol; the clients read the
 *    fields they check from the frame's bytes (no JSON.parse), so one client process keeps up.
 * 3. **Keeper apply cost** per increment (decoded `trade.l2update`, 1–3 changes) next to a bare
 *    `Map.set` of the same rows.
 *
 * Run it alone: on a shared machine under the lock file its heavy jobs share (`flock <lock file> npm run bench -- stream`).
 * Env: BENCH_SECONDS (fan-out window, default 5), BENCH_LATENCY_N (default 2000), BENCH_POLL_SECONDS
 * (default 12), BENCH_CONNECTIONS (default 100).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import * as D from '../src/api/decimal';
import { SpotClient } from '../src/api/client';
import { keepBook, L2BookKeeper, level2Snapshot, type L2Increment } from '../src/api/l2Book';
import { StreamClient } from '../src/api/stream';
import type { SandboxCredentials } from '../src/exchange/server/index';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const LATENCY_N = Number(process.env.BENCH_LATENCY_N ?? 2000);
const POLL_SECONDS = Number(process.env.BENCH_POLL_SECONDS ?? 12);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 100);
const POLL_INTERVAL_MS = 1000; // package.json: spotdesk.orderBook.refreshIntervalMs default
const SYMBOL = 'BTC-USDT';

// ---------------------------------------------------------------------------------------------
// Child: the sandbox server (driven over IPC)
// ---------------------------------------------------------------------------------------------

interface ServerInfo {
  baseUrl: string;
  credentials: SandboxCredentials;
  symbols: string[];
}
interface ServerStats {
  cpuUs: number;
  deliveries: number;
  messagesBuilt: number;
  levelChanges: number;
  slowDisconnects: number;
  connections: number;
  sequences: Record<string, number>;
  steps: number;
}
type Cmd = { cmd: 'sim'; intervalMs: number | 'max' } | { cmd: 'stopSim' } | { cmd: 'stats' };

async function serveChild(): Promise<void> {
  const { startSandbox } = await import('../src/exchange/server/index');
  const { startSimulation } = await import('../src/exchange/server/sim');
  const sb = await startSandbox({ sim: false, seed: 1, rateLimits: { disabled: true }, feed: { maxConnections: 1000 } });
  const symbols = sb.state.world.symbols.filter((s) => s.enableTrading).map((s) => s.symbol);
  let sim: ReturnType<typeof startSimulation> | undefined;
  let loop = false;
  const send = (m: unknown): void => void process.send?.(m);
  process.on('message', (m: Cmd) => {
    if (m.cmd === 'sim') {
      sim?.stop();
      loop = false;
      if (m.intervalMs === 'max') {
        sim = startSimulation(sb.state, { seed: 7, intervalMs: 0 });
        loop = true;
        const s = sim;
        const step = (): void => {
          if (!loop || sim !== s) return;
          s.step();
          setImmediate(step);
        };
        setImmediate(step);
      } else sim = startSimulation(sb.state, { seed: 7, intervalMs: m.intervalMs });
      send({ ok: true });
    } else if (m.cmd === 'stopSim') {
      loop = false;
      sim?.stop();
      send({ ok: true, steps: sim?.steps ?? 0 });
    } else if (m.cmd === 'stats') {
      const c = process.cpuUsage();
      const f = sb.feed.stats;
      const sequences: Record<string, number> = {};
      for (const s of symbols) sequences[s] = sb.state.exchange.sequence(s);
      send({ cpuUs: c.user + c.system, deliveries: f.deliveries, messagesBuilt: f.messagesBuilt, levelChanges: f.levelChanges, slowDisconnects: f.slowDisconnects, connections: f.connections, sequences, steps: sim?.steps ?? 0 } satisfies ServerStats);
    }
  });
  process.on('disconnect', () => void sb.close().then(() => process.exit(0)));
  send({ baseUrl: sb.baseUrl, credentials: sb.credentials, symbols } satisfies ServerInfo);
}

class Server {
  private constructor(
    readonly child: ChildProcess,
    readonly info: ServerInfo,
  ) {}
  static async start(): Promise<Server> {
    const child = fork(__filename, ['--serve'], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const info = await new Promise<ServerInfo>((resolve, reject) => {
      child.once('message', (m) => resolve(m as ServerInfo));
      child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    });
    return new Server(child, info);
  }
  ask<T>(m: Cmd): Promise<T> {
    return new Promise((resolve) => {
      this.child.once('message', (r) => resolve(r as T));
      this.child.send(m);
    });
  }
  stats(): Promise<ServerStats> {
    return this.ask<ServerStats>({ cmd: 'stats' });
  }
  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((r) => this.child.once('exit', r));
    this.child.disconnect();
    await exited;
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

function pct(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
const ms = (x: number): string => (x < 10 ? x.toFixed(3) : x.toFixed(1));
const ok = (b: boolean): string => (b ? 'MET' : 'NOT MET');
const delay = (t: number): Promise<void> => new Promise((r) => setTimeout(r, t));

function restClient(s: ServerInfo): SpotClient {
  const c = s.credentials;
  return new SpotClient({ baseUrl: s.baseUrl, credentials: { apiKey: c.apiKey, apiSecret: c.apiSecret, apiPassphrase: c.apiPassphrase, keyVersion: '2' }, maxRetries: 0 });
}

// ---------------------------------------------------------------------------------------------
// Part 1: latency
// ---------------------------------------------------------------------------------------------

async function latency(server: Server): Promise<void> {
  console.log('\n-- latency: REST ack → keeper applied (BTC-USDT, loopback, no simulation) vs polling every 1000 ms');
  const rest = restClient(server.info);
  const stream = new StreamClient({ token: () => rest.getBulletPublic() });
  await stream.start();
  const { keeper, stop } = await keepBook(stream, SYMBOL, level2Snapshot(rest, SYMBOL, 100));
  await new Promise<void>((r) => (keeper.state === 'live' ? r() : keeper.once('synced', () => r())));
  const bestBid = keeper.bids(1)[0][0];
  const sizeAt = (): string => keeper.bids().find((l) => l[0] === bestBid)?.[1] ?? '0';

  // Streaming: sequential samples.
  const stream_: number[] = [];
  let first = 0;
  let expected = sizeAt();
  for (let i = 0; i < LATENCY_N + 50; i++) {
    const add = `0.0000${String(1 + (i % 9))}`;
    expected = D.add(expected, add);
    const want = expected;
    let appliedAt = 0;
    const applied = new Promise<void>((resolve) => {
      const on = (): void => {
        if (sizeAt() === want) {
          appliedAt = performance.now();
          keeper.off('update', on);
          resolve();
        }
      };
      keeper.on('update', on);
    });
    await rest.placeOrder({ clientOid: `lat-${i}`, symbol: SYMBOL, side: 'buy', type: 'limit', price: bestBid, size: add });
    const ackAt = performance.now();
    await applied;
    if (i >= 50) {
      // the first 50 warm up the JIT
      if (appliedAt <= ackAt) first++;
      stream_.push(Math.max(0, appliedAt - ackAt));
    }
  }
  stream_.sort((a, b) => a - b);

  // Polling: orders at random moments, a poll every 1000 ms.
  const poll: number[] = [];
  const pending: { want: string; ackAt: number }[] = [];
  let pollSize = expected;
  let polling = true;
  const poller = (async () => {
    while (polling) {
      const started = performance.now();
      const book = await rest.call('level2_20', { symbol: SYMBOL });
      const at = performance.now();
      const lv = book.bids.find((l) => l[0] === bestBid);
      pollSize = lv ? lv[1] : '0';
      for (let k = pending.length - 1; k >= 0; k--) {
        if (D.cmp(pending[k].want, pollSize) <= 0) {
          poll.push(at - pending[k].ackAt);
          pending.splice(k, 1);
        }
      }
      await delay(Math.max(0, POLL_INTERVAL_MS - (performance.now() - started)));
    }
  })();
  const until = performance.now() + POLL_SECONDS * 1000;
  let j = 0;
  while (performance.now() < until) {
    await delay(Math.random() * 150);
    const add = '0.00001';
    expected = D.add(expected, add);
    await rest.placeOrder({ clientOid: `poll-${j++}`, symbol: SYMBOL, side: 'buy', type: 'limit', price: bestBid, size: add });
    pending.push({ want: expected, ackAt: performance.now() });
  }
  while (pending.length) await delay(50);
  polling = false;
  await poller;
  poll.sort((a, b) => a - b);
  await stop();
  stream.close();
  rest.close();

  const s50 = pct(stream_, 50);
  const s99 = pct(stream_, 99);
  const p50 = pct(poll, 50);
  const p99 = pct(poll, 99);
  console.log(`stream  (keeper applied)  p50 ${ms(s50)} ms   p99 ${ms(s99)} ms   n=${stream_.length} (update before the REST answer: ${first})`);
  console.log(`polling (level2_20/1000ms) p50 ${ms(p50)} ms   p99 ${ms(p99)} ms   n=${poll.length}`);
  console.log(`ratio polling/stream: p50 ${(p50 / s50).toFixed(0)}×, p99 ${(p99 / s99).toFixed(0)}×   (target ≥ 100×: ${ok(p50 / s50 >= 100 && p99 / s99 >= 100)})`);
  console.log(`targets: p50 ≤ 2 ms ${ok(s50 <= 2)}, p99 ≤ 10 ms ${ok(s99 <= 10)}   keeper: ${keeper.stats.gaps} gaps, ${keeper.stats.resyncs} resyncs`);
}

// ---------------------------------------------------------------------------------------------
// Part 2: fan-out
// ---------------------------------------------------------------------------------------------

/** One benchmark client: counts messages and changes, checks sequence continuity per symbol, tracks lag. */
class FanClient {
  messages = 0;
  changes = 0;
  gaps = 0;
  maxLag = 0;
  closed = false;
  readonly last = new Map<string, number>();
  private acked!: Promise<void>;
  ws!: WebSocket;

  open(endpoint: string, token: string, id: number, symbols: string[]): Promise<void> {
    this.ws = new WebSocket(`${endpoint}?token=${encodeURIComponent(token)}&connectId=fan${id}`, { perMessageDeflate: false });
    this.acked = new Promise((resolve, reject) => {
      this.ws.once('error', reject);
      this.ws.on('close', () => (this.closed = true));
      this.ws.on('open', () => this.ws.send(JSON.stringify({ id: 'sub', type: 'subscribe', topic: `/market/level2:${symbols.join(',')}`, response: true })));
      this.ws.on('message', (d: Buffer) => {
        if (d[2] === 0x69 /* {"id" */) {
          if (d.indexOf('"ack"') > 0) resolve();
          return;
        }
        this.onData(d);
      });
    });
    return this.acked;
  }

  /** Read sequenceStart/End, symbol and time from the frame's bytes (no JSON.parse: the client must keep up). */
  private onData(d: Buffer): void {
    this.messages++;
    // The changes come first; the fixed fields are in the last ~130 bytes.
    const from = Math.max(0, d.length - 160);
    const se = d.indexOf(SEQ_END, from);
    const ss = d.indexOf(SEQ_START, se);
    const end = num(d, se + 14);
    const start = num(d, ss + 16);
    const sy = d.indexOf(SYMBOL_KEY, ss) + 10;
    const sym = d.toString('latin1', sy, d.indexOf(0x22, sy));
    const time = num(d, d.indexOf(TIME_KEY, sy) + 7);
    this.changes += end - start + 1;
    const prev = this.last.get(sym);
    if (prev !== undefined && start !== prev + 1) this.gaps++;
    this.last.set(sym, end);
    const lag = Date.now() - time;
    if (lag > this.maxLag) this.maxLag = lag;
  }
}

const SEQ_END = Buffer.from('"sequenceEnd":');
const SEQ_START = Buffer.from('"sequenceStart":');
const SYMBOL_KEY = Buffer.from('"symbol":"');
const TIME_KEY = Buffer.from('"time":');

function num(d: Buffer, i: number): number {
  let n = 0;
  for (let c = d[i]; c >= 48 && c <= 57; c = d[++i]) n = n * 10 + (c - 48);
  return n;
}

interface Window {
  seconds: number;
  delivered: number;
  changes: number;
  serverDeliveries: number;
  cpuUs: number;
  maxLag: number;
  steps: number;
}

async function measure(server: Server, clients: FanClient[], seconds: number): Promise<Window> {
  for (const c of clients) c.maxLag = 0;
  const m0 = clients.reduce((a, c) => a + c.messages, 0);
  const ch0 = clients.reduce((a, c) => a + c.changes, 0);
  const s0 = await server.stats();
  const t0 = performance.now();
  await delay(seconds * 1000);
  const s1 = await server.stats();
  const t1 = performance.now();
  const secs = (t1 - t0) / 1000;
  return {
    seconds: secs,
    delivered: clients.reduce((a, c) => a + c.messages, 0) - m0,
    changes: clients.reduce((a, c) => a + c.changes, 0) - ch0,
    serverDeliveries: s1.deliveries - s0.deliveries,
    cpuUs: s1.cpuUs - s0.cpuUs,
    maxLag: Math.max(...clients.map((c) => c.maxLag)),
    steps: s1.steps - s0.steps,
  };
}

/** After the simulation stopped: every client must reach the server's last sequence of every symbol. */
async function caughtUp(server: Server, clients: FanClient[], symbols: string[], droppedBefore: number): Promise<{ behind: number; gaps: number; dropped: number; waitedMs: number }> {
  const s = await server.stats();
  const t0 = performance.now();
  const behindNow = (): number => clients.filter((c) => c.closed || symbols.some((sym) => (c.last.get(sym) ?? -1) < s.sequences[sym])).length;
  while (behindNow() > 0 && performance.now() - t0 < 10_000 && clients.some((c) => !c.closed)) await delay(20);
  return { behind: behindNow(), gaps: clients.reduce((a, c) => a + c.gaps, 0), dropped: (await server.stats()).slowDisconnects - droppedBefore, waitedMs: performance.now() - t0 };
}

/** Open `clients` (the simulation stopped) and start each one's sequences at the server's. */
async function openAll(server: Server, clients: FanClient[], endpoint: string, token: () => Promise<string>, symbols: string[], first: number): Promise<void> {
  await Promise.all(clients.map(async (c, i) => c.open(endpoint, await token(), first + i, symbols)));
  const s = await server.stats();
  for (const c of clients) for (const sym of symbols) if (!c.last.has(sym)) c.last.set(sym, s.sequences[sym]);
}

function report(name: string, w: Window, base: Window | undefined, check: { behind: number; gaps: number; dropped: number; waitedMs: number }): number {
  const rate = w.delivered / w.seconds;
  const cpuPerMsg = w.cpuUs / Math.max(1, w.serverDeliveries);
  const simPerStep = base && base.steps > 0 ? base.cpuUs / base.steps : undefined;
  const feedCpu = simPerStep !== undefined ? Math.max(0, w.cpuUs - simPerStep * w.steps) : undefined;
  console.log(
    `${name}: ${rate.toFixed(0)} messages/s delivered (${(w.changes / w.seconds).toFixed(0)} level changes/s) to ${CONNECTIONS} connections; ` +
      `server CPU ${(w.cpuUs / 1e4 / w.seconds).toFixed(0)} % of one core, ${cpuPerMsg.toFixed(2)} µs per delivered message` +
      (feedCpu !== undefined ? ` (feed alone ≈ ${(feedCpu / Math.max(1, w.serverDeliveries)).toFixed(2)} µs, the simulation's own ${(simPerStep as number).toFixed(0)} µs per step measured without subscribers)` : '') +
      `; largest lag ${w.maxLag} ms; simulation steps/s ${(w.steps / w.seconds).toFixed(0)}`,
  );
  console.log(`  left behind: ${check.behind} connections (all reached the last sequence of every symbol within ${check.waitedMs.toFixed(0)} ms), gaps ${check.gaps}, dropped as slow ${check.dropped}`);
  return rate;
}

async function fanout(server: Server): Promise<void> {
  const { symbols } = server.info;
  console.log(`\n-- fan-out: ${CONNECTIONS} connections × /market/level2 of ${symbols.length} symbols`);
  // The simulation's own CPU per step, with nobody subscribed (the feed costs nothing then).
  await server.ask({ cmd: 'sim', intervalMs: 'max' });
  await delay(500);
  const base = await measure(server, [], 2);
  await server.ask({ cmd: 'stopSim' });
  console.log(`simulation alone (no subscribers, steps back to back): ${(base.steps / base.seconds).toFixed(0)} steps/s, ${(base.cpuUs / Math.max(1, base.steps)).toFixed(0)} µs CPU per step`);

  const rest = restClient(server.info);
  const endpoint = (await rest.getBulletPublic()).instanceServers[0].endpoint;
  const token = async (): Promise<string> => (await rest.getBulletPublic()).token;
  const clients = Array.from({ length: CONNECTIONS }, () => new FanClient());
  await openAll(server, clients, endpoint, token, symbols, 0);

  const dropped = async (): Promise<number> => (await server.stats()).slowDisconnects;
  let d0 = await dropped();
  await server.ask({ cmd: 'sim', intervalMs: 100 });
  await delay(1000);
  const w10 = await measure(server, clients, SECONDS);
  await server.ask({ cmd: 'stopSim' });
  const rate10 = report('simulation at 10× (a step every 100 ms)', w10, base, await caughtUp(server, clients, symbols, d0));

  let best = 0;
  if (rate10 < 200_000) {
    // Flat out: the simulation stepped back to back, as fast as the server can.
    d0 = await dropped();
    await server.ask({ cmd: 'sim', intervalMs: 'max' });
    await delay(1000);
    const wMax = await measure(server, clients, SECONDS);
    await server.ask({ cmd: 'stopSim' });
    const check = await caughtUp(server, clients, symbols, d0);
    const flat = report('capacity: the simulation stepped back to back, as fast as the server goes', wMax, base, check);
    best = check.behind === 0 && check.dropped === 0 && check.gaps === 0 ? flat : 0;
  }
  const which = rate10 >= 200_000 ? 'the 10× simulation' : best >= 200_000 ? 'the capacity run (not the 10× simulation, which produces fewer messages)' : 'neither run';
  console.log(`target ≥ 200,000 messages/s delivered on one core with no connection left behind: met by ${which}`);
  for (const c of clients) c.ws.terminate();
  rest.close();
}

// ---------------------------------------------------------------------------------------------
// Part 3: keeper apply cost
// ---------------------------------------------------------------------------------------------

async function keeperCost(): Promise<void> {
  console.log('\n-- keeper apply cost per increment (1–3 changes, 50 levels per side) vs a bare Map.set of the same rows');
  const N = 200_000;
  const price = (i: number): string => (67000 + (i % 100) * 0.5).toFixed(1);
  const incs: L2Increment[] = [];
  let seq = 1000n;
  for (let i = 0; i < N; i++) {
    const n = 1 + (i % 3);
    const asks: [string, string, bigint][] = [];
    const bids: [string, string, bigint][] = [];
    const start = seq + 1n;
    for (let k = 0; k < n; k++) {
      const row: [string, string, bigint] = [price(i * 7 + k * 13), (i + k) % 11 === 0 ? '0' : `0.${String(1 + ((i * 31 + k) % 99999999)).padStart(8, '0')}`, ++seq];
      (k % 2 ? bids : asks).push(row);
    }
    incs.push({ sequenceStart: start, sequenceEnd: seq, changes: { asks, bids } });
  }
  const rows = incs.reduce((a, u) => a + u.changes.asks.length + u.changes.bids.length, 0);
  const best = (f: () => void): number => {
    let b = Infinity;
    for (let r = 0; r < 5; r++) {
      const t0 = performance.now();
      f();
      b = Math.min(b, performance.now() - t0);
    }
    return (b * 1e6) / N;
  };
  const levels = (side: number): [string, string][] => Array.from({ length: 50 }, (_, i) => [price(side * 50 + i), '1.5'] as [string, string]);
  const keepers: L2BookKeeper[] = [];
  for (let r = 0; r < 5; r++) {
    const k = new L2BookKeeper({ symbol: 'X-Y', fetchSnapshot: async () => ({ sequence: '1000', bids: levels(0), asks: levels(1) }) });
    const synced = new Promise((resolve) => k.once('synced', resolve));
    k.start();
    await synced;
    keepers.push(k);
  }
  let run = 0;
  const keeperNs = best(() => {
    const k = keepers[run++];
    for (let i = 0; i < N; i++) k.apply(incs[i]);
  });
  if (keepers.some((k) => k.sequence !== seq || k.stats.gaps !== 0)) throw new Error('keeper did not apply every increment');
  const mapNs = best(() => {
    const a = new Map<string, string>();
    const b = new Map<string, string>();
    for (let i = 0; i < N; i++) {
      const u = incs[i];
      for (const c of u.changes.asks) a.set(c[0], c[1]);
      for (const c of u.changes.bids) b.set(c[0], c[1]);
    }
  });
  console.log(`keeper.apply ${keeperNs.toFixed(0)} ns per increment (${(rows / N).toFixed(2)} changes each)   bare Map.set ${mapNs.toFixed(0)} ns   ratio ${(keeperNs / mapNs).toFixed(1)}×`);
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  await keeperCost();
  const server = await Server.start();
  try {
    await latency(server);
    await fanout(server);
  } finally {
    await server.stop();
  }
}

if (process.argv.includes('--serve')) void serveChild();
else
  main().then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
