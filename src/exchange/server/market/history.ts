/**
 * History from the first minute: the `market.history` command fast-forwards the agents over the past
 * (3 × 24 h by default) before a fresh sandbox listens, so that candles (1 minute to 1 week), the trade tape
 * and the 24 h statistics exist from the start and continue seamlessly into the live market (the scheduler
 * takes over the same model: {@link takeHistory}).
 *
 * One command, deterministic by its args (seed, profile, from, to): a replay after a crash before the first
 * snapshot rebuilds the same history; once a snapshot is written, the history lives in it (the `tape`
 * section: candles and recent trades; the core: the engine's trade tape and the bots' balances) and is pruned
 * by the 3 × 24 h retention like any history. The command runs the engine's clock through the past
 * (`setClock`), so every trade carries its own time.
 *
 * The distant past is stepped coarsely and written as candles only (it does not go through the engine);
 * the last `fineHistoryMs` run at live fidelity through the engine. Why (the ≤ 3 s budget), and how the
 * fair prices are anchored to the seeded books: docs/sandbox.md, "Market history at start".
 */
import type { MarketHost } from './host';
import { applyBatch, BatchBuilder, type BatchTarget } from './batch';
import { Executor, MAKER_LABEL_PREFIX, TRADER_LABEL, symbolSpec, type Bots, type SymbolSpec } from './executor';
import { MarketModel } from './model';
import { AGENT_PROFILES, type AgentProfile } from './profiles';
import { CANDLE_TYPES, candleStart, type CandleRow } from '../marketTape';
import type { CandleType } from '../../../api/schemas';

/** Step of the distant past, seconds. */
export const COARSE_STEP_S = 10;

/** Args of `market.history`. */
export interface MarketHistoryArgs {
  seed: number;
  profile: AgentProfile['name'];
  /** first ms of the history */
  from: number;
  /** ms where it ends (the live market starts) */
  to: number;
}

/** Result of `market.history`. */
export interface MarketHistoryResult {
  trades: number;
  symbols: number;
}

/** What the live scheduler continues from. */
export interface HistoryHandover {
  model: MarketModel;
  executor: Executor;
  specs: SymbolSpec[];
  profile: AgentProfile;
  seed: number;
  /** the clock (ms) where the history ended */
  end: number;
}

const handovers = new WeakMap<MarketHost, HistoryHandover>();

/** The model and executor the history of `state` ended with (once; undefined after a restart). */
export function takeHistory(state: MarketHost): HistoryHandover | undefined {
  const h = handovers.get(state);
  handovers.delete(state);
  return h;
}

/** The bots by label; throws when one is missing (they are created before the history). */
export function findBots(state: MarketHost, specs: readonly SymbolSpec[]): Bots {
  const byLabel = new Map<string, string>();
  for (const u of state.users.values()) byLabel.set(u.label, u.uid);
  const trader = byLabel.get(TRADER_LABEL);
  if (trader === undefined) throw new Error(`market.history: the bot ${TRADER_LABEL} does not exist`);
  const makers = new Map<string, string>();
  for (const s of specs) {
    const m = byLabel.get(`${MAKER_LABEL_PREFIX}${s.symbol}`);
    if (m === undefined) throw new Error(`market.history: the bot ${MAKER_LABEL_PREFIX}${s.symbol} does not exist`);
    makers.set(s.symbol, m);
  }
  return { trader, makers };
}

/** The symbols the agent-based market simulates: trading enabled and a reference price known. */
export function simulatedSpecs(state: MarketHost): SymbolSpec[] {
  const out: SymbolSpec[] = [];
  for (const info of state.world.symbols) {
    if (!info.enableTrading) continue;
    const s = symbolSpec(state, info);
    if (s) out.push(s);
  }
  return out;
}

/** The batch target of a state (what batch.ts needs). */
export function batchTarget(state: MarketHost): BatchTarget {
  return {
    exchange: state.exchange,
    baseIncrement: (s) => state.world.symbolMap.get(s)?.baseIncrement,
    isBot: (uid) => state.users.get(uid)?.label.startsWith('sim-') ?? false,
  };
}

/**
 * Apply `market.history` (inside MarketHost.exec; see module doc). `setClock(ms)` sets the engine's clock.
 * @throws Error on bad args or missing bots (nothing changed then).
 */
