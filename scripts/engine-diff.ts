/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * Differential check of the exchange core (`npm run engine:diff`, see scripts/engine-diff.js): a reference
 * revision's core (OLD) against the working tree's (NEW), for internal rewrites that must not change any
 * observable behaviour. Both are loaded with a dynamic import and driven with identical commands at
 * identical clock values (each engine gets `now: () => clock.t`, the harness owns t). Each core is bundled by
 * esbuild (bench/engineCore.ts), as it ships. After every call the
 * outcome (return value as JSON with key order, or thrown error: constructor name, code, message) and the
 * onTrade events are compared; every `--every` commands and at the end the whole observable state is
 * compared and checkInvariants() must pass on both.
 *
 *   OLD=<ref>/src/exchange/core/index.ts node --import tsx scripts/engine-diff.ts --seeds 1..200 [--steps 400] [--every 20] [--trace] [--loose-keys]
 *   OLD=... node --expose-gc --import tsx scripts/engine-diff.ts --streams [--n 1000000] [--which ABL]
 *
 * --snapshot-at K: NEW is exported (exportSnapshot), written and read back as the sandbox does
 * (src/exchange/server/snapshotCodec.ts) and imported into a fresh engine (Exchange.importSnapshot) right after
 * command K of each seed — with --streams, after order N/2 of each stream — and the run goes on with the
 * restored engine: a restored engine must behave exactly like the one it was exported from.
 * --ignore-sequence: book and trade sequence numbers are not compared (for a change of what consumes a
 * sequence number, e.g. a sequence counting only visible book changes: everything else must stay identical).
 * --old-opts / --new-opts JSON: extra constructor options of the OLD / NEW engine, e.g. --new-opts
 * '{"fastPaths":false}' with OLD = NEW compares the core's fast paths with the canonical code they mirror.
 *
 * Seeds: even seeds construct both engines with { bigIntOnly: true }. The command stream of a seed does
 * not depend on --steps / --every, so a divergence at step k reproduces with --seeds S --steps k+1 --trace.
 * --loose-keys ignores object key order; --odd-increments adds non-power-of-ten baseIncrements (cores
 * before commit 811a6bd got those wrong on the Number path). --streams replays the benchmark streams A, B
 * and L (bench/engine.bench.ts) and compares a hash of the whole observable state. Exit 1 on the first
 * divergence or failed invariant, 2 if a module fails to load, 0 otherwise.
 */
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { fromUnits, parse } from '../src/api/decimal';
import { mulberry32 } from '../src/exchange/server/world';
import { bundleCore } from '../bench/engineCore';
import { decodeSnapshotRecord, encodeSnapshotRecord } from '../src/exchange/server/snapshotCodec';
import { STREAMS, SYM, USERS as STREAM_USERS, WINDOW, genStream, setUpBenchWorld, type OrderStream } from '../bench/engineStreams';

type Outcome = { ok: any } | { err: { name: string; code?: string; message: string } };

// ───────────────────────────── CLI, PRNG, decimals ─────────────────────────────
const argv = process.argv.slice(2);
function opt(name: string): string | undefined {
  const i = argv.indexOf(`--${name}`);
  if (i < 0) return undefined;
  const v = argv[i + 1];
  return v === undefined || v.startsWith('--') ? 'true' : v;
}
function parseSeeds(s: string): number[] {
  return s.split(',').flatMap((p) => {
    const m = /^(\d+)\.\.(\d+)$/.exec(p);
    return m ? Array.from({ length: +m[2] - +m[1] + 1 }, (_, i) => +m[1] + i) : [Number(p)];
  });
}
const OLD = process.env.OLD ?? opt('old') ?? '';
const NEW = process.env.NEW ?? opt('new') ?? resolve('src/exchange/core/index.ts');
const TRACE = opt('trace') !== undefined;
const LOOSE_KEYS = opt('loose-keys') !== undefined;
const IGNORE_SEQ = opt('ignore-sequence') !== undefined;
const OLD_OPTS = JSON.parse(opt('old-opts') ?? '{}') as Record<string, unknown>;
const NEW_OPTS = JSON.parse(opt('new-opts') ?? '{}') as Record<string, unknown>;
const SNAP_AT = opt('snapshot-at') === undefined ? -1 : Number(opt('snapshot-at'));

/** An engine of module `mod` imported from `ex`'s snapshot, every record through the sandbox's JSON text. */
function reimport(mod: any, ex: any, opts: Record<string, unknown>): any {
  const recs = [...ex.exportSnapshot()].map((r: unknown) => decodeSnapshotRecord(encodeSnapshotRecord(r)));
  return mod.Exchange.importSnapshot(opts, recs);
}

class Rng {
  constructor(seed: number, readonly next = mulberry32(seed)) {}
  int = (lo: number, hi: number): number => lo + Math.floor(this.next() * (hi - lo + 1));
  chance = (p: number): boolean => this.next() < p;
  pick = <T>(a: readonly T[]): T => a[Math.floor(this.next() * a.length)];
  pickW<T>(a: readonly [T, number][]): T {
    let x = this.next() * a.reduce((s, [, w]) => s + w, 0);
    for (const [v, w] of a) if ((x -= w) < 0) return v;
    return a[a.length - 1][0];
  }
  /** log-uniform integer in [lo, hi] */
  logInt = (lo: number, hi: number): number => Math.min(hi, Math.floor(Math.exp(Math.log(lo) + this.next() * (Math.log(hi + 1) - Math.log(lo)))));
  /** random positive bigint of exactly n decimal digits */
  big = (n: number): bigint => BigInt(String(this.int(1, 9)) + Array.from({ length: n - 1 }, () => this.int(0, 9)).join(''));
}
/** Plain decimal string of units × 10^-scale (no trailing zeros). */
const fmt = fromUnits;
/** [units, scale] of a plain decimal string. */
function scaled(s: string): [bigint, number] {
  const p = parse(s);
  return [p.units, p.scale];
}
/** Decimal string as units of 10^-18 (coverage classification only). */
const dec = (s: string): bigint => scaled(s)[0] * 10n ** BigInt(18 - scaled(s)[1]);
function js(v: unknown): string {
  return JSON.stringify(v, (k, x) => {
    if (typeof x === 'bigint') return `${x}n`;
    if (typeof x === 'number' && !Number.isFinite(x)) return `#${x}`;
    if (IGNORE_SEQ && k === 'sequence') return '#';
    if (LOOSE_KEYS && x && typeof x === 'object' && !Array.isArray(x)) return Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1)));
    return x;
  });
}
function short(v: unknown, n = 300): string {
  const s = js(v) ?? String(v);
  return s.length > n ? `${s.slice(0, n)}…(${s.length} chars)` : s;
}
/** Path and values of the first difference between two JSON-like values. */
function firstDiff(a: any, b: any, path: string): string | null {
  if (js(a) === js(b)) return null;
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const d = firstDiff(a[k], b[k], Array.isArray(a) ? `${path}[${k}]` : `${path}.${k}`);
      if (d) return d;
    }
    return `${path}: same values, different key order: old [${Object.keys(a)}] new [${Object.keys(b)}]`;
  }
  return `${path}: old ${short(a)} | new ${short(b)}`;
}

