/**
 * The mirror market's journaled commands: how an upstream's public market (a {@link MarketSource}, source.ts)
 * becomes part of the sandbox's engine. Everything here runs inside `SandboxState.exec`, so it is deterministic
 * given (engine state, command): a restart replays the journal and gets the same books, fills and balances.
 *
 * The upstream's visible levels are resting post-only orders of one engine user, the mirror's liquidity
 * ({@link MIRROR_MAKER_UID}, zero fees, no history); its prints are executed by another
 * ({@link MIRROR_TAKER_UID}). The engine itself is unchanged:
 * - `mirror.book` {symbol, reset?, bids, asks}: set upstream levels (size "0" removes; a larger size queues
 *   liquidity at the back of the level, a smaller one takes from the back first; `reset` clears the rest);
 * - `mirror.print` {symbol, side, price, size, bookHasIt?}: an upstream trade, taken (IOC) by the taker user at
 *   `price` once the liquidity strictly better than `price` left; the sandbox's tape gets the whole print;
 * - `mirror.candles` {symbol, rows}: the upstream's 1-minute candles, installed as the symbol's past.
 * The index (price → liquidity orders) is a cache rebuilt from the engine (`Exchange.activeQuotes`), so
 * snapshots need no section of their own. Every rule and the queue model it gives a user's order
 * (hftbacktest's risk-averse one): docs/sandbox.md "Mirror commands (`mirror/commands.ts`)" and "Mirror mode".
 */
import * as D from '../../../api/decimal';
import type { CandleType } from '../../../api/schemas';
import type { Exchange } from '../../core';
import { CANDLE_TYPES, candleStart, type CandleRow, type CandleRowData, type MarketTape } from '../marketTape';

/** Engine uid of the mirror's liquidity (the upstream's resting levels). Has no key: nobody can sign as it. */
export const MIRROR_MAKER_UID = '100000001';
/** Engine uid that executes the upstream's prints. Has no key. */
export const MIRROR_TAKER_UID = '100000002';

/** Args of `mirror.book`. Prices and sizes are the upstream's decimal strings. */
export interface MirrorBookArgs {
  symbol: string;
  /** A full snapshot: levels not listed are cleared, and the seeded books' orders of the symbol cancelled. */
  reset?: boolean;
  bids: [price: string, size: string][];
  asks: [price: string, size: string][];
}

/** Args of `mirror.print`: one upstream trade (`side`: the taker's). */
export interface MirrorPrintArgs {
  symbol: string;
  side: 'buy' | 'sell';
  price: string;
  size: string;
  /**
   * The book events already delivered include this print's change of its level (the upstream published the
   * level-2 change before the trade, as the sequences show): that change took the size from the BACK of the
   * level's liquidity (the `mirror.book` rule), while the print traded the FRONT. The print then first gives
   * the level `size` back at its back, so that the queue ahead of users' orders is what it consumes.
   */
  bookHasIt?: boolean;
}

/** Args of `mirror.candles`: 1-minute rows `[start (s), open, close, high, low, volume, turnover]`, oldest first. */
export interface MirrorCandlesArgs {
  symbol: string;
  rows: CandleRowData[];
}

/** The mirror's commands (without the `t` every journaled command carries). */
export type MirrorCommand =
  | { op: 'mirror.book'; t: number; args: MirrorBookArgs }
  | { op: 'mirror.print'; t: number; args: MirrorPrintArgs }
  | { op: 'mirror.candles'; t: number; args: MirrorCandlesArgs };

/** What each mirror command returns. */
export interface MirrorResults {
  /** `levels`: levels set; `refused`: levels not shown because they would cross a sandbox user's order. */
  'mirror.book': { levels: number; refused: number };
  /** `traded`: base size the print traded in the engine (its size, unless the symbol cannot hold it). */
  'mirror.print': { traded: string };
  /** `rows`: 1-minute rows installed (0 when the symbol had a tape already). */
  'mirror.candles': { rows: number };
}

