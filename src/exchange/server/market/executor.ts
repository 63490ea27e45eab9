/**
 * From the model's intents to engine orders: the bot users, each symbol's price and size grid, and the
 * per-step plan of a `market.batch` (batch.ts) that the live scheduler journals and the history's last
 * minutes apply directly.
 *
 * Bots are users labelled `sim-…` (no history, no ledger): one market maker per symbol (`sim-mm-<SYMBOL>`, its
 * base balance is its inventory) and one `sim-trader` for every other agent, topped up (`funds.grant`) when one
 * runs low. A symbol's fair price in ticks is `anchorTicks · e^x` (x from model.ts); a unit size is worth about
 * {@link UNIT_USD}; sizes round to whole lots, prices to whole ticks. Per step and symbol
 * ({@link Executor.plan}), in this order: the maker's inventory hedge ({@link HEDGE_UNITS}), marketable intents
 * (IOC within {@link PROTECTION_BP} of the fair price), limit and cancel intents ({@link MAX_RESTING}), the
 * arbitrageur's check, then the maker's re-quote. Each step of the plan: docs/sandbox.md
 * "Agent market executor (`market/executor.ts`)".
 */
import * as D from '../../../api/decimal';
import type { MarketHost } from './host';
import { referencePrice, type SymbolInfo } from '../world';
import { BatchBuilder, BatchOp, type MarketBatchResult } from './batch';
import { requote, type MakerParams, type RestingQuote } from './marketMaker';
import type { MarketModel, SymbolModel } from './model';
import { MAJORS, MINOR_SPREAD_BP } from './profiles';
import { INTENT_STRIDE } from './model';
import { Rng } from './rng';
import { AgentKind, IntentKind } from './types';

/** Label of the trader bot. */
export const TRADER_LABEL = 'sim-trader';
/** Label prefix of the makers (`sim-mm-BTC-USDT`). */
export const MAKER_LABEL_PREFIX = 'sim-mm-';
/** A unit size is worth about this many USD (majors; the others a third of it). */
export const UNIT_USD = 120;
/** Marketable orders are limited this many basis points through the fair price. */
export const PROTECTION_BP = 25;
/** Resting orders the trader keeps per symbol at most (older ones are cancelled). */
export const MAX_RESTING = 30;
/** A maker over its inventory limit trades out at most this many unit sizes at a time, about this often per second. */
export const HEDGE_UNITS = 40;
export const HEDGES_PER_SECOND = 2;
/** A maker picks off others' orders left through the fair price (up to this many unit sizes) when the fair price moved by a spread, and every PICK_OFF_EVERY steps. */
export const PICK_OFF_UNITS = 60;
export const PICK_OFF_EVERY = 16;
/** Quote refreshes per second of a maker at activity 1 (one near quote replaced with a new size: queue churn). */
export const REFRESH_PER_SECOND = 8;
/** Steps between two reads of a maker's inventory. */
export const INVENTORY_EVERY = 8;
/** Steps between two arbitrage checks of the real books. */
export const ARB_CHECK_EVERY = 4;

/** A symbol's grid and maker parameters. */
export interface SymbolSpec {
  info: SymbolInfo;
  symbol: string;
  /** priceIncrement as a number (to read engine prices into ticks) */
  inc: number;
  /** fair price in ticks at x = 0 */
  anchorTicks: number;
  /** ticks per basis point at the anchor */
  bpTicks: number;
  unitLots: number;
  minLots: number;
  maker: MakerParams;
}

/** Lots (baseIncrements) of a decimal size, rounded up. */
function lotsOf(size: string, inc: string): number {
  return Number(D.roundUp(D.divDown(size, inc, 8), '1'));
}

/**
 * The grid of a symbol: anchored at `priceTicks` (default the world's reference price; the history anchors
 * at its own start). Null when the symbol has no price.
 */