// ───────────────────────────── world ─────────────────────────────
const DAY = 86_400_000;
const T0 = 1_700_000_000_000;
const USERS = ['u0', 'u1', 'u2', 'u3', 'u4'];
const GHOST = 'ghost';
const CURRENCIES: [string, number][] = [['BTC', 8], ['USDT', 6], ['ETH', 8], ['GIGA', 0], ['MEGA', 2], ['DUST', 18]];
const PREC = new Map(CURRENCIES);
/** integer digits of deposits per currency and class [whale, rich, normal, poor] (negative: fraction only) */
const DEP: Record<string, number[]> = { BTC: [7, 3, 1, -3], USDT: [13, 8, 5, 1], ETH: [7, 4, 2, -2], GIGA: [16, 13, 7, 4], MEGA: [31, 23, 16, 5], DUST: [3, 2, 1, -10] };
const RATES: [string, string][] = [['0.1', '0.05'], ['0.05', '-0.05'], ['0.001', '0.001'], ['0.002', '-0.0002'], ['0', '0'], ['0.1', '-0.1'], ['0.0015', '0.0005'], ['0.000123456789', '-0.000012345678'], ['0.001', '0'], ['0.0007', '0.0007']];
const BAD_RATES: [string, string][] = [['0.2', '0'], ['0.001', '0.002'], ['-0.001', '-0.002'], ['0.0000000000001', '0'], ['abc', '0'], ['0.001', '-0.2'], ['1e-3', '0']];
const COIDS = Array.from({ length: 12 }, (_, i) => `c${i + 1}`);

/** a symbol's rules, increments as [units, scale], lot bounds, a moving mid (ticks), price band and typical max lots */
type Spec = { rules: any; sym: string; ps: number; pInc: bigint; bs: number; bInc: bigint; qs: number; qInc: bigint; minLots: number; maxLots: number; mid: number; band: number; cap: number };
function spec(symbol: string, base: string, quote: string, baseIncrement: string, priceIncrement: string, quoteIncrement: string, baseMinSize: string, baseMaxSize: string, quoteMinSize: string, quoteMaxSize: string, minLots: number, maxLots: number, mid: number, band: number, cap: number): Spec {
  const [pInc, ps] = scaled(priceIncrement);
  const [bInc, bs] = scaled(baseIncrement);
  const [qInc, qs] = scaled(quoteIncrement);
  const rules = { symbol, baseCurrency: base, quoteCurrency: quote, baseIncrement, priceIncrement, quoteIncrement, baseMinSize, baseMaxSize, quoteMinSize, quoteMaxSize, enableTrading: true };
  return { rules, sym: symbol, ps, pInc, bs, bInc, qs, qInc, minLots, maxLots, mid, band, cap };
}
/** BTC-USDT and ETH-USDT (Number fast path, with whale orders whose sums cross 2^53 units; ETH-USDT has a
 * priceIncrement that is not a power of ten), ETH-BTC (quote BTC has fast scale 8 < qs 10: holds on the BigInt
 * path), GIGA-MEGA (integer increments, amounts far beyond 2^53 units), ETH-DUST (quote precision 18: 2^53
 * units is ~0.009 DUST, so orders mix the Number and BigInt paths and Number accumulators flush often).
 * --odd-increments: baseIncrements that are not powers of ten (GIGA-MEGA '1000', ETH-USDT '0.0005'). The
 * reference engine mis-scales Number-path base holds/credits for those (checkInvariants fails on OLD), so
 * they are opt-in. */
const ODD = opt('odd-increments') !== undefined;
const SPECS = (): Spec[] => [
  spec('BTC-USDT', 'BTC', 'USDT', '0.00001', '0.1', '0.000001', '0.00001', '10000', '0.1', '999999999', 1, 1e9, 300_000, 6, 200_000),
  spec('ETH-BTC', 'ETH', 'BTC', '0.0001', '0.000001', '0.00000001', '0.001', '100000', '0.0001', '1000000', 10, 1e9, 50_000, 5, 20_000),
  ODD
    ? spec('ETH-USDT', 'ETH', 'USDT', '0.0005', '0.05', '0.0001', '0.0005', '50000', '1', '99999999', 1, 1e8, 30_000, 8, 100_000)
    : spec('ETH-USDT', 'ETH', 'USDT', '0.0001', '0.05', '0.0001', '0.0001', '50000', '1', '99999999', 1, 5e8, 30_000, 8, 500_000),
  ODD
    ? spec('GIGA-MEGA', 'GIGA', 'MEGA', '1000', '1000000', '0.01', '1000', '1000000000000', '1', `1${'0'.repeat(30)}`, 1, 1e9, 1000, 4, 1_000_000)
    : spec('GIGA-MEGA', 'GIGA', 'MEGA', '1', '1000000', '0.01', '1', '1000000000000', '1', `1${'0'.repeat(30)}`, 1, 1e12, 1000, 4, 1_000_000),
  spec('ETH-DUST', 'ETH', 'DUST', '0.0001', '0.0000000001', '0.000000000000000001', '0.0001', '100000', '0.000000000001', '1000000', 1, 1e9, 2_000_000_000, 5, 100_000),
];

// ───────────────────────────── coverage ─────────────────────────────
const cov: Record<string, number> = {};
const errs: Record<string, number> = {};
const inc = (k: string, n = 1): number => (cov[k] = (cov[k] ?? 0) + n);
let comparisons = 0;

/** One call on one engine (args cloned, so neither side can see the other's mutations). */
function exec(ex: any, op: string, args: any[]): Outcome {
  try {
    return { ok: ex[op](...structuredClone(args)) };
  } catch (e: any) {
    return { err: { name: e?.constructor?.name ?? typeof e, code: e?.code, message: String(e?.message ?? e) } };
  }
}

// ───────────────────────────── one seed ─────────────────────────────
/** an issued order; expireAt / doneAt (GTT expiry, lastUpdatedAt once done) drive boundary-exact clock jumps */
type Ord = { id: string; seq: number; uid: string; sym: string; coid: string; rested: boolean; expireAt?: number; doneAt?: number };

