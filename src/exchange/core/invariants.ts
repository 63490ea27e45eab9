/**
 * Invariants of the exchange core ({@link Invariants}): every ledger and book invariant, checked from scratch
 * by walking all orders, accounts and levels (tests, a restored snapshot and the sandbox's admin endpoint call
 * it through Exchange.checkInvariants; it is O(everything)).
 */
import { fromUnits } from '../../api/decimal';
import { BUY, LEDGER_SCALE, ZERO, orderIdString } from './base';
import type { Level } from './book';
import type { Acc } from './accounts';
import type { Ledger } from './ledger';
import {
  F_ACTIVE,
  F_EXT,
  F_HIDDEN,
  F_IN_BOOK,
  F_SELL,
  LF_HOLDN,
  LF_SEQ,
  LF_SHOWN,
  LF_STRIDE,
  LF_TICKS,
  LI_ANEXT,
  LI_APREV,
  LI_FLAGS,
  LI_NEXT,
  LI_PREV,
  LI_STRIDE,
  LI_US,
  type OrderRows,
  type OrderState,
} from './rows';
import type { CoreState } from './state';

/** The invariant check. */
export class Invariants {
  private declare readonly rows: OrderRows;

  private declare readonly st: CoreState;
  private declare readonly ledger: Ledger;

  constructor(st: CoreState, ledger: Ledger) {
    this.st = st;
    this.ledger = ledger;
    this.rows = st.rows;
  }

