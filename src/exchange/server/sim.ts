/**
 * Market simulation of the sandbox exchange.
 *
 * Two bot users (a market maker and a taker) trade every simulated symbol around a hidden fair price
 * that follows a mean-reverting random walk, so books, tickers and fills move like a real market. Every
 * action is a `SandboxState` command (`state.run`), validated, journaled and replayed like any other;
 * a given seed and manual clock yield the same actions. The model, its parameters and its measured
 * cost: docs/sandbox.md, "Market simulation internals".
 */
import * as D from '../../api/decimal';
import { ExchangeError } from '../core';
import { CommandArgs, SandboxError, SandboxState, SIMULATION_LABEL_PREFIX, UserRecord, newKeyMaterial } from './state';
import { SymbolInfo, mulberry32, referencePrice } from './world';

/** Options of {@link startSimulation}. */
export interface SimulationOptions {
  /** PRNG seed (integer). */
  seed: number;
  /** Milliseconds between steps; 0 = no timer (drive it with {@link Simulation.step}). Default 1000. */
  intervalMs?: number;
  /** Symbols to simulate; default every symbol of the world with trading enabled. */
  symbols?: string[];
  /** Price levels the maker keeps on each side. Default 5. */
  levels?: number;
  /** Unexpected errors of a step (never thrown out of the timer). Default: ignored after the first log. */
  log?: (msg: string) => void;
  /** Accepted for compatibility with `startSandbox` (the sandbox clock is `state.now()`); unused. */
  now?: () => number;
}

/** A running simulation. */
export interface Simulation {
  /** Stop the timer. Idempotent. Bot users and their resting orders stay. */
  stop(): void;
  /** Run one step now (all symbols). Used by tests with `intervalMs: 0` and a manual clock. */
  step(): void;
  /** Steps run so far. */
  readonly steps: number;
  /** Bot commands the sandbox rejected (ExchangeError / SandboxError), e.g. while the status is not open. */
  readonly rejected: number;
  /** Message of the last rejection ('' when none). */
  readonly lastRejection: string;
  /** uids of the maker and taker bots. */
  readonly makerUid: string;
  readonly takerUid: string;
}

/** Labels of the bot users (UserRecord.label). */
export const SIM_MAKER_LABEL = `${SIMULATION_LABEL_PREFIX}maker`;
export const SIM_TAKER_LABEL = `${SIMULATION_LABEL_PREFIX}taker`;

interface SymState {
  rules: SymbolInfo;
  anchor: bigint;
  mid: bigint;
  halfSpread: bigint;
  spacing: bigint;
  /** Minimum order size in lots (baseIncrement units) at the anchor price. */
  minLots: bigint;
}

const MAX_CANCELS_PER_STEP = 6;
const MAX_PLACES_PER_SIDE = 2;
const TAKER_PROBABILITY = 0.5;
/** Share of taker orders that take the whole best opposite level (capped at 1000 × the unit size). */
const SWEEP_PROBABILITY = 0.4;
const TOPUP_EVERY = 10;
/** Probability that a symbol's bots act in a step (the fair mid moves every step regardless). */
const ACT_PROBABILITY = 0.4;

/**
 * Start the market simulation on `state` (see the module doc). Creates the bot users on first use
 * (journaled), then steps every `intervalMs` on an unref'd timer.
 * @throws SandboxError / ExchangeError only if the bot users cannot be created.
 */