function runSeed(seed: number, steps: number, every: number, OM: any, NM: any): void {
  const r = new Rng(seed);
  const qr = new Rng(seed ^ 0x5bd1e995); // sampling inside state comparisons (keeps r's stream independent of --every)
  const bigIntOnly = seed % 2 === 0;
  if (bigIntOnly) inc('seeds.bigIntOnly');
  const clock = { t: T0 + r.int(0, 1e6) };
  const exO = new OM.Exchange({ now: () => clock.t, bigIntOnly, ...OLD_OPTS });
  let exN = new NM.Exchange({ now: () => clock.t, bigIntOnly, ...NEW_OPTS });
  const [trO, trN]: any[][] = [[], []];
  exO.onTrade((x: any) => trO.push(x));
  exN.onTrade((x: any) => trN.push(x));
  const specs = SPECS();
  const bySym = new Map(specs.map((s) => [s.sym, s]));
  const orders: Ord[] = [];
  const byId = new Map<string, Ord>();
  const holds: { id: string; amount: string }[] = [];
  const enabled = new Map(specs.map((s) => [s.sym, true]));
  const seenOk = new Set<string>();
  const sets: Record<string, Set<string>> = { gttExpired: new Set(), icebergRefilled: new Set(), historyExpired: new Set(), rebateFills: new Set(), forceTakerFills: new Set() };
  let step = -1;
  let cmd: any = { op: 'setup' };
  let lastUser = 'u0';

  function fail(what: string, op: string, args: any[], o: any, n: any): never {
    console.log(`DIVERGENCE seed=${seed} step=${step} bigIntOnly=${bigIntOnly} t=${clock.t}`);
    console.log(`  command: ${short(cmd, 2000)}\n  call:    ${op}(${short(args, 2000).slice(1, -1)}) — ${what}\n  diff:    ${firstDiff(o, n, '$')}`);
    console.log(`  old: ${short(o, 3000)}\n  new: ${short(n, 3000)}`);
    console.log(`  reproduce: OLD=${OLD} NEW=${NEW} node --import tsx ${process.argv[1]} --seeds ${seed} --steps ${Math.max(1, step + 1)} --trace`);
    process.exit(1);
  }
  /** Run one call on both engines, compare outcome and emitted trades; returns OLD's outcome. */
  function call(op: string, args: any[]): Outcome {
    let o = exec(exO, op, args);
    let n = exec(exN, op, args);
    if (IGNORE_SEQ && op === 'sequence') [o, n] = [{ ok: '#' }, { ok: '#' }];
    comparisons++;
    if (js(o) !== js(n)) fail('outcome differs', op, args, o, n);
    if (trO.length > 0 || trN.length > 0) {
      if (js(trO) !== js(trN)) fail('onTrade events differ', op, args, trO, trN);
      inc('fills', trO.length);
      for (const x of trO) inc(`fills.${x.symbol}`);
      trO.length = 0;
      trN.length = 0;
    }
    return o;
  }
  const ok = (o: Outcome): any => ('ok' in o ? o.ok : undefined);

  // ── generators ──
  const pickUser = (): string => (r.chance(0.03) ? GHOST : r.chance(0.35) ? lastUser : r.pick(USERS));
  const pickSpec = (): Spec => r.pickW(specs.map((s, i): [Spec, number] => [s, i === 0 ? 4 : 2]));
  const sizeStr = (sp: Spec, lots: number): string => fmt(BigInt(lots) * sp.bInc, sp.bs);
  function priceStr(sp: Spec, ticks: number): string {
    const s = fmt(BigInt(ticks) * sp.pInc, sp.ps);
    const v = r.next();
    if (v < 0.04) return s.includes('.') ? `${s}00` : `${s}.000`; // trailing zeros: exact BigInt parse path
    if (v < 0.06) return `0${s}`; // leading zero
    return s;
  }
  function genLots(sp: Spec): number {
    const c = r.next();
    if (c < 0.03) return r.pick([0, sp.minLots - 1, sp.maxLots + 1, sp.maxLots]);
    if (c < 0.08) return Math.floor(sp.maxLots / r.int(1, 50)); // whale-size
    return sp.minLots * r.logInt(1, sp.cap);
  }
  function genTicks(sp: Spec, side: string): number {
    const c = r.next();
    if (c < 0.02) return Math.max(1, sp.mid + (r.chance(0.5) ? 1 : -1) * r.int(70_000, 300_000)); // far: outside the level index window
    if (c < 0.025) return r.pick([0, -1]);
    if (c < 0.03) return r.pick([2 ** 31 + r.int(-2, 2), 2 ** 32 + 1, 2 ** 40, Number.MAX_SAFE_INTEGER]); // beyond int32 ticks
    const off = r.int(0, sp.band);
    const aggressive = r.chance(0.45);
    return side === 'buy' === aggressive ? sp.mid + off : sp.mid - off;
  }
  function fundsStr(sp: Spec, lots: number): string {
    const approx = (sp.mid * Number(fmt(sp.pInc, sp.ps)) * lots * Number(fmt(sp.bInc, sp.bs))) / Number(fmt(sp.qInc, sp.qs));
    return fmt(BigInt(Math.max(1, Math.floor(approx))) * sp.qInc, sp.qs);
  }
  function decorate(q: any): any {
    const stp = r.pickW<string | undefined>([[undefined, 4], ['', 2], ['DC', 1.5], ['CO', 1], ['CN', 1], ['CB', 1]]);
    if (stp !== undefined) q.stp = stp;
    if (r.chance(0.35)) q.clientOid = r.pick(COIDS);
    if (r.chance(0.08)) q.remark = `remark ${r.int(1, 99)}`;
    if (r.chance(0.08)) q.tags = `t${r.int(1, 9)}`;
    if (r.chance(0.05)) Object.assign(q, { postOnly: q.postOnly ?? false, hidden: q.hidden ?? false });
    return q;
  }
  function genLimit(sp: Spec): any {
    const side = r.chance(0.5) ? 'buy' : 'sell';
    const lots = genLots(sp);
    const q: any = { symbol: sp.sym, side, type: 'limit', price: priceStr(sp, genTicks(sp, side)), size: sizeStr(sp, lots) };
    const tif = r.pickW<string | undefined>([['GTC', 5], ['GTT', 2.5], ['IOC', 2], ['FOK', 2], [undefined, 2]]);
    if (tif) q.timeInForce = tif;
    if (tif === 'GTT') q.cancelAfter = r.chance(0.7) ? r.int(1, 30) : r.int(31, 7200);
    const fl = r.pickW([['plain', 8], ['post', 3], ['hidden', 1.5], ['iceberg', 2.5]]);
    if (fl === 'post' && tif !== 'IOC' && tif !== 'FOK') q.postOnly = true;
    if (fl === 'hidden') q.hidden = true;
    if (fl === 'iceberg') {
      q.iceberg = true;
      const floor = Math.max(1, Math.ceil(lots / 25)); // bounded refills per order: at most ~25 tranches
      q.visibleSize = sizeStr(sp, r.chance(0.5) ? Math.max(floor, sp.minLots * r.int(1, 5)) : r.int(floor, Math.max(floor, lots)));
    }
    return decorate(q);
  }
  function genMarket(sp: Spec): any {
    const q: any = { symbol: sp.sym, side: r.chance(0.5) ? 'buy' : 'sell', type: 'market' };
    if (r.chance(0.5)) q.size = sizeStr(sp, genLots(sp));
    else q.funds = fundsStr(sp, sp.minLots * r.logInt(1, sp.cap));
    if (r.chance(0.05)) q.timeInForce = r.pick(['IOC', 'FOK', 'GTC']);
    return decorate(q);
  }
  const MUT: ((q: any, sp: Spec) => void)[] = [
    (q) => (q.price = `${q.price ?? '1'}${String(q.price ?? '').includes('.') ? '' : '.'}00001`),
    (q) => (q.size = `${q.size ?? '1'}${String(q.size ?? '').includes('.') ? '' : '.'}00001`),
    (q) => (q.size = r.pick(['0', '-1', 'abc', '1e3', '', ' 1', '0x10', '1.', '.5', '+1', '1'.repeat(40), '00.0'])),
    (q) => (q.price = r.pick(['', '0', '-5', 'NaN', '1e5', '9'.repeat(25), undefined])),
    (q) => (q.funds = '10'),
    (q, sp) => Object.assign(q, { type: 'market', size: sizeStr(sp, sp.minLots * 3), funds: fundsStr(sp, 3), price: undefined }),
    (q) => Object.assign(q, { type: 'market', size: undefined, funds: r.pick([undefined, '']), price: undefined }),
    (q) => (q.timeInForce = r.pick(['DAY', 'gtc', ''])),
    (q) => (q.stp = r.pick(['XX', 'dc'])),
    (q) => (q.side = r.pick(['BUY', 'hold', undefined])),
    (q) => (q.type = r.pick(['stop', 'LIMIT', undefined])),
    (q) => Object.assign(q, { timeInForce: 'GTT', cancelAfter: r.pick([undefined, 0, -5, 1.5, 2 ** 31, NaN]) }),
    (q) => Object.assign(q, { timeInForce: r.pick(['GTC', 'IOC', undefined]), cancelAfter: 10 }),
    (q) => Object.assign(q, { postOnly: true, timeInForce: r.pick(['IOC', 'FOK']) }),
    (q) => Object.assign(q, { hidden: true, iceberg: true, visibleSize: q.size }),
    (q) => Object.assign(q, { iceberg: true, visibleSize: r.pick([undefined, '', '0']) }),
    (q, sp) => Object.assign(q, { iceberg: true, visibleSize: sizeStr(sp, sp.maxLots + 5) }),
    (q) => (q.visibleSize = '1'),
    (q, sp) => Object.assign(q, { type: 'market', price: undefined, size: sizeStr(sp, sp.minLots), ...r.pick([{ postOnly: true }, { hidden: true }, { iceberg: true, visibleSize: '1' }, { cancelAfter: 5 }]) }),
    (q, sp) => Object.assign(q, { type: 'market', price: undefined, size: undefined, funds: fundsStr(sp, 5), stp: 'DC' }),
    (q) => (q.symbol = r.pick(['XXX-YYY', 'btc-usdt', ''])),
    (q, sp) => Object.assign(q, { type: 'market', price: undefined, size: undefined, funds: r.pick(['0', '-1', '0.0000000000000000001', 'abc', `${fmt(sp.qInc, sp.qs)}1`, '0.00001', '1'.repeat(35)]) }),
    (q, sp) => (q.price = fmt(2n ** 53n * sp.pInc, sp.ps)),
    (q, sp) => (q.size = fmt(2n ** 53n * sp.bInc, sp.bs)),
    (q, sp) => Object.assign(q, { price: fmt(BigInt(sp.mid * 1000) * sp.pInc, sp.ps), size: sizeStr(sp, sp.maxLots) }), // > quoteMaxSize
  ];
  function genInvalid(sp: Spec): any {
    const q = r.chance(0.7) ? genLimit(sp) : genMarket(sp);
    r.pick(MUT)(q, sp);
    return q;
  }
  function genId(): { uid: string; sym: string; id: string } {
    if (orders.length > 0 && r.chance(0.85)) {
      const rested = orders.filter((x) => x.rested);
      const o = r.chance(0.5) && rested.length ? r.pick(rested.slice(-20)) : r.chance(0.5) ? orders[orders.length - 1 - r.int(0, Math.min(15, orders.length - 1))] : r.pick(orders);
      const other = r.chance(0.15);
      return { uid: other ? r.pick(USERS) : o.uid, sym: r.chance(0.08) ? r.pick(specs).sym : o.sym, id: o.id };
    }
    const k = orders.length ? r.pick(orders) : { id: '6a5d0c000000000000000001', seq: 1 };
    const id = r.pick([`6a5d0c00${(k.seq + 1000).toString(16).padStart(16, '0')}`, k.id.toUpperCase().replace('6A5D0C00', '6a5d0c00'), `ffffffff${k.id.slice(8)}`, 'abc', '', `${k.id}0`, '6a5d0c00ffffffffffffffff', '6a5d0c00000000000000000g']);
    return { uid: r.pick(USERS), sym: r.pick(specs).sym, id };
  }
  function amountStr(cur: string, cls: number): string {
    const p = PREC.get(cur) ?? 2;
    const digits = DEP[cur]?.[cls] ?? 2;
    const v = r.next();
    if (v < 0.03) return r.pick(['0', '-1', 'abc', `1.${'1'.repeat(p + 1)}`, '1e3']);
    return fmt(r.big(Math.max(1, digits + p)), p);
  }
  function genCmd(): any {
    const off = specs.find((x) => enabled.get(x.sym) === false);
    if (off && r.chance(0.15)) return { op: 'setTradingEnabled', args: [off.sym, true] };
    const kind = r.pickW([['place', 30], ['market', 8], ['invalid', 6], ['validate', 3], ['ticks', 10], ['cancel', 8], ['cancelSeq', 4], ['cancelCoid', 3], ['cancelAll', 1.5], ['deposit', 2], ['transfer', 4], ['withdraw', 2.5], ['fees', 1], ['trading', 1], ['time', 10], ['query', 5], ['ladder', 2.5]]);
    const uid = pickUser();
    const sp = pickSpec();
    const cur = r.chance(0.03) ? 'XYZ' : r.pick(CURRENCIES)[0];
    switch (kind) {
      case 'place': return { op: 'placeOrder', args: [uid, genLimit(sp)] };
      case 'market': return { op: 'placeOrder', args: [uid, genMarket(sp)] };
      case 'invalid': return { op: 'placeOrder', args: [uid, genInvalid(sp)] };
      case 'validate': return { op: 'validateOrder', args: [uid, r.pick([genLimit, genMarket, genInvalid])(sp)] };
      case 'ticks': {
        const side = r.chance(0.5) ? 'buy' : 'sell';
        let ticks = genTicks(sp, side);
        let lots = genLots(sp);
        if (r.chance(0.04)) ticks = r.pick([0, -3, 1.5, NaN, Infinity, 2 ** 53]);
        if (r.chance(0.04)) lots = r.pick([0, -3, 2.5, NaN, 2 ** 53]);
        const args: any[] = [uid, r.chance(0.02) ? 'NOPE-X' : sp.sym, side, ticks, lots];
        if (r.chance(0.5)) {
          const o: any = { tif: r.pickW([['GTC', 4], ['IOC', 2], ['FOK', 2]]) };
          if (r.chance(0.25)) o.postOnly = true;
          if (r.chance(0.3)) o.clientOid = r.pick(COIDS);
          args.push(o);
        }
        return { op: 'placeLimitTicks', args };
      }
      case 'cancel': return ((x) => ({ op: 'cancelOrder', args: [x.uid, r.chance(0.02) ? 'NOPE-X' : x.sym, x.id] }))(genId());
      case 'cancelSeq': {
        if (orders.length === 0 || r.chance(0.1)) return { op: 'cancelSeq', args: [uid, r.pick([0, -1, 1.5, 1e12, NaN, orders.length + 5])] };
        const o = r.pick(orders);
        return { op: 'cancelSeq', args: [r.chance(0.8) ? o.uid : r.pick(USERS), o.seq] };
      }
      case 'cancelCoid': {
        const withCoid = orders.filter((o) => o.coid !== '' && o.rested).slice(-10);
        if (withCoid.length && r.chance(0.7)) {
          const o = r.pick(withCoid);
          return { op: 'cancelOrderByClientOid', args: [o.uid, r.chance(0.9) ? o.sym : sp.sym, o.coid] };
        }
        return { op: 'cancelOrderByClientOid', args: [uid, sp.sym, r.chance(0.95) ? r.pick(COIDS) : 'nope'] };
      }
      case 'cancelAll': return { op: 'cancelAll', args: [uid, r.chance(0.03) ? 'NOPE-X' : sp.sym] };
      case 'deposit': return { op: 'deposit', args: [uid, cur, amountStr(cur, r.int(1, 3))] };
      case 'transfer': {
        const dir: [string, string] = r.chance(0.05) ? r.pick([['main', 'main'], ['margin', 'trade'], ['trade', 'TRADE']] as [string, string][]) : r.chance(0.6) ? ['main', 'trade'] : ['trade', 'main'];
        return { op: 'transfer', args: [uid, cur, dir[0], dir[1], amountStr(cur, r.int(1, 3))] };
      }
      case 'withdraw': {
        const v = r.next();
        if (v < 0.4 || holds.length === 0) return { op: 'holdWithdrawal', args: [uid, cur, amountStr(cur, r.int(2, 3))] };
        const h = r.chance(0.9) ? r.pick(holds) : { id: 'wh999', amount: '1' };
        if (v < 0.7) return { op: 'releaseWithdrawal', args: [h.id] };
        const fee = r.pick(['0', h.amount, `${h.amount}1`, '-1', 'x', fmt(dec(h.amount) / 3n, 18), '0.000000000000000000001']);
        return { op: 'settleWithdrawal', args: [h.id, fee] };
      }
      case 'ladder': {
        // a maker quoting several passive levels at once: deep queues, same-level time priority, and
        // per-account Number hold sums that cross 2^53 units (flush paths)
        const side = r.chance(0.5) ? 'buy' : 'sell';
        const lots = sp.minLots * r.logInt(1, sp.cap);
        const cmds = Array.from({ length: r.int(3, 8) }, (_, i) => {
          const ticks = side === 'buy' ? sp.mid - Math.floor(i / 2) : sp.mid + Math.floor(i / 2);
          const q: any = { symbol: sp.sym, side, type: 'limit', price: fmt(BigInt(ticks) * sp.pInc, sp.ps), size: sizeStr(sp, lots + r.int(0, 3) * sp.minLots) };
          const kind = r.next();
          if (kind < 0.15) q.hidden = true;
          else if (kind < 0.2775) Object.assign(q, { iceberg: true, visibleSize: sizeStr(sp, Math.max(sp.minLots, Math.ceil(lots / 4))) });
          return { op: 'placeOrder', args: [uid === GHOST ? 'u0' : uid, q] };
        });
        return { op: 'batch', cmds };
      }
      case 'fees': return { op: 'setFeeRates', args: [uid, ...(r.chance(0.7) ? r.pick(RATES) : r.pick(BAD_RATES))] };
      case 'trading': {
        if (r.chance(0.05)) return { op: 'setTradingEnabled', args: ['NOPE-X', true] };
        const on = enabled.get(sp.sym) === true ? r.chance(0.1) : r.chance(0.9);
        return r.chance(0.75) ? { op: 'setTradingEnabled', args: [sp.sym, on] } : { op: 'addSymbol', args: [{ ...sp.rules, enableTrading: on }] };
      }
      case 'time': {
        // sometimes land exactly on (or 1 ms around) a GTT expiry or the 3-day history edge of a done order
        const v = r.next();
        const gtts = orders.filter((o) => o.expireAt !== undefined && o.expireAt >= clock.t - 1);
        const edges = orders.filter((o) => o.doneAt !== undefined && o.doneAt + 3 * DAY >= clock.t - 1);
        if (v < 0.2 && gtts.length > 0) {
          const o = r.pick(gtts);
          return { op: 'time', dt: Math.max(0, (o.expireAt as number) - clock.t + r.pick([-1, 0, 0, 1])), then: r.pick(['tick', 'none']), probe: o, edge: 'gttExpiry' };
        }
        if (v < 0.3 && edges.length > 0) {
          const o = r.pick(edges);
          return { op: 'time', dt: Math.max(0, (o.doneAt as number) + 3 * DAY - clock.t + r.pick([-1, 0, 0, 1])), then: 'none', probe: o, edge: 'historyEdge' };
        }
        const dt = r.pickW([[0, 3], [r.int(1, 999), 4], [r.int(1000, 60_000), 2.5], [r.int(60_000, 3_600_000), 1], [r.int(3 * DAY, 4 * DAY), 0.15]]);
        return { op: 'time', dt, then: r.pickW([['tick', 2], ['advanceTo', 1], ['advanceToPast', 0.3], ['none', 2]]) };
      }
      default: {
        const x = genId();
        const t = clock.t;
        return r.pickW<any>([
          [{ op: 'getOrder', args: [x.uid, x.sym, x.id] }, 3],
          [{ op: 'fills', args: [uid, { symbol: sp.sym, ...r.pick([{ orderId: x.id }, { lastId: r.int(1, 50), limit: r.int(0, 120) }, { side: 'sell', type: 'limit', startAt: t - 5000, endAt: t }, { startAt: t - 5 * DAY }]) }] }, 2],
          [{ op: 'level2', args: [sp.sym, r.int(0, 3)] }, 1],
          [{ op: 'doneOrders', args: [uid, sp.sym, { startAt: t - r.int(0, 4 * DAY), endAt: r.chance(0.5) ? undefined : t - r.int(0, 3600_000), limit: r.pick([undefined, 0, 1, 5, 500]) }] }, 2],
          [{ op: 'getOrderByClientOid', args: [uid, sp.sym, r.pick(COIDS)] }, 1],
          [{ op: 'trades', args: [sp.sym, t - r.int(0, 60_000)] }, 1],
          [{ op: 'accounts', args: [uid, { currency: cur, type: r.pick([undefined, 'main', 'trade']) }] }, 1],
          [{ op: 'orderIdOf', args: [r.int(0, 2 ** 40)] }, 0.3],
          [{ op: 'hasSymbol', args: [r.pick(['ETH-BTC', 'NOPE'])] }, 0.3],
        ]);
      }
    }
  }

  // ── coverage classification (from OLD's outputs, which equal NEW's) ──
  function classifyNew(v: any, kind: 'string' | 'ticks'): void {
    inc(`placed.${kind}`);
    if (!v) return;
    if (v.type === 'market') {
      const byFunds = v.funds !== '0';
      inc(byFunds ? 'market.funds' : 'market.size');
      if (v.dealSize !== '0') inc(byFunds ? 'market.funds.filled' : 'market.size.filled');
      if (byFunds && v.cancelledFunds !== '0' && v.dealFunds !== '0') inc('market.funds.partialStop');
      return;
    }
    const deal = v.dealSize !== '0';
    if (v.timeInForce === 'FOK') inc(deal ? 'fok.filled' : 'fok.killed');
    if (v.timeInForce === 'IOC' && deal && v.cancelledSize !== '0') inc('ioc.partial');
    if (v.postOnly) inc(v.inOrderBook && !deal ? 'postOnly.rested' : !v.active && !deal ? 'postOnly.cancelled' : 'postOnly.filledHiddenOrIceberg');
    if (v.hidden && v.inOrderBook) inc('hidden.rested');
    if (v.iceberg && v.inOrderBook) inc('iceberg.rested');
    if (v.timeInForce === 'GTT' && v.inOrderBook) inc('gtt.rested');
    if (deal && v.inOrderBook) inc('limit.partialThenRest');
  }
  function observe(v: any): void {
    if (v.timeInForce === 'GTT' && !v.active && v.cancelExist && v.lastUpdatedAt === v.createdAt + v.cancelAfter * 1000) sets.gttExpired.add(v.id);
    const o = byId.get(v.id);
    if (o) {
      o.expireAt = v.active && v.timeInForce === 'GTT' ? v.createdAt + v.cancelAfter * 1000 : undefined;
      o.doneAt = v.active ? undefined : v.lastUpdatedAt;
    }
    if (v.iceberg && dec(v.dealSize) >= dec(v.visibleSize) && (dec(v.remainSize) > 0n || dec(v.dealSize) > dec(v.visibleSize))) sets.icebergRefilled.add(v.id);
  }

  // ── full observable state ──
  function full(final: boolean): void {
    const t = clock.t;
    const many = (list: [string, any[]][]): void => list.forEach(([op, args]) => call(op, args));
    for (const { sym } of specs) many([['level2', [sym, 1]], ['level2', [sym, 100]], ['bestBidAsk', [sym]], ['sequence', [sym]], ['trades', [sym]], ['trades', [sym, t - 10_000]]]);
    many([['level2', ['NOPE-X', 5]], ['collectedFees', []], ['symbols', []], ['currencyList', []]]);
    for (const u of [...USERS, GHOST]) {
      many([['accounts', [u]], ['accounts', [u, { type: 'trade' }]], ['accounts', [u, { currency: 'BTC', type: 'main' }]], ['feeRates', [u]]]);
      for (const sp of specs) {
        const s = sp.sym;
        call('activeOrders', [u, s]);
        for (const q of [{}, { limit: 3 }, { startAt: t - 60_000 }, { startAt: t - 5 * DAY, endAt: t - 2000, limit: 50 }, { endAt: t - 3_600_000 }]) call('doneOrders', [u, s, q]);
        for (const limit of [100, 7]) {
          let lastId: number | undefined;
          for (let k = 0; k < 5000; k++) {
            const pg = ok(call('fills', [u, { symbol: s, lastId, limit }]));
            if (!pg) break;
            for (const f of pg.items) {
              if (f.fee.startsWith('-')) sets.rebateFills.add(`${u}:${f.id}`);
              if (f.forceTaker) sets.forceTakerFills.add(`${u}:${f.id}`);
            }
            if (pg.items.length < limit || pg.lastId === 0) break;
            lastId = pg.lastId;
          }
        }
        for (const q of [{ side: 'buy' }, { side: 'sell', type: 'market' }, { type: 'limit', limit: 20 }, { startAt: t - 30_000, endAt: t }]) call('fills', [u, { symbol: s, ...q }]);
        if (final || qr.chance(0.3)) for (const c of COIDS) call('getOrderByClientOid', [u, s, c]);
      }
    }
    for (const o of orders) {
      const v = call('getOrder', [o.uid, o.sym, o.id]);
      if ('ok' in v) {
        seenOk.add(o.id);
        observe(v.ok);
      } else if (seenOk.has(o.id)) sets.historyExpired.add(o.id);
      if (qr.chance(0.05)) call('getOrder', [qr.pick(USERS), o.sym, o.id]);
      if (qr.chance(0.05)) call('getOrder', [o.uid, qr.pick(specs).sym, o.id]);
      if (final || qr.chance(0.1)) call('fills', [o.uid, { symbol: o.sym, orderId: o.id }]);
    }
    for (const [ex, side] of [[exO, 'OLD'], [exN, 'NEW']] as const) {
      const res = exec(ex, 'checkInvariants', []);
      if ('err' in res) fail(`checkInvariants failed on ${side}`, 'checkInvariants', [], res, null);
    }
  }

  // ── setup ──
  for (const [c, p] of CURRENCIES) call('addCurrency', [{ currency: c, precision: p }]);
  for (const precision of [19, 1.5, -1]) call('addCurrency', [{ currency: 'BAD', precision }]);
  for (const sp of specs) call('addSymbol', [sp.rules]);
  const r0 = specs[0].rules;
  call('addSymbol', [{ ...r0, symbol: 'X-Y', baseCurrency: 'X', quoteCurrency: 'Y' }]);
  call('addSymbol', [{ ...r0, symbol: 'BTC-DUST', quoteCurrency: 'DUST', priceIncrement: '0.0000000001', baseIncrement: '0.000000001' }]);
  call('addSymbol', [{ ...r0, symbol: 'BTC-DUST', quoteCurrency: 'DUST', priceIncrement: '0' }]);
  for (const u of USERS) {
    if (u !== 'u3' || r.chance(0.5)) call('setFeeRates', [u, ...r.pick(RATES)]);
    for (const [c, p] of CURRENCIES) {
      const cls = u === 'u4' ? 0 : r.pickW([[1, 3], [2, 4], [3, 1]]);
      const amt = fmt(r.big(Math.max(1, DEP[c][cls] + p)), p);
      call('deposit', [u, c, amt]);
      const f = r.pick([1n, 1n, 1n, 2n, 10n, 0n]);
      if (f > 0n) call('transfer', [u, c, 'main', 'trade', fmt(scaled(amt)[0] / f, p)]);
    }
  }
  full(false);

  // ── random commands ──
  /** One engine call as a command: compare, count, then follow-up reads (all compared too). */
  function doCommand(c: any): void {
    const [uid, req] = c.args;
    // STP: remember the placer's own resting orders on the other side before the command
    let pre: any[] = [];
    const stp = c.op === 'placeOrder' && typeof req.stp === 'string' && req.stp !== '' ? req.stp : '';
    if (stp && bySym.has(req.symbol)) {
      const px = /^\d+(\.\d+)?$/.test(req.price ?? '') ? dec(req.price) : -1n;
      const crosses = (o: any): boolean => req.type === 'market' || (px > 0n && (req.side === 'buy' ? dec(o.price) <= px : dec(o.price) >= px));
      pre = (ok(call('activeOrders', [uid, req.symbol])) ?? []).filter((o: any) => o.side !== req.side && crosses(o));
    }
    const out = call(c.op, c.args);
    inc(`op.${c.op}.${'ok' in out ? 'ok' : 'err'}`);
    if ('err' in out) {
      const k = `${out.err.code ?? out.err.name} ${out.err.message.replace(/^\d+ /, '').slice(0, 70)}`;
      errs[k] = (errs[k] ?? 0) + 1;
      return;
    }
    if (c.op === 'placeOrder' || c.op === 'placeLimitTicks') {
      lastUser = uid;
      const sym = c.op === 'placeOrder' ? req.symbol : c.args[1];
      const id: string = c.op === 'placeOrder' ? out.ok.orderId : ok(call('orderIdOf', [out.ok]));
      const v = ok(call('getOrder', [uid, sym, id]));
      const rec: Ord = { id, seq: parseInt(id.slice(8), 16), uid, sym, coid: v?.clientOid ?? '', rested: v?.inOrderBook === true };
      orders.push(rec);
      byId.set(id, rec);
      classifyNew(v, c.op === 'placeOrder' ? 'string' : 'ticks');
      if (v) observe(v);
      if (stp && pre.length > 0) {
        let hit = false;
        for (const p of pre) {
          const a = ok(call('getOrder', [uid, sym, p.id]));
          if (a && dec(a.cancelledSize) > dec(p.cancelledSize)) {
            hit = true;
            if (stp === 'DC' && a.active) inc('stp.DC.makerPartiallyDecreased');
          }
        }
        // CN leaves the own order alone and cancels the incoming remainder
        if (stp === 'CN' && v && v.type === 'limit' && v.cancelledSize !== '0' && (v.timeInForce === 'GTC' || v.timeInForce === 'GTT')) hit = true;
        if (hit) inc(`stp.${stp}.triggered`);
        if (hit && stp === 'DC' && v && v.cancelledSize !== '0' && v.remainSize !== '0') inc('stp.DC.incomingPartiallyDecreased');
      }
    } else if (c.op === 'holdWithdrawal') holds.push({ id: out.ok, amount: c.args[2] });
    else if (c.op === 'settleWithdrawal' || c.op === 'releaseWithdrawal') holds.splice(holds.findIndex((h) => h.id === c.args[0]), 1);
    else if (c.op === 'setTradingEnabled') enabled.set(c.args[0], c.args[1]);
    else if (c.op === 'addSymbol') enabled.set(c.args[0].symbol, c.args[0].enableTrading);
  }
  for (step = 0; step < steps; step++) {
    for (const sp of specs) if (r.chance(0.08)) sp.mid = Math.max(sp.band * 4 + 10, sp.mid + r.int(-sp.band, sp.band));
    cmd = genCmd();
    if (TRACE) console.log(`step ${step} t=${clock.t} ${short(cmd, 800)}`);
    inc('commands');
    if (cmd.op === 'time') {
      clock.t += cmd.dt;
      if (cmd.dt >= 3 * DAY) inc('clock.jumps>3d');
      if (cmd.then === 'tick') call('tick', []);
      else if (cmd.then === 'advanceTo') call('advanceTo', [clock.t]);
      else if (cmd.then === 'advanceToPast') call('advanceTo', [clock.t - 5000]);
      if (cmd.probe) {
        const o: Ord = cmd.probe;
        inc(`clock.exactJumps.${cmd.edge}`);
        for (const [op, args] of [['getOrder', [o.uid, o.sym, o.id]], ['doneOrders', [o.uid, o.sym, {}]], ['fills', [o.uid, { symbol: o.sym }]], ['fills', [o.uid, { symbol: o.sym, orderId: o.id }]], ['level2', [o.sym, 100]]] as [string, any[]][]) call(op, args);
      }
    } else if (cmd.op === 'batch') {
      for (const c of cmd.cmds) doCommand(c);
    } else doCommand(cmd);
    if (step === SNAP_AT) {
      exN = reimport(NM, exN, { now: () => clock.t, bigIntOnly, ...NEW_OPTS });
      exN.onTrade((x: any) => trN.push(x));
      inc('snapshots.restored');
      full(false);
    }
    if ((step + 1) % every === 0) full(false);
  }
  step = steps;
  cmd = { op: 'final state comparison' };
  full(true);
  inc('orders.issued', orders.length);
  for (const [k, s] of Object.entries(sets)) inc(k, s.size);
}

