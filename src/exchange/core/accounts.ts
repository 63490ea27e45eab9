/**
 * The ledger records of the exchange core: a balance (Acc) with its exact BigInt part and the Number
 * accumulators of the fast path, a currency's main + trade accounts (Wallet), a user (User) and a user's
 * order lists on one symbol (UserSym, which also caches the trade accounts its orders hold in).
 */
import type { AccountType } from './types';
import { DEFAULT_RATE, LEDGER_SCALE, MAX_LOTS, ZERO, pow10, type Rate } from './base';
import type { Sym } from './book';

/** One balance of one currency of one type. */
export class Acc {
  /** BigInt part of the balance, ledger units (change only through addBalance) */
  balanceB = ZERO;
  /**
   * Number part of the balance in units of 10^-K of the currency (fills on the fast path), |balanceN| ≤
   * 2^53−1: flushed into balanceB before an addition could leave that range.
   */
  balanceN = 0;
  /** BigInt part of the holds, ledger units (change only through addHoldsBig) */
  holdsB = ZERO;
  /**
   * Number part of the holds in units of 10^-K of the currency (K = the currency's fast scale, -1 while
   * unknown), |holdsN| ≤ 2^53−1: flushed into holdsB before an addition could leave that range.
   */
  holdsN = 0;
  K = -1;
  U = 1n; // ledger units per 10^-K
  /** min(floor((balance − holdsB) / U), 2^53−1), valid when freeOk: a lower bound for Number availability checks */
  freeN = 0;
  freeOk = false;
  /** freeN/freeOk must be recomputed (balance, holdsB or K changed) */
  dirty = true;
  /** balance and holds (ledger units) as the last balance event of this account told them (watched users) */
  evTotal = ZERO;
  evHold = ZERO;
  constructor(
    readonly id: string,
    readonly currency: string,
    readonly type: AccountType,
  ) {}

  /** Balance, ledger units. */
  get balance(): bigint {
    return this.balanceN === 0 ? this.balanceB : this.balanceB + BigInt(this.balanceN) * this.U;
  }

  /** Total holds, ledger units. */
  get holds(): bigint {
    return this.holdsN === 0 ? this.holdsB : this.holdsB + BigInt(this.holdsN) * this.U;
  }

  /** Adopt the currency's fast scale (only while no Number holds or balance exist). */
  setK(k: number): void {
    if (this.K === k || this.holdsN !== 0 || this.balanceN !== 0 || k < 0) return;
    this.K = k;
    this.U = pow10(LEDGER_SCALE - k);
    this.dirty = true;
  }

  addBalance(v: bigint): void {
    this.balanceB += v;
    this.dirty = true;
  }

  /** Add x (10^-K units, |x| ≤ 2^53−1) to the Number balance. */
  addBalanceN(x: number): void {
    const t = this.balanceN + x;
    if (t > MAX_LOTS || t < -MAX_LOTS) {
      this.balanceB += BigInt(this.balanceN) * this.U;
      this.balanceN = x;
      this.dirty = true;
    } else {
      this.balanceN = t;
    }
  }

  addHoldsBig(v: bigint): void {
    this.holdsB += v;
    this.dirty = true;
  }

  /** Add x (10^-K units, |x| ≤ 2^53−1) to the Number holds. */
  addHoldsN(x: number): void {
    const t = this.holdsN + x;
    if (t > MAX_LOTS || t < -MAX_LOTS) {
      this.holdsB += BigInt(this.holdsN) * this.U;
      this.holdsN = x;
      this.dirty = true;
    } else {
      this.holdsN = t;
    }
  }

  /**
   * Exact: can `h` more (10^-K units) be held? available = balance − holds ≥ h, i.e.
   * (balanceB − holdsB)/U + balanceN − holdsN − h ≥ 0. freeN ≤ (balanceB − holdsB)/U, so
   * holdsN + h − balanceN ≤ freeN suffices; that difference is exact whenever its true value lies in
   * (−2^53, 2^53] and otherwise rounds (monotonically) to the same side of freeN (|freeN| < 2^53).
   */
  canHoldN(h: number): boolean {
    if (this.dirty) this.refresh();
    const t = this.holdsN + h;
    if (this.freeOk && t <= MAX_LOTS && t - this.balanceN <= this.freeN) return true;
    return this.balance - this.holdsB - BigInt(this.holdsN) * this.U - BigInt(h) * this.U >= 0n;
  }

  private refresh(): void {
    this.dirty = false;
    if (this.K < 0) {
      this.freeOk = false;
      return;
    }
    const d = this.balanceB - this.holdsB;
    let q = d / this.U;
    if (d < 0n && q * this.U !== d) q -= 1n;
    // a LOWER bound of the free amount is all the Number check needs: cap it at 2^53−1
    const lim = BigInt(MAX_LOTS);
    this.freeOk = q >= -lim;
    this.freeN = q > lim ? MAX_LOTS : this.freeOk ? Number(q) : 0;
  }
}

/** main + trade accounts of one currency of one user. */
export class Wallet {
  constructor(
    readonly main: Acc,
    readonly trade: Acc,
  ) {}
}

/** A user: wallets by currency, fee rates, fill chain, per-symbol order lists and clientOid index. */
export class User {
  readonly wallets = new Map<string, Wallet>();
  taker: Rate = DEFAULT_RATE;
  maker: Rate = DEFAULT_RATE;
  /** order and balance events of this user go to the event sink (Exchange.watchUser) */
  watched = false;
  /**
   * false: nobody reads this user's history (Exchange.disableHistory), so its done orders and fills are
   * unreadable at once and released like history older than the window (its trades stay on the public tape)
   */
  keepHistory = true;
  /** ref (see FillStore) of this user's most recent recorded fill (0: none); earlier ones via FillStore.prev */
  lastFill = 0;
  /** per-symbol order lists */
  readonly perSym = new Map<Sym, UserSym>();
  lastSym: Sym | null = null;
  lastUS: UserSym | null = null;
  /** clientOid → seq of the most recent order with it */
  readonly byClientOid = new Map<string, number>();
  /**
   * @param idx index in the exchange's user list (-1: a throw-away record of an order validation)
   * @param usList the exchange's list of per-user-per-symbol records (live orders refer to them by index)
   */
  constructor(
    readonly uid: string,
    readonly idx: number,
    private readonly usList: UserSym[],
  ) {}
  /** Order lists of this user on a symbol (created on first use; registered in usList unless throw-away). */
  us(s: Sym): UserSym {
    if (this.lastSym === s) return this.lastUS as UserSym;
    let u = this.perSym.get(s);
    if (!u) {
      u = new UserSym(this, s, this.idx < 0 ? -1 : this.usList.length);
      if (this.idx >= 0) this.usList.push(u);
      this.perSym.set(s, u);
    }
    this.lastSym = s;
    this.lastUS = u;
    return u;
  }
}

/** A user's orders on one symbol: list of active orders (live-order slots) + done orders (done order). */
export class UserSym {
  /**
   * @param idx index in the exchange's UserSym list (live orders keep it in LI_US), -1 for throw-away records
   */
  constructor(
    readonly user: User,
    readonly sym: Sym,
    readonly idx: number,
  ) {}
  /** slot of the newest active order, -1 when none (the list goes on through LI_ANEXT, newest first) */
  head = -1;
  /** cached trade accounts of the symbol's quote and base currency (set once they exist; wallets are never removed) */
  qAcc: Acc | null = null;
  bAcc: Acc | null = null;
}

/** Withdrawal hold record. */
export interface WHold {
  acc: Acc;
  user: User;
  amount: bigint;
  cur: string;
}
