/**
 * Mirror-mode benchmark: `npm run bench -- mirror`.
 *
 * **Upstream increment → applied in the mirror's book**, on loopback. The upstream is a sandbox in a child
 * process (no simulation, rate limits off); the mirror is a sandbox in this process reading it through
 * `UpstreamSource` (src/exchange/server/mirror). Each sample asks the child to place a small resting buy at a
 * price level of its own (so the increment that carries it is recognisable), and times from the moment the
 * upstream's engine made the change (its command returned; high-resolution epoch time of both processes) to:
 * - the mirror: its market applied the increment (the journaled `mirror.book` command returned, so the mirror's
 *   public book and streams show it);
 * - the baseline, measured in the same run: a plain client of the upstream in this process (StreamClient +
 *   L2BookKeeper, SpotDesk's own keeper) applied the same increment: the upstream's own publish-and-deliver time.
 * Targets (issue): p50 ≤ 2 ms, p99 ≤ 20 ms; the mirror's overhead over the baseline is printed too.
 *
 * Env: BENCH_MIRROR_N (samples, default 1000). Run it alone: on a shared machine under the heavy-jobs lock.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import * as D from '../src/api/decimal';
import { SpotClient } from '../src/api/client';
import { L2BookKeeper, level2Snapshot } from '../src/api/l2Book';
import { StreamClient } from '../src/api/stream';
import type { StreamData, WsL2Update } from '../src/api/streamSchemas';
import { startSandbox } from '../src/exchange/server/index';
import type { MarketEvent, MarketSource } from '../src/exchange/server/mirror/source';
import { fetchUpstreamWorld, UpstreamSource } from '../src/exchange/server/mirror/upstream';
import { newKeyMaterial, type UserRecord } from '../src/exchange/server/state';

const N = Number(process.env.BENCH_MIRROR_N ?? 1000);
const SYMBOL = 'BTC-USDT';
const epochNow = (): number => performance.timeOrigin + performance.now();

type Cmd = { type: 'place'; i: number; price: string } | { type: 'cancel'; i: number };

// ---------------------------------------------------------------------------------------------
// Child: the upstream
// ---------------------------------------------------------------------------------------------

async function serve(): Promise<void> {
  const sb = await startSandbox({ sim: false, rateLimits: false, seed: 1 });
  const u = sb.state.run('user.create', {
    ...newKeyMaterial(),
    keyVersion: '2',
    permissions: ['General', 'Spot'],
    balances: [{ currency: 'USDT', type: 'trade', amount: '100000000' }],
  }) as UserRecord;
  const ids = new Map<number, string>();
  const bid = sb.state.exchange.level2(SYMBOL, 1).bids[0][0];
  process.on('message', (m: Cmd) => {
    if (m.type === 'place') {
      const r = sb.state.run('order.place', { uid: u.uid, req: { symbol: SYMBOL, side: 'buy', type: 'limit', price: m.price, size: '0.0001' } });
      const t = epochNow();
      ids.set(m.i, r.orderId);
      process.send?.({ type: 'placed', i: m.i, t });
    } else {
      const id = ids.get(m.i);
      if (id) sb.state.run('order.cancel', { uid: u.uid, symbol: SYMBOL, orderId: id });
      ids.delete(m.i);
    }
  });
  process.send?.({ type: 'ready', baseUrl: sb.baseUrl, bid });
}

// ---------------------------------------------------------------------------------------------
// Parent: the mirror and the baseline client
// ---------------------------------------------------------------------------------------------

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

async function main(): Promise<void> {
  const child: ChildProcess = fork(__filename, ['--serve'], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const waiters = new Map<string, (m: { t: number }) => void>();
  let ready!: (m: { baseUrl: string; bid: string }) => void;
  const readyP = new Promise<{ baseUrl: string; bid: string }>((r) => (ready = r));
  child.on('message', (m: { type: string; i?: number; t?: number; baseUrl?: string; bid?: string }) => {
    if (m.type === 'ready') ready(m as { baseUrl: string; bid: string });
    else if (m.type === 'placed') waiters.get(`placed:${m.i}`)?.(m as { t: number });
  });
  const { baseUrl, bid } = await readyP;

  // prices of the samples: one level each, below the seeded book's best bid
  const priceOf = (i: number): string => D.normalize(D.sub(bid, D.mul(String(1000 + (i % 500)), '0.1')));
  const pendingMirror = new Map<string, number>(); // normalised price → sample
  const pendingBase = new Map<string, number>();
  const mirrorAt = new Map<number, number>();
  const baseAt = new Map<number, number>();
  const notify = new Map<number, () => void>();
  const check = (i: number): void => {
    if (mirrorAt.has(i) && baseAt.has(i) && sampleT.has(i)) notify.get(i)?.();
  };
  const sampleT = new Map<number, number>();

  // the mirror, its source tapped: time when the mirror market returned from an increment
  const upstream = new UpstreamSource({ baseUrl, symbols: [SYMBOL] });
  const tapped: MarketSource = {
    start: (onEvent) =>
      upstream.start((e: MarketEvent) => {
        onEvent(e);
        if (e.type !== 'l2') return;
        const t = epochNow();
        for (const [p, s] of e.changes.bids) {
          const i = pendingMirror.get(D.normalize(p));
          if (i !== undefined && D.cmp(s, '0') > 0) {
            pendingMirror.delete(D.normalize(p));
            mirrorAt.set(i, t);
            check(i);
          }
        }
      }),
    close: () => upstream.close(),
  };
  const world = await fetchUpstreamWorld(baseUrl, [SYMBOL]);
  const mirror = await startSandbox({ sim: false, rateLimits: false, mirror: { source: tapped, label: 'mirror', world } });

  // the baseline: a plain keeper of the upstream's book in this process
  const rest = new SpotClient({ baseUrl });
  const stream = new StreamClient({ token: () => rest.getBulletPublic() });
  const keeper = new L2BookKeeper({ symbol: SYMBOL, fetchSnapshot: level2Snapshot(rest, SYMBOL, 100) });
  stream.on('message', (m: StreamData) => {
    if (m.subject !== 'trade.l2update') return;
    const u = m.data as WsL2Update;
    keeper.apply(u);
    const t = epochNow();
    for (const [p, s] of u.changes.bids) {
      const i = pendingBase.get(D.normalize(p));
      if (i !== undefined && D.cmp(s, '0') > 0) {
        pendingBase.delete(D.normalize(p));
        baseAt.set(i, t);
        check(i);
      }
    }
  });
  await stream.start();
  await stream.subscribe(`/market/level2:${SYMBOL}`);
  keeper.start();
  await new Promise<void>((r) => keeper.once('synced', () => r()));

  const WARMUP = 50;
  for (let i = 0; i < N + WARMUP; i++) {
    const price = priceOf(i);
    pendingMirror.set(price, i);
    pendingBase.set(price, i);
    const done = new Promise<void>((r) => notify.set(i, r));
    waiters.set(`placed:${i}`, (m) => {
      sampleT.set(i, m.t);
      check(i);
    });
    child.send({ type: 'place', i, price } satisfies Cmd);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([done, new Promise((_, rej) => (timer = setTimeout(() => rej(new Error(`sample ${i} not seen in 5 s`)), 5_000)))]);
    clearTimeout(timer);
    waiters.delete(`placed:${i}`);
    notify.delete(i);
    child.send({ type: 'cancel', i } satisfies Cmd);
  }

  const mirrorMs: number[] = [];
  const baseMs: number[] = [];
  for (let i = WARMUP; i < N + WARMUP; i++) {
    const t = sampleT.get(i) as number;
    mirrorMs.push(Math.max(0, (mirrorAt.get(i) as number) - t));
    baseMs.push(Math.max(0, (baseAt.get(i) as number) - t));
  }
  const p50 = pct(mirrorMs, 50);
  const p99 = pct(mirrorMs, 99);
  const b50 = pct(baseMs, 50);
  const b99 = pct(baseMs, 99);
  const ok = p50 <= 2 && p99 <= 20;
  console.log(`mirror: upstream increment → applied in the mirror's book, loopback, ${N} samples (after ${WARMUP} warm-up)`);
  console.log(`  mirror   p50 ${p50.toFixed(3)} ms  p99 ${p99.toFixed(3)} ms  max ${Math.max(...mirrorMs).toFixed(3)} ms   (targets p50 ≤ 2 ms, p99 ≤ 20 ms): ${ok ? 'MET' : 'MISSED'}`);
  console.log(`  baseline (the upstream's own publish → a plain keeper applied it) p50 ${b50.toFixed(3)} ms  p99 ${b99.toFixed(3)} ms`);
  console.log(`  mirror overhead over the baseline: p50 ${(p50 - b50).toFixed(3)} ms, p99 ${(p99 - b99).toFixed(3)} ms`);
  const errs = mirror.mirror?.stats;
  console.log(`  mirror market: ${errs?.commands ?? 0} commands, ${errs?.errors ?? 0} refused`);

  stream.close();
  keeper.close();
  rest.close();
  await mirror.close();
  child.kill('SIGTERM');
  process.exit(ok ? 0 : 1);
}

if (process.argv.includes('--serve')) void serve();
else
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