export function symbolSpec(state: MarketHost, info: SymbolInfo, priceTicks?: number): SymbolSpec | null {
  const ref = referencePrice(state.world, info);
  const anchorTicks = priceTicks ?? (ref ? Number(D.divDown(ref, info.priceIncrement, 0)) : 0);
  if (!(anchorTicks > 0)) return null;
  const price = D.mul(String(Math.round(anchorTicks)), info.priceIncrement);
  const minFunds = D.max(info.quoteMinSize, info.minFunds || '0');
  const minLots = Math.max(1, lotsOf(info.baseMinSize, info.baseIncrement), lotsOf(D.divDown(D.mul(minFunds, '2'), price, 18), info.baseIncrement));
  const baseUsd = state.world.usdPrices.get(info.baseCurrency);
  const major = MAJORS.has(info.symbol);
  const usd = major ? UNIT_USD : UNIT_USD / 3;
  const unitLots = Math.max(minLots, baseUsd && !D.isZero(baseUsd) ? lotsOf(D.divDown(String(usd), baseUsd, 18), info.baseIncrement) : minLots);
  const bpTicks = anchorTicks * 1e-4;
  const ticks = (bp: number, min: number): number => Math.max(min, Math.round(bp * bpTicks));
  const maker: MakerParams = {
    spreadTicks: major ? 1 : ticks(MINOR_SPREAD_BP, 1),
    nearLevels: 5,
    nearSpacingTicks: major ? 1 : ticks(1.5, 1),
    farLevels: 8,
    farGridTicks: ticks(4, 2),
    levelUnits: major ? 20 : 8,
    skewTicksPerUnit: 0.002 * bpTicks,
    maxInventoryUnits: 300,
    refreshPerSecond: 0,
  };
  return { info, symbol: info.symbol, inc: Number(info.priceIncrement), anchorTicks, bpTicks, unitLots, minLots, maker };
}

/** The bot users: the trader and one maker per symbol. */
export interface Bots {
  trader: string;
  makers: Map<string, string>;
}

/** Per-symbol state of the executor that is not the model's. */
interface ExecSymbol {
  spec: SymbolSpec;
  model: SymbolModel;
  maker: string;
  /** the trader's resting orders of this symbol (sequence numbers, oldest first) */
  resting: number[];
  /** maker inventory reference: base balance (units) when the executor started; NaN until read */
  inventoryBase: number;
  /** the inventory last read, unit sizes */
  inventory: number;
  /** fair price of the previous step, ticks */
  lastFair: number;
  /** legs of a cross pair (for the arbitrage check of the books) */
  legs: [ExecSymbol, ExecSymbol] | null;
}

/** Which batch actions placed the trader's resting orders (to learn their sequence numbers). */
export interface PlanRefs {
  limits: { sym: ExecSymbol; index: number }[];
}

/** Turns the model's steps into batches (see module doc). */
export class Executor {
  private readonly syms: ExecSymbol[] = [];
  private steps = 0;
  private readonly rng: Rng;
  private readonly scratch: number[] = [];

  constructor(
    private readonly state: MarketHost,
    readonly model: MarketModel,
    specs: readonly SymbolSpec[],
    readonly bots: Bots,
    seed: number,
  ) {
    this.rng = new Rng(seed ^ 0x0e4ec);
    const bySym = new Map<string, ExecSymbol>();
    for (const spec of specs) {
      const model = this.model.bySymbol.get(spec.symbol);
      if (!model) continue;
      spec.maker.refreshPerSecond = REFRESH_PER_SECOND * model.activity;
      const e: ExecSymbol = { spec, model, maker: bots.makers.get(spec.symbol) as string, resting: [], inventoryBase: NaN, inventory: 0, lastFair: NaN, legs: null };
      this.syms.push(e);
      bySym.set(spec.symbol, e);
    }
    for (const e of this.syms) {
      const legs = e.model.legs;
      if (legs) e.legs = [bySym.get(legs[0].symbol) as ExecSymbol, bySym.get(legs[1].symbol) as ExecSymbol];
    }
  }

