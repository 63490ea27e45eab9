/**
 * The snapshot codec of the exchange core ({@link SnapshotCodec}): the whole engine as a stream of small
 * records ({@link SnapshotCodec.exportRecords}) and an engine rebuilt from them
 * ({@link SnapshotCodec.importRecords}, behind Exchange.importSnapshot). Pure: no I/O, no clock read beyond
 * the injected clock. The sandbox streams the records to disk (src/exchange/server/snapshot.ts encodes them)
 * and reads them back one at a time, so a snapshot is never held whole in memory.
 *
 * Everything observable later is captured, bit for bit (docs/engine.md, "Snapshots", lists it); not captured:
 * pool slots, level indexes, the GTT heap (rebuilt from the live GTT orders: its pop order is fixed by
 * (expireAt, seq)), event sink and watch flags, trade listeners (the caller registers them again).
 *
 * Records are plain objects of strings, numbers (non-finite ones included: the encoder must carry them),
 * BigInts as decimal strings, and typed arrays (Float64Array / Int32Array blocks of up to 4,096 records:
 * 128–416 KiB) that the encoder writes as bytes. Order: core, sym…, users…, us…, live…, book…, wholds,
 * dcp (only when a dead-man's switch is set), archive, achunk…, abig…, aext…, awide…, akept…, fills, fchunk…, fbig…, stops
 * (only once a stop or OCO order was placed: stops.ts), end. */
import { LEDGER_SCALE, RateTable, TIF_GTT, pow10 } from './base';
import { Sym, TAPE_MAX, TAPE_STRIDE, type Level } from './book';
import type { ArchiveData, ArchivedExt, ChunkData, KeptRecord, WideRecord } from './archive';
import { Archive } from './archive';
import { FillStore, type FillStoreData } from './fillstore';
import type { Invariants } from './invariants';
import type { Ledger } from './ledger';
import type { OrderBook } from './orderbook';
import type { StopBook, StopsSnapshot } from './stops';
import { Acc, User, UserSym, Wallet } from './accounts';
import {
  F_EXT,
  F_HIDDEN,
  F_IN_BOOK,
  F_SELL,
  F_TIF_SHIFT,
  LF_CANC,
  LF_CREATED,
  LF_DEAL,
  LF_DEALN,
  LF_FEEN,
  LF_HOLDN,
  LF_LOTS,
  LF_REMAIN,
  LF_SEQ,
  LF_SHOWN,
  LF_STRIDE,
  LF_TICKS,
  LF_UPDATED,
  LI_FLAGS,
  LI_MAKER,
  LI_NEXT,
  LI_PREV,
  LI_STRIDE,
  LI_TAKER,
  LI_US,
  OrderExt,
  type OrderRows,
} from './rows';
import type { CoreState } from './state';
import type { SymbolRules } from './types';

/** Version of the record format ({@link SnapshotRecord}). */
export const SNAPSHOT_VERSION = 1;
/** Entries per block record. */
const BLOCK = 1024;

/** An account: id, balanceB, balanceN, holdsB, holdsN, K (BigInts as decimal strings). */
export type AccRec = [string, string, number, string, number, number];
/** A user: uid, taker and maker rate ids, keeps history (1/0), last fill ref, wallets [currency, main, trade],
 * clientOid index [clientOid, seq]. */
export type UserRec = [string, number, number, number, number, [string, AccRec, AccRec][], [string, number][]];
/** An OrderExt: funds, remainFunds, cancelledFunds, cancelAfter, expireAt, visible, clientOid, remark, tags,
 * hold, dealB, feeB (BigInts as decimal strings). */
export type ExtRec = [string, string, string, number, number, number, string, string, string, string, string, string];
/** A live order: seq, UserSym index, flags, ticks, lots, remaining, shown, dealt, cancelled, Number hold,
 * dealN, feeN, createdAt, lastUpdatedAt, taker and maker rate ids, its OrderExt (0: none). */
export type LiveRec = [number, number, number, number, number, number, number, number, number, number, number, number, number, number, number, number, ExtRec | 0];

