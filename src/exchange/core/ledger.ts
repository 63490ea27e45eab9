/**
 * The ledger and holds of the exchange core ({@link Ledger}): fee and hold arithmetic, the holds of orders on
 * both paths, the Number accumulators of fills and collected fees. The rules (docs/engine.md): fees truncated
 * toward zero at the quote precision per fill; a buy limit order holds price × remaining + ceil(taker fee); a
 * sell holds its remaining base; market holds walk the opposite book. Every amount has a Number fast path
 * (exact below 2^53, checked on every call) and the same value on the BigInt path.
 */
import { E_BALANCE, ExchangeError } from './errors';
import { BUY, MAX_LOTS, SELL, STP_NONE, ZERO, type Rate, type SideN } from './base';
import type { Level, Sym } from './book';
import type { Acc } from './accounts';
import { F_SELL, LF_DEALN, LF_FEEN, LF_STRIDE, type OrderRows, type Parsed } from './rows';
import type { CoreState } from './state';

/** Fee and hold arithmetic, order holds on both paths, Number accumulators of fills and fees. */
export class Ledger {
  private declare readonly rows: OrderRows;
  /** Disable the Number fast path (CoreState.bigOnly, copied: read on every amount) */
  private declare readonly bigOnly: boolean;

  private declare readonly st: CoreState;

  constructor(st: CoreState) {
    this.st = st;
    this.rows = st.rows;
    this.bigOnly = st.bigOnly;
  }

  /** ceil(rate × funds) at the quote precision, 0 for rate ≤ 0 (ledger units, BigInt path). */
  private ceilFee(s: Sym, rate: Rate, funds: bigint): bigint {
    if (rate.big <= 0n) return ZERO;
    return ((rate.big * funds + s.feeQ - 1n) / s.feeQ) * s.feeGrid;
  }

  /** trunc(rate × funds) toward zero at the quote precision (ledger units, BigInt path). */
  truncFee(s: Sym, rate: Rate, funds: bigint): bigint {
    return ((rate.big * funds) / s.feeQ) * s.feeGrid;
  }

  /**
   * Number fast path. ticks × lots in qs units (10^-qs quote), or -1 when the exact value is not
   * below 2^53 (then callers use the BigInt path). Doubles are exact for integers < 2^53 and rounding
   * is monotonic, so a true product ≥ 2^53 never compares ≤ MAX_SAFE_INTEGER.
   */
  costQ(s: Sym, ticks: number, lots: number): number {
    if (this.bigOnly || s.unitQ === 0) return -1;
    const c = ticks * lots * s.unitQ;
    return c <= MAX_LOTS ? c : -1;
  }

  /** Fee of `q` qs units at `rate`, rounded at the quote precision: ceil for up=true (holds, 0 when
   * rate ≤ 0), else toward zero. -1 when not exactly computable in doubles. Floor(a / b) of safe
   * integers is exact (the rounding error of a/b is below 1/b). */
  feeQ(s: Sym, rate: Rate, q: number, up: boolean): number {
    if (rate.num === 0 || q === 0) return 0;
    if (up && rate.num < 0) return 0;
    const a = q * (rate.num < 0 ? -rate.num : rate.num);
    const b = rate.den * s.precStep;
    if (a > MAX_LOTS || b > MAX_LOTS) return -1;
    let k = Math.floor(a / b);
    if (up && k * b < a) k++;
    const f = k * s.precStep;
    if (f > MAX_LOTS) return -1;
    return rate.num < 0 ? -f : f;
  }

  /** Hold of a buy of `lots` at `ticks` at the taker rate: cost + ceil(fee) (ledger units). */
  buyHold(s: Sym, rate: Rate, ticks: number, lots: number): bigint {
    const c = this.costQ(s, ticks, lots);
    if (c >= 0) {
      const f = this.feeQ(s, rate, c, true);
      if (f >= 0 && c + f <= MAX_LOTS) return BigInt(c + f) * s.qFactor;
    }
    const cost = BigInt(ticks) * BigInt(lots) * s.unitFunds;
    return cost + this.ceilFee(s, rate, cost);
  }

  /** Hold a resting limit order must carry (ledger units). */
  holdFor(o: number): bigint {
    const s = this.st.usOf(o).sym;
    const remain = this.rows.remainLots(o);
    if ((this.rows.flags(o) & F_SELL) !== 0) return BigInt(remain) * s.lotUnits;
    return this.buyHold(s, this.st.rates.objs[this.rows.takerRateId(o)], this.rows.priceTicks(o), remain);
  }

