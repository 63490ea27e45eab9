/**
 * Per-operation costs of the exchange core (issue 3), next to nodejs-order-book doing the same operations in
 * this process: where stream B's ratio (bench/engine.bench.ts) comes from. Each scenario runs N pairs of
 * operations against a resting book of 8,000 orders (200 levels a side, 20 orders each: about the density of
 * stream B's steady state), with everything it touches hot in cache:
 *   - rest + cancel, existing level: a limit order joins an existing level and is cancelled at once;
 *   - rest + cancel, new level: the same at a price deeper than every level of its side (a level is created
 *     behind the 200 others, then removed);
 *   - maker + taker, one full fill: an order rests inside the spread, the next (another user) fills it whole.
 * Sides alternate. Ours runs with ledger, holds, fees and history (numeric entry placeLimitTicks /
 * cancelSeq); the baseline with its natural API (`limit`, `cancel`; ids built before timing). Prints ns per
 * pair and the ratio. Also prints what a first write to fresh memory costs on this machine (the page fault
 * per 4 KiB page), the price every done order's history record and every trade's fill record pay once.
 * Each scenario runs a warm-up of N/5 pairs on a fresh book (JIT state), then RUNS timed runs of N pairs,
 * each on a fresh book; the median is printed (single runs vary by ±20% on a shared machine).
 * `BENCH_N` overrides the number of pairs (default 200,000), `BENCH_RUNS` the number of timed runs (default 5).
 */
import { OrderBook, Side } from 'nodejs-order-book';
import { CORE_ENTRY, CORE_LOAD, loadCore } from './engineCore';
import * as streams from './engineStreams';
import { setUpBenchWorld } from './engineStreams';

// constants of the timed loops as module-level copies: tsx compiles a named import into a getter call on the
// module object at every use (a harness cost inside the timed loops)
const { MID, SYM, USERS } = streams;
/** the measured core (see bench/engineCore.ts) */
const { Exchange } = loadCore();