/** One record of a core snapshot (see the module doc for the order). */
export type SnapshotRecord =
  | {
      t: 'core';
      v: number;
      /** the latest clock value seen (the history window's end) */
      hw: number;
      orderSeq: number;
      fillSeq: number;
      accountSeq: number;
      holdSeq: number;
      relAt: number;
      relSeq: number;
      gttRebuildAt: number;
      rates: string[];
      currencies: [string, number][];
      fastScale: [string, number][];
      fees: [string, string][];
      deposited: [string, string][];
      withdrawn: [string, string][];
    }
  | {
      t: 'sym';
      rules: SymbolRules;
      qp: number;
      enableTrading: boolean;
      sequence: number;
      tradeSeq: number;
      tapeCount: number;
      /** index (in 0..tapeCount) of the first tape entry carried; entries before it are older than the window */
      tapeFrom: number;
      /** TAPE_STRIDE numbers per entry, from tapeFrom to tapeCount − 1 */
      tape: Float64Array;
      quoteK: number;
      baseK: number;
      quoteMulK: number;
      baseMulK: number;
    }
  | { t: 'users'; list: UserRec[] }
  /** user-and-symbol records in index order: user index, symbol index, trade accounts cached (1 quote, 2 base) */
  | { t: 'us'; list: number[] }
  | { t: 'live'; list: LiveRec[] }
  /** a book side's levels, worst first, each with its queue (seqs, oldest first) */
  | { t: 'book'; s: number; side: number; levels: [number, number[]][] }
  /** withdrawal holds: id, user index, currency, amount */
  | { t: 'wholds'; list: [string, number, string, string][] }
  /** dead-man's switches (CoreState.deadCancels): user index, timeout (s), symbols, triggerAt (ms); only when some is set */
  | { t: 'dcp'; list: [number, number, string[], number][] }
  | { t: 'archive'; count: number; sealedUpTo: number; retained: number[]; lastDone: Float64Array; keptDue: number; outside: number[] }
  | ({ t: 'achunk' } & ChunkData)
  | { t: 'abig'; list: [number, string[]][] }
  | { t: 'aext'; list: [number, ArchivedExt][] }
  | { t: 'awide'; list: [number, WideRecord][] }
  | { t: 'akept'; list: [number, KeptRecord][] }
  | { t: 'fills'; firstChunk: number; count: number }
  | { t: 'fchunk'; f: Float64Array; i: Int32Array; maxT: number }
  | { t: 'fbig'; list: [number, [string, string, string]][] }
  /** the stop book (stops.ts), present once a stop or OCO order was placed */
  | ({ t: 'stops' } & StopsSnapshot)
  | { t: 'end'; live: number; users: number; syms: number; us: number };

function* blocks<T>(list: readonly T[], make: (part: T[]) => SnapshotRecord): Generator<SnapshotRecord> {
  for (let i = 0; i < list.length; i += BLOCK) yield make(list.slice(i, i + BLOCK));
}

const big = (s: string): bigint => {
  if (!/^-?\d+$/.test(s)) throw new Error(`snapshot: ${s} is not an integer`);
  return BigInt(s);
};

function fail(msg: string): never {
  throw new Error(`snapshot: ${msg}`);
}

/** The engine to records and back. */
export class SnapshotCodec {
  private declare readonly rows: OrderRows;

  private declare readonly st: CoreState;
  private declare readonly ledger: Ledger;
  private declare readonly book: OrderBook;
  private declare readonly invariants: Invariants;
  private declare readonly stops: StopBook;

  constructor(st: CoreState, ledger: Ledger, book: OrderBook, invariants: Invariants, stops: StopBook) {
    this.stops = stops;
    this.st = st;
    this.ledger = ledger;
    this.book = book;
    this.invariants = invariants;
    this.rows = st.rows;
  }