export function applyHistory(state: MarketHost, a: MarketHistoryArgs, setClock: (ms: number) => void): MarketHistoryResult {
  const profile = AGENT_PROFILES[a.profile];
  if (!profile) throw new Error(`market.history: unknown profile ${String(a.profile)}`);
  if (!Number.isSafeInteger(a.seed) || !Number.isSafeInteger(a.from) || !Number.isSafeInteger(a.to) || a.to <= a.from) throw new Error('market.history: bad seed, from or to');
  const specs = simulatedSpecs(state);
  const bots = findBots(state, specs);
  const model = new MarketModel(
    specs.map((s) => s.info),
    a.seed,
    profile,
  );
  // the distant past ends on a minute boundary: its candle rows are whole minutes, the fine part's trades start a new one
  const fineStart = Math.max(a.from, Math.floor((a.to - Math.min(profile.fineHistoryMs, a.to - a.from)) / 60_000) * 60_000);
  const coarseSteps = Math.floor((fineStart - a.from) / (COARSE_STEP_S * 1000));
  // 1. the distant past, prices only: x after each step, volume and count of marketable orders
  const n = specs.length;
  const xs = specs.map(() => new Float64Array(coarseSteps));
  const units = specs.map(() => new Float64Array(coarseSteps));
  const counts = specs.map(() => new Uint16Array(coarseSteps));
  const models = specs.map((s) => model.bySymbol.get(s.symbol) as NonNullable<ReturnType<typeof model.bySymbol.get>>);
  for (let k = 0; k < coarseSteps; k++) {
    model.step(COARSE_STEP_S, true);
    for (let i = 0; i < n; i++) {
      const m = models[i];
      xs[i][k] = m.x;
      units[i][k] = m.marketUnits;
      counts[i][k] = Math.min(65535, m.marketCount);
    }
  }
  // 2. anchors: the distant past ends at the world's reference prices, where world.seed put the seeded books
  //    (a cross pair: at its legs' ratio, ETH-BTC = ETH-USDT / BTC-USDT, which its arbitrageur keeps)
  for (let i = 0; i < n; i++) specs[i].anchorTicks *= Math.exp(-(coarseSteps > 0 ? xs[i][coarseSteps - 1] : 0));
  for (let i = 0; i < n; i++) {
    const legs = models[i].legs;
    if (!legs) continue;
    const base = specs.find((s) => s.symbol === legs[0].symbol) as SymbolSpec;
    const quote = specs.find((s) => s.symbol === legs[1].symbol) as SymbolSpec;
    specs[i].anchorTicks = (base.anchorTicks * base.inc) / (quote.anchorTicks * quote.inc) / specs[i].inc;
  }
  for (const s of specs) s.bpTicks = s.anchorTicks * 1e-4;
  // 3. the distant past's candles, from the prints of each minute (module doc)
  let trades = 0;
  for (let i = 0; i < n; i++) {
    const rows = pastCandles(specs[i], xs[i], units[i], counts[i], a.from);
    trades += rows.prints;
    if (rows.minutes.length > 0) state.tape.importHistory(specs[i].symbol, formatRows(specs[i], rows.minutes));
  }
  const unsubscribe = state.exchange.onTrade(() => void trades++);
  try {
    // 4. the last minutes at live fidelity
    const executor = new Executor(state, model, specs, bots, a.seed);
    const target = batchTarget(state);
    const dt = profile.tickMs / 1000;
    let t = fineStart;
    for (; t + profile.tickMs <= a.to; t += profile.tickMs) {
      setClock(t + profile.tickMs);
      model.step(dt);
      const b = new BatchBuilder();
      const refs = executor.plan(b);
      if (b.size > 0) executor.absorb(applyBatch(target, b.args), refs);
    }
    handovers.set(state, { model, executor, specs, profile, seed: a.seed, end: t });
  } finally {
    unsubscribe();
  }
  return { trades, symbols: n };
}

/** A candle row in numbers: start (s), prices in ticks, volume in lots, turnover in ticks × lots. */
interface NumRow {
  t: number;
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
  q: bigint;
}

/**
 * One symbol's 1-minute rows of the distant past (module doc): per minute with marketable orders, up to four
 * prints at the first, highest, lowest and last fair prices of its steps (in time order; as many as there
 * were orders), sharing the minute's volume.
 */