/** A mirror command the engine cannot apply (bad price/size, unknown symbol): nothing changed. */
export class MirrorCommandError extends Error {
  constructor(msg: string) {
    super(msg);
    this.name = 'MirrorCommandError';
  }
}

/** True for the ops of {@link MirrorCommand}. */
export function isMirrorCommand(cmd: { op: string }): cmd is MirrorCommand {
  return cmd.op === 'mirror.book' || cmd.op === 'mirror.print' || cmd.op === 'mirror.candles';
}

/** What the commands need of the sandbox state. */
export interface MirrorHost {
  readonly exchange: Exchange;
  readonly tape: MarketTape;
  readonly world: {
    symbolMap: ReadonlyMap<string, { priceIncrement: string; baseIncrement: string; baseCurrency: string; quoteCurrency: string }>;
    currencyMap: ReadonlyMap<string, { precision: number }>;
  };
}

type Side = 'bids' | 'asks';

interface SymIndex {
  priceIncrement: string;
  baseIncrement: string;
  base: string;
  quote: string;
  /** ticks → liquidity order sequences, front of the queue first */
  bids: Map<number, number[]>;
  asks: Map<number, number[]>;
}

const indexes = new WeakMap<Exchange, Map<string, SymIndex>>();

/**
 * Apply a mirror command to `host` (inside `SandboxState.exec`). `seededUid` is the seeded books' user, whose
 * orders a reset cancels. @throws MirrorCommandError (nothing changed when thrown before the first change:
 * arguments are checked first), ExchangeError from the engine.
 */
export function applyMirror<C extends MirrorCommand>(host: MirrorHost, cmd: C, seededUid: string): MirrorResults[C['op']] {
  switch (cmd.op) {
    case 'mirror.book':
      return applyBook(host, cmd.args, seededUid) as MirrorResults[C['op']];
    case 'mirror.print':
      return applyPrint(host, cmd.args) as MirrorResults[C['op']];
    case 'mirror.candles':
      return applyCandles(host, cmd.args) as MirrorResults[C['op']];
    default:
      throw new MirrorCommandError(`unknown mirror op ${(cmd as { op: string }).op}`);
  }
}

/** The liquidity of `symbol` as `[price, size]` per side, best first (tests and the benchmark compare it to the upstream's book). */
export function mirrorLiquidity(host: MirrorHost, symbol: string): { bids: [string, string][]; asks: [string, string][] } {
  const ix = indexOf(host, symbol);
  const side = (s: Side): [string, string][] => {
    const out: [number, number][] = [];
    for (const [t, list] of ix[s]) {
      const n = totalOf(host.exchange, list);
      if (n > 0) out.push([t, n]);
    }
    out.sort((a, b) => (s === 'bids' ? b[0] - a[0] : a[0] - b[0]));
    return out.map(([t, n]) => [D.mul(String(t), ix.priceIncrement), D.mul(String(n), ix.baseIncrement)]);
  };
  return { bids: side('bids'), asks: side('asks') };
}

function indexOf(host: MirrorHost, symbol: string): SymIndex {
  let m = indexes.get(host.exchange);
  if (!m) {
    m = new Map();
    indexes.set(host.exchange, m);
  }
  let ix = m.get(symbol);
  if (ix) return ix;
  const rules = host.world.symbolMap.get(symbol);
  if (!rules || !host.exchange.hasSymbol(symbol)) throw new MirrorCommandError(`symbol ${symbol} is not in the sandbox's world`);
  ix = { priceIncrement: rules.priceIncrement, baseIncrement: rules.baseIncrement, base: rules.baseCurrency, quote: rules.quoteCurrency, bids: new Map(), asks: new Map() };
  // the liquidity already resting (a snapshot restored): oldest first is each level's queue order
  const q = host.exchange.activeQuotes(MIRROR_MAKER_UID, symbol);
  for (let i = 0; i < q.length; i += 3) {
    const side = q[i + 1] === 0 ? ix.bids : ix.asks;
    const list = side.get(q[i + 2]);
    if (list) list.push(q[i]);
    else side.set(q[i + 2], [q[i]]);
  }
  m.set(symbol, ix);
  return ix;
}