export function startSimulation(state: SandboxState, opts: SimulationOptions): Simulation {
  const rnd = mulberry32(opts.seed);
  const levels = opts.levels ?? 5;
  const log = opts.log ?? (() => undefined);
  const wanted = opts.symbols ? new Set(opts.symbols) : null;
  const syms: SymState[] = [];
  for (const r of state.world.symbols) {
    if (!r.enableTrading || (wanted && !wanted.has(r.symbol))) continue;
    const s = initSymbol(state, r);
    if (s) syms.push(s);
  }

  const needs = workingNeeds(syms, levels);
  const maker = findOrCreateBot(state, SIM_MAKER_LABEL, needs);
  const taker = findOrCreateBot(state, SIM_TAKER_LABEL, needs);
  let steps = 0;
  let rejected = 0;
  let lastRejection = '';
  let loggedErrors = 0;

  const gauss = (): number => {
    // Box–Muller
    const u = 1 - rnd();
    const v = rnd();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  };
  const randInt = (lo: number, hi: number): number => lo + Math.floor(rnd() * (hi - lo + 1));

  /** Run a command; business rejections (status cancelonly/close, balance…) are expected and skipped. */
  const run = <O extends 'order.place' | 'order.cancel' | 'funds.grant'>(op: O, args: CommandArgs<O>): unknown => {
    try {
      return state.run(op, args);
    } catch (e) {
      if (e instanceof ExchangeError || e instanceof SandboxError) {
        rejected++;
        lastRejection = `${op}: ${e.code} ${e.msg}`;
        return undefined;
      }
      throw e;
    }
  };

  const sizeLots = (s: SymState, lo: number, hi: number): bigint => {
    const k = Math.floor(Math.exp(Math.log(lo) + rnd() * (Math.log(hi) - Math.log(lo))));
    return s.minLots * BigInt(Math.max(1, k));
  };

  /** The fair mid's mean-reverting random walk (ticks); runs every step for every symbol. */
  const walk = (s: SymState): bigint => {
    const sigma = Number(s.mid) * 0.0005;
    const drift = 0.05 * Number(s.anchor - s.mid);
    let mid = s.mid + BigInt(Math.round(sigma * gauss() + drift));
    const floor = s.halfSpread + s.spacing * BigInt(levels + 2) + 1n;
    if (mid < floor) mid = floor;
    s.mid = mid;
    return mid;
  };

  const stepSymbol = (s: SymState): void => {
    const inc = s.rules.priceIncrement;
    // 1. fair mid
    const mid = walk(s);

    // 2. maker: cancel stale quotes
    const own = state.exchange.activeOrders(maker.uid, s.rules.symbol);
    const far = s.halfSpread + s.spacing * BigInt(levels + 2);
    const stale: string[] = [];
    let keep: { id: string; side: 'buy' | 'sell'; ticks: bigint }[] = [];
    for (const o of own) {
      const t = toTicks(o.price, inc);
      const wrong = o.side === 'buy' ? t > mid - s.halfSpread : t < mid + s.halfSpread;
      const tooFar = o.side === 'buy' ? mid - t > far : t - mid > far;
      if (wrong || tooFar) stale.push(o.id);
      else keep.push({ id: o.id, side: o.side, ticks: t });
    }
    for (const side of ['buy', 'sell'] as const) {
      // keep at most levels + 2 quotes per side: drop the ones farthest from the mid
      const mine = keep.filter((k) => k.side === side).sort((x, y) => (absDiff(x.ticks, mid) < absDiff(y.ticks, mid) ? -1 : 1));
      for (const extra of mine.slice(levels + 2)) stale.push(extra.id);
      if (mine.length > levels + 2) keep = keep.filter((k) => !stale.includes(k.id));
    }
    if (stale.length < MAX_CANCELS_PER_STEP && keep.length > 0 && rnd() < 0.2) {
      const victim = keep[randInt(0, keep.length - 1)]; // churn: requote a random level
      stale.push(victim.id);
      keep = keep.filter((k) => k.id !== victim.id);
    }
    for (const id of stale.slice(0, MAX_CANCELS_PER_STEP)) {
      run('order.cancel', { uid: maker.uid, symbol: s.rules.symbol, orderId: id });
    }

    // 3. maker: refill missing levels without crossing the book
    let book = state.exchange.level2(s.rules.symbol, 1);
    const bestBid = book.bids.length ? toTicks(book.bids[0][0], inc) : null;
    const bestAsk = book.asks.length ? toTicks(book.asks[0][0], inc) : null;
    for (const side of ['buy', 'sell'] as const) {
      let placed = 0;
      for (let i = 0; i < levels && placed < MAX_PLACES_PER_SIDE; i++) {
        const off = s.halfSpread + s.spacing * BigInt(i);
        const ticks = side === 'buy' ? mid - off : mid + off;
        if (ticks <= 0n) continue;
        if (keep.some((k) => k.side === side && k.ticks === ticks)) continue;
        if (side === 'buy' && bestAsk !== null && ticks >= bestAsk) continue;
        if (side === 'sell' && bestBid !== null && ticks <= bestBid) continue;
        const size = fromLots(sizeLots(s, 1, 100), s.rules.baseIncrement);
        run('order.place', {
          uid: maker.uid,
          req: { symbol: s.rules.symbol, side, type: 'limit', price: fromTicks(ticks, inc), size, timeInForce: 'GTC', postOnly: true, remark: 'sim' },
        });
        placed++;
      }
    }

    // 4. taker: cross occasionally, leaning towards the fair mid
    if (rnd() < TAKER_PROBABILITY) {
      book = state.exchange.level2(s.rules.symbol, 1);
      if (book.bids.length && book.asks.length) {
        const bid = toTicks(book.bids[0][0], inc);
        const ask = toTicks(book.asks[0][0], inc);
        const bookMid2 = bid + ask; // 2 × book mid
        const lean = Number(2n * mid - bookMid2) / Math.max(1, Number(s.halfSpread * 4n));
        const side = rnd() < 0.5 + Math.max(-0.4, Math.min(0.4, lean)) ? 'buy' : 'sell';
        const level = side === 'buy' ? book.asks[0] : book.bids[0];
        let lots = sizeLots(s, 1, 20);
        if (rnd() < SWEEP_PROBABILITY) {
          const levelLots = BigInt(D.divDown(level[1], s.rules.baseIncrement, 0));
          lots = levelLots < s.minLots * 1000n ? levelLots : s.minLots * 1000n;
          if (lots < s.minLots) lots = s.minLots;
        }
        const size = fromLots(lots, s.rules.baseIncrement);
        run('order.place', {
          uid: taker.uid,
          req: {
            symbol: s.rules.symbol,
            side,
            type: 'limit',
            price: level[0],
            size,
            timeInForce: 'IOC',
            remark: 'sim',
          },
        });
      }
    }
  };

  const topUp = (): void => {
    for (const bot of [maker, taker]) {
      for (const [currency, need] of needs) {
        const acc = state.exchange.accounts(bot.uid, { currency, type: 'trade' })[0];
        const available = acc ? String(acc.available) : '0';
        if (D.cmp(available, D.mul(need, '5')) < 0) {
          run('funds.grant', { uid: bot.uid, currency, type: 'trade', amount: D.mul(need, '20') });
        }
      }
    }
  };

  const step = (): void => {
    steps++;
    if (state.status.status !== 'open') return;
    try {
      if (steps % TOPUP_EVERY === 1) topUp(); // the first step, then every TOPUP_EVERY steps
      for (const s of syms) {
        if (rnd() < ACT_PROBABILITY) stepSymbol(s);
        else walk(s);
      }
    } catch (e) {
      if (loggedErrors++ < 3) log(`market simulation step failed: ${(e as Error).stack ?? String(e)}`);
    }
  };

  const intervalMs = opts.intervalMs ?? 1000;
  let timer: NodeJS.Timeout | null = null;
  if (intervalMs > 0) {
    timer = setInterval(step, intervalMs);
    timer.unref();
  }
  return {
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
    step,
    get steps() {
      return steps;
    },
    get rejected() {
      return rejected;
    },
    get lastRejection() {
      return lastRejection;
    },
    makerUid: maker.uid,
    takerUid: taker.uid,
  };
}