  /** Fair price of a symbol, ticks (a real number). */
  fairTicks(symbol: string): number {
    const e = this.syms.find((s) => s.spec.symbol === symbol);
    return e ? e.spec.anchorTicks * Math.exp(e.model.x) : NaN;
  }

  /** Cancel every bot order of every symbol (a start after a restart: the agents begin with a clean slate). */
  cancelAll(b: BatchBuilder): void {
    for (const e of this.syms) {
      b.push(BatchOp.CancelAll, this.bots.trader, e.spec.symbol, 0, 0, 0);
      b.push(BatchOp.CancelAll, e.maker, e.spec.symbol, 0, 0, 0);
    }
  }

  /** Plan the orders of the step the model just made (see module doc) into `b`. */
  plan(b: BatchBuilder): PlanRefs {
    this.steps++;
    const refs: PlanRefs = { limits: [] };
    for (const e of this.syms) this.planSymbol(e, b, refs);
    return refs;
  }

  /** Learn the sequence numbers of the trader's new resting orders from the batch's result. */
  absorb(result: MarketBatchResult, refs: PlanRefs): void {
    for (const r of refs.limits) {
      const seq = result.seqs[r.index];
      if (seq > 0) r.sym.resting.push(seq);
    }
  }

  private inventoryUnits(e: ExecSymbol): number {
    // a balance read builds decimal strings: every INVENTORY_EVERY steps is often enough for a limit
    if (this.steps % INVENTORY_EVERY !== 1 && !Number.isNaN(e.inventoryBase)) return e.inventory;
    const acc = this.state.exchange.accounts(e.maker, { currency: e.spec.info.baseCurrency, type: 'trade' })[0];
    const units = acc ? Number(acc.balance) / (e.spec.unitLots * Number(e.spec.info.baseIncrement)) : 0;
    if (Number.isNaN(e.inventoryBase)) e.inventoryBase = units;
    e.inventory = units - e.inventoryBase;
    return e.inventory;
  }

