/**
 * The `market.batch` command: one step of the market simulation's orders in one journaled command, whose
 * orders the engine validates and applies one by one, in order, exactly like separate commands (so replay
 * gets the same results). Why a batch: docs/sandbox.md "The `market.batch` command (`market/batch.ts`)".
 *
 * Encoding (JSON numbers are safe integers, so the journal takes it as it is):
 *   `{u: uid[], s: symbol[], a: number[]}`, `a` a flat list of {@link BATCH_STRIDE}-word actions
 *   `[op, userIndex, symbolIndex, p1, p2, p3]`:
 *   - {@link BatchOp.Limit}     p1 side (0 buy, 1 sell), p2 price ticks, p3 size lots: GTC limit;
 *   - {@link BatchOp.PostOnly}  same, post-only (a maker quote; rejected if it would take);
 *   - {@link BatchOp.Ioc}       same, immediate-or-cancel (a marketable order with a price limit);
 *   - {@link BatchOp.Market}    p1 side, p3 size lots: a market order by size;
 *   - {@link BatchOp.Cancel}    p1 the order's sequence number (a no-op when it is no longer active);
 *   - {@link BatchOp.CancelAll} every active order of the user on the symbol.
 *   Ticks are priceIncrements, lots baseIncrements of the symbol.
 *
 * Only the simulation's bot users (label `sim-…`) may appear: a batch never acts for a person. A business
 * rejection of one action changes nothing and is counted; the other actions still apply.
 */
import * as D from '../../../api/decimal';
import { ExchangeError, type Exchange } from '../../core';

/** Words per action. */
export const BATCH_STRIDE = 6;

/** Action codes of a batch (see module doc). */
export const enum BatchOp {
  Limit = 1,
  PostOnly = 2,
  Ioc = 3,
  Market = 4,
  Cancel = 5,
  CancelAll = 6,
}

/** Args of `market.batch`. */
export interface MarketBatchArgs {
  /** uids of the bot users the actions refer to */
  u: string[];
  /** symbols the actions refer to */
  s: string[];
  /** actions, {@link BATCH_STRIDE} words each */
  a: number[];
}

/** Result of `market.batch`: per action the order's sequence number (placed; 0 when rejected or a cancel) and the rejection count. */
export interface MarketBatchResult {
  seqs: number[];
  rejected: number;
  /** the first rejection's message ('' when none) */
  firstRejection: string;
}

/** What applying a batch needs of the sandbox. */
export interface BatchTarget {
  exchange: Exchange;
  /** the symbol's baseIncrement (for market orders by size) */
  baseIncrement(symbol: string): string | undefined;
  /** true when `uid` is one of the simulation's bots */
  isBot(uid: string): boolean;
}

/**
 * Check a batch's shape (before anything changes): arrays of strings and safe integers, a whole number of
 * actions, known op codes, indexes in range, bot users and known symbols only.
 * @throws Error with the reason (the caller turns it into its 400100 error).
 */
export function checkBatch(t: BatchTarget, args: MarketBatchArgs): void {
  if (!args || !Array.isArray(args.u) || !Array.isArray(args.s) || !Array.isArray(args.a)) throw new Error('market.batch needs u, s and a arrays');
  if (args.a.length % BATCH_STRIDE !== 0) throw new Error(`market.batch: a holds ${args.a.length} words, not a multiple of ${BATCH_STRIDE}`);
  for (const uid of args.u) if (typeof uid !== 'string' || !t.isBot(uid)) throw new Error(`market.batch: ${String(uid)} is not a simulation bot`);
  for (const s of args.s) if (typeof s !== 'string' || t.baseIncrement(s) === undefined) throw new Error(`market.batch: unknown symbol ${String(s)}`);
  for (let i = 0; i < args.a.length; i += BATCH_STRIDE) {
    const op = args.a[i];
    for (let k = 0; k < BATCH_STRIDE; k++) if (!Number.isSafeInteger(args.a[i + k]) || args.a[i + k] < 0) throw new Error(`market.batch: action ${i / BATCH_STRIDE} has a bad word`);
    if (op < BatchOp.Limit || op > BatchOp.CancelAll) throw new Error(`market.batch: unknown action ${op}`);
    if (args.a[i + 1] >= args.u.length || args.a[i + 2] >= args.s.length) throw new Error(`market.batch: action ${i / BATCH_STRIDE} refers to a missing user or symbol`);
  }
}

/**
 * Apply a checked batch to the engine, action by action (see module doc). Never throws an ExchangeError:
 * a rejected action is counted and skipped.
 */
export function applyBatch(t: BatchTarget, args: MarketBatchArgs): MarketBatchResult {
  const ex = t.exchange;
  const a = args.a;
  const n = a.length / BATCH_STRIDE;
  const seqs = new Array<number>(n).fill(0);
  let rejected = 0;
  let firstRejection = '';
  for (let j = 0; j < n; j++) {
    const i = j * BATCH_STRIDE;
    const op = a[i];
    const uid = args.u[a[i + 1]];
    const symbol = args.s[a[i + 2]];
    const side = a[i + 3] === 0 ? 'buy' : 'sell';
    try {
      switch (op) {
        case BatchOp.Limit:
          seqs[j] = ex.placeLimitTicks(uid, symbol, side, a[i + 4], a[i + 5]);
          break;
        case BatchOp.PostOnly:
          seqs[j] = ex.placeLimitTicks(uid, symbol, side, a[i + 4], a[i + 5], { postOnly: true });
          break;
        case BatchOp.Ioc:
          seqs[j] = ex.placeLimitTicks(uid, symbol, side, a[i + 4], a[i + 5], { tif: 'IOC' });
          break;
        case BatchOp.Market: {
          const size = D.mul(String(a[i + 5]), t.baseIncrement(symbol) as string);
          const r = ex.placeOrder(uid, { symbol, side, type: 'market', size });
          seqs[j] = parseInt(r.orderId.slice(8), 16);
          break;
        }
        case BatchOp.Cancel:
          ex.cancelSeq(uid, a[i + 3]);
          break;
        case BatchOp.CancelAll:
          ex.cancelAll(uid, symbol);
          break;
      }
    } catch (e) {
      if (!(e instanceof ExchangeError)) throw e;
      rejected++;
      if (firstRejection === '') firstRejection = `${symbol} op ${op}: ${e.code} ${e.message}`;
    }
  }
  return { seqs, rejected, firstRejection };
}

/** Builds a batch: interns users and symbols, appends actions. */
export class BatchBuilder {
  private readonly users = new Map<string, number>();
  private readonly syms = new Map<string, number>();
  readonly args: MarketBatchArgs = { u: [], s: [], a: [] };

  /** Append one action; returns its index (for the result's `seqs`). */
  push(op: BatchOp, uid: string, symbol: string, p1: number, p2: number, p3: number): number {
    let ui = this.users.get(uid);
    if (ui === undefined) {
      ui = this.args.u.push(uid) - 1;
      this.users.set(uid, ui);
    }
    let si = this.syms.get(symbol);
    if (si === undefined) {
      si = this.args.s.push(symbol) - 1;
      this.syms.set(symbol, si);
    }
    this.args.a.push(op, ui, si, p1, p2, p3);
    return this.args.a.length / BATCH_STRIDE - 1;
  }

  /** Number of actions so far. */
  get size(): number {
    return this.args.a.length / BATCH_STRIDE;
  }
}