/** `v` in units of `inc` (ticks of a price, lots of a size). @throws MirrorCommandError when not a non-negative multiple. */
function unitsOf(v: string, inc: string, what: string): number {
  if (!D.isDecimal(v)) throw new MirrorCommandError(`${what} ${v} is not a decimal`);
  const sc = Math.max(D.fractionDigits(v), D.fractionDigits(inc));
  const a = D.toUnits(v, sc);
  const b = D.toUnits(inc, sc);
  if (a < 0n || a % b !== 0n) throw new MirrorCommandError(`${what} ${v} is not a multiple of ${inc}`);
  const n = a / b;
  if (n > BigInt(Number.MAX_SAFE_INTEGER)) throw new MirrorCommandError(`${what} ${v} exceeds the engine bound`);
  return Number(n);
}

/** Remaining lots of a level's liquidity orders; done orders leave `list`. */
function totalOf(ex: Exchange, list: number[]): number {
  let n = 0;
  for (let i = 0; i < list.length; ) {
    const r = ex.remainingLots(list[i]);
    if (r < 0) list.splice(i, 1);
    else {
      n += r;
      i++;
    }
  }
  return n;
}

/** Make sure `uid`'s trade account of `currency` has `need` (decimal) available: deposit the shortfall (engine credit). */
function fund(host: MirrorHost, uid: string, currency: string, need: string): void {
  const ex = host.exchange;
  const acc = ex.accounts(uid, { currency, type: 'trade' })[0];
  const avail = acc ? acc.available : '0';
  if (D.cmp(avail, need) >= 0) return;
  const prec = host.world.currencyMap.get(currency)?.precision ?? 8;
  const amount = D.roundUp(D.sub(need, avail), D.precisionIncrement(prec));
  ex.deposit(uid, currency, amount);
  ex.transfer(uid, currency, 'main', 'trade', amount);
}

/** Funds an order of `lots` at `ticks` on `side` needs (zero fees): base lots for a sell, price × size of quote for a buy. */
function fundOrder(host: MirrorHost, uid: string, ix: SymIndex, side: 'buy' | 'sell', ticks: number, lots: number): void {
  const size = D.mul(String(lots), ix.baseIncrement);
  if (side === 'sell') fund(host, uid, ix.base, size);
  else fund(host, uid, ix.quote, D.mul(D.mul(String(ticks), ix.priceIncrement), size));
}

/** Zero fees and no history for the mirror's two users (idempotent). */
function prepareUsers(ex: Exchange): void {
  for (const uid of [MIRROR_MAKER_UID, MIRROR_TAKER_UID]) {
    ex.setFeeRates(uid, '0', '0');
    ex.disableHistory(uid);
  }
}

/** Set the liquidity of one level to `lots`. @returns false when a needed placement was refused (it would cross). */
function setLevel(host: MirrorHost, symbol: string, ix: SymIndex, side: Side, ticks: number, lots: number): boolean {
  const ex = host.exchange;
  const levels = ix[side];
  const list = levels.get(ticks) ?? [];
  const total = totalOf(ex, list);
  if (lots > total) {
    const add = lots - total;
    const orderSide = side === 'bids' ? 'buy' : 'sell';
    fundOrder(host, MIRROR_MAKER_UID, ix, orderSide, ticks, add);
    const seq = ex.placeLimitTicks(MIRROR_MAKER_UID, symbol, orderSide, ticks, add, { postOnly: true, exemptSizeLimits: true });
    if (ex.remainingLots(seq) < 0) {
      if (list.length === 0) levels.delete(ticks);
      return false;
    }
    list.push(seq);
  } else if (lots < total) {
    let need = total - lots;
    for (let i = list.length - 1; i >= 0 && need > 0; i--) {
      const r = ex.remainingLots(list[i]);
      const d = Math.min(r, need);
      ex.reduceSeq(MIRROR_MAKER_UID, list[i], d);
      need -= d;
      if (d === r) list.splice(i, 1);
    }
  }
  if (list.length === 0) levels.delete(ticks);
  else levels.set(ticks, list);
  return true;
}