const N = Number(process.env.BENCH_N ?? 200_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const LEVELS = 200;
const PER_LEVEL = 20;

type Scenario = 'existing' | 'new' | 'fill';

/** Limit price (ticks) of the i-th order of a scenario: buy when i is even. */
function priceOf(sc: Scenario, i: number): number {
  const buy = (i & 1) === 0;
  const k = ((i >> 1) * 7) % LEVELS;
  if (sc === 'existing') return buy ? MID - 1 - k : MID + 1 + k;
  if (sc === 'new') return buy ? MID - 1 - LEVELS - 1 - (k % 50) : MID + 1 + LEVELS + 1 + (k % 50);
  return MID; // inside the spread: bids end at MID - 1, asks start at MID + 1
}

function gc(): void {
  const g = (globalThis as { gc?: () => void }).gc;
  if (g) g();
}

/** Nanoseconds per pair of ours over n pairs. */
function ours(sc: Scenario, n: number): number {
  // the injected clock: +1 ms per call, in a Float64Array cell (no heap number per call)
  const clock = new Float64Array([1_700_000_000_000]);
  const ex = new Exchange({ now: () => clock[0]++ });
  const uids = setUpBenchWorld(ex);
  for (let l = 0; l < LEVELS; l++) {
    for (let q = 0; q < PER_LEVEL; q++) {
      ex.placeLimitTicks(uids[(l + q) % USERS], SYM, 'buy', MID - 1 - l, 10);
      ex.placeLimitTicks(uids[(l + q) % USERS], SYM, 'sell', MID + 1 + l, 10);
    }
  }
  gc();
  const t0 = process.hrtime.bigint();
  if (sc === 'fill') {
    for (let i = 0; i < n; i++) {
      const buy = (i & 1) === 0;
      ex.placeLimitTicks(uids[i % USERS], SYM, buy ? 'buy' : 'sell', MID, 5);
      ex.placeLimitTicks(uids[(i + 1) % USERS], SYM, buy ? 'sell' : 'buy', MID, 5);
    }
  } else {
    for (let i = 0; i < n; i++) {
      const uid = uids[i % USERS];
      const seq = ex.placeLimitTicks(uid, SYM, (i & 1) === 0 ? 'buy' : 'sell', priceOf(sc, i), 5);
      ex.cancelSeq(uid, seq);
    }
  }
  const ns = Number(process.hrtime.bigint() - t0) / n;
  ex.checkInvariants();
  return ns;
}

/** Nanoseconds per pair of nodejs-order-book over n pairs. */
function baseline(sc: Scenario, n: number): number {
  const ob = new OrderBook();
  for (let l = 0; l < LEVELS; l++) {
    for (let q = 0; q < PER_LEVEL; q++) {
      ob.limit({ id: `b${l}-${q}`, side: Side.BUY, size: 10, price: MID - 1 - l });
      ob.limit({ id: `a${l}-${q}`, side: Side.SELL, size: 10, price: MID + 1 + l });
    }
  }
  const ids: string[] = new Array(2 * n);
  for (let i = 0; i < 2 * n; i++) ids[i] = `o${i}`;
  gc();
  const t0 = process.hrtime.bigint();
  if (sc === 'fill') {
    for (let i = 0; i < n; i++) {
      const buy = (i & 1) === 0;
      ob.limit({ id: ids[2 * i], side: buy ? Side.BUY : Side.SELL, size: 5, price: MID });
      ob.limit({ id: ids[2 * i + 1], side: buy ? Side.SELL : Side.BUY, size: 5, price: MID });
    }
  } else {
    for (let i = 0; i < n; i++) {
      ob.limit({ id: ids[i], side: (i & 1) === 0 ? Side.BUY : Side.SELL, size: 5, price: priceOf(sc, i) });
      ob.cancel(ids[i]);
    }
  }
  return Number(process.hrtime.bigint() - t0) / n;
}

/** ns per 4 KiB page of the first write to freshly allocated memory, and of a second write. */
function pageTouch(): { first: number; again: number } {
  const a = new Int32Array(16 << 18); // 16 MiB
  const pages = a.length / 1024;
  let t = process.hrtime.bigint();
  for (let i = 0; i < a.length; i += 1024) a[i] = 1;
  const first = Number(process.hrtime.bigint() - t) / pages;
  t = process.hrtime.bigint();
  for (let i = 0; i < a.length; i += 1024) a[i] = 2;
  return { first, again: Number(process.hrtime.bigint() - t) / pages };
}

function main(): void {
  // first, while no freed memory is around for the allocator to hand back already mapped
  const pt = pageTouch();
  console.log(
    `engine ops: N=${N.toLocaleString('en-US')} pairs per scenario, median of ${RUNS} runs (after a warm-up run of N/5), node ${process.version}; ` +
      `ns per pair (wall clock), book of ${LEVELS * PER_LEVEL * 2} resting orders; core ${CORE_ENTRY} (${CORE_LOAD})`,
  );
  const rows: [string, Scenario][] = [
    ['rest + cancel, existing level', 'existing'],
    ['rest + cancel, new level', 'new'],
    ['maker + taker, one full fill', 'fill'],
  ];
  const median = (f: () => number): number => {
    const xs = Array.from({ length: RUNS }, f).sort((x, y) => x - y);
    return xs[xs.length >> 1];
  };
  for (const [label, sc] of rows) {
    ours(sc, Math.ceil(N / 5));
    const a = median(() => ours(sc, N));
    baseline(sc, Math.ceil(N / 5));
    const b = median(() => baseline(sc, N));
    console.log(`  ${label.padEnd(30)} ours ${a.toFixed(0).padStart(5)} ns   nodejs-order-book ${b.toFixed(0).padStart(6)} ns   ratio ${(b / a).toFixed(2)}x`);
  }
  console.log(
    `  fresh memory: ${pt.first.toFixed(0)} ns per 4 KiB page on first write (${pt.again.toFixed(0)} ns on the next), ` +
      `i.e. ${((pt.first * 32) / 4096).toFixed(1)} ns per order's 32-byte record and ` +
      `${((pt.first * 104) / 4096).toFixed(1)} ns per trade's 104-byte fill record`,
  );
}

main();