  /**
   * Check every ledger and book invariant; throws an Error describing the first violation:
   * per currency Σ balances + collected fees = deposits − withdrawals; every account's holds = what its
   * open orders / pending withdrawals reserve, 0 ≤ holds ≤ balance; books not crossed; each level's size =
   * Σ visible lots of its orders; each order dealSize + remainSize + cancelledSize = size (funds likewise
   * for funds orders); done orders hold nothing. `opts.done: false` skips the per-order checks of done orders
   * (a restored snapshot's quick check: live state and ledger only).
   */
  check(opts: { done?: boolean } = {}): void {
    const checkDone = opts.done !== false;
    const fail = (m: string): never => {
      throw new Error(`invariant violated: ${m}`);
    };
    this.ledger.flushFees();
    const lf = this.rows.lf;
    const li = this.rows.li;
    let activeCount = 0;
    const total = new Map<string, bigint>();
    const reserved = new Map<Acc, bigint>();
    const addR = (a: Acc, v: bigint): void => {
      reserved.set(a, (reserved.get(a) ?? ZERO) + v);
    };
    for (const h of this.st.wholds.values()) addR(h.acc, h.amount);
    const book = this.st.archive.checkBookkeeping();
    if (book !== '') fail(`archive: ${book}`);
    for (const seq of this.st.archive.seqs()) {
      const live = this.st.liveOf(seq);
      if (live < 0 && !checkDone) continue;
      const o: OrderState = live >= 0 ? this.st.liveState(live) : this.st.archive.get(seq, this.st.usList);
      const id = orderIdString(seq);
      if (o.seq !== seq) fail(`order ${id}: archived under the wrong seq`);
      if (o.funds < 0n) {
        if (o.deal + o.remain + o.cancelled !== o.sizeLots) fail(`order ${id}: deal+remain+cancelled != size`);
      } else if (o.dealFunds + o.remainFunds + o.cancelledFunds !== o.funds) {
        fail(`order ${id}: dealFunds+remainFunds+cancelledFunds != funds`);
      }
      if (o.remain < 0 || o.remainFunds < 0n) fail(`order ${id}: negative remaining`);
      if (live < 0) {
        if (o.active || o.inBook || o.remain !== 0) fail(`done order ${id} still active`);
        continue;
      }
      const k = live * LF_STRIDE;
      const lh = this.ledger.holdBig(live);
      const x = this.rows.lx[live];
      if (!o.active || lh < 0n) fail(`live order ${id} not active or negative hold`);
      if (lf[k + LF_HOLDN] >= 0 && x !== null && x.hold !== ZERO) fail(`order ${id} holds on both paths`);
      if (o.remain <= 0) fail(`active order ${id} has nothing remaining`);
      if (!o.inBook || o.market || this.st.levelOf(live) === undefined) fail(`active order ${id} not resting in the book`);
      const expect = this.ledger.holdFor(live);
      if (lh !== expect) fail(`order ${id} holds ${lh}, expected ${expect}`);
      const w = o.user.wallets.get(o.side === BUY ? o.sym.rules.quoteCurrency : o.sym.rules.baseCurrency);
      if (!w || this.st.accOf(live) !== w.trade) fail(`order ${id} has no account`);
      else addR(w.trade, lh);
      const shown = lf[k + LF_SHOWN];
      if (shown <= 0 || shown > o.remain) fail(`order ${id} shown ${shown} of remain ${o.remain}`);
      if (!o.iceberg && shown !== o.remain) fail(`order ${id} shown != remain`);
      activeCount++;
    }
    let pooled = 0;
    for (let slot = 0; slot < this.rows.liveSlots; slot++) if (this.st.liveOf(lf[slot * LF_STRIDE + LF_SEQ]) === slot) pooled++;
    if (pooled !== activeCount || this.rows.liveSlots - this.rows.freeSlots.length !== activeCount || this.rows.lx.length !== this.rows.liveSlots) {
      fail('order pool out of step with live orders');
    }
    for (const slot of this.rows.freeSlots) if (this.rows.lx[slot] !== null) fail(`free slot ${slot} keeps order fields`);
    for (let slot = 0; slot < this.rows.liveSlots; slot++) {
      const live = this.st.liveOf(lf[slot * LF_STRIDE + LF_SEQ]) === slot;
      if (live && ((li[slot * LI_STRIDE + LI_FLAGS] & F_EXT) !== 0) !== (this.rows.lx[slot] !== null)) fail(`slot ${slot}: F_EXT out of step with its OrderExt`);
    }
    let listed = 0;
    for (const u of this.st.userList) {
      for (const us of u.perSym.values()) {
        if (this.st.usList[us.idx] !== us) fail(`${u.uid}: unregistered order list`);
        let prev = -1;
        for (let o = us.head; o !== -1; o = li[o * LI_STRIDE + LI_ANEXT]) {
          const j = o * LI_STRIDE;
          if ((li[j + LI_FLAGS] & F_ACTIVE) === 0 || li[j + LI_US] !== us.idx || li[j + LI_APREV] !== prev) fail(`${u.uid}: broken active-order list`);
          prev = o;
          listed++;
        }
      }
    }
    if (listed !== activeCount) fail(`active-order lists hold ${listed} orders, ${activeCount} are active`);
    for (const u of this.st.userList) {
      for (const [cur, w] of u.wallets) {
        for (const a of [w.main, w.trade]) {
          total.set(cur, (total.get(cur) ?? ZERO) + a.balance);
          const r = reserved.get(a) ?? ZERO;
          if (a.holds !== r) fail(`${u.uid} ${cur} ${a.type}: holds ${fromUnits(a.holds, LEDGER_SCALE)} != reserved ${fromUnits(r, LEDGER_SCALE)}`);
          if (a.holds < 0n || a.balance - a.holds < 0n) fail(`${u.uid} ${cur} ${a.type}: available < 0 or holds < 0`);
        }
      }
    }
    for (const cur of new Set([...total.keys(), ...this.st.deposited.keys(), ...this.st.fees.keys()])) {
      const lhs = (total.get(cur) ?? ZERO) + (this.st.fees.get(cur) ?? ZERO);
      const rhs = (this.st.deposited.get(cur) ?? ZERO) - (this.st.withdrawn.get(cur) ?? ZERO);
      if (lhs !== rhs) fail(`${cur}: balances+fees ${fromUnits(lhs, LEDGER_SCALE)} != deposits-withdrawals ${fromUnits(rhs, LEDGER_SCALE)}`);
    }
    for (const s of this.st.syms.values()) {
      for (const b of [s.bids, s.asks]) {
        if (b.count !== b.map.size) fail(`${s.rules.symbol}: level index mismatch`);
        if (b.best() !== (b.count > 0 ? b.at(b.count - 1) : undefined)) fail(`${s.rules.symbol}: best level is not the last`);
        for (let i = 0; i < b.count; i++) {
          const lv = b.at(i) ?? fail(`${s.rules.symbol}: level at index ${i} not indexed`);
          const pv = i > 0 ? (b.at(i - 1) as Level) : undefined;
          if (pv !== undefined && (b.side === BUY ? pv.ticks >= lv.ticks : pv.ticks <= lv.ticks)) {
            fail(`${s.rules.symbol}: levels not sorted`);
          }
          if (lv.head === -1) fail(`${s.rules.symbol}: empty level ${lv.ticks}`);
          let sum = 0;
          let prev = -1;
          for (let o = lv.head; o !== -1; o = li[o * LI_STRIDE + LI_NEXT]) {
            const j = o * LI_STRIDE;
            const fl = li[j + LI_FLAGS];
            const us = this.st.usList[li[j + LI_US]];
            if (
              li[j + LI_PREV] !== prev ||
              lf[o * LF_STRIDE + LF_TICKS] !== lv.ticks ||
              (fl & F_SELL) !== b.side ||
              (fl & (F_ACTIVE | F_IN_BOOK)) !== (F_ACTIVE | F_IN_BOOK) ||
              us === undefined ||
              us.sym !== s ||
              this.st.liveOf(lf[o * LF_STRIDE + LF_SEQ]) !== o
            ) {
              fail(`${s.rules.symbol}: broken level ${lv.ticks}`);
            }
            if ((fl & F_HIDDEN) === 0) sum += lf[o * LF_STRIDE + LF_SHOWN];
            prev = o;
          }
          if (lv.tail !== prev) fail(`${s.rules.symbol}: bad tail at ${lv.ticks}`);
          if (sum !== lv.size) fail(`${s.rules.symbol}: level ${lv.ticks} size ${lv.size} != ${sum}`);
        }
      }
      const bb = s.bids.best();
      const ba = s.asks.best();
      if (bb && ba && bb.ticks >= ba.ticks) fail(`${s.rules.symbol}: crossed book ${bb.ticks} >= ${ba.ticks}`);
    }
  }
}