  /**
   * The whole engine as records (see the module doc), produced lazily: consume them before the next command
   * (typed arrays are shared with the engine). A release pass at the clock's time runs first.
   */
  *exportRecords(): Generator<SnapshotRecord> {
    this.st.releaseHistory(this.st.now());
    this.ledger.flushFees();
    const dec = (m: Map<string, bigint>): [string, string][] => [...m].map(([k, v]) => [k, v.toString()]);
    yield {
      t: 'core',
      v: SNAPSHOT_VERSION,
      hw: this.st.hw,
      orderSeq: this.st.orderSeq,
      fillSeq: this.st.fillSeq,
      accountSeq: this.st.accountSeq,
      holdSeq: this.st.holdSeq,
      relAt: this.st.relAt,
      relSeq: this.st.relSeq,
      gttRebuildAt: this.st.gttRebuildAt,
      rates: this.st.rates.list(),
      currencies: [...this.st.currencies],
      fastScale: [...this.st.fastScale],
      fees: dec(this.st.fees),
      deposited: dec(this.st.deposited),
      withdrawn: dec(this.st.withdrawn),
    };
    const win = this.st.winStart(this.st.now());
    for (const s of this.st.symList) {
      let from = s.tapeCount;
      const t = s.tape;
      if (t !== null) {
        for (let i = Math.max(0, s.tapeCount - TAPE_MAX); i < s.tapeCount; i++) {
          if (t[(i % TAPE_MAX) * TAPE_STRIDE + 5] >= win) {
            from = i;
            break;
          }
        }
      }
      const tape = new Float64Array((s.tapeCount - from) * TAPE_STRIDE);
      for (let i = from; i < s.tapeCount; i++) tape.set((t as Float64Array).subarray((i % TAPE_MAX) * TAPE_STRIDE, (i % TAPE_MAX + 1) * TAPE_STRIDE), (i - from) * TAPE_STRIDE);
      yield {
        t: 'sym',
        rules: { ...s.rules },
        qp: s.quotePrecision,
        enableTrading: s.enableTrading,
        sequence: s.sequence,
        tradeSeq: s.tradeSeq,
        tapeCount: s.tapeCount,
        tapeFrom: from,
        tape,
        quoteK: s.quoteK,
        baseK: s.baseK,
        quoteMulK: s.quoteMulK,
        baseMulK: s.baseMulK,
      };
    }
    const acc = (a: Acc): AccRec => [a.id, a.balanceB.toString(), a.balanceN, a.holdsB.toString(), a.holdsN, a.K];
    yield* blocks(this.st.userList, (part) => ({
      t: 'users',
      list: part.map((u): UserRec => [u.uid, u.taker.id, u.maker.id, u.keepHistory ? 1 : 0, u.lastFill, [...u.wallets].map(([c, w]) => [c, acc(w.main), acc(w.trade)]), [...u.byClientOid]]),
    }));
    const flat: number[] = [];
    for (const us of this.st.usList) flat.push(us.user.idx, us.sym.idx, (us.qAcc !== null ? 1 : 0) | (us.bAcc !== null ? 2 : 0));
    for (let i = 0; i < flat.length; i += 3 * BLOCK) yield { t: 'us', list: flat.slice(i, i + 3 * BLOCK) };
    // live orders, by seq
    const slots: number[] = [];
    for (let slot = 0; slot < this.rows.liveSlots; slot++) if (this.st.liveOf(this.rows.lf[slot * LF_STRIDE + LF_SEQ]) === slot) slots.push(slot);
    slots.sort((a, b) => this.rows.lf[a * LF_STRIDE + LF_SEQ] - this.rows.lf[b * LF_STRIDE + LF_SEQ]);
    yield* blocks(slots, (part) => ({ t: 'live', list: part.map((o) => this.liveRec(o)) }));
    for (const s of this.st.symList) {
      for (const b of [s.bids, s.asks]) {
        if (b.count === 0) continue;
        const levels: [number, number[]][] = [];
        for (let i = 0; i < b.count; i++) {
          const lv = b.at(i) as Level;
          const q: number[] = [];
          for (let o = lv.head; o !== -1; o = this.rows.nextInLevel(o)) q.push(this.rows.seqAt(o));
          levels.push([lv.ticks, q]);
        }
        yield { t: 'book', s: s.idx, side: b.side, levels };
      }
    }
    yield { t: 'wholds', list: [...this.st.wholds].map(([id, h]) => [id, h.user.idx, h.cur, h.amount.toString()]) };
    // only when a switch is set: a snapshot without one reads the same in an engine that predates them
    if (this.st.deadCancels.size > 0) yield { t: 'dcp', list: [...this.st.deadCancels].map(([u, d]) => [u.idx, d.timeout, [...d.symbols], d.triggerAt]) };
    const a: ArchiveData = this.st.archive.exportData();
    yield { t: 'archive', count: a.count, sealedUpTo: a.sealedUpTo, retained: a.retained, lastDone: a.lastDone.subarray(0, this.st.usList.length), keptDue: a.keptDue, outside: a.outside };
    for (const ch of a.chunks) yield { t: 'achunk', ...ch };
    yield* blocks(a.big, (part) => ({ t: 'abig', list: part.map(([k, v]) => [k, v.map(String)]) }));
    yield* blocks(a.ext, (part) => ({ t: 'aext', list: part.map(([k, v]) => [k, { ...v }]) }));
    yield* blocks(a.wide, (part) => ({ t: 'awide', list: part.map(([k, v]) => [k, { ...v }]) }));
    yield* blocks(a.kept, (part) => ({ t: 'akept', list: part.map(([k, v]) => [k, { ...v }]) }));
    const f: FillStoreData = this.st.fillStore.exportData();
    yield { t: 'fills', firstChunk: f.firstChunk, count: f.count };
    for (const ch of f.chunks) yield { t: 'fchunk', f: ch.f, i: ch.i, maxT: ch.maxT };
    yield* blocks(f.big, (part) => ({ t: 'fbig', list: part.map(([k, v]) => [k, [String(v[0]), String(v[1]), String(v[2])]]) }));
    const stops = this.stops.exportData();
    if (stops.stopSeq > 0 || stops.ocoSeq > 0) yield { t: 'stops', ...stops };
    yield { t: 'end', live: slots.length, users: this.st.userList.length, syms: this.st.symList.length, us: this.st.usList.length };
  }

