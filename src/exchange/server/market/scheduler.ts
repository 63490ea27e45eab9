/**
 * The live agent-based market: every `tickMs` of the sandbox clock (75 ms by default) the model steps once
 * and the step's orders go to the engine as ONE journaled `market.batch` command (batch.ts), through
 * `SandboxState.run` like any API request. That is one journal record, one ledger flush and, per symbol
 * whose book changed, one level-2 message of the WebSocket feed per step.
 *
 * Start: on a fresh state dir the scheduler continues the history's model and executor (history.ts
 * {@link takeHistory}); after a restart it starts a new model (the seed mixed with the clock, anchored at
 * each book's mid price or last trade) and first cancels the bots' resting orders, so the agents begin
 * with a clean slate. Agents keep no state across restarts: a restart is a new day for them, not a replay.
 *
 * Determinism: with a manual clock and `intervalMs: 0` (tests call {@link MarketSimulation.step}), the
 * same seed and the same commands give the same batches (the step length is fixed, whatever the timer's
 * jitter). The bots are topped up (`funds.grant`) every {@link TOPUP_EVERY} steps when a balance fell
 * below a quarter of its grant; steps are skipped while the service status is not `open`.
 */
import * as D from '../../../api/decimal';
import { ExchangeError } from '../../core';
import { newKeyMaterial, SandboxError, type BalanceGrant, type SandboxState } from '../state';
import { BatchBuilder, type MarketBatchResult } from './batch';
import { Executor, MAKER_LABEL_PREFIX, TRADER_LABEL, symbolSpec, type Bots, type SymbolSpec } from './executor';
import { simulatedSpecs, takeHistory } from './history';
import { MarketModel } from './model';
import { StepTimer, type StepCounters } from './stepTimer';
import { AGENT_PROFILES, type AgentProfile } from './profiles';

/** Balances a bot starts with (and is topped up to): `units` unit sizes of each currency it trades, per symbol. */
export function botGrants(state: SandboxState, specs: readonly SymbolSpec[], units: number): BalanceGrant[] {
  const need = new Map<string, string>();
  const add = (c: string, v: string): void => void need.set(c, D.add(need.get(c) ?? '0', v));
  for (const s of specs) {
    const base = D.mul(String(s.unitLots * units), s.info.baseIncrement);
    add(s.info.baseCurrency, base);
    add(s.info.quoteCurrency, D.mul(D.mul(base, D.mul(String(Math.round(s.anchorTicks)), s.info.priceIncrement)), '3'));
  }
  return [...need].map(([currency, v]) => {
    const prec = state.world.currencyMap.get(currency)?.precision ?? 8;
    return { currency, type: 'trade' as const, amount: D.roundUp(D.add(v, '1'), D.precisionIncrement(prec)) };
  });
}

/** Unit sizes per symbol the trader and the makers start with. */
export const TRADER_UNITS = 400_000;
export const MAKER_UNITS = 100_000;

/**
 * Find the bots by label, creating the missing ones with `user.create` at clock `t` (journaled).
 * Random key material: nobody is given these keys.
 */
export function ensureBots(state: SandboxState, specs: readonly SymbolSpec[], t: number, keys: () => { apiKey: string; apiSecret: string; apiPassphrase: string }): Bots {
  const byLabel = new Map<string, string>();
  for (const u of state.users.values()) byLabel.set(u.label, u.uid);
  const create = (label: string, grants: BalanceGrant[]): string => {
    const found = byLabel.get(label);
    if (found) return found;
    const u = state.exec({
      op: 'user.create',
      t,
      args: { ...keys(), keyVersion: '2', permissions: [], takerFeeRate: '0', makerFeeRate: '0', label, balances: grants },
    }) as { uid: string };
    return u.uid;
  };
  const trader = create(TRADER_LABEL, botGrants(state, specs, TRADER_UNITS));
  const makers = new Map<string, string>();
  for (const s of specs) makers.set(s.symbol, create(`${MAKER_LABEL_PREFIX}${s.symbol}`, botGrants(state, [s], MAKER_UNITS)));
  return { trader, makers };
}

/** Steps between two balance checks of the bots. */
export const TOPUP_EVERY = 2000;

/** Options of {@link startMarket}. */
export interface MarketOptions {
  seed: number;
  profile: AgentProfile['name'];
  /** ms between steps; 0 = no timer (tests drive {@link MarketSimulation.step}). Default the profile's tickMs. */
  intervalMs?: number;
  /** unexpected errors (logged at most 3 times) */
  log?: (line: string) => void;
}

/** A running agent-based market. */
export interface MarketSimulation {
  /** Stop the timer (idempotent). The bots and their orders stay. */
  stop(): void;
  /** Run one step now. */
  step(): void;
  readonly steps: number;
  /** Actions the engine rejected (post-only quotes that would take, …), and the last reason. */
  readonly rejected: number;
  readonly lastRejection: string;
  readonly bots: Bots;
  readonly model: MarketModel;
  /** Fair price of a symbol in ticks (tests). */
  fairTicks(symbol: string): number;
}