function applyBook(host: MirrorHost, a: MirrorBookArgs, seededUid: string): MirrorResults['mirror.book'] {
  const ix = indexOf(host, a.symbol);
  // check every level first: a bad one changes nothing
  const parse = (levels: [string, string][]): [number, number][] => {
    if (!Array.isArray(levels)) throw new MirrorCommandError('levels must be an array of [price, size]');
    return levels.map(([p, s]) => [unitsOf(p, ix.priceIncrement, 'price'), unitsOf(s, ix.baseIncrement, 'size')]);
  };
  const bids = parse(a.bids);
  const asks = parse(a.asks);
  if (bids.some(([t]) => t === 0) || asks.some(([t]) => t === 0)) throw new MirrorCommandError('price must be positive');
  const ex = host.exchange;
  if (a.reset) {
    prepareUsers(ex);
    if (ex.activeQuotes(seededUid, a.symbol).length > 0) ex.cancelAll(seededUid, a.symbol);
    const keep = { bids: new Set(bids.filter(([, n]) => n > 0).map(([t]) => t)), asks: new Set(asks.filter(([, n]) => n > 0).map(([t]) => t)) };
    for (const side of ['bids', 'asks'] as const) {
      for (const t of [...ix[side].keys()]) if (!keep[side].has(t)) setLevel(host, a.symbol, ix, side, t, 0);
    }
  }
  let levels = 0;
  let refused = 0;
  // removals and decreases before additions: a level moving across the spread must not meet its old self
  // one increment may change a level twice: the last change (in sequence order, as listed) is the level's size
  const last = { bids: new Map(bids), asks: new Map(asks) };
  const changes: [Side, number, number][] = [...[...last.bids].map(([t, n]): [Side, number, number] => ['bids', t, n]), ...[...last.asks].map(([t, n]): [Side, number, number] => ['asks', t, n])];
  const current = (side: Side, t: number): number => totalOf(ex, ix[side].get(t) ?? []);
  const down = changes.filter(([s, t, n]) => n <= current(s, t));
  const up = changes.filter(([s, t, n]) => n > current(s, t));
  for (const [side, t, n] of [...down, ...up]) {
    levels++;
    if (!setLevel(host, a.symbol, ix, side, t, n)) refused++;
  }
  return { levels, refused };
}

