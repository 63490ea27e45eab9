/**
 * Snapshots of the exchange core ({@link Snapshots}, the layer over Invariants): the whole engine as a stream
 * of small records ({@link Snapshots.exportSnapshot}) and an engine rebuilt from them
 * ({@link Snapshots.loadSnapshot}, behind Exchange.importSnapshot). Pure: no I/O, no clock read beyond the
 * injected clock. The sandbox streams the records to disk (src/exchange/server/snapshot.ts encodes them) and
 * reads them back one at a time, so a snapshot is never held whole in memory.
 *
 * What is captured is everything observable later, bit for bit: counters (order, fill, account and hold
 * sequences; per symbol the book sequence, trade counter and public tape within the window), the fee-rate
 * table (ids included), reference data with the derived Number-path factors, users in creation order with
 * their wallets (raw BigInt and Number parts of balances and holds), clientOid index and fill chain, every
 * user-and-symbol record in order (archive records refer to them by index), live orders (every field, their
 * OrderExt, the queue order of each price level), withdrawal holds, collected fees, and the history still
 * kept: archive chunks as they are (live orders' slots zeroed: slots are rebuilt), their side maps and the
 * fill store's chunks. A release pass runs first, so nothing older than the 3 × 24 h window goes out.
 * Not captured: pool slots, level indexes, the GTT heap (rebuilt from the live GTT orders: its pop order is
 * fixed by (expireAt, seq)), event sink and watch flags, trade listeners (the caller registers them again).
 *
 * Records are plain objects of strings, numbers (non-finite ones included: the encoder must carry them),
 * BigInts as decimal strings, and typed arrays (Float64Array / Int32Array blocks of up to 4,096 records:
 * 128–416 KiB) that the encoder writes as bytes. Order: core, sym…, users…, us…, live…, book…, wholds,
 * archive, achunk…, abig…, aext…, awide…, akept…, fills, fchunk…, fbig…, end.
 */
import { LEDGER_SCALE, RateTable, TIF_GTT, pow10 } from './base';
import { Sym, TAPE_MAX, TAPE_STRIDE, type Level } from './book';
import type { ArchiveData, ArchivedExt, ChunkData, KeptRecord, WideRecord } from './archive';
import { Archive } from './archive';
import { FillStore, type FillStoreData } from './fillstore';
import { Invariants } from './invariants';
import { Acc, User, UserSym, Wallet } from './ledger';
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
} from './rows';
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
  | { t: 'archive'; count: number; sealedUpTo: number; retained: number[]; lastDone: Float64Array; keptDue: number; outside: number[] }
  | ({ t: 'achunk' } & ChunkData)
  | { t: 'abig'; list: [number, string[]][] }
  | { t: 'aext'; list: [number, ArchivedExt][] }
  | { t: 'awide'; list: [number, WideRecord][] }
  | { t: 'akept'; list: [number, KeptRecord][] }
  | { t: 'fills'; firstChunk: number; count: number }
  | { t: 'fchunk'; f: Float64Array; i: Int32Array; maxT: number }
  | { t: 'fbig'; list: [number, [string, string, string]][] }
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