// ───────────────────────────── benchmark streams ─────────────────────────────
type Stream = OrderStream;
/** Replay a stream through placeLimitTicks / cancelSeq (clock: T0 + 2i per order, +1 for its cancel) and
 * hash the observable end state. Checkpoints: digest of the top of book every 10,000 orders. */
function streamHash(mod: any, opts: Record<string, unknown>, s: Stream, cancels: boolean, n: number, snapAt = -1): { hash: string; sections: Record<string, string>; ms: number; trades: number; fills: number; active: number; cps: string[] } {
  const clock = { t: T0 };
  let ex = new mod.Exchange({ now: () => clock.t, ...opts });
  const uids = setUpBenchWorld(ex);
  let trades = 0;
  ex.onTrade(() => trades++);
  const seqs = new Float64Array(n);
  const cres = new Uint8Array(n);
  const errors: string[] = [];
  const cps: string[] = [];
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    clock.t = T0 + 2 * i;
    try {
      seqs[i] = ex.placeLimitTicks(uids[i % STREAM_USERS], SYM, s.side[i] === 0 ? 'buy' : 'sell', s.ticks[i], s.lots[i]);
    } catch (e: any) {
      seqs[i] = -1;
      errors.push(`${i} ${e?.message}`);
    }
    if (cancels && i >= WINDOW) {
      clock.t += 1;
      cres[i] = ex.cancelSeq(uids[(i - WINDOW) % STREAM_USERS], seqs[i - WINDOW]) ? 1 : 2;
    }
    if (i === snapAt) {
      ex = reimport(mod, ex, { now: () => clock.t, ...opts });
      ex.onTrade(() => trades++);
    }
    if (i % 10_000 === 9_999) cps.push(createHash('sha256').update(js([ex.level2(SYM, 10), IGNORE_SEQ ? '#' : ex.sequence(SYM), ex.collectedFees(), trades])).digest('hex').slice(0, 16));
  }
  const ms = performance.now() - t0;
  ex.checkInvariants();
  // one hash per section (so a mismatch says where), the overall hash over the section hashes
  const hs = new Map<string, ReturnType<typeof createHash>>();
  const put = (sec: string, x: unknown): void => {
    let h = hs.get(sec);
    if (!h) hs.set(sec, (h = createHash('sha256')));
    h.update(typeof x === 'string' || x instanceof Uint8Array ? x : js(x));
    h.update('\n');
  };
  put('returns', new Uint8Array(seqs.buffer));
  put('returns', cres);
  put('returns', js(errors));
  for (let i = 0; i < n; i += 97) if (seqs[i] > 0) put('getOrder/97', ex.getOrder(uids[i % 64], SYM, ex.orderIdOf(seqs[i])));
  let fills = 0;
  let active = 0;
  for (const uid of uids) {
    const act = ex.activeOrders(uid, SYM);
    active += act.length;
    put('activeOrders', act);
    put('doneOrders', ex.doneOrders(uid, SYM));
    put('accounts', ex.accounts(uid));
    let lastId: number | undefined;
    for (;;) {
      const pg = ex.fills(uid, { symbol: SYM, lastId, limit: 100 });
      fills += pg.items.length;
      put('fills', pg);
      if (pg.items.length < 100) break;
      lastId = pg.lastId;
    }
  }
  put('book', ex.level2(SYM, 1000));
  put('book', ex.bestBidAsk(SYM));
  put('book', IGNORE_SEQ ? '#' : ex.sequence(SYM));
  put('collectedFees', ex.collectedFees());
  put('trades', ex.trades(SYM));
  const sections = Object.fromEntries([...hs].map(([k, h]) => [k, h.digest('hex')]));
  const hash = createHash('sha256').update(js(sections)).digest('hex');
  return { hash, sections, ms, trades, fills, active, cps };
}
async function streams(OM: any, NM: any): Promise<void> {
  const n = Number(opt('n') ?? 1_000_000);
  const which = (opt('which') ?? 'ABL').toUpperCase();
  const gc = (globalThis as any).gc ?? ((): void => {});
  let allOk = true;
  for (const name of ['A', 'B', 'L']) {
    if (!which.includes(name)) continue;
    const p = STREAMS[name as keyof typeof STREAMS];
    const s = genStream(n, p.seed, p.aggressive, p.band, p.alternate);
    gc();
    const o = streamHash(OM, OLD_OPTS, s, p.cancels, n);
    gc();
    const w = streamHash(NM, NEW_OPTS, s, p.cancels, n, SNAP_AT >= 0 ? Math.floor(n / 2) : -1);
    gc();
    const same = o.hash === w.hash;
    allOk &&= same;
    const cp = o.cps.findIndex((c, i) => c !== w.cps[i]);
    console.log(`stream ${name}${p.cancels ? ' (+cancel i-10k)' : ''}${SNAP_AT >= 0 ? ` (new restored from its snapshot after order ${Math.floor(n / 2)})` : ''} N=${n}: trades ${o.trades}, fills ${o.fills} (new ${w.fills}), active at end ${o.active}; replay old ${o.ms.toFixed(0)} ms, new ${w.ms.toFixed(0)} ms`);
    console.log(`  old ${o.hash}\n  new ${w.hash}\n  ${same ? 'MATCH' : `MISMATCH${cp >= 0 ? ` (top-of-book checkpoints first differ after order ${(cp + 1) * 10_000})` : ''}`}`);
    if (!same) console.log(`  differing sections: ${Object.keys({ ...o.sections, ...w.sections }).filter((k) => o.sections[k] !== w.sections[k]).join(', ')}`);
  }
  console.log(`streams: ${allOk ? 'all hashes match' : 'HASH MISMATCH'}`);
  process.exit(allOk ? 0 : 1);
}