  private planSymbol(e: ExecSymbol, b: BatchBuilder, refs: PlanRefs): void {
    const { spec, model } = e;
    const sym = spec.symbol;
    const before = b.size;
    const trader = this.bots.trader;
    const lots = (units: number): number => Math.max(spec.minLots, Math.round(units * spec.unitLots));
    // 1. the maker's inventory limit
    const inventory = this.inventoryUnits(e);
    if (Math.abs(inventory) > spec.maker.maxInventoryUnits && model.rng.next() < 1 - Math.exp(-HEDGES_PER_SECOND * model.dt)) {
      model.market(AgentKind.Maker, inventory > 0 ? 1 : 0, Math.min(HEDGE_UNITS, Math.abs(inventory) - spec.maker.maxInventoryUnits / 2));
    }
    const fair = spec.anchorTicks * Math.exp(model.x);
    const protect = PROTECTION_BP * spec.bpTicks;
    const half = spec.maker.spreadTicks / 2;
    const it = model.intents;
    for (let i = 0; i < it.length; i += INTENT_STRIDE) {
      const kind = it[i];
      const agent = it[i + 1];
      const side = it[i + 2] as 0 | 1;
      if (kind === IntentKind.Market) {
        const who = agent === AgentKind.Maker ? e.maker : trader;
        if (agent === AgentKind.Noise && this.rng.next() < 0.2) b.push(BatchOp.Market, who, sym, side, 0, lots(it[i + 3]));
        else b.push(BatchOp.Ioc, who, sym, side, Math.max(1, side === 0 ? Math.ceil(fair + protect) : Math.floor(fair - protect)), lots(it[i + 3]));
      } else if (kind === IntentKind.Limit) {
        const depth = it[i + 4] * spec.bpTicks;
        const ticks = side === 0 ? Math.floor(fair - half - depth) : Math.ceil(fair + half + depth);
        if (ticks >= 1) refs.limits.push({ sym: e, index: b.push(BatchOp.Limit, trader, sym, side, ticks, lots(it[i + 3])) });
      } else if (e.resting.length > 0) {
        const k = this.rng.int(0, e.resting.length - 1);
        b.push(BatchOp.Cancel, trader, sym, e.resting[k], 0, 0);
        e.resting.splice(k, 1);
      }
    }
    while (e.resting.length > MAX_RESTING) b.push(BatchOp.Cancel, trader, sym, e.resting.shift() as number, 0, 0);
    // 4. arbitrage of the real books
    if (e.legs && model.arbitrage && this.steps % ARB_CHECK_EVERY === 0) this.arbitrage(e, b);
    // 5. the maker's quotes: stale ones out, then orders of others left through the new fair price taken
    //    (a price move leaves the resting orders it passed: makers pick them off), then the new ladder
    const resting: RestingQuote[] = [];
    const q3 = this.state.exchange.activeQuotes(e.maker, sym, this.scratch);
    for (let i = 0; i < q3.length; i += 3) resting.push({ seq: q3[i], side: q3[i + 1] as 0 | 1, ticks: q3[i + 2] });
    const q = requote(spec.maker, model.rng, model.dt, fair, inventory, resting);
    for (const seq of q.cancels) b.push(BatchOp.Cancel, e.maker, sym, seq, 0, 0);
    if (Math.abs(fair - e.lastFair) >= spec.maker.spreadTicks || this.steps % PICK_OFF_EVERY === 0) {
      const reach = Math.floor(fair - half);
      const pick = lots(PICK_OFF_UNITS);
      if (reach >= 1) b.push(BatchOp.Ioc, e.maker, sym, 0, reach, pick);
      b.push(BatchOp.Ioc, e.maker, sym, 1, Math.max(1, Math.ceil(fair + half)), pick);
    }
    e.lastFair = fair;
    for (const x of q.bids) b.push(BatchOp.PostOnly, e.maker, sym, 0, x.ticks, lots(x.units));
    for (const x of q.asks) b.push(BatchOp.PostOnly, e.maker, sym, 1, x.ticks, lots(x.units));
    // a major's book changes in every step, as KuCoin's do (tens of level-2 messages a second): when nothing
    // else did, the maker re-sizes one of its near quotes behind the touch
    if (b.size === before && MAJORS.has(sym) && resting.length > 0) {
      const o = resting[model.rng.int(0, resting.length - 1)];
      b.push(BatchOp.Cancel, e.maker, sym, o.seq, 0, 0);
      b.push(BatchOp.PostOnly, e.maker, sym, o.side, o.ticks, lots(spec.maker.levelUnits * (1 + model.rng.next())));
    }
  }

  private arbitrage(e: ExecSymbol, b: BatchBuilder): void {
    const ex = this.state.exchange;
    const [base, quote] = e.legs as [ExecSymbol, ExecSymbol];
    const bb = ex.bestBidAsk(e.spec.symbol);
    const lb = ex.bestBidAsk(base.spec.symbol);
    const lq = ex.bestBidAsk(quote.spec.symbol);
    const num = (v: string | null): number | null => (v === null ? null : Number(v));
    const side = e.model.arbitrage?.bookCheck({
      bid: num(bb.bestBid),
      ask: num(bb.bestAsk),
      baseLegBid: num(lb.bestBid),
      baseLegAsk: num(lb.bestAsk),
      quoteLegBid: num(lq.bestBid),
      quoteLegAsk: num(lq.bestAsk),
    });
    if (side === null || side === undefined) return;
    const price = side === 0 ? bb.bestAsk : bb.bestBid;
    const size = side === 0 ? bb.bestAskSize : bb.bestBidSize;
    if (price === null || size === null) return;
    const levelLots = lotsOf(size, e.spec.info.baseIncrement);
    const cap = Math.round(200 * e.spec.unitLots);
    b.push(BatchOp.Ioc, this.bots.trader, e.spec.symbol, side, Math.round(Number(price) / e.spec.inc), Math.max(e.spec.minLots, Math.min(levelLots, cap)));
  }
}