/** exportSnapshot / loadSnapshot. */
export abstract class Snapshots extends Invariants {
  /**
   * The whole engine as records (see the module doc), produced lazily: consume them before the next command
   * (typed arrays are shared with the engine). A release pass at the clock's time runs first.
   */
  *exportSnapshot(): Generator<SnapshotRecord> {
    this.releaseHistory(this.now());
    this.flushFees();
    const dec = (m: Map<string, bigint>): [string, string][] => [...m].map(([k, v]) => [k, v.toString()]);
    yield {
      t: 'core',
      v: SNAPSHOT_VERSION,
      hw: this.hw,
      orderSeq: this.orderSeq,
      fillSeq: this.fillSeq,
      accountSeq: this.accountSeq,
      holdSeq: this.holdSeq,
      relAt: this.relAt,
      relSeq: this.relSeq,
      gttRebuildAt: this.gttRebuildAt,
      rates: this.rates.list(),
      currencies: [...this.currencies],
      fastScale: [...this.fastScale],
      fees: dec(this.fees),
      deposited: dec(this.deposited),
      withdrawn: dec(this.withdrawn),
    };
    const win = this.winStart(this.now());
    for (const s of this.symList) {
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
    yield* blocks(this.userList, (part) => ({
      t: 'users',
      list: part.map((u): UserRec => [u.uid, u.taker.id, u.maker.id, u.keepHistory ? 1 : 0, u.lastFill, [...u.wallets].map(([c, w]) => [c, acc(w.main), acc(w.trade)]), [...u.byClientOid]]),
    }));
    const flat: number[] = [];
    for (const us of this.usList) flat.push(us.user.idx, us.sym.idx, (us.qAcc !== null ? 1 : 0) | (us.bAcc !== null ? 2 : 0));
    for (let i = 0; i < flat.length; i += 3 * BLOCK) yield { t: 'us', list: flat.slice(i, i + 3 * BLOCK) };
    // live orders, by seq
    const slots: number[] = [];
    for (let slot = 0; slot < this.liveSlots; slot++) if (this.liveOf(this.lf[slot * LF_STRIDE + LF_SEQ]) === slot) slots.push(slot);
    slots.sort((a, b) => this.lf[a * LF_STRIDE + LF_SEQ] - this.lf[b * LF_STRIDE + LF_SEQ]);
    yield* blocks(slots, (part) => ({ t: 'live', list: part.map((o) => this.liveRec(o)) }));
    for (const s of this.symList) {
      for (const b of [s.bids, s.asks]) {
        if (b.count === 0) continue;
        const levels: [number, number[]][] = [];
        for (let i = 0; i < b.count; i++) {
          const lv = b.at(i) as Level;
          const q: number[] = [];
          for (let o = lv.head; o !== -1; o = this.nextInLevel(o)) q.push(this.seqAt(o));
          levels.push([lv.ticks, q]);
        }
        yield { t: 'book', s: s.idx, side: b.side, levels };
      }
    }
    yield { t: 'wholds', list: [...this.wholds].map(([id, h]) => [id, h.user.idx, h.cur, h.amount.toString()]) };
    const a: ArchiveData = this.archive.exportData();
    yield { t: 'archive', count: a.count, sealedUpTo: a.sealedUpTo, retained: a.retained, lastDone: a.lastDone.subarray(0, this.usList.length), keptDue: a.keptDue, outside: a.outside };
    for (const ch of a.chunks) yield { t: 'achunk', ...ch };
    yield* blocks(a.big, (part) => ({ t: 'abig', list: part.map(([k, v]) => [k, v.map(String)]) }));
    yield* blocks(a.ext, (part) => ({ t: 'aext', list: part.map(([k, v]) => [k, { ...v }]) }));
    yield* blocks(a.wide, (part) => ({ t: 'awide', list: part.map(([k, v]) => [k, { ...v }]) }));
    yield* blocks(a.kept, (part) => ({ t: 'akept', list: part.map(([k, v]) => [k, { ...v }]) }));
    const f: FillStoreData = this.fillStore.exportData();
    yield { t: 'fills', firstChunk: f.firstChunk, count: f.count };
    for (const ch of f.chunks) yield { t: 'fchunk', f: ch.f, i: ch.i, maxT: ch.maxT };
    yield* blocks(f.big, (part) => ({ t: 'fbig', list: part.map(([k, v]) => [k, [String(v[0]), String(v[1]), String(v[2])]]) }));
    yield { t: 'end', live: slots.length, users: this.userList.length, syms: this.symList.length, us: this.usList.length };
  }

  /** The record of the live order in `slot`. */
  private liveRec(o: number): LiveRec {
    const lf = this.lf;
    const li = this.li;
    const k = o * LF_STRIDE;
    const j = o * LI_STRIDE;
    const x = this.lx[o];
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
  protected loadSnapshot(records: Iterable<SnapshotRecord>): void {
    const ORDER = ['core', 'sym', 'users', 'us', 'live', 'book', 'wholds', 'archive', 'achunk', 'abig', 'aext', 'awide', 'akept', 'fills', 'fchunk', 'fbig', 'end'];
    const ONCE = new Set(['core', 'wholds', 'archive', 'fills', 'end']);
    let at = -1;
    const slotOf = new Map<number, number>();
    const queued = new Set<number>();
    let arch: ArchiveData | null = null;
    let fills: FillStoreData | null = null;
    let ended = false;
    const userAt = (i: number): User => this.userList[i] ?? fail(`no user ${i}`);
    const finishArchive = (): void => {
      if (arch === null) fail('archive missing');
      this.archive = Archive.importData(arch);
      for (const seq of arch.outside) if (!slotOf.has(seq)) fail(`order ${seq} kept aside as live is not live`);
      for (const [seq, slot] of slotOf) {
        if (this.archive.hasDone(seq)) fail(`live order ${seq} is done in the archive`);
        this.archive.setSlot(seq, slot);
        if (this.archive.slotOf(seq) !== slot) fail(`live order ${seq} has no archive record`);
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
          this.hw = r.hw;
          this.orderSeq = r.orderSeq;
          this.fillSeq = r.fillSeq;
          this.accountSeq = r.accountSeq;
          this.holdSeq = r.holdSeq;
          this.relAt = r.relAt;
          this.relSeq = r.relSeq;
          this.gttRebuildAt = r.gttRebuildAt;
          this.rates = RateTable.from(r.rates);
          for (const [c, p] of r.currencies) this.currencies.set(c, p);
          for (const [c, kk] of r.fastScale) this.fastScale.set(c, kk);
          for (const [c, v] of r.fees) this.fees.set(c, big(v));
          for (const [c, v] of r.deposited) this.deposited.set(c, big(v));
          for (const [c, v] of r.withdrawn) this.withdrawn.set(c, big(v));
          break;
        }
        case 'sym': {
          const s = new Sym(r.rules, r.qp, this.symList.length);
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
          if (this.syms.has(r.rules.symbol)) fail(`symbol ${r.rules.symbol} twice`);
          this.syms.set(r.rules.symbol, s);
          this.symList.push(s);
          break;
        }
        case 'users':
          for (const [uid, taker, maker, keep, lastFill, wallets, coids] of r.list) {
            if (this.users[uid] !== undefined) fail(`user ${uid} twice`);
            const u = new User(uid, this.userList.length, this.usList);
            u.taker = this.rates.objs[taker] ?? fail(`rate id ${taker}`);
            u.maker = this.rates.objs[maker] ?? fail(`rate id ${maker}`);
            u.keepHistory = keep === 1;
            u.lastFill = lastFill;
            for (const [cur, m, t] of wallets) u.wallets.set(cur, new Wallet(this.accFrom(m, cur, 'main'), this.accFrom(t, cur, 'trade')));
            for (const [c, seq] of coids) u.byClientOid.set(c, seq);
            this.userList.push(u);
            this.users[uid] = u;
          }
          break;
        case 'us':
          for (let i = 0; i < r.list.length; i += 3) {
            const u = userAt(r.list[i]);
            const s = this.symList[r.list[i + 1]] ?? fail(`no symbol ${r.list[i + 1]}`);
            if (u.perSym.has(s)) fail(`user ${u.uid} on ${s.rules.symbol} twice`);
            const us = new UserSym(u, s, this.usList.length);
            this.usList.push(us);
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
          const s = this.symList[r.s] ?? fail(`no symbol ${r.s}`);
          const side = r.side === 0 ? s.bids : r.side === 1 ? s.asks : fail(`bad side ${r.side}`);
          for (const [ticks, q] of r.levels) {
            if (q.length === 0 || side.map.get(ticks) !== undefined) fail(`level ${ticks} of ${s.rules.symbol} empty or twice`);
            const lv = side.getOrCreate(ticks);
            for (const seq of q) {
              const o = slotOf.get(seq) ?? fail(`queued order ${seq} is not live`);
              const fl = this.flags(o);
              if (queued.has(seq) || (fl & F_IN_BOOK) === 0 || (fl & F_SELL) !== r.side || this.priceTicks(o) !== ticks || this.usOf(o).sym !== s) fail(`order ${seq} does not belong in level ${ticks}`);
              queued.add(seq);
              const j = o * LI_STRIDE;
              this.li[j + LI_PREV] = lv.tail;
              this.li[j + LI_NEXT] = -1;
              if (lv.tail !== -1) this.li[lv.tail * LI_STRIDE + LI_NEXT] = o;
              else lv.head = o;
              lv.tail = o;
              if ((fl & F_HIDDEN) === 0) lv.size += this.shownLots(o);
            }
          }
          break;
        }
        case 'wholds':
          for (const [id, ui, cur, amount] of r.list) {
            const u = userAt(ui);
            const w = u.wallets.get(cur) ?? fail(`withdrawal hold ${id} of a currency the user has no wallet of`);
            this.wholds.set(id, { acc: w.main, user: u, amount: big(amount), cur });
          }
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
        case 'end':
          if (fills === null) fail('fill store missing');
          this.fillStore = FillStore.importData(fills);
          if (r.live !== slotOf.size || r.users !== this.userList.length || r.syms !== this.symList.length || r.us !== this.usList.length) fail('counts at the end do not match the records');
          ended = true;
          break;
      }
    }
    if (!ended) fail('the end record is missing (torn snapshot)');
    for (const [seq, o] of slotOf) if ((this.flags(o) & F_IN_BOOK) !== 0 && !queued.has(seq)) fail(`order ${seq} rests in no level`);
    try {
      this.checkInvariants({ done: false });
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
    const us = this.usList[usIdx] ?? fail(`order ${seq} of no user-and-symbol record`);
    if (slotOf.has(seq) || !(seq >= 1 && seq <= this.orderSeq)) fail(`live order ${seq} twice or out of range`);
    if (this.rates.objs[taker] === undefined || this.rates.objs[maker] === undefined) fail(`order ${seq}: unknown rate id`);
    if (((flags & F_EXT) !== 0) !== (ext !== 0)) fail(`order ${seq}: F_EXT out of step with its fields`);
    const o = this.allocSlot();
    this.writeRow(o, seq, ticks, lots, shown, holdN, created, flags, usIdx, taker, maker);
    const lf = this.lf;
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
      this.lx[o] = x;
      if ((flags & F_IN_BOOK) !== 0 && ((flags >> F_TIF_SHIFT) & 3) === TIF_GTT) this.gtt.push({ expireAt: x.expireAt, seq });
    }
    // active lists hold resting orders newest first: records come oldest first
    if ((flags & F_IN_BOOK) !== 0) this.pushActive(us, o);
    slotOf.set(seq, o);
  }
}