  /** The record of the live order in `slot`. */
  private liveRec(o: number): LiveRec {
    const lf = this.rows.lf;
    const li = this.rows.li;
    const k = o * LF_STRIDE;
    const j = o * LI_STRIDE;
    const x = this.rows.lx[o];
    const ext: ExtRec | 0 =
      x === null
        ? 0
        : [x.funds.toString(), x.remainFunds.toString(), x.cancelledFunds.toString(), x.cancelAfter, x.expireAt, x.visible, x.clientOid, x.remark, x.tags, x.hold.toString(), x.dealB.toString(), x.feeB.toString()];
    return [
      lf[k + LF_SEQ],
      li[j + LI_US],
      li[j + LI_FLAGS],
      lf[k + LF_TICKS],
      lf[k + LF_LOTS],
      lf[k + LF_REMAIN],
      lf[k + LF_SHOWN],
      lf[k + LF_DEAL],
      lf[k + LF_CANC],
      lf[k + LF_HOLDN],
      lf[k + LF_DEALN],
      lf[k + LF_FEEN],
      lf[k + LF_CREATED],
      lf[k + LF_UPDATED],
      li[j + LI_TAKER],
      li[j + LI_MAKER],
      ext,
    ];
  }

  /**
   * Rebuild this (freshly constructed, untouched) engine from a snapshot's records, in order; then check the
   * live state and the ledger (checkInvariants without the per-order checks of done orders).
   * @throws Error ("snapshot: …") on a record out of place, a value that does not fit, or a failed invariant.
   */
  importRecords(records: Iterable<SnapshotRecord>): void {
    const ORDER = ['core', 'sym', 'users', 'us', 'live', 'book', 'wholds', 'dcp', 'archive', 'achunk', 'abig', 'aext', 'awide', 'akept', 'fills', 'fchunk', 'fbig', 'stops', 'end'];
    const ONCE = new Set(['core', 'wholds', 'dcp', 'archive', 'fills', 'stops', 'end']);
    let at = -1;
    const slotOf = new Map<number, number>();
    const queued = new Set<number>();
    let arch: ArchiveData | null = null;
    let fills: FillStoreData | null = null;
    let ended = false;
    const userAt = (i: number): User => this.st.userList[i] ?? fail(`no user ${i}`);
    const finishArchive = (): void => {
      if (arch === null) fail('archive missing');
      this.st.archive = Archive.importData(arch);
      for (const seq of arch.outside) if (!slotOf.has(seq)) fail(`order ${seq} kept aside as live is not live`);
      for (const [seq, slot] of slotOf) {
        if (this.st.archive.hasDone(seq)) fail(`live order ${seq} is done in the archive`);
        this.st.archive.setSlot(seq, slot);
        if (this.st.archive.slotOf(seq) !== slot) fail(`live order ${seq} has no archive record`);
      }
      arch = null;
    };
    for (const r of records) {
      if (ended) fail('records after the end');
      const k = ORDER.indexOf(r.t);
      if (k < at || k < 0 || (k === at && ONCE.has(r.t)) || (at < 0 && r.t !== 'core')) fail(`record ${r.t} out of place`);
      if (k > at && at <= ORDER.indexOf('akept') && k >= ORDER.indexOf('fills')) finishArchive();
      at = k;
      switch (r.t) {
        case 'core': {
          if (r.v !== SNAPSHOT_VERSION) fail(`format version ${r.v} is not supported (this engine reads ${SNAPSHOT_VERSION})`);
          this.st.hw = r.hw;
          this.st.orderSeq = r.orderSeq;
          this.st.fillSeq = r.fillSeq;
          this.st.accountSeq = r.accountSeq;
          this.st.holdSeq = r.holdSeq;
          this.st.setRelAt(r.relAt);
          this.st.relSeq = r.relSeq;
          this.st.gttRebuildAt = r.gttRebuildAt;
          this.st.rates = RateTable.from(r.rates);
          for (const [c, p] of r.currencies) this.st.currencies.set(c, p);
          for (const [c, kk] of r.fastScale) this.st.fastScale.set(c, kk);
          for (const [c, v] of r.fees) this.st.fees.set(c, big(v));
          for (const [c, v] of r.deposited) this.st.deposited.set(c, big(v));
          for (const [c, v] of r.withdrawn) this.st.withdrawn.set(c, big(v));
          break;
        }
        case 'sym': {
          const s = new Sym(r.rules, r.qp, this.st.symList.length);
          s.enableTrading = r.enableTrading;
          s.sequence = r.sequence;
          s.tradeSeq = r.tradeSeq;
          s.tapeCount = r.tapeCount;
          s.quoteK = r.quoteK;
          s.baseK = r.baseK;
          s.quoteMulK = r.quoteMulK;
          s.baseMulK = r.baseMulK;
          const n = r.tapeCount - r.tapeFrom;
          if (n < 0 || n > TAPE_MAX || r.tape.length !== n * TAPE_STRIDE) fail(`tape of ${r.rules.symbol} does not fit its count`);
          if (r.tapeCount > 0) {
            const tape = new Float64Array(TAPE_MAX * TAPE_STRIDE);
            // entries not carried are older than the window: never shown
            for (let i = 5; i < tape.length; i += TAPE_STRIDE) tape[i] = -Infinity;
            for (let i = r.tapeFrom; i < r.tapeCount; i++) tape.set(r.tape.subarray((i - r.tapeFrom) * TAPE_STRIDE, (i - r.tapeFrom + 1) * TAPE_STRIDE), (i % TAPE_MAX) * TAPE_STRIDE);
            s.tape = tape;
          }
          if (this.st.syms.has(r.rules.symbol)) fail(`symbol ${r.rules.symbol} twice`);
          this.st.syms.set(r.rules.symbol, s);
          this.st.symList.push(s);
          break;
        }
        case 'users':
          for (const [uid, taker, maker, keep, lastFill, wallets, coids] of r.list) {
            if (this.st.users[uid] !== undefined) fail(`user ${uid} twice`);
            const u = new User(uid, this.st.userList.length, this.st.usList);
            u.taker = this.st.rates.objs[taker] ?? fail(`rate id ${taker}`);
            u.maker = this.st.rates.objs[maker] ?? fail(`rate id ${maker}`);
            u.keepHistory = keep === 1;
            u.lastFill = lastFill;
            for (const [cur, m, t] of wallets) u.wallets.set(cur, new Wallet(this.accFrom(m, cur, 'main'), this.accFrom(t, cur, 'trade')));
            for (const [c, seq] of coids) u.byClientOid.set(c, seq);
            this.st.userList.push(u);
            this.st.users[uid] = u;
          }
          break;
        case 'us':
          for (let i = 0; i < r.list.length; i += 3) {
            const u = userAt(r.list[i]);
            const s = this.st.symList[r.list[i + 1]] ?? fail(`no symbol ${r.list[i + 1]}`);
            if (u.perSym.has(s)) fail(`user ${u.uid} on ${s.rules.symbol} twice`);
            const us = new UserSym(u, s, this.st.usList.length);
            this.st.usList.push(us);
            u.perSym.set(s, us);
            const bits = r.list[i + 2];
            if ((bits & 1) !== 0) us.qAcc = (u.wallets.get(s.rules.quoteCurrency) ?? fail(`${u.uid} has no ${s.rules.quoteCurrency}`)).trade;
            if ((bits & 2) !== 0) us.bAcc = (u.wallets.get(s.rules.baseCurrency) ?? fail(`${u.uid} has no ${s.rules.baseCurrency}`)).trade;
          }
          break;
        case 'live':
          for (const rec of r.list) this.loadLive(rec, slotOf);
          break;
        case 'book': {
          const s = this.st.symList[r.s] ?? fail(`no symbol ${r.s}`);
          const side = r.side === 0 ? s.bids : r.side === 1 ? s.asks : fail(`bad side ${r.side}`);
          for (const [ticks, q] of r.levels) {
            if (q.length === 0 || side.map.get(ticks) !== undefined) fail(`level ${ticks} of ${s.rules.symbol} empty or twice`);
            const lv = side.getOrCreate(ticks);
            for (const seq of q) {
              const o = slotOf.get(seq) ?? fail(`queued order ${seq} is not live`);
              const fl = this.rows.flags(o);
              if (queued.has(seq) || (fl & F_IN_BOOK) === 0 || (fl & F_SELL) !== r.side || this.rows.priceTicks(o) !== ticks || this.st.usOf(o).sym !== s) fail(`order ${seq} does not belong in level ${ticks}`);
              queued.add(seq);
              const j = o * LI_STRIDE;
              this.rows.li[j + LI_PREV] = lv.tail;
              this.rows.li[j + LI_NEXT] = -1;
              if (lv.tail !== -1) this.rows.li[lv.tail * LI_STRIDE + LI_NEXT] = o;
              else lv.head = o;
              lv.tail = o;
              if ((fl & F_HIDDEN) === 0) lv.size += this.rows.shownLots(o);
            }
          }
          break;
        }
        case 'wholds':
          for (const [id, ui, cur, amount] of r.list) {
            const u = userAt(ui);
            const w = u.wallets.get(cur) ?? fail(`withdrawal hold ${id} of a currency the user has no wallet of`);
            this.st.wholds.set(id, { acc: w.main, user: u, amount: big(amount), cur });
          }
          break;
        case 'dcp':
          for (const [ui, timeout, symbols, triggerAt] of r.list) {
            for (const n of symbols) if (!this.st.syms.has(n)) fail(`dead-man's switch of user ${ui} names unknown symbol ${n}`);
            this.st.deadCancels.set(userAt(ui), { timeout, symbols: [...symbols], triggerAt });
          }
          this.st.nextDeadCancel();
          break;
        case 'archive':
          arch = { count: r.count, sealedUpTo: r.sealedUpTo, chunks: [], retained: r.retained, lastDone: r.lastDone, big: [], ext: [], wide: [], outside: r.outside, kept: [], keptDue: r.keptDue };
          break;
        case 'achunk': {
          const { t: _t, ...ch } = r;
          (arch ?? fail('chunk before the archive')).chunks.push(ch);
          break;
        }
        case 'abig':
          for (const [seq, v] of r.list) (arch ?? fail('archive missing')).big.push([seq, v.map(big)]);
          break;
        case 'aext':
          (arch ?? fail('archive missing')).ext.push(...r.list);
          break;
        case 'awide':
          (arch ?? fail('archive missing')).wide.push(...r.list);
          break;
        case 'akept':
          (arch ?? fail('archive missing')).kept.push(...r.list);
          break;
        case 'fills':
          fills = { firstChunk: r.firstChunk, count: r.count, chunks: [], big: [] };
          break;
        case 'fchunk':
          (fills ?? fail('fill chunk before the fill store')).chunks.push({ f: r.f, i: r.i, maxT: r.maxT });
          break;
        case 'fbig':
          for (const [pos, v] of r.list) (fills ?? fail('fill store missing')).big.push([pos, [big(v[0]), big(v[1]), big(v[2])]]);
          break;
        case 'stops':
          this.stops.importData(r);
          break;
        case 'end':
          if (fills === null) fail('fill store missing');
          this.st.fillStore = FillStore.importData(fills);
          if (r.live !== slotOf.size || r.users !== this.st.userList.length || r.syms !== this.st.symList.length || r.us !== this.st.usList.length) fail('counts at the end do not match the records');
          ended = true;
          break;
      }
    }
    if (!ended) fail('the end record is missing (torn snapshot)');
    for (const [seq, o] of slotOf) if ((this.rows.flags(o) & F_IN_BOOK) !== 0 && !queued.has(seq)) fail(`order ${seq} rests in no level`);
    try {
      this.invariants.check({ done: false });
    } catch (e) {
      fail((e as Error).message);
    }
  }