function pastCandles(spec: SymbolSpec, xs: Float64Array, units: Float64Array, counts: Uint16Array, from: number): { minutes: NumRow[]; prints: number } {
  const minutes: NumRow[] = [];
  let prints = 0;
  const stepMs = COARSE_STEP_S * 1000;
  const minuteOf = (k: number): number => Math.floor((from + k * stepMs + stepMs / 2) / 60_000) * 60;
  const idx: number[] = [];
  for (let k0 = 0; k0 < xs.length; ) {
    const t = minuteOf(k0);
    let k1 = k0;
    let count = 0;
    let vol = 0;
    let hi = k0;
    let lo = k0;
    for (; k1 < xs.length && minuteOf(k1) === t; k1++) {
      count += counts[k1];
      vol += units[k1];
      if (xs[k1] > xs[hi]) hi = k1;
      if (xs[k1] < xs[lo]) lo = k1;
    }
    if (count > 0) {
      idx.length = 0;
      for (const k of [k0, Math.min(hi, lo), Math.max(hi, lo), k1 - 1]) if (idx[idx.length - 1] !== k) idx.push(k);
      const ks = idx.slice(Math.max(0, idx.length - count));
      const lots = Math.max(spec.minLots, Math.round((vol * spec.unitLots) / ks.length));
      const row: NumRow = { t, o: 0, h: 0, l: Infinity, c: 0, v: 0, q: 0n };
      for (const k of ks) {
        const ticks = Math.max(1, Math.round(spec.anchorTicks * Math.exp(xs[k])));
        if (row.v === 0) row.o = ticks;
        row.c = ticks;
        if (ticks > row.h) row.h = ticks;
        if (ticks < row.l) row.l = ticks;
        row.v += lots;
        row.q += BigInt(ticks) * BigInt(lots);
        prints++;
      }
      minutes.push(row);
    }
    k0 = k1;
  }
  return { minutes, prints };
}

/** Every interval's rows from the 1-minute rows, as the tape keeps them (decimal strings). */
function formatRows(spec: SymbolSpec, minutes: readonly NumRow[]): Record<CandleType, CandleRow[]> {
  const pd = digits(spec.info.priceIncrement);
  const sd = digits(spec.info.baseIncrement);
  const pm = Number(pd.mul);
  const sm = Number(sd.mul);
  const px = (ticks: number): string => decimal(ticks * pm, pd.digits);
  const out = {} as Record<CandleType, CandleRow[]>;
  for (const type of CANDLE_TYPES) {
    const rows: NumRow[] = [];
    for (const m of minutes) {
      const start = type === '1min' ? m.t : candleStart(type, m.t);
      const last = rows[rows.length - 1];
      if (last === undefined || last.t !== start) rows.push({ t: start, o: m.o, h: m.h, l: m.l, c: m.c, v: m.v, q: m.q });
      else {
        last.c = m.c;
        if (m.h > last.h) last.h = m.h;
        if (m.l < last.l) last.l = m.l;
        last.v += m.v;
        last.q += m.q;
      }
    }
    out[type] = rows.map((r) => ({
      t: r.t,
      o: px(r.o),
      c: px(r.c),
      h: px(r.h),
      l: px(r.l),
      v: decimal(r.v * sm, sd.digits),
      q: decimal(r.q * pd.mul * sd.mul, pd.digits + sd.digits),
    }));
  }
  return out;
}

/** An increment as `mul × 10^−digits` (every seeded increment is 1, 2 or 5 times a power of ten, or any decimal). */
function digits(inc: string): { mul: bigint; digits: number } {
  const [i, f = ''] = inc.split('.');
  return { mul: BigInt((i + f).replace(/^0+/, '') || '0'), digits: f.length };
}

/** `units × 10^−digits` (a safe integer or a bigint) as a normalised decimal string (no trailing zeros), like the engine's. */
function decimal(units: bigint | number, digits: number): string {
  const neg = units < 0;
  let s = String(neg ? -units : units);
  if (digits > 0) {
    s = s.padStart(digits + 1, '0');
    let frac = s.slice(s.length - digits).replace(/0+$/, '');
    s = s.slice(0, s.length - digits) + (frac ? `.${frac}` : '');
    frac = '';
  }
  return neg ? `-${s}` : s;
}