/** Start the live market on `state` (see module doc). Creates the bots when missing (journaled). */
export function startMarket(state: SandboxState, opts: MarketOptions): MarketSimulation {
  const profile = AGENT_PROFILES[opts.profile];
  const log = opts.log ?? (() => undefined);
  const handover = takeHistory(state);
  let model: MarketModel;
  let executor: Executor;
  let specs: SymbolSpec[];
  let bots: Bots;
  const first = new BatchBuilder();
  if (handover) {
    ({ model, executor, specs } = handover);
    bots = executor.bots;
  } else {
    specs = [];
    for (const s of simulatedSpecs(state)) {
      const mid = bookPriceTicks(state, s);
      const spec = mid ? symbolSpec(state, s.info, mid) : s;
      if (spec) specs.push(spec);
    }
    bots = ensureBots(state, specs, state.now(), newKeyMaterial);
    const seed = (opts.seed ^ Math.floor(state.now() / 1000)) >>> 0;
    model = new MarketModel(
      specs.map((s) => s.info),
      seed,
      profile,
    );
    executor = new Executor(state, model, specs, bots, seed);
    executor.cancelAll(first);
  }
  const grants = new Map<string, Map<string, string>>();
  grants.set(bots.trader, new Map(botGrants(state, specs, TRADER_UNITS).map((g) => [g.currency, g.amount])));
  for (const s of specs) grants.set(bots.makers.get(s.symbol) as string, new Map(botGrants(state, [s], MAKER_UNITS).map((g) => [g.currency, g.amount])));

  const c: StepCounters = { steps: 0, rejected: 0, lastRejection: '' };
  let logged = 0;
  const dt = profile.tickMs / 1000;

  const runBatch = (b: BatchBuilder): MarketBatchResult | undefined => {
    if (b.size === 0) return undefined;
    const r = state.run('market.batch', b.args);
    c.rejected += r.rejected;
    if (r.firstRejection) c.lastRejection = r.firstRejection;
    return r;
  };

  const topUp = (): void => {
    for (const [uid, need] of grants) {
      for (const [currency, amount] of need) {
        const acc = state.exchange.accounts(uid, { currency, type: 'trade' })[0];
        if (D.cmp(acc ? String(acc.available) : '0', D.divDown(amount, '4', 18)) >= 0) continue;
        try {
          state.run('funds.grant', { uid, currency, type: 'trade', amount });
        } catch (e) {
          if (!(e instanceof ExchangeError || e instanceof SandboxError)) throw e;
        }
      }
    }
  };

  const step = (): void => {
    if (state.status.status !== 'open') return;
    try {
      if (first.size > 0) {
        runBatch(first);
        first.args.a.length = 0;
      }
      c.steps++;
      if (c.steps % TOPUP_EVERY === 1) topUp();
      model.step(dt);
      const b = new BatchBuilder();
      const refs = executor.plan(b);
      const r = runBatch(b);
      if (r) executor.absorb(r, refs);
    } catch (e) {
      if (logged++ < 3) log(`market simulation step failed: ${(e as Error).stack ?? String(e)}`);
    }
  };

  return Object.assign(new StepTimer(step, opts.intervalMs ?? profile.tickMs, c), { bots, model, fairTicks: (symbol: string) => executor.fairTicks(symbol) });
}

/** The book's mid price (or the last trade's) in ticks, when the symbol has either. */
function bookPriceTicks(state: SandboxState, s: SymbolSpec): number | undefined {
  const b = state.exchange.bestBidAsk(s.symbol);
  if (b.bestBid !== null && b.bestAsk !== null) return Math.round((Number(b.bestBid) + Number(b.bestAsk)) / 2 / s.inc);
  const t = state.exchange.trades(s.symbol);
  return t.length ? Math.round(Number(t[t.length - 1].price) / s.inc) : undefined;
}

/**
 * On a fresh state: seed the world's books (`world.seed`), create the bots and run `market.history` over the
 * profile's history window ending at `now`, all at the window's start (journaled; see history.ts).
 * @returns the time it took, ms, and the trades of the history.
 */
export function buildMarketHistory(state: SandboxState, opts: { seed: number; profile: AgentProfile['name']; now: number }): { ms: number; trades: number } {
  const profile = AGENT_PROFILES[opts.profile];
  const from = opts.now - profile.historyMs;
  const t0 = performance.now();
  if (!state.isSeeded) state.exec({ op: 'world.seed', t: from, args: { seed: opts.seed } });
  ensureBots(state, simulatedSpecs(state), from, newKeyMaterial);
  const r = state.exec({ op: 'market.history', t: from, args: { seed: opts.seed, profile: opts.profile, from, to: opts.now } }) as { trades: number };
  return { ms: performance.now() - t0, trades: r.trades };
}