  /** An account from its record. */
  private accFrom(r: AccRec, cur: string, type: 'main' | 'trade'): Acc {
    const [id, balanceB, balanceN, holdsB, holdsN, K] = r;
    const a = new Acc(id, cur, type);
    a.balanceB = big(balanceB);
    a.balanceN = balanceN;
    a.holdsB = big(holdsB);
    a.holdsN = holdsN;
    a.K = K;
    a.U = K >= 0 ? pow10(LEDGER_SCALE - K) : 1n;
    a.dirty = true;
    return a;
  }

  /** A live order from its record: a row in a fresh slot, its OrderExt, the owner's active list, its GTT entry. */
  private loadLive(r: LiveRec, slotOf: Map<number, number>): void {
    const [seq, usIdx, flags, ticks, lots, remain, shown, deal, canc, holdN, dealN, feeN, created, updated, taker, maker, ext] = r;
    const us = this.st.usList[usIdx] ?? fail(`order ${seq} of no user-and-symbol record`);
    if (slotOf.has(seq) || !(seq >= 1 && seq <= this.st.orderSeq)) fail(`live order ${seq} twice or out of range`);
    if (this.st.rates.objs[taker] === undefined || this.st.rates.objs[maker] === undefined) fail(`order ${seq}: unknown rate id`);
    if (((flags & F_EXT) !== 0) !== (ext !== 0)) fail(`order ${seq}: F_EXT out of step with its fields`);
    const o = this.rows.allocSlot();
    this.rows.writeRow(o, seq, ticks, lots, shown, holdN, created, flags, usIdx, taker, maker);
    const lf = this.rows.lf;
    const k = o * LF_STRIDE;
    lf[k + LF_REMAIN] = remain;
    lf[k + LF_DEAL] = deal;
    lf[k + LF_CANC] = canc;
    lf[k + LF_DEALN] = dealN;
    lf[k + LF_FEEN] = feeN;
    lf[k + LF_UPDATED] = updated;
    if (ext !== 0) {
      const x = new OrderExt(null);
      x.funds = big(ext[0]);
      x.remainFunds = big(ext[1]);
      x.cancelledFunds = big(ext[2]);
      x.cancelAfter = ext[3];
      x.expireAt = ext[4];
      x.visible = ext[5];
      x.clientOid = ext[6];
      x.remark = ext[7];
      x.tags = ext[8];
      x.hold = big(ext[9]);
      x.dealB = big(ext[10]);
      x.feeB = big(ext[11]);
      this.rows.lx[o] = x;
      if ((flags & F_IN_BOOK) !== 0 && ((flags >> F_TIF_SHIFT) & 3) === TIF_GTT) this.st.gtt.push({ expireAt: x.expireAt, seq });
    }
    // active lists hold resting orders newest first: records come oldest first
    if ((flags & F_IN_BOOK) !== 0) this.book.pushActive(us, o);
    slotOf.set(seq, o);
  }
}