function absDiff(a: bigint, b: bigint): bigint {
  return a > b ? a - b : b - a;
}

function toTicks(price: string, inc: string): bigint {
  return BigInt(D.divDown(price, inc, 0));
}

function fromTicks(ticks: bigint, inc: string): string {
  return D.mul(ticks.toString(), inc);
}

function fromLots(lots: bigint, inc: string): string {
  return D.mul(lots.toString(), inc);
}

/**
 * Per-symbol parameters: the anchor is the book's mid (or the world's reference price when a side is
 * empty); the unit order size is worth about 20 USD (at least baseMinSize and 2 × the minimum funds).
 * Null when no price is known.
 */
function initSymbol(state: SandboxState, r: SymbolInfo): SymState | null {
  const inc = r.priceIncrement;
  const book = state.exchange.level2(r.symbol, 1);
  const bid = book.bids.length ? toTicks(book.bids[0][0], inc) : null;
  const ask = book.asks.length ? toTicks(book.asks[0][0], inc) : null;
  let mid: bigint | null = bid !== null && ask !== null ? (bid + ask) / 2n : null;
  if (mid === null) {
    const ref = referencePrice(state.world, r);
    mid = ref ? toTicks(ref, inc) : (bid ?? ask);
  }
  if (mid === null || mid <= 0n) return null;
  const bps = (n: number): bigint => {
    const v = BigInt(Math.round((Number(mid) * n) / 10_000));
    return v > 0n ? v : 1n;
  };
  const price = fromTicks(mid, inc);
  const lotsFor = (size: string): bigint => BigInt(D.roundUp(D.divDown(size, r.baseIncrement, 8), '1'));
  const minFunds = D.max(r.quoteMinSize, r.minFunds || '0');
  const candidates = [1n, lotsFor(r.baseMinSize), lotsFor(D.divDown(D.mul(minFunds, '2'), price, 18))];
  const baseUsd = state.world.usdPrices.get(r.baseCurrency);
  if (baseUsd && !D.isZero(baseUsd)) candidates.push(lotsFor(D.divDown('20', baseUsd, 18)));
  const minLots = candidates.reduce((a, b) => (a > b ? a : b));
  return { rules: r, anchor: mid, mid, halfSpread: bps(2), spacing: bps(3), minLots };
}

/**
 * Working need per currency: what the maker's quotes on all levels could hold at twice the anchor
 * price (decimal strings, rounded up to whole units so grants are valid at any currency precision).
 */
function workingNeeds(syms: SymState[], levels: number): Map<string, string> {
  const needs = new Map<string, string>();
  const bump = (c: string, v: string) => needs.set(c, D.add(needs.get(c) ?? '0', v));
  for (const s of syms) {
    const maxSize = fromLots(s.minLots * 100n, s.rules.baseIncrement);
    const perSide = D.mul(maxSize, String(levels + 2));
    bump(s.rules.baseCurrency, perSide);
    bump(s.rules.quoteCurrency, D.mul(D.mul(perSide, fromTicks(s.anchor, s.rules.priceIncrement)), '2'));
  }
  for (const [c, v] of needs) needs.set(c, D.roundUp(v, '1'));
  return needs;
}

function findOrCreateBot(state: SandboxState, label: string, needs: Map<string, string>): UserRecord {
  for (const u of state.users.values()) if (u.label === label) return u;
  return state.run('user.create', {
    ...newKeyMaterial(),
    keyVersion: '2',
    permissions: [],
    takerFeeRate: '0',
    makerFeeRate: '0',
    label,
    balances: [...needs].map(([currency, need]) => ({ currency, type: 'trade' as const, amount: D.mul(need, '20') })),
  }) as UserRecord;
}