  /**
   * Number-path hold of a limit order of `lots` at `ticks` (buy: cost + ceil taker fee; sell: lots) in the
   * account's 10^-K units, or -1 when not exactly representable below 2^53 (then the BigInt path is used).
   */
  holdNOf(s: Sym, side: SideN, rate: Rate, ticks: number, lots: number, acc: Acc): number {
    if (this.bigOnly) return -1;
    if (side === SELL) {
      if (s.baseMulK === 0 || acc.K !== s.baseK) return -1;
      const v = lots * s.baseMulK;
      return v <= MAX_LOTS ? v : -1;
    }
    if (s.quoteMulK === 0 || acc.K !== s.quoteK) return -1;
    const c = this.costQ(s, ticks, lots);
    if (c < 0) return -1;
    const f = this.feeQ(s, rate, c, true);
    if (f < 0) return -1;
    const v = (c + f) * s.quoteMulK;
    return v <= MAX_LOTS ? v : -1;
  }

  /** An order's current hold in ledger units, whichever path holds it. */
  holdBig(o: number): bigint {
    const h = this.rows.holdN(o);
    if (h >= 0) return BigInt(h) * this.st.accOf(o).U;
    const x = this.rows.lx[o];
    return x === null ? ZERO : x.hold;
  }

  /** Re-evaluate a resting limit order's hold from its remaining size (after a fill or a DC decrease). */
  reholdLimit(o: number): void {
    const us = this.st.usOf(o);
    const isSell = (this.rows.flags(o) & F_SELL) !== 0;
    const acc = (isSell ? us.bAcc : us.qAcc) as Acc;
    const n = this.holdNOf(us.sym, isSell ? SELL : BUY, this.st.rates.objs[this.rows.takerRateId(o)], this.rows.priceTicks(o), this.rows.remainLots(o), acc);
    const cur = this.rows.holdN(o);
    if (n >= 0 && cur >= 0) {
      acc.addHoldsN(n - cur);
      this.rows.setHoldN(o, n);
      return;
    }
    this.releaseHold(o);
    if (n >= 0) {
      this.rows.setHoldN(o, n);
      acc.addHoldsN(n);
    } else {
      const h = this.holdFor(o);
      this.rows.ext(o).hold = h;
      acc.addHoldsBig(h);
    }
  }

  /** Release whatever an order holds. */
  releaseHold(o: number): void {
    const h = this.rows.holdN(o);
    if (h >= 0) {
      this.st.accOf(o).addHoldsN(-h);
      this.rows.setHoldN(o, -1);
      return;
    }
    const x = this.rows.lx[o];
    if (x !== null && x.hold !== ZERO) {
      this.st.accOf(o).addHoldsBig(-x.hold);
      x.hold = ZERO;
    }
  }

  /** Consume `consumed` ledger units of a market order's (transient, BigInt) hold after a fill. */
  consumeHold(o: number, acc: Acc, consumed: bigint): void {
    this.rows.ext(o).hold -= consumed;
    acc.addHoldsBig(-consumed);
  }

  /** Hold of a market order (module doc; docs/engine.md, "Fee rule") + balance check. @throws ExchangeError 200004. */
  marketHold(p: Parsed): void {
    const s = p.sym;
    const opp = p.side === BUY ? s.asks : s.bids;
    const uid = p.user.uid;
    const skipOwn = p.stp !== STP_NONE;
    let hold = ZERO;
    let cur: string;
    if (p.side === BUY) {
      cur = s.rules.quoteCurrency;
      if (p.funds > 0n) {
        hold = p.funds + this.ceilFee(s, p.user.taker, p.funds);
      } else {
        let need = BigInt(p.lots);
        let cost = ZERO;
        outer: for (let i = opp.count - 1; i >= 0; i--) {
          const lv = opp.at(i) as Level;
          for (let m = lv.head; m !== -1; m = this.rows.nextInLevel(m)) {
            if (skipOwn && this.st.usOf(m).user.uid === uid) continue;
            const rem = BigInt(this.rows.remainLots(m));
            const take = rem < need ? rem : need;
            cost += BigInt(lv.ticks) * take * s.unitFunds;
            need -= take;
            if (need === 0n) break outer;
          }
        }
        hold = cost + this.ceilFee(s, p.user.taker, cost);
      }
    } else {
      cur = s.rules.baseCurrency;
      if (p.lots > 0) {
        hold = BigInt(p.lots) * s.lotUnits;
      } else {
        let left = p.funds;
        let lots = ZERO;
        outer2: for (let i = opp.count - 1; i >= 0; i--) {
          const lv = opp.at(i) as Level;
          const perLot = BigInt(lv.ticks) * s.unitFunds;
          for (let m = lv.head; m !== -1; m = this.rows.nextInLevel(m)) {
            if (skipOwn && this.st.usOf(m).user.uid === uid) continue;
            const can = left / perLot;
            if (can === 0n) break outer2;
            const rem = BigInt(this.rows.remainLots(m));
            const take = rem < can ? rem : can;
            lots += take;
            left -= take * perLot;
          }
        }
        hold = lots * s.lotUnits;
      }
    }
    const w = p.user.wallets.get(cur);
    const avail = w ? w.trade.balance - w.trade.holds : ZERO;
    if (avail < hold) throw new ExchangeError(E_BALANCE, 'Balance insufficient!');
    p.hold = hold;
  }