function applyPrint(host: MirrorHost, a: MirrorPrintArgs): MirrorResults['mirror.print'] {
  if (a.side !== 'buy' && a.side !== 'sell') throw new MirrorCommandError('side must be buy or sell');
  const ix = indexOf(host, a.symbol);
  const p = unitsOf(a.price, ix.priceIncrement, 'price');
  const s = unitsOf(a.size, ix.baseIncrement, 'size');
  if (p === 0 || s === 0) throw new MirrorCommandError('price and size must be positive');
  const ex = host.exchange;
  prepareUsers(ex);
  const makerSide: Side = a.side === 'sell' ? 'bids' : 'asks';
  // the print went through the liquidity priced better than it: that leaves (the upstream's next levels say what is left)
  for (const [t, list] of [...ix[makerSide]]) {
    if (makerSide === 'bids' ? t <= p : t >= p) continue;
    for (const seq of list) ex.cancelSeq(MIRROR_MAKER_UID, seq);
    ix[makerSide].delete(t);
  }
  if (a.bookHasIt) {
    const list = ix[makerSide].get(p);
    const before = list ? totalOf(ex, list) : 0;
    setLevel(host, a.symbol, ix, makerSide, p, before + s);
  }
  const traded = (): number => {
    // the taker's base balance moves by exactly what it traded (zero fees)
    const acc = ex.accounts(MIRROR_TAKER_UID, { currency: ix.base, type: 'trade' })[0];
    return acc ? unitsOfSigned(acc.balance, ix.baseIncrement) : 0;
  };
  fundOrder(host, MIRROR_TAKER_UID, ix, a.side, p, s);
  const funded = traded();
  ex.placeLimitTicks(MIRROR_TAKER_UID, a.symbol, a.side, p, s, { tif: 'IOC', exemptSizeLimits: true });
  let done = Math.abs(traded() - funded);
  const rest = s - done;
  if (rest > 0) {
    // the book at or through the price held less than the upstream printed: print the rest against liquidity of its own
    const makerOrderSide = a.side === 'sell' ? 'buy' : 'sell';
    fundOrder(host, MIRROR_MAKER_UID, ix, makerOrderSide, p, rest);
    const m = ex.placeLimitTicks(MIRROR_MAKER_UID, a.symbol, makerOrderSide, p, rest, { postOnly: true, exemptSizeLimits: true });
    if (ex.remainingLots(m) > 0) {
      fundOrder(host, MIRROR_TAKER_UID, ix, a.side, p, rest);
      const b2 = traded();
      ex.placeLimitTicks(MIRROR_TAKER_UID, a.symbol, a.side, p, rest, { tif: 'IOC', exemptSizeLimits: true });
      done += Math.abs(traded() - b2);
      // the print's own order is gone unless the IOC could not reach it; never leave it resting
      if (ex.remainingLots(m) > 0) ex.cancelSeq(MIRROR_MAKER_UID, m);
    }
  }
  return { traded: D.mul(String(done), ix.baseIncrement) };
}

/** Like unitsOf for a balance (may be any multiple of the increment, never negative here). */
function unitsOfSigned(v: string, inc: string): number {
  const sc = Math.max(D.fractionDigits(v), D.fractionDigits(inc));
  return Number(D.toUnits(v, sc) / D.toUnits(inc, sc));
}

function applyCandles(host: MirrorHost, a: MirrorCandlesArgs): MirrorResults['mirror.candles'] {
  if (!host.world.symbolMap.has(a.symbol)) throw new MirrorCommandError(`symbol ${a.symbol} is not in the sandbox's world`);
  if (!Array.isArray(a.rows) || a.rows.length === 0) return { rows: 0 };
  if (host.tape.oldestMinute(a.symbol) !== null || host.tape.recentTrades(a.symbol).length > 0) return { rows: 0 };
  for (const r of a.rows) {
    if (!Array.isArray(r) || r.length !== 7 || !Number.isInteger(r[0]) || !r.slice(1).every((x) => D.isDecimal(x))) throw new MirrorCommandError('a candle row must be [start (s), open, close, high, low, volume, turnover]');
  }
  const minutes = [...a.rows].sort((x, y) => x[0] - y[0]);
  const out = {} as Record<CandleType, CandleRow[]>;
  for (const type of CANDLE_TYPES) {
    const rows: CandleRow[] = [];
    for (const [t, o, c, h, l, v, q] of minutes) {
      const start = candleStart(type, t);
      const last = rows[rows.length - 1];
      if (last === undefined || last.t !== start) rows.push({ t: start, o, c, h, l, v, q });
      else {
        last.c = c;
        last.h = D.max(last.h, h);
        last.l = D.min(last.l, l);
        last.v = D.add(last.v, v);
        last.q = D.add(last.q, q);
      }
    }
    out[type] = rows;
  }
  host.tape.importHistory(a.symbol, out);
  return { rows: minutes.length };
}
