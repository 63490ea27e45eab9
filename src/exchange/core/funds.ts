/**
 * The engine's wallets outside trading (Exchange delegates to it; docs/engine.md, "Parts"): the accounts view,
 * deposits, main ↔ trade transfers and withdrawal holds. Every mutating method either succeeds completely or
 * throws ExchangeError having changed nothing, and emits the balance events of watched users.
 */
import { fromUnits, toUnits } from '../../api/decimal';
import { E_BALANCE, ExchangeError } from './errors';
import type { Account, AccountType } from './types';
import { LEDGER_SCALE, ZERO, perr } from './base';
import type { EventPublisher } from './events';
import type { OrderBook } from './orderbook';
import type { CoreState } from './state';

/** Accounts, deposits, transfers and withdrawal holds; each method is documented where Exchange exposes it. */
export class Funds {
  constructor(
    private readonly st: CoreState,
    private readonly book: OrderBook,
    private readonly events: EventPublisher,
  ) {}

  /** Exchange.accounts. */
  accounts(uid: string, f: { currency?: string; type?: AccountType } = {}): Account[] {
    this.book.expire(this.st.now());
    const u = this.st.users[uid];
    if (!u) return [];
    const out: Account[] = [];
    for (const [cur, w] of u.wallets) {
      if (f.currency !== undefined && f.currency !== cur) continue;
      for (const a of [w.main, w.trade]) {
        if (f.type !== undefined && f.type !== a.type) continue;
        out.push({
          id: a.id,
          currency: cur,
          type: a.type,
          balance: fromUnits(a.balance, LEDGER_SCALE),
          available: fromUnits(a.balance - a.holds, LEDGER_SCALE),
          holds: fromUnits(a.holds, LEDGER_SCALE),
        });
      }
    }
    return out;
  }

  /** Exchange.deposit. */
  deposit(uid: string, currency: string, amount: string): void {
    const now = this.st.now();
    this.book.expire(now);
    const v = this.st.amount(currency, amount);
    const u = this.st.user(uid);
    const a = this.st.wallet(u, currency).main;
    a.addBalance(v);
    this.st.deposited.set(currency, (this.st.deposited.get(currency) ?? ZERO) + v);
    if (u.watched) {
      this.st.tNow = now;
      this.events.emitBalance(a, u, 'main.deposit', '');
    }
  }

  /** Exchange.transfer. */
  transfer(uid: string, currency: string, from: AccountType, to: AccountType, amount: string): void {
    const now = this.st.now();
    this.book.expire(now);
    const v = this.st.amount(currency, amount);
    if ((from !== 'main' && from !== 'trade') || (to !== 'main' && to !== 'trade') || from === to) {
      throw perr('from and to must be main and trade (different)');
    }
    const u = this.st.user(uid);
    const w = this.st.wallet(u, currency);
    const src = w[from];
    if (src.balance - src.holds < v) throw new ExchangeError(E_BALANCE, 'Balance insufficient!');
    src.addBalance(-v);
    w[to].addBalance(v);
    if (u.watched) {
      this.st.tNow = now;
      this.events.emitBalance(src, u, `${from}.transfer`, '');
      this.events.emitBalance(w[to], u, `${to}.transfer`, '');
    }
  }

  /** Exchange.holdWithdrawal. */
  holdWithdrawal(uid: string, currency: string, amount: string): string {
    const now = this.st.now();
    this.book.expire(now);
    const v = this.st.amount(currency, amount);
    const u = this.st.user(uid);
    const a = this.st.wallet(u, currency).main;
    if (a.balance - a.holds < v) throw new ExchangeError(E_BALANCE, 'Balance insufficient!');
    a.addHoldsBig(v);
    const id = `wh${++this.st.holdSeq}`;
    this.st.wholds.set(id, { acc: a, user: u, amount: v, cur: currency });
    if (u.watched) {
      this.st.tNow = now;
      this.events.emitBalance(a, u, 'main.withdraw_hold', id);
    }
    return id;
  }

  /** Exchange.settleWithdrawal. */
  settleWithdrawal(holdId: string, fee: string): void {
    const h = this.st.wholds.get(holdId);
    if (!h) throw perr('withdrawal hold not exists');
    let f: bigint;
    try {
      f = toUnits(fee, LEDGER_SCALE);
    } catch {
      throw perr('fee must be a decimal');
    }
    if (f < 0n || f > h.amount) throw perr('fee must be between 0 and the held amount');
    this.st.wholds.delete(holdId);
    h.acc.addHoldsBig(-h.amount);
    h.acc.addBalance(-h.amount);
    this.st.fees.set(h.cur, (this.st.fees.get(h.cur) ?? ZERO) + f);
    this.st.withdrawn.set(h.cur, (this.st.withdrawn.get(h.cur) ?? ZERO) + h.amount - f);
    if (h.user.watched) {
      this.st.tNow = this.st.now();
      this.events.emitBalance(h.acc, h.user, 'main.withdraw_done', holdId);
    }
  }

  /** Exchange.releaseWithdrawal. */
  releaseWithdrawal(holdId: string): void {
    const h = this.st.wholds.get(holdId);
    if (!h) throw perr('withdrawal hold not exists');
    this.st.wholds.delete(holdId);
    h.acc.addHoldsBig(-h.amount);
    if (h.user.watched) {
      this.st.tNow = this.st.now();
      this.events.emitBalance(h.acc, h.user, 'main.other', holdId);
    }
  }
}