// ───────────────────────────── main ─────────────────────────────
/** Behaviours a run of a few dozen seeds must exercise (a zero is printed as a coverage warning). */
const REQUIRED = ['fills', 'fills.GIGA-MEGA', 'fills.ETH-DUST', 'fok.filled', 'fok.killed', 'ioc.partial', 'postOnly.rested', 'postOnly.cancelled', 'postOnly.filledHiddenOrIceberg', 'hidden.rested', 'icebergRefilled', 'gttExpired', 'historyExpired', 'market.funds.filled', 'market.funds.partialStop', 'market.size.filled', 'stp.DC.triggered', 'stp.DC.makerPartiallyDecreased', 'stp.DC.incomingPartiallyDecreased', 'stp.CO.triggered', 'stp.CN.triggered', 'stp.CB.triggered', 'rebateFills', 'forceTakerFills', 'seeds.bigIntOnly', 'clock.jumps>3d', 'clock.exactJumps.gttExpiry', 'clock.exactJumps.historyEdge', 'op.settleWithdrawal.ok', 'op.releaseWithdrawal.ok', 'op.cancelOrderByClientOid.ok', 'op.cancelSeq.ok', 'op.placeLimitTicks.ok', 'op.validateOrder.ok'];
async function main(): Promise<void> {
  if (OLD === '') {
    console.error('usage: OLD=<reference core index.ts> node --import tsx scripts/engine-diff.ts [options] (or: npm run engine:diff -- [--rev REV] [options])');
    process.exit(2);
  }
  // both cores bundled by esbuild into one scope each, as the sandbox ships them (bench/engineCore.ts; loading
  // a split core module by module through tsx would make it several times slower here)
  const OM = bundleCore(OLD);
  const NM = bundleCore(NEW);
  const optsOf = (o: Record<string, unknown>): string => (Object.keys(o).length ? ` ${JSON.stringify(o)}` : '');
  console.log(`old: ${OLD}${optsOf(OLD_OPTS)}\nnew: ${NEW}${optsOf(NEW_OPTS)}${NEW === OLD && js(OLD_OPTS) === js(NEW_OPTS) ? ' (same file: self-test)' : ''}`);
  if (opt('streams')) return streams(OM, NM);
  const seeds = parseSeeds(opt('seeds') ?? '1..200');
  const steps = Number(opt('steps') ?? 400);
  const every = Number(opt('every') ?? 20);
  const t0 = performance.now();
  for (const seed of seeds) runSeed(seed, steps, every, OM, NM);
  const secs = ((performance.now() - t0) / 1000).toFixed(1);
  console.log(`diff: ${seeds.length} seeds x ${steps} steps, ${cov.commands} commands compared, 0 divergences (${comparisons} calls compared in total, ${secs} s)`);
  console.log('coverage:');
  for (const k of Object.keys(cov).sort()) console.log(`  ${k.padEnd(40)} ${cov[k]}`);
  const byCode: Record<string, number> = {};
  for (const [k, v] of Object.entries(errs)) byCode[k.split(' ')[0]] = (byCode[k.split(' ')[0]] ?? 0) + v;
  console.log(`errors by code: ${Object.entries(byCode).map(([k, v]) => `${k}=${v}`).join(' ')}`);
  const zero = REQUIRED.filter((k) => !cov[k]);
  console.log(zero.length ? `COVERAGE WARNING: never exercised: ${zero.join(', ')}` : `coverage check: all ${REQUIRED.length} required behaviours exercised`);
  console.log('errors (code message → count):');
  for (const [k, v] of Object.entries(errs).sort((a, b) => b[1] - a[1])) console.log(`  ${String(v).padStart(6)}  ${k}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(2);
});