  /** Fast-path fill of order `o`: add `funds` (0..2^53−1) and `fee` (|fee| ≤ 2^53−1) qs units. */
  addDealN(o: number, s: Sym, funds: number, fee: number): void {
    const lf = this.rows.lf;
    const k = o * LF_STRIDE;
    const d = lf[k + LF_DEALN] + funds;
    if (d > MAX_LOTS) {
      const x = this.rows.ext(o);
      x.dealB += BigInt(lf[k + LF_DEALN]) * s.qFactor;
      lf[k + LF_DEALN] = funds;
    } else {
      lf[k + LF_DEALN] = d;
    }
    const f = lf[k + LF_FEEN] + fee;
    if (f > MAX_LOTS || f < -MAX_LOTS) {
      const x = this.rows.ext(o);
      x.feeB += BigInt(lf[k + LF_FEEN]) * s.qFactor;
      lf[k + LF_FEEN] = fee;
    } else {
      lf[k + LF_FEEN] = f;
    }
  }

  /** Add a + b qs units of the quote (a, b safe integers) to a quote account's balance: Number path when
   * the sum and its scaling to the account's 10^-K units stay exact (|·| ≤ 2^53−1), else BigInt. */
  addQuoteN(acc: Acc, s: Sym, a: number, b: number): void {
    const x = a + b; // exact whenever |a + b| ≤ 2^53−1, otherwise rounded beyond that bound
    if (s.quoteMulK !== 0 && acc.K === s.quoteK && x <= MAX_LOTS && x >= -MAX_LOTS) {
      const y = x * s.quoteMulK;
      if (y <= MAX_LOTS && y >= -MAX_LOTS) {
        acc.addBalanceN(y);
        return;
      }
    }
    acc.addBalance((BigInt(a) + BigInt(b)) * s.qFactor);
  }

  /** Add `lots` (safe integer, may be negative) of the base to a base account's balance. */
  addBaseN(acc: Acc, s: Sym, lots: number): void {
    if (s.baseMulK !== 0 && acc.K === s.baseK) {
      const y = lots * s.baseMulK;
      if (y <= MAX_LOTS && y >= -MAX_LOTS) {
        acc.addBalanceN(y);
        return;
      }
    }
    acc.addBalance(BigInt(lots) * s.lotUnits);
  }

  /** Add a + b qs units (safe integers) to the symbol's pending collected fees (flushed to `fees`). */
  addFeesN(s: Sym, a: number, b: number): void {
    // the first fill of a symbol creates the currency's entry (as the BigInt path does), so `fees` keeps
    // the same keys in the same order whichever path settles
    if (s.tradeSeq === 0 && !this.st.fees.has(s.rules.quoteCurrency)) this.st.fees.set(s.rules.quoteCurrency, ZERO);
    // two single additions, each exact when its true result is within ±(2^53−1) (checked after each)
    const t1 = s.feeN + a;
    const t = t1 + b;
    if (t1 > MAX_LOTS || t1 < -MAX_LOTS || t > MAX_LOTS || t < -MAX_LOTS) {
      this.flushFeesOf(s);
      this.addFeesBig(s.rules.quoteCurrency, (BigInt(a) + BigInt(b)) * s.qFactor);
    } else {
      s.feeN = t;
    }
  }

  /** Add `v` ledger units to the collected fees of currency `cur`. */
  addFeesBig(cur: string, v: bigint): void {
    this.st.fees.set(cur, (this.st.fees.get(cur) ?? ZERO) + v);
  }

  /** Move a symbol's pending Number fees into `fees` (exact). */
  private flushFeesOf(s: Sym): void {
    if (s.feeN === 0) return;
    this.addFeesBig(s.rules.quoteCurrency, BigInt(s.feeN) * s.qFactor);
    s.feeN = 0;
  }

  /** Move every symbol's pending Number fees into `fees` (before `fees` is read). */
  flushFees(): void {
    for (const s of this.st.symList) this.flushFeesOf(s);
  }
}
